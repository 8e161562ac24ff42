## Edits inside a **Chains** entry reach the running hair through
## refresh_chains() (the editor calls it every update): joint values
## without a reset, anything else by a rebuild. Two copies of
## tests/scenes/hand_chains.tscn get the same head turn; mid-swing copy B's
## soft lock gets stiffness 4. A frame later B's tip must still lag the
## head like A's (a reset would put it on the rigidly carried pose), and
## later it must have moved differently. Then a new end bone rebuilds.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

var _frame := 0

func _hair(s: Node3D) -> TressSpringHair:
	return s.get_node("Skeleton/Hair")

func run(tree: SceneTree) -> String:
	var packed: PackedScene = load("res://tests/scenes/hand_chains.tscn")
	var a: Node3D = packed.instantiate()
	var b: Node3D = packed.instantiate()
	tree.root.add_child(a)
	tree.root.add_child(b)
	# The copies share the scene's chain resources: each gets its own (the
	# same way, so both rebuild alike).
	var own: Array[TressSpringChain] = []
	for s: Node3D in [a, b]:
		own = []
		for c: TressSpringChain in _hair(s).chains:
			own.append(c.duplicate())
		_hair(s).chains = own
	_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 15)
	var before := _hair(b).get_joint_tail(1, 2)
	if before.distance_to(_hair(a).get_joint_tail(1, 2)) > 1e-6:
		return "the two copies differ before the edit"
	if _hair(b).refresh_chains():
		return "refresh_chains() saw a change before any edit"
	own[1].stiffness = PackedFloat32Array([4.0])
	if not _hair(b).refresh_chains():
		return "refresh_chains() missed the new stiffness"
	if _hair(b).get_joint_tail(1, 2).distance_to(before) > 1e-6:
		return "the stiffness edit moved the tip at once: a reset?"
	_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 1)
	var skel: Skeleton3D = a.get_node("Skeleton")
	var q := skel.get_bone_pose_rotation(skel.find_bone("Head"))
	var rigid := Vector3(0, 1.6, 0) + q * Vector3(-0.1, -0.24, 0.1)
	var lag_a := _hair(a).get_joint_tail(1, 2).distance_to(rigid)
	var lag_b := _hair(b).get_joint_tail(1, 2).distance_to(rigid)
	if lag_a > 0.01 and lag_b < 0.2 * lag_a:
		return "the stiffness edit reset the swing (tip %.4f m off the rigid pose, %.4f m without the edit)" % [lag_b, lag_a]
	_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 20)
	var apart := _hair(b).get_joint_tail(1, 2).distance_to(_hair(a).get_joint_tail(1, 2))
	if apart < 1e-4:
		return "the stiffness edit changed nothing (tips %.6f m apart)" % apart
	print("chain live edit: tips %.4f m apart 20 frames after stiffness 4 (lags %.4f / %.4f m the frame after)" % [apart, lag_a, lag_b])
	# A new end bone rebuilds: LockB0…LockB1 plus the tip is two joints.
	own[1].end_bone = "LockB1"
	_hair(b).refresh_chains()
	await tree.process_frame
	if _hair(b).joint_count() != 5:
		return "end bone LockB1 gave %d joints in all, expected 3 + 2" % _hair(b).joint_count()
	a.free()
	b.free()
	return ""
