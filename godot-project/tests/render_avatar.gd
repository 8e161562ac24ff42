## Renders the built-in avatar under Xvfb and saves a screenshot that must
## not be blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var stage := await TestUtil.stage_with(tree, TestUtil.repo_path("assets/tress_avatar.vrm"))
	if stage == null:
		return "could not load the built-in avatar"
	await TestUtil.frames(tree, 20)
	return await TestUtil.screenshot(tree, "avatar")
