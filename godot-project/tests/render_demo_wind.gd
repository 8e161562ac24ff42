## The demo's Wind (issue 19 item 3), under Xvfb: the built-in avatar holds
## still in calm air, then the Wind slider goes to 10 m/s² and the hair
## must swing downwind in the Tress pane (its tips' mean moves along the
## wind by more than 1 cm and keeps moving with the gusts); saves
## target/godot-screens/demo_wind_calm.png and demo_wind.png.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

## Every chain's tip (the solver's own answer), Tress pane.
func _tips(hair: TressSpringHair) -> Array[Vector3]:
	var out: Array[Vector3] = []
	for c in hair.chain_count():
		var j := 0
		while hair.get_joint_tail(c, j + 1) != Vector3.ZERO:
			j += 1
		out.append(hair.get_joint_tail(c, j))
	return out

func _mean(pts: Array[Vector3]) -> Vector3:
	var m := Vector3.ZERO
	for p in pts:
		m += p
	return m / maxf(1.0, pts.size())

func run(tree: SceneTree) -> String:
	var demo := await TestUtil.start_demo(tree)
	if demo == null:
		return "the demo did not finish starting"
	if demo.get_node_or_null("Wind") == null:
		return "the demo has no Wind node"
	demo.anim_menu.selected = 0
	demo._on_anim_selected(0)
	demo._start("still")
	await TestUtil.frames(tree, 90)
	var hair: TressSpringHair = demo.stage.avatar.get_hair_node()
	var calm := _mean(_tips(hair))
	var shot := await TestUtil.screenshot(tree, "demo_wind_calm")
	if not shot.is_empty():
		return shot
	demo.wind_slider.value = 10.0
	if absf(hair.wind_strength - 10.0) > 1e-6:
		return "the Wind slider did not reach the hair (strength %f)" % hair.wind_strength
	var dir: Vector3 = demo.wind.direction.normalized()
	var along_min := INF
	var along_max := -INF
	for f in 120:
		await tree.process_frame
		if f >= 60:
			var along := (_mean(_tips(hair)) - calm).dot(dir)
			along_min = minf(along_min, along)
			along_max = maxf(along_max, along)
	print("wind 10 m/s²: tips' mean %.1f..%.1f mm downwind of calm" % [along_min * 1e3, along_max * 1e3])
	if along_min < 0.01:
		return "the wind did not blow the hair downwind (%.1f mm)" % (along_min * 1e3)
	if along_max - along_min < 0.001:
		return "the gusts did not move the hair (%.2f mm of swing)" % ((along_max - along_min) * 1e3)
	shot = await TestUtil.screenshot(tree, "demo_wind")
	if not shot.is_empty():
		return shot
	return ""
