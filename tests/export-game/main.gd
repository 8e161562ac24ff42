## The exported-game test, run by tools/export-test.sh: everything is read
## from res:// inside the pack. It loads the built-in avatar (VRM, through
## GLTFDocument and our loader), grows the strand groom on its head,
## configures spring hair from the file, retargets the Universal Animation
## Library's glTF (an external .bin buffer) and plays Walk_Loop, loads a
## .gltf avatar with an external buffer, and checks that missing, corrupt
## and non-VRM files fail cleanly while the scene keeps running. Under a
## renderer it saves a screenshot (`--shot=PATH`) and checks that the
## avatar is on it where the camera should see it.
##
## Prints "EXPORT PASS" and quits 0, or "EXPORT FAIL: ..." and quits 1; a
## watchdog quits 3 when neither happens in time.
extends Node3D

const BG := Color(0.16, 0.17, 0.2)
const AVATAR := "res://avatar/tress_avatar.vrm"
const GROOM := "res://grooms/tress_groom.tfx"
const CLIPS := "res://clips/AnimationLibrary_Godot_Standard.gltf"
const GLTF_MODEL := "res://models/cubes.gltf"

var failures := PackedStringArray()
var camera: Camera3D
var done := false

func _ready() -> void:
	get_tree().create_timer(120.0, true, false, true).timeout.connect(_on_watchdog)
	_run.call_deferred()

func _on_watchdog() -> void:
	if not done:
		done = true
		printerr("EXPORT FAIL: watchdog fired after 120 s")
		get_tree().quit(3)

func check(ok: bool, what: String) -> void:
	if not ok:
		failures.append(what)
		printerr("EXPORT CHECK FAILED: ", what)

func _stage() -> void:
	var env := WorldEnvironment.new()
	env.environment = Environment.new()
	env.environment.background_mode = Environment.BG_COLOR
	env.environment.background_color = BG
	env.environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	env.environment.ambient_light_color = Color(0.55, 0.55, 0.6)
	env.environment.ambient_light_energy = 0.6
	add_child(env)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = Vector3(-40, 30, 0)
	sun.light_energy = 1.1
	add_child(sun)
	camera = Camera3D.new()
	camera.fov = 40
	add_child(camera)
	camera.position = Vector3(0, 1.0, 3.4)
	camera.look_at(Vector3(0, 0.9, 0))
	camera.current = true

func _run() -> void:
	await get_tree().process_frame
	_stage()
	var on_disk := ProjectSettings.globalize_path("res://")
	print("res:// is ", on_disk if not on_disk.is_empty() else "inside the pack")

	# The avatar, its spring hair and its strand groom, all from res://.
	var avatar := TressAvatar.new()
	avatar.strand_groom = GROOM
	avatar.strand_fraction = 0.25
	avatar.hidden_meshes = PackedStringArray(["Ponytail"])
	add_child(avatar)
	if not avatar.load_vrm(AVATAR):
		_finish("could not load %s" % AVATAR)
		return
	check(avatar.bone_count() == 61, "expected 61 bones, got %d" % avatar.bone_count())
	var spring := avatar.get_hair_node()
	var strands := avatar.get_strand_node()
	if spring == null or strands == null:
		_finish("no %s on the avatar" % ("spring hair" if spring == null else "strands from " + GROOM))
		return
	check(spring.chain_count() > 0, "the spring hair has no chains")
	check(strands.strand_count() == 1500, "expected 1,500 strands from %s, got %d" % [GROOM, strands.strand_count()])

	# configure_from_vrm straight from res://, on a second hair node.
	var skel := avatar.get_skeleton()
	var extra := TressSpringHair.new()
	skel.add_child(extra)
	check(extra.configure_from_vrm(AVATAR), "configure_from_vrm(%s) failed" % AVATAR)
	check(extra.chain_count() == spring.chain_count(), "configure_from_vrm built %d chains, TressAvatar %d" % [extra.chain_count(), spring.chain_count()])
	check(not extra.configure_from_vrm("res://bad/missing.vrm"), "configure_from_vrm accepted a missing file")

	# A retargeted clip: a .gltf whose animation data is an external .bin.
	var clip := ""
	if FileAccess.file_exists(CLIPS):
		var names := avatar.load_animations(CLIPS)
		check(names.has("Walk_Loop"), "Walk_Loop not among %d clips from %s" % [names.size(), CLIPS])
		check(avatar.play_animation("Walk_Loop"), "Walk_Loop does not play")
		clip = "Walk_Loop"
	else:
		print("SKIPPED: no clip in the pack (../shared/assets absent when it was made)")

	# A .gltf model with an external buffer, through GLTFDocument too.
	if FileAccess.file_exists(GLTF_MODEL):
		var gltf := TressAvatar.new()
		gltf.spring_hair = false
		add_child(gltf)
		check(gltf.load_vrm(GLTF_MODEL), "could not load %s" % GLTF_MODEL)
		check(gltf.get_mesh_names().size() > 0, "%s has no meshes" % GLTF_MODEL)
		gltf.queue_free()

	# Missing, corrupt and non-VRM files fail with a clear error; the avatar
	# keeps its model and the scene keeps running.
	for bad in ["res://bad/missing.vrm", "res://bad/corrupt.vrm", "res://bad/not_a_model.vrm", "res://bad/lost_buffer.gltf"]:
		check(not avatar.load_vrm(bad), "load_vrm(%s) reported success" % bad)
	check(avatar.get_skeleton() == skel, "a failed load dropped the loaded model")
	for bad in ["res://bad/missing.vrma", "res://bad/not_a_model.vrm", "res://bad/lost_buffer.gltf"]:
		check(avatar.load_animations(bad).is_empty(), "load_animations(%s) added clips" % bad)
	var groom := TressStrandHair.new()
	add_child(groom)
	for bad in ["res://bad/missing.tfx", "res://bad/broken_groom.tfx"]:
		check(not groom.load_groom(bad), "load_groom(%s) reported success" % bad)
	groom.queue_free()
	extra.queue_free()

	var start := Engine.get_process_frames()
	for f in 60:
		await get_tree().process_frame
	check(Engine.get_process_frames() - start >= 60, "the scene stopped running")
	if clip != "":
		check(avatar.get_current_animation() == clip, "%s stopped playing" % clip)
	check(avatar.get_strand_node() == strands and strands.strand_count() == 1500, "the strands went away")

	if DisplayServer.get_name() != "headless":
		var why := await _screenshot(avatar)
		check(why.is_empty(), why)
	_finish("; ".join(failures))

## Saves the frame to --shot=PATH and checks it: not blank, the avatar's
## head and chest covered where the camera projects them, the edges of the
## frame background.
func _screenshot(avatar: TressAvatar) -> String:
	await RenderingServer.frame_post_draw
	var img := get_viewport().get_texture().get_image()
	if img == null or img.is_empty():
		return "the viewport gave no image"
	var path := "exported.png"
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--shot="):
			path = arg.trim_prefix("--shot=")
	var err := img.save_png(path)
	if err != OK:
		return "could not save %s: %s" % [path, error_string(err)]
	print("screenshot: ", path, " (", img.get_width(), "x", img.get_height(), ")")
	var skel := avatar.get_skeleton()
	var notes := PackedStringArray()
	for part in ["head", "chest", "hips"]:
		var bone := skel.find_bone(avatar.get_humanoid_bone(part))
		if bone < 0:
			notes.append("no %s bone" % part)
			continue
		# The head bone sits at the base of the skull: look a little above it.
		var lift := Vector3(0, 0.08, 0) if part == "head" else Vector3.ZERO
		var p := camera.unproject_position((skel.global_transform * skel.get_bone_global_pose(bone)).origin + lift)
		var share := _covered(img, Rect2i(Vector2i(p) - Vector2i(12, 12), Vector2i(24, 24)))
		print("  %s at (%d, %d): %.0f%% not background" % [part, p.x, p.y, share * 100.0])
		if share < 0.6:
			notes.append("%s at (%d, %d) is only %.0f%% covered" % [part, p.x, p.y, share * 100.0])
	var w := img.get_width()
	var h := img.get_height()
	var band := int(w / 8.0)
	for edge in [Rect2i(0, 0, band, int(h / 2.0)), Rect2i(w - band, 0, band, int(h / 2.0))]:
		var share := _covered(img, edge)
		if share > 0.05:
			notes.append("the frame edge %s is %.0f%% covered" % [edge, share * 100.0])
	return "; ".join(notes)

## Share of the pixels in `r` away from the background colour.
func _covered(img: Image, r: Rect2i) -> float:
	var r2 := r.intersection(Rect2i(0, 0, img.get_width(), img.get_height()))
	var n := 0
	var hit := 0
	for y in range(r2.position.y, r2.end.y, 2):
		for x in range(r2.position.x, r2.end.x, 2):
			var c := img.get_pixel(x, y)
			n += 1
			if absf(c.r - BG.r) + absf(c.g - BG.g) + absf(c.b - BG.b) > 0.08:
				hit += 1
	return float(hit) / float(maxi(n, 1))

func _finish(failure: String) -> void:
	if done:
		return
	done = true
	if failure.is_empty():
		print("EXPORT PASS")
		get_tree().quit(0)
	else:
		printerr("EXPORT FAIL: ", failure)
		get_tree().quit(1)
