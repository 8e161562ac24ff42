## A SpringBoneSimulator3D set-up built as a user of Godot's simulator
## would (shared by test_sim_convert and render_sim_convert): a head and
## three locks, a sphere and a capsule collider on the head bone and a free
## sphere (Block) placed in the scene.
##
## - Back (LockA0..A3): meets HeadBall and Block only (a collision list);
##   Block overlaps its rest pose; individual_config with stiffness 1, 1,
##   0.8, 0.8 per joint.
## - Left (LockB0..B2): extend_end_bone (FromParent, 8 cm), meets every
##   collision but Block (an exclude list); the capsule overlaps its rest.
## - Right (LockC0..C3): every collision; stiffness with a damping curve.
extends RefCounted

const SEG := 0.08
const HEAD := Vector3(0, 1.6, 0)
const HIT := 0.02
## Where the free Block sphere sits (world; the simulator is at the origin).
const BLOCK := Vector3(0, 1.45, 0.12)

## {scene, skel, sim}; the scene is in the tree.
static func build(tree: SceneTree) -> Dictionary:
	var scene := Node3D.new()
	scene.name = "SimRig"
	var skel := Skeleton3D.new()
	skel.name = "Skeleton"
	scene.add_child(skel)
	_bone(skel, "Head", -1, HEAD)
	for side in [["A", Vector3(0, 0, 0.12), 4], ["B", Vector3(0.12, 0, 0), 3], ["C", Vector3(-0.12, 0, 0), 4]]:
		var parent := 0
		for k in side[2]:
			var at: Vector3 = side[1] if k == 0 else Vector3(0, -SEG, 0)
			_bone(skel, "Lock%s%d" % [side[0], k], parent, at)
			parent = skel.get_bone_count() - 1
	tree.root.add_child(scene)
	var sim: SkeletonModifier3D = ClassDB.instantiate("SpringBoneSimulator3D")
	sim.name = "GodotSprings"
	skel.add_child(sim)
	var ball: Node3D = ClassDB.instantiate("SpringBoneCollisionSphere3D")
	ball.name = "HeadBall"
	ball.radius = 0.1
	sim.add_child(ball)
	ball.bone_name = "Head"
	var cap: Node3D = ClassDB.instantiate("SpringBoneCollisionCapsule3D")
	cap.name = "Shoulders"
	cap.radius = 0.03
	cap.height = 0.46
	sim.add_child(cap)
	cap.bone_name = "Head"
	# A little in front of the locks: a push straight along a lock would
	# leave it balanced inside.
	cap.position_offset = Vector3(0, -0.17, -0.02)
	cap.rotation_offset = Quaternion(Vector3.UP, Vector3.RIGHT)
	var block: Node3D = ClassDB.instantiate("SpringBoneCollisionSphere3D")
	block.name = "Block"
	block.radius = 0.03
	sim.add_child(block)
	block.position = BLOCK
	sim.setting_count = 3
	for i in 3:
		var s: String = ["A", "B", "C"][i]
		sim.set_root_bone_name(i, "Lock%s0" % s)
		sim.set_end_bone_name(i, "Lock%s%d" % [s, 2 if s == "B" else 3])
		sim.set_radius(i, HIT)
		sim.set_stiffness(i, 1.0)
		sim.set_drag(i, 0.4)
		sim.set_gravity(i, 0.5)
		sim.set_gravity_direction(i, Vector3.DOWN)
	sim.set_enable_all_child_collisions(0, false)
	sim.set_collision_count(0, 2)
	sim.set_collision_path(0, 0, NodePath("HeadBall"))
	sim.set_collision_path(0, 1, NodePath("Block"))
	sim.set_individual_config(0, true)
	for j in sim.get_joint_count(0):
		sim.set_joint_radius(0, j, HIT)
		sim.set_joint_stiffness(0, j, 1.0 if j < 2 else 0.8)
		sim.set_joint_drag(0, j, 0.4)
		sim.set_joint_gravity(0, j, 0.5)
		sim.set_joint_gravity_direction(0, j, Vector3.DOWN)
	sim.set_extend_end_bone(1, true)
	sim.set_end_bone_direction(1, 6) # BONE_DIRECTION_FROM_PARENT
	sim.set_end_bone_length(1, SEG)
	sim.set_exclude_collision_count(1, 1)
	sim.set_exclude_collision_path(1, 0, NodePath("Block"))
	var curve := Curve.new()
	curve.add_point(Vector2(0, 1))
	curve.add_point(Vector2(1, 0.5))
	sim.set_stiffness(2, 2.0)
	sim.set_stiffness_damping_curve(2, curve)
	return {scene = scene, skel = skel, sim = sim}

static func _bone(skel: Skeleton3D, name: String, parent: int, at: Vector3) -> void:
	skel.add_bone(name)
	var b := skel.get_bone_count() - 1
	skel.set_bone_parent(b, parent)
	skel.set_bone_rest(b, Transform3D(Basis.IDENTITY, at))
	skel.reset_bone_pose(b)

## The colliders each chain meets (world shapes now): [kind, a, b, radius],
## kind "sphere" (a centre) or "capsule" (a, b the cap centres).
static func shapes(skel: Skeleton3D, chain: int) -> Array:
	var head := skel.global_transform * skel.get_bone_global_pose(skel.find_bone("Head"))
	var ball := ["sphere", head.origin, head.origin, 0.1]
	var axis := head.basis * Vector3(0.2, 0, 0) # (0.46 - 2 * 0.03) / 2 along X
	var mid := head * Vector3(0, -0.17, -0.02)
	var cap := ["capsule", mid - axis, mid + axis, 0.03]
	var block := ["sphere", BLOCK, BLOCK, 0.03]
	return [[ball, block], [ball, cap], [ball, cap, block]][chain]

## Distance from `p` to a shape's surface (negative inside).
static func clearance(p: Vector3, shape: Array) -> float:
	var a: Vector3 = shape[1]
	var b: Vector3 = shape[2]
	var ab := b - a
	var t := 0.0 if ab.length_squared() < 1e-12 else clampf((p - a).dot(ab) / ab.length_squared(), 0.0, 1.0)
	return p.distance_to(a + ab * t) - float(shape[3])
