## Renders the same groom twice under Xvfb, no head mesh so only hair
## covers the background: left the 6,000 simulated strands drawn alone
## (render_ratio 1), right 60,000 render strands placed by the hair shader
## from the same 6,000 guides (render_ratio 10), after the heads have
## turned. Checks the render strand counts, that the shader places both,
## the render strands' segment length error (< 3 %, from the texels the
## shader was given),
## and that the interpolated side shows clearly less background through
## the hair (gaps between the first and last hair pixel of each row).
## Saves target/godot-screens/strand_follow.png.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const GROOM := "assets/tress_groom.tfx"
const HEAD_Y := 1.6

func run(tree: SceneTree) -> String:
	var scene := Node3D.new()
	tree.root.add_child(scene)
	preload("res://demo/stage.gd").add_lighting(scene)
	var camera := Camera3D.new()
	camera.fov = 35
	camera.position = Vector3(0, HEAD_Y - 0.05, 1.3)
	scene.add_child(camera)
	camera.look_at(Vector3(0, HEAD_Y - 0.08, 0))
	var heads: Array[Node3D] = []
	var hair: Array[TressStrandHair] = []
	for side in [[-0.25, 1], [0.25, 10]]:
		var head := Node3D.new()
		head.position = Vector3(side[0], HEAD_Y, 0)
		scene.add_child(head)
		heads.append(head)
		var h := TressStrandHair.new()
		h.groom_origin = Vector3(0, HEAD_Y, 0)
		h.render_ratio = side[1]
		head.add_child(h)
		TestUtil.add_head_sphere(h)
		if not h.load_groom(TestUtil.repo_path(GROOM)):
			return "could not load %s" % GROOM
		hair.append(h)
	if hair[0].get_render_strand_count() != 6000:
		return "guides only: %d strands drawn, expected 6000" % hair[0].get_render_strand_count()
	if hair[1].get_render_strand_count() != 60000 or hair[1].strand_count() != 6000:
		return "interpolated: %d drawn from %d simulated, expected 60000 from 6000" % [
			hair[1].get_render_strand_count(), hair[1].strand_count()]
	# Turn both heads for 0.75 s (yaw up to 40°), then let them settle a
	# little; few frames, since software OpenGL draws 2 M ribbon vertices
	# slowly.
	var worst := 0.0
	for f in 60:
		var yaw := deg_to_rad(40.0) * sin(PI * f / 45.0) if f < 45 else 0.0
		for head in heads:
			head.rotation = Vector3(0, yaw, 0)
		await tree.process_frame
		worst = maxf(worst, hair[1].render_max_length_error())
	var shot := await TestUtil.screenshot(tree, "strand_follow")
	if not shot.is_empty():
		return shot
	var img := tree.root.get_texture().get_image()
	var cover := _coverage(img)
	print("render strands: %d from %d guides; worst render length error %.4f; guide texture %d us (update %d us); gaps in the hair: left %d right %d pixels" % [
		hair[1].get_render_strand_count(), hair[1].strand_count(), worst,
		hair[1].get_last_interpolation_usec(), hair[1].get_last_update_usec(), cover[0], cover[1]])
	if not hair[1].places_strands_in_shader() or not hair[0].places_strands_in_shader():
		return "placed in the shader: ratio 1 %s, ratio 10 %s (expected both)" % [
			hair[0].places_strands_in_shader(), hair[1].places_strands_in_shader()]
	if worst <= 0.0 or worst > 0.03:
		return "render strand segment length error %.4f outside (0, 3 %%]" % worst
	if cover[0] == 0 or float(cover[1]) > 0.7 * float(cover[0]):
		return "interpolated side shows %d background pixels through the hair against %d: not denser" % [cover[1], cover[0]]
	scene.queue_free()
	return ""

## Background pixels seen through the hair in the left and right halves:
## in each row of each half, those between its first and last hair pixel.
func _coverage(img: Image) -> Array[int]:
	var bg := img.get_pixel(0, 0)
	var w := img.get_width()
	var out: Array[int] = [0, 0]
	for y in range(0, img.get_height(), 2):
		for half in 2:
			var first := -1
			var last := -1
			var bare := 0
			var bare_at_last := 0
			for x in range(half * w / 2, (half + 1) * w / 2, 2):
				var c := img.get_pixel(x, y)
				if absf(c.r - bg.r) + absf(c.g - bg.g) + absf(c.b - bg.b) > 0.15:
					if first < 0:
						first = x
					last = x
					bare_at_last = bare
				elif first >= 0:
					bare += 1
			out[half] += bare_at_last
	return out
