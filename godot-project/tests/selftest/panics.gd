## Runner self-test: a Rust panic inside the extension must fail the suite.
extends RefCounted

func run(tree: SceneTree) -> String:
	await tree.process_frame
	var avatar := TressAvatar.new()
	avatar.debug_panic()
	avatar.free()
	return ""
