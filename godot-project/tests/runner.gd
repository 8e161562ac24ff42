## Headless test runner: `godot --script res://tests/runner.gd -- --test=NAME`.
##
## Loads res://tests/NAME.gd (a RefCounted with `func run(tree: SceneTree) -> String`,
## returning "" on success or a failure message), runs it, prints
## "TEST PASS NAME" or "TEST FAIL NAME: why", and quits 0 or 1. A watchdog
## quits with code 3 when the test neither passes nor fails in time, because
## a script error inside a test leaves headless Godot running forever.
extends SceneTree

var _done := false

func _initialize() -> void:
	var name := ""
	var limit := 60.0
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--test="):
			name = arg.trim_prefix("--test=")
		elif arg.begins_with("--watchdog="):
			limit = float(arg.trim_prefix("--watchdog="))
	if name.is_empty():
		printerr("TEST FAIL <none>: pass --test=NAME")
		quit(2)
		return
	create_timer(limit, true, false, true).timeout.connect(_on_watchdog.bind(name, limit))
	_run.call_deferred(name)

func _on_watchdog(name: String, limit: float) -> void:
	if not _done:
		printerr("TEST FAIL %s: watchdog fired after %.0f s (script error or hang?)" % [name, limit])
		_done = true
		quit(3)

func _run(name: String) -> void:
	# Nodes added during _initialize are in the tree only after one frame.
	await process_frame
	var script := load("res://tests/%s.gd" % name) as GDScript
	if script == null:
		_finish(name, "no test script res://tests/%s.gd" % name)
		return
	var test: Object = script.new()
	var result: Variant = await test.run(self)
	_finish(name, result if result is String else "run() returned %s, not a String" % typeof(result))

func _finish(name: String, failure: String) -> void:
	if _done:
		return
	_done = true
	if failure.is_empty():
		print("TEST PASS %s" % name)
		quit(0)
	else:
		printerr("TEST FAIL %s: %s" % [name, failure])
		quit(1)
