## TressStrandHair's level of detail (issue 22, item 2). The procedural
## groom (a 5 % share, 300 strands) on a head stepped by exact 1/60 s
## frames:
## - hidden (`visible = false`), the hair runs no step and does not move
##   while the head travels 30 cm and turns 90°; shown again, its first
##   frame moves no particle more than 1 mm relative to the head;
## - with a camera: looking away pauses it; near, full detail; 8 m away,
##   quarter detail (30 Hz steps: 30 steps in a second, not 120; a quarter
##   of the strands drawn); back near, full detail again;
## - `lod_enabled = false` keeps full detail far away.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

const GROOM := "assets/tress_groom.tfx"
const HEAD_Y := 1.6
const DT := 1.0 / 60.0

func local_points(hair: TressStrandHair, head: Node3D) -> PackedVector3Array:
	var inv := head.global_transform.affine_inverse()
	var out := PackedVector3Array()
	for s in hair.strand_count():
		for p in hair.get_particles_per_strand():
			out.append(inv * hair.get_particle(s, p))
	return out

func world_points(hair: TressStrandHair) -> PackedVector3Array:
	var out := PackedVector3Array()
	for s in hair.strand_count():
		for p in hair.get_particles_per_strand():
			out.append(hair.get_particle(s, p))
	return out

func largest_move(a: PackedVector3Array, b: PackedVector3Array) -> float:
	var worst := 0.0
	for i in a.size():
		worst = maxf(worst, (a[i] - b[i]).length())
	return worst

func steps_in_a_second(hair: TressStrandHair) -> int:
	var before := hair.get_steps_run()
	for i in 60:
		hair.step_frame(DT)
	return hair.get_steps_run() - before

func run(tree: SceneTree) -> String:
	var world := Node3D.new()
	tree.root.add_child(world)
	var head := Node3D.new()
	head.position = Vector3(0, HEAD_Y, 0)
	world.add_child(head)
	var hair := TressStrandHair.new()
	hair.groom_origin = Vector3(0, HEAD_Y, 0)
	hair.strand_fraction = 0.05
	hair.threads = 1
	head.add_child(hair)
	TestUtil.add_head_sphere(hair)
	hair.set_process(false)
	if not hair.load_groom(TestUtil.repo_path(GROOM)):
		return "the procedural groom did not load"
	for i in 120:
		hair.step_frame(DT)
	if hair.is_paused() or hair.get_lod_level() != 0:
		return "with no camera the hair should run at full detail (paused %s, level %d)" % [hair.is_paused(), hair.get_lod_level()]

	# Hidden: no steps, no motion, while the head moves away.
	var before := local_points(hair, head)
	var frozen := world_points(hair)
	var steps := hair.get_steps_run()
	hair.visible = false
	for i in 30:
		head.position += Vector3(0.01, 0, 0)
		head.rotate_y(PI / 60.0)
		hair.step_frame(DT)
	if not hair.is_paused():
		return "hidden hair is not paused"
	if hair.get_steps_run() != steps:
		return "hidden hair ran %d steps" % (hair.get_steps_run() - steps)
	if largest_move(frozen, world_points(hair)) != 0.0:
		return "hidden hair moved"
	hair.visible = true
	hair.step_frame(DT)
	if hair.is_paused():
		return "shown hair is still paused"
	var jump := largest_move(before, local_points(hair, head))
	print("resume after a hidden 30 cm, 90 deg move: largest particle jump %.4f mm (head frame)" % (jump * 1000.0))
	if jump >= 0.001:
		return "resuming moved a particle %.2f mm relative to the head (bound 1 mm)" % (jump * 1000.0)
	if hair.get_steps_run() == steps:
		return "shown hair ran no step"

	# A camera: off screen pauses, near is full, far is a quarter.
	var cam := Camera3D.new()
	world.add_child(cam)
	cam.current = true
	var at := head.global_position
	cam.look_at_from_position(at + Vector3(0, 0, 1.0), at + Vector3(0, 0, 3.0))
	hair.step_frame(DT)
	if not hair.is_paused():
		return "hair behind the camera is not paused (coverage %f)" % hair.get_screen_coverage()
	cam.look_at_from_position(at + Vector3(0, 0, 1.0), at)
	var near := steps_in_a_second(hair)
	var all_strands := hair.get_render_strand_count()
	print("near: coverage %.3f, level %d, %d steps/s, %d strands drawn" % [hair.get_screen_coverage(), hair.get_lod_level(), near, all_strands])
	if hair.is_paused() or hair.get_lod_level() != 0 or near != 120:
		return "1 m away: paused %s, level %d, %d steps/s (want running, 0, 120)" % [hair.is_paused(), hair.get_lod_level(), near]
	cam.look_at_from_position(at + Vector3(0, 0, 8.0), at)
	var far := steps_in_a_second(hair)
	var few := hair.get_render_strand_count()
	print("far: coverage %.3f, level %d, %d steps/s, %d strands drawn" % [hair.get_screen_coverage(), hair.get_lod_level(), far, few])
	if hair.get_lod_level() != 2 or hair.get_rate_divisor() != 4 or far != 30:
		return "8 m away: level %d, divisor %d, %d steps/s (want 2, 4, 30)" % [hair.get_lod_level(), hair.get_rate_divisor(), far]
	if few != ceili(all_strands / 4.0):
		return "8 m away %d strands drawn of %d, not a quarter" % [few, all_strands]
	for s in hair.strand_count():
		if not hair.get_particle(s, 15).is_finite():
			return "strand %d went non-finite at quarter detail" % s
	cam.look_at_from_position(at + Vector3(0, 0, 1.0), at)
	if steps_in_a_second(hair) != 120 or hair.get_render_strand_count() != all_strands:
		return "back near: not full detail again"
	hair.lod_enabled = false
	cam.look_at_from_position(at + Vector3(0, 0, 8.0), at)
	if steps_in_a_second(hair) != 120 or hair.get_lod_level() != 0:
		return "lod_enabled = false still lowered the detail far away"
	return ""
