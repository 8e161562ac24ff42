## Renders the built-in avatar under Xvfb and saves a screenshot that must
## not be blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var stage := preload("res://demo/stage.gd").new()
	tree.root.add_child(stage)
	await tree.process_frame
	if not stage.load_model(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	await TestUtil.frames(tree, 20)
	return await TestUtil.screenshot(tree, "avatar")
