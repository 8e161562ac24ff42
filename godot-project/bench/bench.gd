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
## The JSON also says where it ran, so phones of different core counts
## compare: the device and CPU, the core count, how many threads the hair
## ran on (seen from the marks), the renderer, vsync, and the frame delta
## (fixed with --fixed-fps).
## Outside --headless the bench turns vsync off, or a frame could not take
## less than a display refresh.
##
## The crowd section (issue #21) then spawns 250, 500 and 1,000 avatars
## (`--crowd=`; empty: none), each playing the head turn as an animation
## clip from its own phase (bench/crowd.gd), and times their hair with
## every hair stepping in its own update (`--threads=` 1) and stepped
## together on N threads (`TressSpringHair.set_crowd_threads`; default N:
## the device's logical cores), in alternating blocks: per frame and per
## avatar, Tress's own update, the shared step, and the host's parallel
## ceiling for that step (`measure_crowd_ceiling`, as strand-bench prints
## it). One line per count starts with `bench: crowd`.
##
## The strand section (issue #20, `--strands=1,2`; default: none) loads
## the procedural groom (6,000 strands × 16) into one TressStrandHair on a
## head turning with the standard yaw, with strand-bench's colliders (head
## sphere, neck and shoulder capsules), and reports the node's own frame
## cost (`get_last_update_usec`: colliders, the two 1/120 s steps, the guide
## texture) per thread count, p50 over the turn. One line per thread
## count starts with `bench: strands`; compare with `strand-bench 300 2`
## run beside it (docs/PERFORMANCE.md).
##
## Runs on any platform Godot exports to (a phone: docs/MOBILE.md); prints
## the JSON to stdout one line per print (Android's log cuts long messages)
## and writes it to user://tress_bench.json (or --out=PATH after `--`). An
## exported game uses res://bench/tress_avatar.vrm when the export packed
## one, else the checkout's assets/tress_avatar.vrm.
##
##   godot --headless res://bench/bench.tscn -- [--frames=240] [--counts=1,10,50,100]
##       [--crowd=250,500,1000] [--threads=1,N] [--out=PATH] [--model=PATH]
##       [--strands=1,2] [--groom=PATH]
extends Node3D

const GodotPeer = preload("res://demo/godot_peer.gd")
const Mark = preload("res://bench/mark_modifier.gd")
const Crowd = preload("res://bench/crowd.gd")

var frames := 240
var counts: Array[int] = [1, 10, 50, 100]
var crowd_counts: Array[int] = [250, 500, 1000]
## Thread counts of the crowd section; empty: 1 and the logical cores.
var crowd_threads: Array[int] = []
var out_path := "user://tress_bench.json"
var model_arg := ""
## Thread counts of the strand section; empty: no strand section.
var strand_threads: Array[int] = []
var groom_arg := ""
## Microseconds between the marks in the current frame, summed over avatars.
var bracket_us := 0.0
## The threads the skeletons' modifier passes (and so the hair) ran on:
## thread id → true.
var hair_threads := {}
## The shortest and longest frame delta seen (s), to tell a fixed step.
var delta_min := INF
var delta_max := 0.0
var status: Label

func _ready() -> void:
	# An Android export's baked-in arguments (its preset's Extra Args) may
	# land in the engine's list rather than the user list, so both are read.
	for arg in OS.get_cmdline_args() + OS.get_cmdline_user_args():
		if arg.begins_with("--frames="):
			frames = int(arg.trim_prefix("--frames="))
		elif arg.begins_with("--counts="):
			counts.clear()
			for c in arg.trim_prefix("--counts=").split(","):
				counts.append(int(c))
		elif arg.begins_with("--crowd="):
			crowd_counts = _int_list(arg.trim_prefix("--crowd="))
		elif arg.begins_with("--threads="):
			crowd_threads = _int_list(arg.trim_prefix("--threads="))
		elif arg.begins_with("--out="):
			out_path = arg.trim_prefix("--out=")
		elif arg.begins_with("--model="):
			model_arg = arg.trim_prefix("--model=")
		elif arg.begins_with("--strands="):
			strand_threads = _int_list(arg.trim_prefix("--strands="))
		elif arg.begins_with("--groom="):
			groom_arg = arg.trim_prefix("--groom=")
	if DisplayServer.get_name() != "headless":
		DisplayServer.window_set_vsync_mode(DisplayServer.VSYNC_DISABLED)
	var layer := CanvasLayer.new()
	status = Label.new()
	status.position = Vector2(24, 24)
	layer.add_child(status)
	add_child(layer)
	_run.call_deferred()

func _int_list(text: String) -> Array[int]:
	var out: Array[int] = []
	for c in text.split(",", false):
		out.append(int(c))
	return out

func _status(text: String) -> void:
	status.text = "Tress bench\n" + text
	print("bench: ", text)

## Marks around `a`'s hair node, [mark, hair, …, mark]: whatever runs
## between them on its skeleton adds to `bracket_us`.
func _bracket(a: TressAvatar) -> void:
	var skel := a.get_skeleton()
	var first := Mark.new()
	var last := Mark.new()
	skel.add_child(first)
	skel.move_child(first, a.get_hair_node().get_index())
	skel.add_child(last)
	var start := [0]
	first.modification_processed.connect(_mark_start.bind(start))
	last.modification_processed.connect(func() -> void: bracket_us += float(Time.get_ticks_usec() - start[0]))

func _mark_start(start: Array) -> void:
	start[0] = Time.get_ticks_usec()
	hair_threads[OS.get_thread_caller_id()] = true

func _vsync_name() -> String:
	if DisplayServer.get_name() == "headless":
		return "none (headless)"
	match DisplayServer.window_get_vsync_mode():
		DisplayServer.VSYNC_DISABLED: return "disabled"
		DisplayServer.VSYNC_ENABLED: return "enabled"
		DisplayServer.VSYNC_ADAPTIVE: return "adaptive"
		DisplayServer.VSYNC_MAILBOX: return "mailbox"
	return "unknown"

## What renders: method (forward_plus, mobile, gl_compatibility, or
## dummy), driver and GPU. The getters are Godot 4.4+; 4.3 reports "".
func _renderer() -> Dictionary:
	var info := {"method": "", "driver": "", "adapter": RenderingServer.get_video_adapter_name()}
	if RenderingServer.has_method("get_current_rendering_method"):
		info["method"] = RenderingServer.call("get_current_rendering_method")
		info["driver"] = RenderingServer.call("get_current_rendering_driver_name")
	return info

func _percentile(sorted: Array, q: float) -> float:
	if sorted.is_empty():
		return 0.0
	return float(sorted[mini(sorted.size() - 1, int(q * sorted.size()))])

func _run() -> void:
	var res := ProjectSettings.globalize_path("res://")
	var model := res.path_join("../assets/tress_avatar.vrm").simplify_path()
	if model_arg != "":
		model = model_arg if model_arg.is_absolute_path() else res.path_join(model_arg).simplify_path()
	elif FileAccess.file_exists("res://bench/tress_avatar.vrm"):
		model = "res://bench/tress_avatar.vrm"
	var results := []
	for n in counts:
		_status("%d avatar%s: loading" % [n, "" if n == 1 else "s"])
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
			_bracket(a)
		var brackets := {}
		var per_frame: Array[float] = []
		## Tress's own update by part (get_last_timing), summed per frame.
		var part_frames := {"reads": [], "solver": [], "writes": []}
		var process := {}
		var process_p95 := {}
		var deltas: Array[float] = []
		for phase in ["none", "tress", "godot"]:
			_status("%d avatar%s: %s" % [n, "" if n == 1 else "s", "no hair" if phase == "none" else phase])
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
				var dt := get_process_delta_time()
				deltas.append(dt)
				delta_min = minf(delta_min, dt)
				delta_max = maxf(delta_max, dt)
				var now := Time.get_ticks_usec()
				times.append(float(now - last))
				last = now
				if phase == "tress":
					var total := 0.0
					var parts := {"reads": 0.0, "solver": 0.0, "writes": 0.0}
					for a in avatars:
						var timing: Dictionary = a.get_hair_node().get_last_timing()
						total += timing["total"]
						for key in parts:
							parts[key] += timing[key]
					per_frame.append(total)
					for key in parts:
						part_frames[key].append(parts[key])
			times.sort()
			process[phase] = _percentile(times, 0.5)
			process_p95[phase] = _percentile(times, 0.95)
			marks.sort()
			brackets[phase] = _percentile(marks, 0.5)
		per_frame.sort()
		deltas.sort()
		var part_p50 := {}
		for key in part_frames:
			part_frames[key].sort()
			part_p50[key] = _percentile(part_frames[key], 0.5) / n
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
			"frame_p95_us": process_p95,
			"frame_delta_ms_p50": _percentile(deltas, 0.5) * 1000.0,
			"tress_cost_us_per_avatar": tress_cost / n,
			"godot_cost_us_per_avatar": godot_cost / n,
			"godot_over_tress": godot_cost / tress_cost if tress_cost > 0.0 else 0.0,
			"modifier_pass_p50_us": brackets,
			"tress_update_us_per_avatar": tress_update,
			"godot_update_us_per_avatar": godot_update,
			"update_godot_over_tress": godot_update / tress_update if tress_update > 0.0 else 0.0,
			# The breakdown of tress_update_us_per_avatar: Tress's reads,
			# solver and writes (p50 per avatar, its own clock); everything
			# Tress does outside its solver (its whole update less the
			# solver); and what is left of the bracket, Godot's pipeline
			# around the modifier (the call, the skeleton's pose update of
			# the written bones), which any modifier writing them pays.
			"tress_reads_us_per_avatar": part_p50["reads"],
			"tress_solver_us_per_avatar": part_p50["solver"],
			"tress_writes_us_per_avatar": part_p50["writes"],
			"tress_outside_solver_us_per_avatar": _percentile(per_frame, 0.5) / n - part_p50["solver"],
			"tress_godot_pipeline_us_per_avatar": tress_update - _percentile(per_frame, 0.5) / n,
		})
		for a in avatars:
			a.queue_free()
		await get_tree().process_frame
	if crowd_threads.is_empty():
		crowd_threads = [1]
		if OS.get_processor_count() > 1:
			crowd_threads.append(OS.get_processor_count())
	var load_before := _loadavg()
	var crowd := []
	for n in crowd_counts:
		var r := await _run_crowd(model, n)
		if r.is_empty():
			return
		crowd.append(r)
	TressSpringHair.set_crowd_threads(1)
	var strands := []
	if not strand_threads.is_empty():
		strands = await _run_strands()
		if strands.is_empty():
			return
	# --fixed-fps leaves no trace in OS.get_cmdline_args(): tell it by the
	# deltas, all equal.
	var fixed := delta_min > 0.0 and is_equal_approx(delta_min, delta_max)
	var doc := {
		"engine": Engine.get_version_info().string,
		"os": OS.get_name(),
		"device": OS.get_model_name(),
		"processor": OS.get_processor_name(),
		"processor_count": OS.get_processor_count(),
		"hair_threads": hair_threads.size(),
		"hair_on_main_thread": hair_threads.has(OS.get_main_thread_id()),
		"renderer": _renderer(),
		"display": DisplayServer.get_name(),
		"vsync": _vsync_name(),
		"fixed_fps": roundi(1.0 / delta_min) if fixed else 0,
		"debug_build": OS.is_debug_build(),
		"model": model.get_file(),
		"model_path": model,
		"results": results,
		"crowd_threads": crowd_threads,
		"crowd": crowd,
		"loadavg_before_crowd": load_before,
		"loadavg_after_crowd": _loadavg(),
		"strands": strands,
	}
	var json := JSON.stringify(doc, "  ")
	for line in json.split("\n"):
		print(line)
	var f := FileAccess.open(out_path, FileAccess.WRITE)
	if f:
		f.store_string(json)
		f.close()
		_status("wrote " + ProjectSettings.globalize_path(out_path))
	else:
		push_error("bench: cannot write %s (%s)" % [out_path, error_string(FileAccess.get_open_error())])
	get_tree().quit(0)

## The strand section: one entry per thread count (empty after a load
## failure, which quits).
func _run_strands() -> Array:
	var res := ProjectSettings.globalize_path("res://")
	var groom := res.path_join("../assets/tress_groom.tfx").simplify_path()
	if groom_arg != "":
		groom = groom_arg if groom_arg.is_absolute_path() else res.path_join(groom_arg).simplify_path()
	elif FileAccess.file_exists("res://bench/tress_groom.tfx"):
		groom = "res://bench/tress_groom.tfx"
	const HEAD := Vector3(0, 1.6, 0)
	var head := Node3D.new()
	head.position = HEAD
	add_child(head)
	var hair := TressStrandHair.new()
	hair.groom_origin = HEAD
	add_child(hair)
	hair.attach_to = hair.get_path_to(head)
	# strand-bench's scene (tress_rig::groom::scene): the head sphere, and
	# neck and shoulder capsules that stay still. The hair is not under
	# the head, so all three are world colliders; the sphere sits on the
	# head's centre, which only turns.
	for c in [[HEAD, 0.1, 0.0, 0.0], [HEAD + Vector3(0, -0.145, 0), 0.05, 0.15, 0.0],
			[HEAD + Vector3(0, -0.28, 0), 0.08, 0.32, PI / 2]]:
		var col := CollisionShape3D.new()
		if c[2] == 0.0:
			var sphere := SphereShape3D.new()
			sphere.radius = c[1]
			col.shape = sphere
		else:
			var capsule := CapsuleShape3D.new()
			capsule.radius = c[1]
			capsule.height = c[2] + 2.0 * c[1]
			col.shape = capsule
			col.rotation = Vector3(0, 0, c[3])
		hair.add_child(col)
		col.global_position = c[0]
	var camera := Camera3D.new()
	add_child(camera)
	camera.look_at_from_position(HEAD + Vector3(0, 0, 1.2), HEAD)
	camera.current = true
	if not hair.load_groom(groom):
		push_error("bench: cannot load the groom %s" % groom)
		get_tree().quit(1)
		return []
	var out := []
	for threads in strand_threads:
		_status("strands: %d thread%s" % [threads, "" if threads == 1 else "s"])
		hair.threads = threads
		hair.reset()
		var costs: Array[float] = []
		var interp: Array[float] = []
		var t := 0.0
		# The standard yaw, ±60° sin(π t), over its four seconds.
		for f in 240:
			t += 1.0 / 60.0
			head.rotation = Vector3(0, deg_to_rad(60.0) * sin(PI * t), 0)
			await get_tree().process_frame
			if f < 10:
				continue
			costs.append(float(hair.get_last_update_usec()))
			interp.append(float(hair.get_last_interpolation_usec()))
		costs.sort()
		interp.sort()
		var r := {
			"groom_path": groom,
			"threads": threads,
			"strands": hair.strand_count(),
			"particles": hair.get_particles_per_strand(),
			"drawn": hair.get_render_strand_count(),
			"in_shader": hair.places_strands_in_shader(),
			"frames": costs.size(),
			"update_p50_us": _percentile(costs, 0.5),
			"update_p95_us": _percentile(costs, 0.95),
			"texture_p50_us": _percentile(interp, 0.5),
		}
		out.append(r)
		print("bench: strands %d thread%s: node update p50 %.3f ms (p95 %.3f), of which the guide texture %.3f ms; %d strands x %d" % [
			threads, "" if threads == 1 else "s", r["update_p50_us"] / 1000.0, r["update_p95_us"] / 1000.0,
			r["texture_p50_us"] / 1000.0, r["strands"], r["particles"]])
	for n in [hair, head, camera]:
		n.queue_free()
	await get_tree().process_frame
	return out

## The 1, 5 and 15 minute load averages where the OS has /proc/loadavg
## (Linux, Android), else "": other work on the machine shows in them.
func _loadavg() -> String:
	if not FileAccess.file_exists("/proc/loadavg"):
		return ""
	return FileAccess.get_file_as_string("/proc/loadavg").strip_edges()

## The crowd section for `n` avatars: returns its JSON entry (empty after
## a load failure, which quits).
func _run_crowd(model: String, n: int) -> Dictionary:
	_status("crowd of %d: loading" % n)
	var avatars: Array[TressAvatar] = []
	var clip: Animation = null
	var side := ceili(sqrt(n))
	for i in n:
		var a := TressAvatar.new()
		a.position = Vector3((i % side) * 1.2, 0, (i / side) * 1.2)
		add_child(a)
		if not a.load_vrm(model) or a.get_hair_node() == null:
			push_error("bench: cannot load %s with hair" % model)
			get_tree().quit(1)
			return {}
		if clip == null:
			clip = Crowd.head_swing(a)
		Crowd.play(a, clip, Crowd.PERIOD * i / n)
		avatars.append(a)
		_bracket(a)
	# Per thread count: per-frame samples of the bracket, Tress's own
	# update, the step and the frame time; the no-hair phase first.
	var samples := {}
	var ceilings: Array[float] = []
	var phases: Array = ["none"]
	for rep in 2:
		phases.append_array(crowd_threads)
	for phase in phases:
		var threads: int = 1 if phase is String else phase
		TressSpringHair.set_crowd_threads(threads)
		for a in avatars:
			a.get_hair_node().active = not phase is String
		var key := str(phase)
		if not samples.has(key):
			samples[key] = {"bracket": [], "own": [], "step": [], "frame": [], "main_jobs": [], "main_wait": [], "reads": [], "hair_reads": [], "hair_writes": []}
		if threads > 1:
			var c: Dictionary = TressSpringHair.measure_crowd_ceiling(threads, 10)
			ceilings.append(c["ceiling"])
		_status("crowd of %d: %s" % [n, "no hair" if phase is String else "%d thread%s" % [threads, "" if threads == 1 else "s"]])
		var block := frames if phase is String else frames / 2
		var last_t := Time.get_ticks_usec()
		for f in block:
			bracket_us = 0.0
			await get_tree().process_frame
			var now := Time.get_ticks_usec()
			var frame_us := float(now - last_t)
			if f < 10:
				last_t = Time.get_ticks_usec()
				continue
			var s: Dictionary = samples[key]
			s["bracket"].append(bracket_us)
			s["frame"].append(frame_us)
			if not phase is String:
				var own := 0.0
				var solver := 0.0
				var reads := 0.0
				var writes := 0.0
				for a in avatars:
					var t: Dictionary = a.get_hair_node().get_last_timing()
					own += t["total"]
					solver += t["solver"]
					reads += t["reads"]
					writes += t["writes"]
				s["own"].append(own)
				s["hair_reads"].append(reads)
				s["hair_writes"].append(writes)
				if threads > 1:
					var ct := TressSpringHair.get_crowd_timing()
					if ct["stepped"] != n:
						push_error("bench: the shared step stepped %d of %d hairs" % [ct["stepped"], n])
					s["step"].append(ct["step"])
					s["main_jobs"].append(ct["main_jobs"])
					s["main_wait"].append(ct["main_wait"])
					s["reads"].append(ct["reads"])
				else:
					s["step"].append(solver)
					s["main_jobs"].append(n)
					s["main_wait"].append(0.0)
					s["reads"].append(0.0)
			# The GDScript above is not the frame's cost.
			last_t = Time.get_ticks_usec()
	var p50 := func(a: Array) -> float:
		var b := a.duplicate()
		b.sort()
		return _percentile(b, 0.5)
	var none_bracket: float = p50.call(samples["none"]["bracket"])
	var none_frame: float = p50.call(samples["none"]["frame"])
	var by_threads := {}
	for t in crowd_threads:
		var s: Dictionary = samples[str(t)]
		var hair: float = p50.call(s["bracket"]) - none_bracket
		by_threads[str(t)] = {
			"threads": t,
			"frames": s["bracket"].size(),
			"hair_us_per_frame": hair,
			"hair_us_per_avatar": hair / n,
			"tress_own_us_per_frame": p50.call(s["own"]),
			"tress_own_us_per_avatar": p50.call(s["own"]) / n,
			"step_us_per_frame": p50.call(s["step"]),
			"main_thread_steps_per_frame": p50.call(s["main_jobs"]),
			"main_thread_wait_us_per_frame": p50.call(s["main_wait"]),
			"shared_reads_us_per_frame": p50.call(s["reads"]),
			"hair_reads_us_per_frame": p50.call(s["hair_reads"]),
			"hair_writes_us_per_frame": p50.call(s["hair_writes"]),
			"frame_cost_us_per_frame": p50.call(s["frame"]) - none_frame,
		}
	var one: Dictionary = by_threads[str(crowd_threads[0])]
	var many: Dictionary = by_threads[str(crowd_threads[-1])]
	ceilings.sort()
	var ceiling := _percentile(ceilings, 0.5)
	var entry := {
		"avatars": n,
		"joints_per_avatar": avatars[0].get_hair_node().joint_count(),
		"by_threads": by_threads,
		"threads_compared": [one["threads"], many["threads"]],
		"speedup_hair": one["hair_us_per_frame"] / many["hair_us_per_frame"] if many["hair_us_per_frame"] > 0.0 else 0.0,
		"speedup_tress_own": one["tress_own_us_per_frame"] / many["tress_own_us_per_frame"] if many["tress_own_us_per_frame"] > 0.0 else 0.0,
		"host_ceiling": ceiling,
		"no_hair_frame_us": none_frame,
	}
	_status("crowd %d avatars: hair %.2f ms/frame (%.1f us/avatar) at %d thread, %.2f ms (%.1f us) at %d (%.2fx, host ceiling %.2fx); Tress's own %.2f -> %.2f ms; step CPU %.2f -> %.2f ms, %d of the steps on the main thread; %s, %d cores, load %s" % [
		n, one["hair_us_per_frame"] / 1000.0, one["hair_us_per_avatar"], one["threads"],
		many["hair_us_per_frame"] / 1000.0, many["hair_us_per_avatar"], many["threads"],
		entry["speedup_hair"], ceiling,
		one["tress_own_us_per_frame"] / 1000.0, many["tress_own_us_per_frame"] / 1000.0,
		one["step_us_per_frame"] / 1000.0, many["step_us_per_frame"] / 1000.0,
		int(many["main_thread_steps_per_frame"]),
		OS.get_processor_name(), OS.get_processor_count(), _loadavg()])
	for a in avatars:
		a.queue_free()
	await get_tree().process_frame
	return entry
