## A rig made by hand the way the README describes, saved as a scene
## (tests/scenes/hand_rig.tscn): a Skeleton3D with a head and a four-bone
## lock, a TressSpringHair naming the chain by root and end bone, and two
## TressCollider3D nodes (a sphere following the Head bone and a small sphere
## placed in the scene, which overlaps the lock's rest pose). The lock must be
## pushed clear of the block, keep its bone lengths, and lag the head.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var scene: Node3D = load("res://tests/scenes/hand_rig.tscn").instantiate()
	tree.root.add_child(scene)
	await tree.process_frame
	var skel: Skeleton3D = scene.get_node("Skeleton")
	var hair: TressSpringHair = scene.get_node("Skeleton/Hair")
	# In a running game a collider's gizmo is never drawn: no per-frame call.
	if scene.get_node("Skeleton/Hair/Block").is_processing():
		return "a TressCollider3D processes every frame in a running game"
	if hair.chain_count() != 1 or hair.joint_count() != 3:
		return "expected 1 chain / 3 joints, got %d / %d" % [hair.chain_count(), hair.joint_count()]
	var head := skel.find_bone("Head")
	var lock: Array[int] = []
	for n in ["Lock0", "Lock1", "Lock2", "Lock3"]:
		lock.append(skel.find_bone(n))
	var seen: Array[Vector3] = []
	seen.resize(5)
	skel.skeleton_updated.connect(func() -> void:
		seen[0] = skel.get_bone_global_pose(head).origin
		for i in 4:
			seen[i + 1] = skel.get_bone_global_pose(lock[i]).origin)
	var block: Vector3 = scene.get_node("Skeleton/Hair/Block").global_position
	# Let it settle against the block.
	await TestUtil.frames(tree, 60)
	for i in range(1, 4):
		var d := seen[i + 1].distance_to(block)
		if d < 0.03 + 0.01 - 0.001:
			return "lock bone %d is %.4f m from the block's centre (needs ≥ 0.04)" % [i, d]
		var seg := seen[i + 1].distance_to(seen[i])
		if absf(seg - 0.08) > 1e-4:
			return "segment %d is %.5f m long, rest 0.08" % [i, seg]
	var rest_tip := seen[4]
	# Turn the head: the tip must lag behind a rigidly carried pose.
	var max_lag := 0.0
	for f in 60:
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 60.0))
		skel.set_bone_pose_rotation(head, q)
		await tree.process_frame
		var rigid := seen[0] + q * (rest_tip - Vector3(0, 1.6, 0))
		max_lag = maxf(max_lag, rigid.distance_to(seen[4]))
		if not seen[4].is_finite():
			return "NaN at frame %d" % f
	if max_lag < 0.005:
		return "the tip never lagged the head (%.4f m)" % max_lag
	print("hand-made rig: clear of the block, tip lag up to %.3f m" % max_lag)
	scene.queue_free()
	return ""
