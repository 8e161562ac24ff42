## Performance harness: spawns 1, 10, 50 and 100 built-in avatars with Tress
## spring hair, turns every head (the standard yaw), and prints per-frame hair
## update times (the sum over avatars of TressSpringHair's own timing) as
## JSON: p50/p95/p99 in microseconds per frame and per avatar.
##
## The same process then compares against Godot's SpringBoneSimulator3D on
## the same chains and colliders (demo/godot_peer.gd): each count runs three
## phases on the same avatars, no hair / Tress / Godot's simulator, and the
## cost of each solver is its frame time (wall clock between frames; with
## --fixed-fps the engine never waits, so that is the work done) minus the
## no-hair phase's, p50 over the frames.
##
## The solvers' own time is measured the same way for both: two empty
## modifiers (bench/mark_modifier.gd) bracket the hair modifiers in each
## skeleton's modifier pass, and their `modification_processed` signals
## time what runs between them; the no-hair phase gives the marks' own
## overhead, which is subtracted.
##
## Runs on any platform Godot exports to; writes the JSON to stdout and to
## user://tress_bench.json (or --out=PATH after `--`).
##
##   godot --headless res://bench/bench.tscn -- [--frames=240] [--counts=1,10,50,100] [--out=PATH] [--model=PATH]
extends Node3D

const GodotPeer = preload("res://demo/godot_peer.gd")
const Mark = preload("res://bench/mark_modifier.gd")

var frames := 240
var counts: Array[int] = [1, 10, 50, 100]
var out_path := "user://tress_bench.json"
var model_arg := ""
## Microseconds between the marks in the current frame, summed over avatars.
var bracket_us := 0.0

func _ready() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			frames = int(arg.trim_prefix("--frames="))
		elif arg.begins_with("--counts="):
			counts.clear()
			for c in arg.trim_prefix("--counts=").split(","):
				counts.append(int(c))
		elif arg.begins_with("--out="):
			out_path = arg.trim_prefix("--out=")
		elif arg.begins_with("--model="):
			model_arg = arg.trim_prefix("--model=")
	_run.call_deferred()

func _percentile(sorted: Array, q: float) -> float:
	if sorted.is_empty():
		return 0.0
	return float(sorted[mini(sorted.size() - 1, int(q * sorted.size()))])

func _run() -> void:
	var res := ProjectSettings.globalize_path("res://")
	var model := res.path_join("../assets/tress_avatar.vrm").simplify_path()
	if model_arg != "":
		model = model_arg if model_arg.is_absolute_path() else res.path_join(model_arg).simplify_path()
	var results := []
	for n in counts:
		var avatars: Array[TressAvatar] = []
		for i in n:
			var a := TressAvatar.new()
			a.position = Vector3((i % 10) * 1.2, 0, (i / 10) * 1.2)
			add_child(a)
			if not a.load_vrm(model):
				push_error("bench: cannot load %s" % model)
				get_tree().quit(1)
				return
			avatars.append(a)
		var peers: Array[SkeletonModifier3D] = []
		for a in avatars:
			var skel := a.get_skeleton()
			peers.append(GodotPeer.build(skel, a.get_hair_node()))
			# [mark, Tress, Godot, mark]: whichever hair is active runs between.
			var first := Mark.new()
			var last := Mark.new()
			skel.add_child(first)
			skel.move_child(first, a.get_hair_node().get_index())
			skel.add_child(last)
			var start := [0]
			first.modification_processed.connect(func() -> void: start[0] = Time.get_ticks_usec())
			last.modification_processed.connect(func() -> void: bracket_us += float(Time.get_ticks_usec() - start[0]))
		var brackets := {}
		var per_frame: Array[float] = []
		var process := {}
		for phase in ["none", "tress", "godot"]:
			for k in n:
				avatars[k].get_hair_node().active = phase == "tress"
				if peers[k]:
					peers[k].active = phase == "godot"
			var times: Array[float] = []
			var marks: Array[float] = []
			var t := 0.0
			var last := Time.get_ticks_usec()
			for f in frames:
				t += 1.0 / 60.0
				for a in avatars:
					var skel := a.get_skeleton()
					skel.set_bone_pose_rotation(skel.find_bone("Head"), Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * t)))
				bracket_us = 0.0
				await get_tree().process_frame
				if f < 10:
					last = Time.get_ticks_usec()
					continue
				marks.append(bracket_us)
				var now := Time.get_ticks_usec()
				times.append(float(now - last))
				last = now
				if phase == "tress":
					var total := 0.0
					for a in avatars:
						total += a.get_hair_node().get_last_update_usec()
					per_frame.append(total)
			times.sort()
			process[phase] = _percentile(times, 0.5)
			marks.sort()
			brackets[phase] = _percentile(marks, 0.5)
		per_frame.sort()
		var hair: TressSpringHair = avatars[0].get_hair_node()
		var tress_update: float = (brackets["tress"] - brackets["none"]) / n
		var godot_update: float = (brackets["godot"] - brackets["none"]) / n
		var tress_cost: float = process["tress"] - process["none"]
		var godot_cost: float = process["godot"] - process["none"]
		results.append({
			"avatars": n,
			"joints_per_avatar": hair.joint_count(),
			"frames": per_frame.size(),
			"p50_us": _percentile(per_frame, 0.5),
			"p95_us": _percentile(per_frame, 0.95),
			"p99_us": _percentile(per_frame, 0.99),
			"p50_us_per_avatar": _percentile(per_frame, 0.5) / n,
			"frame_p50_us": process,
			"tress_cost_us_per_avatar": tress_cost / n,
			"godot_cost_us_per_avatar": godot_cost / n,
			"godot_over_tress": godot_cost / tress_cost if tress_cost > 0.0 else 0.0,
			"modifier_pass_p50_us": brackets,
			"tress_update_us_per_avatar": tress_update,
			"godot_update_us_per_avatar": godot_update,
			"update_godot_over_tress": godot_update / tress_update if tress_update > 0.0 else 0.0,
		})
		for a in avatars:
			a.queue_free()
		await get_tree().process_frame
	var doc := {
		"engine": Engine.get_version_info().string,
		"os": OS.get_name(),
		"processor": OS.get_processor_name(),
		"debug_build": OS.is_debug_build(),
		"results": results,
	}
	var json := JSON.stringify(doc, "  ")
	print(json)
	var f := FileAccess.open(out_path, FileAccess.WRITE)
	if f:
		f.store_string(json)
		f.close()
		print("bench: wrote ", ProjectSettings.globalize_path(out_path))
	get_tree().quit(0)
