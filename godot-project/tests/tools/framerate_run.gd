## Helper for test_framerate.gd (not a test itself): plays the standard head
## turn (yaw 60°·sin(πt) for 4 s, then still, 12 s in all) on the built-in
## avatar at the frame rate given by --fixed-fps, and writes every hair bone's
## rotation at each 1/30 s boundary to --out=PATH as JSON.
##   godot --headless --fixed-fps N --script res://tests/tools/framerate_run.gd -- --fps=N --out=PATH [--wind] [--flat-drape] [--nudge=RAD]
## With --wind the hair's wind changes at run time at shared instants: 6 m/s²
## along +x from t = 1 s, turned to -z and gustier from t = 2.5 s. With
## --flat-drape the hair has flat locks (83/s) and drape over contact on,
## the options that keep locks pressed against colliders. --nudge=RAD adds
## RAD to the head's yaw while it turns: a rounding-sized change of the
## input at one frame rate, which test_framerate.gd compares against.
extends SceneTree

var fps := 30
var out := ""
var wind := false
var flat_drape := false
var nudge := 0.0
var frame := 0
var avatar: TressAvatar
var skel: Skeleton3D
var head := -1
var bones: Array[int] = []
## Frame number → bone rotations; Godot may report more than one skeleton
## update per frame, and the last one (after the modifiers) is kept.
var by_frame := {}

func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--fps="):
			fps = int(arg.trim_prefix("--fps="))
		elif arg.begins_with("--out="):
			out = arg.trim_prefix("--out=")
		elif arg == "--wind":
			wind = true
		elif arg.begins_with("--nudge="):
			nudge = float(arg.trim_prefix("--nudge="))
		elif arg == "--flat-drape":
			flat_drape = true
	avatar = TressAvatar.new()
	root.add_child(avatar)
	var path := ProjectSettings.globalize_path("res://").path_join("../assets/tress_avatar.vrm").simplify_path()
	if not avatar.load_vrm(path):
		quit(1)
		return
	skel = avatar.get_skeleton()
	if flat_drape:
		var hair := avatar.get_hair_node()
		hair.flat_lock_stiffness = 83.0
		hair.drape = true
	head = skel.find_bone("Head")
	for i in skel.get_bone_count():
		if skel.get_bone_name(i).begins_with("Hair"):
			bones.append(i)
	skel.skeleton_updated.connect(_record)
	process_frame.connect(_drive)

## The head turn as 30 fps keys: yaw 60°·sin(πt) (plus the nudge) for 4 s,
## then still.
func key(k: int) -> Quaternion:
	var t := float(k) / 30.0
	return Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * t) + nudge if t < 4.0 else 0.0)

## Sets the head for the frame about to be simulated (its end time): the
## 30 fps keys blended the way Tress blends a frame's start and end poses
## across its substeps (normalised linear), so both runs feed the solver the
## same motion, as a 30 fps animation clip would.
func _drive() -> void:
	if frame >= 12 * fps:
		_finish()
		return
	frame += 1
	if wind:
		_change_wind(frame - 1)
	var k := (frame * 30) / fps
	var rem := (frame * 30) % fps
	var q := key(k)
	if rem != 0:
		var f := float(rem) / fps
		var q1 := key(k + 1)
		var a := q
		if a.dot(q1) < 0.0:
			q1 = -q1
		q = Quaternion(a.x + (q1.x - a.x) * f, a.y + (q1.y - a.y) * f, a.z + (q1.z - a.z) * f, a.w + (q1.w - a.w) * f).normalized()
	skel.set_bone_pose_rotation(head, q)

## The wind for the frame starting after `done` frames, set at the same
## simulated instants at every rate (frame boundaries they share).
func _change_wind(done: int) -> void:
	var hair := avatar.get_hair_node()
	if done == fps:
		hair.wind_direction = Vector3(1, 0, 0)
		hair.wind_strength = 6.0
	elif done * 2 == fps * 5:
		hair.wind_direction = Vector3(0, 0, -1)
		hair.wind_gust = 1.0

func _record() -> void:
	if frame == 0 or frame > 12 * fps:
		return
	if (frame * 30) % fps == 0:
		var row := []
		for b in bones:
			var q := skel.get_bone_pose_rotation(b)
			row.append_array([q.x, q.y, q.z, q.w])
		by_frame[frame] = row

## Writes the samples once the run is over (one frame after the last).
func _finish() -> void:
	var samples := []
	var keys := by_frame.keys()
	keys.sort()
	for k in keys:
		samples.append(by_frame[k])
	var f := FileAccess.open(out, FileAccess.WRITE)
	f.store_string(JSON.stringify({"fps": fps, "bones": bones.size(), "samples": samples}))
	f.close()
	skel.skeleton_updated.disconnect(_record)
	process_frame.disconnect(_drive)
	quit(0)
