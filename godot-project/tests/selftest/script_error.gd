## Runner self-test: a script error inside a test must fail the suite (it
## aborts the test, which then never reports; the watchdog and the log scan
## catch it).
extends RefCounted

func run(tree: SceneTree) -> String:
	await tree.process_frame
	var missing: Object = null
	missing.call("no_such_method")
	return ""
