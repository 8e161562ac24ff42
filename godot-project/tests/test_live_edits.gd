## Inspector edits reach a running hand-made rig without a reset. Two copies
## of tests/scenes/hand_rig.tscn get the same head turn; one property is
## changed on copy B mid-swing. Right after the edit B's tip must be where
## A's is (a reset would put it back at rest), and a few frames later it
## must have moved differently (the edit took effect). A changed end bone
## rebuilds the chain.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

## [property path under the scene root, value]. Paths with a colon set a
## property of a collider node.
const EDITS := [
	["Skeleton/Hair:stiffness", 4.0],
	["Skeleton/Hair:drag", 0.9],
	["Skeleton/Hair:gravity_power", 3.0],
	["Skeleton/Hair:gravity_dir", Vector3(1, 0, 0)],
	["Skeleton/Hair:hit_radius", 0.05],
	["Skeleton/Hair:solver_mode", 1],
	["Skeleton/Hair/Block:radius", 0.06],
	["Skeleton/Hair/Block:shape", 3],
	["Skeleton/Hair/HeadBall:position", Vector3(0, 0, 0.1)],
]

var _frame := 0

func _tip(s: Node3D) -> Vector3:
	return (s.get_node("Skeleton/Hair") as TressSpringHair).get_joint_tail(0, 2)

func run(tree: SceneTree) -> String:
	var packed: PackedScene = load("res://tests/scenes/hand_rig.tscn")
	for edit: Array in EDITS:
		var a: Node3D = packed.instantiate()
		var b: Node3D = packed.instantiate()
		tree.root.add_child(a)
		tree.root.add_child(b)
		_frame = 0
		_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 15)
		var parts := (edit[0] as String).split(":")
		var before := _tip(b)
		if before.distance_to(_tip(a)) > 1e-6:
			return "the two copies differ before the edit"
		b.get_node(parts[0]).set(parts[1], edit[1])
		if _tip(b).distance_to(before) > 1e-6:
			return "setting %s moved the tip at once: a reset?" % edit[0]
		# Nor a frame later (a rebuild waits for the next update): a chain
		# restarted at rest would sit on the pose the head carries rigidly,
		# while A still lags it.
		_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 1)
		var skel: Skeleton3D = a.get_node("Skeleton")
		var q := skel.get_bone_pose_rotation(skel.find_bone("Head"))
		var rigid := Vector3(0, 1.6, 0) + q * Vector3(0, -0.24, 0.12)
		var lag_a := _tip(a).distance_to(rigid)
		var lag_b := _tip(b).distance_to(rigid)
		if lag_a > 0.01 and lag_b < 0.2 * lag_a:
			return "setting %s reset the swing (tip %.4f m off the rigid pose, %.4f m without the edit)" % [edit[0], lag_b, lag_a]
		_frame = await TestUtil.swing_heads(tree, [a, b], _frame, 20)
		var apart := _tip(b).distance_to(_tip(a))
		if apart < 1e-4:
			return "setting %s changed nothing (tips %.6f m apart)" % [edit[0], apart]
		print("live edit %s: tips %.4f m apart 20 frames later" % [edit[0], apart])
		a.free()
		b.free()
	# A new chain end rebuilds: Lock0..Lock2 simulates two joints.
	var c: Node3D = packed.instantiate()
	tree.root.add_child(c)
	await tree.process_frame
	var hair: TressSpringHair = c.get_node("Skeleton/Hair")
	hair.end_bones = PackedStringArray(["Lock2"])
	await tree.process_frame
	if hair.joint_count() != 2:
		return "end bone Lock2 gave %d joints, expected 2" % hair.joint_count()
	c.free()
	return ""
