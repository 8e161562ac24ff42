## TressSpringHair's stiffness_scale / drag_scale / gravity_scale: two
## built-in avatars get the same head turn; changing the scales on one
## keeps its hair where it is (no reset) and then makes it move
## differently; bad values are refused with a warning.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var pair := TestUtil.builtin_avatars(tree, 2)
	if pair.is_empty():
		return "could not load the built-in avatar"
	var hair_a := pair[0].get_hair_node()
	var hair_b := pair[1].get_hair_node()
	if hair_a.stiffness_scale != 1.0 or hair_a.drag_scale != 1.0 or hair_a.gravity_scale != 1.0:
		return "the scales should default to 1"
	for f in 90:
		for a in pair:
			var skel := a.get_skeleton()
			skel.set_bone_pose_rotation(skel.find_bone("Head"), Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 60.0)))
		if f == 30:
			var before := hair_b.get_joint_tail(0, 0)
			hair_b.stiffness_scale = 0.3
			hair_b.gravity_scale = 3.0
			hair_b.drag_scale = 0.5
			if hair_b.get_joint_tail(0, 0) != before:
				return "setting the scales moved the hair (a reset?)"
			if hair_a.get_joint_tail(0, 0) != before:
				return "the twin avatars differ before the change: the comparison is not fair"
		await tree.process_frame
	var gap := 0.0
	for c in hair_a.chain_count():
		for j in 6:
			gap = maxf(gap, hair_a.get_joint_tail(c, j).distance_to(hair_b.get_joint_tail(c, j)))
	print("tails differ by up to %.4f m after the scales changed" % gap)
	if gap < 0.005:
		return "the scales had no visible effect (%.4f m)" % gap
	hair_b.drag_scale = NAN
	if hair_b.drag_scale != 1.0:
		return "NaN drag_scale should fall back to 1, got %s" % hair_b.drag_scale
	hair_b.gravity_scale = -2.0
	if hair_b.gravity_scale != 0.0:
		return "a negative gravity_scale should become 0, got %s" % hair_b.gravity_scale
	# A solver change rebuilds both rigs at the current pose; the scales
	# stay on, so the twins part again as the head keeps turning.
	hair_a.solver_mode = 1
	hair_b.solver_mode = 1
	if not is_equal_approx(hair_b.stiffness_scale, 0.3):
		return "the rebuild dropped stiffness_scale (%s)" % hair_b.stiffness_scale
	for f in 30:
		for a in pair:
			var skel := a.get_skeleton()
			skel.set_bone_pose_rotation(skel.find_bone("Head"), Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 30.0)))
		await tree.process_frame
	var parted := 0.0
	for c in hair_a.chain_count():
		for j in 6:
			var t := hair_b.get_joint_tail(c, j)
			if not t.is_finite():
				return "NaN after the rebuild"
			parted = maxf(parted, hair_a.get_joint_tail(c, j).distance_to(t))
	print("after the rebuild the tails differ by up to %.4f m" % parted)
	if parted < 0.005:
		return "the rebuilt rig lost the scales (tails within %.4f m of the twin)" % parted
	return ""
