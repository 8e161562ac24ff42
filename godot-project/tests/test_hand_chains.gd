## Per-chain values set in the inspector and saved in a scene
## (tests/scenes/hand_chains.tscn): a TressSpringHair whose **Chains** are
## two TressSpringChain resources on twin locks, "Stiff" (LockA0…LockA3,
## stiffness 4, meets no collider) and "Soft" (LockB0…LockB2, stiffness
## 0.5, 0.5, 0.25 per joint, Virtual Tail from the parent 8 cm past LockB2,
## meets BallB only). A ball overlaps each lock's rest pose. Checks that the
## saved values took effect: the soft lock lags a head turn more, its end
## bone swings toward a tip 8 cm past it, it clears BallB while the stiff
## lock, which does not meet BallA, stays inside that one.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var scene: Node3D = load("res://tests/scenes/hand_chains.tscn").instantiate()
	tree.root.add_child(scene)
	await tree.process_frame
	var skel: Skeleton3D = scene.get_node("Skeleton")
	var hair: TressSpringHair = scene.get_node("Skeleton/Hair")
	if hair.chains.size() != 2 or hair.chains[1].tail_direction != 7:
		return "the saved chains did not load (%d)" % hair.chains.size()
	if hair.chain_count() != 2 or hair.joint_count() != 6:
		return "expected 2 chains / 6 joints (the soft lock's end bone simulated), got %d / %d" % [hair.chain_count(), hair.joint_count()]
	await TestUtil.frames(tree, 60)
	# The solver's own joints: tail 1 is LockB2's origin, tail 2 the tip.
	var past := hair.get_joint_tail(1, 2).distance_to(hair.get_joint_tail(1, 1))
	if absf(past - 0.08) > 1e-3:
		return "the soft lock's tip is %.4f m past LockB2, want 0.08" % past
	var ball_a: Vector3 = scene.get_node("Skeleton/Hair/BallA").global_position
	var ball_b: Vector3 = scene.get_node("Skeleton/Hair/BallB").global_position
	var a2 := hair.get_joint_tail(0, 1)
	if a2.distance_to(ball_a) > 0.03:
		return "the stiff lock left BallA (%.4f m from its centre), which it does not meet" % a2.distance_to(ball_a)
	for j in 3:
		var d := hair.get_joint_tail(1, j).distance_to(ball_b)
		if d < 0.03 + 0.01 - 0.001:
			return "soft joint %d is %.4f m from BallB's centre (needs ≥ 0.04)" % [j, d]
	var head := skel.find_bone("Head")
	var rest_tips: Array[Vector3] = [hair.get_joint_tail(0, 2), hair.get_joint_tail(1, 2)]
	var lag := [0.0, 0.0]
	# Unsimulated, LockB2 would keep its rest line with its parent.
	var end_turned := 0.0
	for f in 60:
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 60.0))
		skel.set_bone_pose_rotation(head, q)
		await tree.process_frame
		for c in 2:
			var rigid: Vector3 = Vector3(0, 1.6, 0) + q * (rest_tips[c] - Vector3(0, 1.6, 0))
			lag[c] = maxf(lag[c], rigid.distance_to(hair.get_joint_tail(c, 2)))
		var up := hair.get_joint_tail(1, 1) - hair.get_joint_tail(1, 0)
		var down := hair.get_joint_tail(1, 2) - hair.get_joint_tail(1, 1)
		end_turned = maxf(end_turned, rad_to_deg(up.angle_to(down)))
	print("per-chain values: tip lag stiff %.4f m, soft %.4f m; soft end bone bent up to %.1f° off its parent's line" % [lag[0], lag[1], end_turned])
	if lag[1] < 1.5 * lag[0]:
		return "the soft lock (stiffness 0.5) lagged %.4f m, not clearly more than the stiff one (4): %.4f m" % [lag[1], lag[0]]
	if end_turned < 2.0:
		return "the soft lock's end bone never swung (%.2f°)" % end_turned
	# A bad entry is refused with its name in the log; the hair keeps the
	# chains it had and keeps running.
	var soft: TressSpringChain = hair.chains[1]
	soft.end_bone = "Nope"
	if hair.configure_from_inspector():
		return "an entry ending at a missing bone was accepted"
	await TestUtil.frames(tree, 3)
	if not hair.get_joint_tail(1, 2).is_finite() or hair.chain_count() != 2:
		return "the hair stopped after a bad entry"
	soft.end_bone = "LockB2"
	if not hair.configure_from_inspector():
		return "the mended entry was refused"
	# Saved again as the editor saves a scene, the entries come back.
	var packed := PackedScene.new()
	packed.pack(scene)
	var path := "user://hand_chains_saved.tscn"
	if ResourceSaver.save(packed, path) != OK:
		return "could not save the scene to %s" % path
	var again: Node3D = (ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE) as PackedScene).instantiate()
	var copy: TressSpringHair = again.get_node("Skeleton/Hair")
	var c1: TressSpringChain = copy.chains[1] if copy.chains.size() == 2 else null
	var kept := c1 != null and c1.virtual_tail and c1.tail_direction == 7 and absf(c1.tail_length - 0.08) < 1e-6 \
		and c1.stiffness == PackedFloat32Array([0.5, 0.5, 0.25]) and c1.colliders == PackedStringArray(["BallB"]) \
		and copy.chains[0].root_bone == "LockA0"
	again.free()
	if not kept:
		return "the chains did not survive a save and load"
	scene.queue_free()
	return ""
