## Renders the demo under Xvfb in each hair mode (Improved, Earlier,
## VRM-compatible, Godot's SpringBoneSimulator3D) during the head-turn test,
## saving target/godot-screens/demo_<mode>.png; each must be non-blank and
## the hair must be simulated in each mode.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const NAMES := ["improved", "earlier", "vrm", "godot"]

func run(tree: SceneTree) -> String:
	var demo := await TestUtil.start_demo(tree)
	if demo == null:
		return "the demo did not finish starting"
	# One view, no clip: the bare head-turn test in each mode.
	demo.set_split(-1)
	demo.anim_menu.selected = 0
	demo._on_anim_selected(0)
	demo.stage.frame(true)
	for mode in NAMES.size():
		demo._on_mode_selected(mode)
		demo._start("turn")
		await TestUtil.frames(tree, 25)
		var hair: TressSpringHair = demo.stage.avatar.get_hair_node()
		if mode < 3 and (not hair.active or hair.solver_mode != mode):
			return "mode %s did not take" % NAMES[mode]
		if mode == 3 and (demo.peer == null or not demo.peer.active or hair.active):
			return "Godot's SpringBoneSimulator3D is not the active solver"
		var shot := await TestUtil.screenshot(tree, "demo_" + NAMES[mode])
		if not shot.is_empty():
			return "%s: %s" % [NAMES[mode], shot]
	return ""
