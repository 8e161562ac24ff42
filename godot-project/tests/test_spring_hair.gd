## TressSpringHair on the built-in avatar: the head turns for 2 s; roots stay
## on the head, bone lengths hold, nothing becomes NaN, and the hair really
## moves (lags the head) rather than being carried rigidly.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	var hair := avatar.get_hair_node()
	if hair == null:
		return "no TressSpringHair was added"
	if hair.chain_count() != 8 or hair.joint_count() != 36:
		return "expected 8 chains / 36 joints, got %d / %d" % [hair.chain_count(), hair.joint_count()]
	var skel := avatar.get_skeleton()
	var head := skel.find_bone("Head")
	var chain: Array[int] = []
	for i in 7:
		chain.append(skel.find_bone("HairFrontLockL_%d" % i if i < 6 else "HairFrontLockL_tip"))
	var rest_len: Array[float] = []
	for i in 6:
		rest_len.append(skel.get_bone_global_rest(chain[i]).origin.distance_to(skel.get_bone_global_rest(chain[i + 1]).origin))
	var root_local := skel.get_bone_rest(chain[0]).origin
	var max_lag := 0.0
	# Godot restores the un-modified poses after each update; the modified
	# ones are readable when the skeleton reports it has updated.
	var seen: Array[Transform3D] = []
	seen.resize(8)
	skel.skeleton_updated.connect(func() -> void:
		seen[0] = skel.get_bone_global_pose(head)
		for i in 7:
			seen[i + 1] = skel.get_bone_global_pose(chain[i]))
	for f in 120:
		var yaw := deg_to_rad(60.0) * sin(PI * f / 60.0)
		skel.set_bone_pose_rotation(head, Quaternion(Vector3.UP, yaw))
		await tree.process_frame
		var head_pose := seen[0]
		var root := seen[1].origin
		if not root.is_finite():
			return "NaN at frame %d" % f
		if root.distance_to(head_pose * root_local) > 1e-4:
			return "root left the head by %f m at frame %d" % [root.distance_to(head_pose * root_local), f]
		for i in 6:
			var a := seen[i + 1].origin
			var b := seen[i + 2].origin
			if absf(a.distance_to(b) - rest_len[i]) > 1e-4:
				return "segment %d length %f, rest %f (frame %d)" % [i, a.distance_to(b), rest_len[i], f]
		# How far the tip is from where a rigidly carried lock would be.
		var rigid_tip := head_pose * (skel.get_bone_global_rest(head).affine_inverse() * skel.get_bone_global_rest(chain[6]).origin)
		max_lag = maxf(max_lag, rigid_tip.distance_to(seen[7].origin))
	if max_lag < 0.01:
		return "the tip never lagged the head (max %f m): is the hair simulated?" % max_lag
	print("front lock tip lagged the rigid pose by up to %.3f m" % max_lag)
	# The lock options changed mid-turn take effect live: every tip stays
	# exactly where the last update left it (a rebuild would put the hair
	# back at rest), off and on again.
	for step in [["drape", false], ["flat_lock_stiffness", 0.0], ["lock_twist", false], ["drape", true], ["flat_lock_stiffness", 5.0], ["lock_twist", true]]:
		var tips_before := _tips(hair)
		hair.set(step[0], step[1])
		var tips_after := _tips(hair)
		for i in tips_before.size():
			if tips_before[i].distance_to(tips_after[i]) > 1e-6:
				return "setting %s to %s moved tip %d by %f m: the hair was reset" % [step[0], step[1], i, tips_before[i].distance_to(tips_after[i])]
		skel.set_bone_pose_rotation(head, Quaternion(Vector3.UP, deg_to_rad(30.0)))
		await tree.process_frame
	# With drape, soft flat locks and the lock twist on, the rig keeps roots
	# on the head and bone lengths while the head turns (the twist moves no
	# joint).
	if not (hair.drape and hair.lock_twist and hair.flat_lock_stiffness == 5.0):
		return "drape, flat locks or lock_twist did not switch on"
	for f in 60:
		skel.set_bone_pose_rotation(head, Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 60.0)))
		await tree.process_frame
		var root := seen[1].origin
		if not root.is_finite() or root.distance_to(seen[0] * root_local) > 1e-4:
			return "with drape: root left the head at frame %d" % f
		for i in 6:
			var d := seen[i + 1].origin.distance_to(seen[i + 2].origin)
			if absf(d - rest_len[i]) > 1e-4:
				return "with drape: segment %d length %f, rest %f (frame %d)" % [i, d, rest_len[i], f]
	# A corrupt file is reported and the scene keeps running.
	var bad := "user://corrupt.vrm"
	var f := FileAccess.open(bad, FileAccess.WRITE)
	f.store_string("glTF this is not a valid binary glTF")
	f.close()
	if avatar.load_vrm(bad):
		return "a corrupt file loaded"
	await tree.process_frame
	avatar.queue_free()
	return ""

## Every joint's tail as the last update left it (zero past a chain's end).
func _tips(hair: TressSpringHair) -> Array[Vector3]:
	var out: Array[Vector3] = []
	for c in hair.chain_count():
		for j in 8:
			out.append(hair.get_joint_tail(c, j))
	return out
