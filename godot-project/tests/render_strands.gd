## Renders the strand demo under Xvfb: after the heads turn, the right side
## (shape constraints and colliders) keeps its strands outside the head while
## the left baseline drops through; saves screenshots of both moments. Then
## the camera steps back to 20 m: both hairs drop to quarter detail (a quarter
## of the strands drawn, 30 Hz) and stay on their heads (`strands_far`).
## On the way, the demo's "Volume" turns the right hair's volume pass on for
## a head turn: it pushes particles apart and keeps them out of the head.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var demo: Node3D = load("res://strands/strands.tscn").instantiate()
	# The simulated strands only: drawing the demo's 60,000 interpolated
	# ones in software OpenGL took this test from 36 s to 232 s under load
	# (render_strand_follow covers them).
	demo.ratio = 1
	tree.root.add_child(demo)
	await TestUtil.frames(tree, 30)
	var shot := await TestUtil.screenshot(tree, "strands_turning")
	if not shot.is_empty():
		return shot
	await TestUtil.frames(tree, 60)
	shot = await TestUtil.screenshot(tree, "strands")
	if not shot.is_empty():
		return shot
	var centre_r := Vector3(0.32, 1.6, 0)
	var centre_l := Vector3(-0.32, 1.6, 0)
	var inside_right: int = demo.right.count_inside_sphere(centre_r, 0.1, 0.002)
	var inside_left: int = demo.left.count_inside_sphere(centre_l, 0.1, 0.002)
	var err: float = demo.right.max_length_error()
	print("particles >2 mm inside the head: right %d, left (baseline) %d; right max length error %.4f" % [inside_right, inside_left, err])
	if demo.right.strand_count() != 6000:
		return "expected 6000 strands, got %d" % demo.right.strand_count()
	if inside_right != 0:
		return "%d particles of the full solver are more than 2 mm inside the head" % inside_right
	if inside_left == 0:
		return "the baseline kept every strand outside the head: the comparison shows nothing"
	if err > 0.03:
		return "segment length error %.3f > 3%%" % err
	demo.right.keep_volume = true
	demo.t = 0.0
	await TestUtil.frames(tree, 30)
	var pushed: int = demo.right.get_volume_stats()["moved"]
	inside_right = demo.right.count_inside_sphere(centre_r, 0.1, 0.002)
	print("volume on for a turn: %d particles pushed by the last pass, %d inside the head" % [pushed, inside_right])
	if pushed <= 0 or inside_right != 0:
		return "volume on: %d particles pushed, %d inside the head (want some, none)" % [pushed, inside_right]
	demo.right.keep_volume = false
	demo.set_shape_scale(0.08)
	await TestUtil.frames(tree, 10)
	demo.set_shape_scale(1.0)
	demo.set_camera_far(true)
	await TestUtil.frames(tree, 20)
	shot = await TestUtil.screenshot(tree, "strands_far")
	if not shot.is_empty():
		return shot
	var drawn: int = demo.right.get_render_strand_count()
	print("camera 20 m back: coverage %.3f, level %d, %d of 6000 strands drawn" % [demo.right.get_screen_coverage(), demo.right.get_lod_level(), drawn])
	if demo.right.get_lod_level() != 2 or drawn != 1500:
		return "20 m back the right hair runs level %d drawing %d strands (want 2, 1500)" % [demo.right.get_lod_level(), drawn]
	inside_right = demo.right.count_inside_sphere(centre_r, 0.1, 0.002)
	if inside_right != 0:
		return "at quarter detail %d particles are more than 2 mm inside the head" % inside_right
	return ""
