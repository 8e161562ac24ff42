## Converts a SpringBoneSimulator3D set-up (tests/sim_rig.gd: three chains,
## one with extend_end_bone; sphere and capsule collisions on the head, a
## free sphere; per-chain collision lists) into a TressSpringHair with
## TressSpringHair.from_spring_bone_simulator, switches the simulator off,
## turns the head and checks that the values arrived, that every chain's tip
## moves and lags the head, and that every joint stays clear of the
## colliders its chain meets. Then hands the converter bad set-ups (not a
## simulator, no settings, a missing bone, an end bone outside its root)
## and checks each is refused or left out while the hair keeps running.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const SimRig = preload("res://tests/sim_rig.gd")

## Simulated joints per chain: A 4 bones (end = tail), B 3 bones + tip, C 4.
const JOINTS := [3, 3, 3]

func run(tree: SceneTree) -> String:
	if not ClassDB.class_exists("SpringBoneSimulator3D"):
		print("SKIPPED: SpringBoneSimulator3D needs Godot 4.4+")
		return ""
	var rig := SimRig.build(tree)
	var skel: Skeleton3D = rig.skel
	var sim: SkeletonModifier3D = rig.sim
	await tree.process_frame
	var hair: TressSpringHair = TressSpringHair.from_spring_bone_simulator(sim)
	if hair == null:
		return "the converter refused a good set-up"
	sim.active = false
	skel.add_child(hair)
	await tree.process_frame
	var why := _check_values(hair, sim)
	if not why.is_empty():
		return why
	if hair.chain_count() != 3 or hair.joint_count() != 9:
		return "expected 3 chains / 9 joints, got %d / %d" % [hair.chain_count(), hair.joint_count()]
	var head := skel.find_bone("Head")
	await TestUtil.frames(tree, 60)
	var rest_tips: Array[Vector3] = []
	for c in 3:
		rest_tips.append(hair.get_joint_tail(c, JOINTS[c] - 1))
	var settled := _closest(hair, skel, "after settling")
	var lag := [0.0, 0.0, 0.0]
	var moving := [INF, ""]
	# A ±60° turn over 1.5 s, then 1 s still at rest.
	for f in 150:
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * mini(f, 90) / 45.0))
		skel.set_bone_pose_rotation(head, q)
		await tree.process_frame
		var now := _closest(hair, skel, "frame %d" % f)
		if not now[0] is float or is_nan(now[0]):
			return "a joint is not finite at frame %d" % f
		if f < 90 and now[0] < moving[0]:
			moving = now
		for c in 3:
			var rigid := SimRig.HEAD + q * (rest_tips[c] - SimRig.HEAD)
			lag[c] = maxf(lag[c], rigid.distance_to(hair.get_joint_tail(c, JOINTS[c] - 1)))
	var still := _closest(hair, skel, "at rest after the turn")
	print("converted: tip lag per chain %.3f %.3f %.3f m; closest joint to a collider surface: settled %.4f m (%s), turning %.4f m (%s), still again %.4f m (%s)" % [lag[0], lag[1], lag[2], settled[0], settled[1], moving[0], moving[1], still[0], still[1]])
	for c in 3:
		if lag[c] < 0.005:
			return "chain %d's tip never lagged the head (%.4f m)" % [c, lag[c]]
	# At rest every joint's hit sphere is outside; the back lock, pressed
	# against Block by gravity, measures about 1 mm in (the length limit
	# after contact each substep), so 2 mm.
	for r in [settled, still]:
		if r[0] < -0.002:
			return "a joint is %.4f m inside a collider (%s)" % [-r[0], r[1]]
	# While the head sweeps the back lock past the free Block, contact at the
	# joints (Godot's rule, which the converter keeps) lets a hit sphere dip
	# in by some millimetres between substeps; more than 1.5 cm is a miss.
	if moving[0] < -0.015:
		return "a joint went %.4f m into a collider while turning (%s)" % [-moving[0], moving[1]]
	why = await _bad_input(tree, skel, hair)
	rig.scene.queue_free()
	return why

## [distance, where]: the joint hit sphere closest to (or deepest in) a
## collider its chain meets, over every chain; distance NAN when a joint is
## not finite.
func _closest(hair: TressSpringHair, skel: Skeleton3D, when: String) -> Array:
	var worst := [INF, ""]
	for c in 3:
		var shapes := SimRig.shapes(skel, c)
		for j in JOINTS[c]:
			var p := hair.get_joint_tail(c, j)
			if not p.is_finite():
				return [NAN, "chain %d joint %d %s" % [c, j, when]]
			for s: Array in shapes:
				var d := SimRig.clearance(p, s) - SimRig.HIT
				if d < worst[0]:
					worst = [d, "chain %d joint %d, %s, %s" % [c, j, s[0], when]]
	return worst

## The chains and colliders carry the simulator's values.
func _check_values(hair: TressSpringHair, sim: SkeletonModifier3D) -> String:
	if hair.chains.size() != 3:
		return "expected 3 chains, got %d" % hair.chains.size()
	var a: TressSpringChain = hair.chains[0]
	var b: TressSpringChain = hair.chains[1]
	var c: TressSpringChain = hair.chains[2]
	if a.root_bone != "LockA0" or a.end_bone != "LockA3" or a.all_colliders or a.colliders != PackedStringArray(["HeadBall", "Block"]):
		return "chain A: %s…%s all=%s colliders=%s" % [a.root_bone, a.end_bone, a.all_colliders, a.colliders]
	if not b.virtual_tail or b.tail_direction != 7 or absf(b.tail_length - SimRig.SEG) > 1e-6:
		return "chain B: extend_end_bone not carried (%s, %d, %f)" % [b.virtual_tail, b.tail_direction, b.tail_length]
	if not b.all_colliders or b.exclude_colliders != PackedStringArray(["Block"]):
		return "chain B: exclude list not carried (%s)" % b.exclude_colliders
	# Per joint, the values Godot's simulator computed itself (chain C's
	# stiffness through its damping curve).
	for i in 3:
		var r: TressSpringChain = hair.chains[i]
		for j in sim.get_joint_count(i):
			var got := [r.stiffness[j], r.drag[j], r.gravity_power[j], r.hit_radius[j]]
			var want := [sim.get_joint_stiffness(i, j), sim.get_joint_drag(i, j), sim.get_joint_gravity(i, j), sim.get_joint_radius(i, j)]
			for k in 4:
				if absf(got[k] - want[k]) > 1e-5:
					return "chain %d joint %d: stiffness, drag, gravity, radius %s; the simulator has %s" % [i, j, got, want]
	if a.stiffness != PackedFloat32Array([1.0, 1.0, 0.8, 0.8]):
		return "chain A: individual stiffness %s, want 1, 1, 0.8, 0.8" % a.stiffness
	if absf(c.stiffness[3] - 1.0) > 1e-5 or absf(c.stiffness[1] - 2.0) < 0.01:
		return "chain C: the stiffness curve was not sampled per joint (%s)" % c.stiffness
	if not a.tail_contact or absf(a.hit_radius[0] - SimRig.HIT) > 1e-6 or absf(a.gravity_power[0] - 0.5) > 1e-6:
		return "chain A: contact/radius/gravity not carried"
	var cap: TressCollider3D = hair.get_node("Shoulders")
	if cap.shape != 1 or absf(cap.height - 0.4) > 1e-5 or cap.bone_name != "Head":
		return "capsule: shape %d height %f bone %s (want 1, 0.4 between cap centres, Head)" % [cap.shape, cap.height, cap.bone_name]
	var block: TressCollider3D = hair.get_node("Block")
	if block.bone_name != "" or not block.position.is_equal_approx(SimRig.BLOCK):
		return "free block at %s, want %s" % [block.position, SimRig.BLOCK]
	return ""

## Bad set-ups give an error and null or leave the bad chain out; the hair
## built before keeps running.
func _bad_input(tree: SceneTree, skel: Skeleton3D, hair: TressSpringHair) -> String:
	var plain := Node.new()
	var refused := TressSpringHair.from_spring_bone_simulator(plain) == null
	plain.free()
	if not refused:
		return "a plain Node was converted"
	var empty: SkeletonModifier3D = ClassDB.instantiate("SpringBoneSimulator3D")
	skel.add_child(empty)
	if TressSpringHair.from_spring_bone_simulator(empty) != null:
		return "a simulator with no settings was converted"
	var bad: SkeletonModifier3D = ClassDB.instantiate("SpringBoneSimulator3D")
	skel.add_child(bad)
	bad.active = false
	bad.setting_count = 3
	bad.set_root_bone_name(0, "LockA0")
	bad.set_end_bone_name(0, "NoSuchBone")
	bad.set_root_bone_name(1, "LockA0")
	bad.set_end_bone_name(1, "LockB2")
	bad.set_root_bone_name(2, "LockC0")
	bad.set_end_bone_name(2, "LockC3")
	# A collision named like a TressCollider3D the skeleton has (the first
	# hair's HeadBall) gets a name of its own, and the chain follows it.
	var ball: Node3D = ClassDB.instantiate("SpringBoneCollisionSphere3D")
	ball.name = "HeadBall"
	bad.add_child(ball)
	bad.set_enable_all_child_collisions(2, false)
	bad.set_collision_count(2, 1)
	bad.set_collision_path(2, 0, NodePath("HeadBall"))
	await tree.process_frame
	var one: TressSpringHair = TressSpringHair.from_spring_bone_simulator(bad)
	if one == null or one.chains.size() != 1 or one.chains[0].root_bone != "LockC0":
		return "a set-up with one good chain of three gave %s" % ("null" if one == null else str(one.chains.size()) + " chains")
	if one.get_node_or_null("HeadBall_2") == null or one.chains[0].colliders != PackedStringArray(["HeadBall_2"]):
		return "a clashing collider name was not made unique (%s)" % one.chains[0].colliders
	bad.setting_count = 1
	if TressSpringHair.from_spring_bone_simulator(bad) != null:
		return "a set-up with no good chain was converted"
	await TestUtil.frames(tree, 5)
	if not hair.get_joint_tail(0, 2).is_finite() or hair.chain_count() != 3:
		return "the converted hair stopped after the bad conversions"
	one.free()
	return ""
