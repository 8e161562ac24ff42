## Helper for the docs (not a test): what the hair shader costs per frame in
## the strand demo (12,000 strands, two heads), against another ribbon
## shader in the same run, in the order built-in, other, built-in (so drift
## on a shared machine shows as a difference between the two built-in runs).
##   godot --rendering-driver opengl3 --script res://tests/tools/hair_shader_cost.gd -- --baseline=PATH [--frames=N]
## PATH (relative to the repository root) is a ribbon shader of the same
## mesh contract, e.g. an older hair_ribbon.gdshader from git.
extends SceneTree

var frames := 240
var baseline_path := ""

func _initialize() -> void:
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--baseline="):
			baseline_path = arg.trim_prefix("--baseline=")
		elif arg.begins_with("--frames="):
			frames = maxi(10, int(arg.trim_prefix("--frames=")))
	_run.call_deferred()

func _run() -> void:
	var demo: Node3D = load("res://strands/strands.tscn").instantiate()
	root.add_child(demo)
	var baseline: ShaderMaterial = null
	if not baseline_path.is_empty():
		var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
		var code := FileAccess.get_file_as_string(repo.path_join(baseline_path))
		if code.is_empty():
			printerr("cannot read %s" % baseline_path)
			quit(1)
			return
		var shader := Shader.new()
		shader.code = code
		baseline = ShaderMaterial.new()
		baseline.shader = shader
	for i in 60:
		await process_frame
	var runs: Array = [["built-in", null]]
	if baseline != null:
		runs.append(["baseline", baseline])
		runs.append(["built-in again", null])
	for run in runs:
		for hair in [demo.left, demo.right]:
			hair.material = run[1]
		for i in 30:
			await process_frame
		var update := 0
		var start := Time.get_ticks_usec()
		for i in frames:
			await process_frame
			update += demo.right.get_last_update_usec()
		var per_frame := (Time.get_ticks_usec() - start) / 1000.0 / frames
		print("%s: %.2f ms per frame over %d frames (simulation + upload of the right head %.2f ms)" % [run[0], per_frame, frames, update / 1000.0 / frames])
	quit(0)
