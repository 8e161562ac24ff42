## Renders the demo under Xvfb playing Idle, Walk, Jump, Dance, Crouch and
## Sitting on the built-in avatar and on Godette (issue 7), saving
## target/godot-screens/anim_<model>_<clip>.png; each must be non-blank and
## the clip must be the one playing.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const CLIPS := ["Idle_Loop", "Walk_Loop", "Jump_Loop", "Dance_Loop", "Crouch_Idle_Loop", "Sitting_Idle_Loop"]

func run(tree: SceneTree) -> String:
	var godette := TestUtil.repo_path("../shared/assets/godette-vrm0/Godette_vrm_v4.vrm")
	if not FileAccess.file_exists(godette):
		if OS.get_environment("CI") != "":
			return "../shared/assets is missing under CI"
		print("SKIPPED: ../shared/assets not found")
		return ""
	var demo := await TestUtil.start_demo(tree)
	if demo == null:
		return "the demo did not finish starting"
	# One view of each clip alone, without the first view's head turn.
	demo.set_split(-1)
	demo._start("still")
	for model in [TestUtil.repo_path("assets/tress_avatar.vrm"), godette]:
		await demo._load(model)
		await TestUtil.frames(tree, 2)
		demo.stage.frame(false)
		var tag: String = "builtin" if model.get_file().begins_with("tress") else "godette"
		for clip in CLIPS:
			var item := -1
			for i in demo.anim_menu.item_count:
				if demo.anim_menu.get_item_text(i) == clip:
					item = i
			if item < 0:
				return "%s: %s is not in the animation menu" % [tag, clip]
			demo.anim_menu.selected = item
			demo._on_anim_selected(item)
			await TestUtil.frames(tree, 18)
			if demo.stage.avatar.get_current_animation() != clip:
				return "%s: %s is not playing" % [tag, clip]
			var shot := await TestUtil.screenshot(tree, "anim_%s_%s" % [tag, clip.to_lower()])
			if not shot.is_empty():
				return "%s %s: %s" % [tag, clip, shot]
	return ""
