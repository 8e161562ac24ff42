## The demo's Bands box (issue 19): on the skirt avatar the 24 skirt chains
## are held in one band; unticking the box leaves the band out of the Tress
## pane's hair, a model loaded while it is unticked comes without it, and
## ticking it brings the band back; saves target/godot-screens/demo_bands.png.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
## skirt::CHAINS in crates/tress-tools/src/avatar/skirt.rs: one link each.
const LINKS := 24

func _links(demo: Node3D) -> int:
	var hair: TressSpringHair = demo.panes[0].stage.avatar.get_hair_node()
	return -1 if hair == null else hair.get_band_links().size()

func run(tree: SceneTree) -> String:
	var demo := await TestUtil.start_demo(tree)
	if demo == null:
		return "the demo did not finish starting"
	var skirt := TestUtil.repo_path("assets/tress_avatar_skirt.vrm")
	await demo._load(skirt)
	if not demo.bands_check.button_pressed:
		return "the Bands box starts unticked"
	if _links(demo) != LINKS:
		return "the skirt avatar's hair holds %d band links, not %d" % [_links(demo), LINKS]
	demo.bands_check.button_pressed = false
	if _links(demo) != 0:
		return "unticked, the hair still holds %d band links" % _links(demo)
	await demo._load(skirt)
	if _links(demo) != 0:
		return "a model loaded with the box unticked holds %d band links" % _links(demo)
	demo.bands_check.button_pressed = true
	if _links(demo) != LINKS:
		return "ticked again, the hair holds %d band links" % _links(demo)
	await TestUtil.frames(tree, 30)
	return await TestUtil.screenshot(tree, "demo_bands")
