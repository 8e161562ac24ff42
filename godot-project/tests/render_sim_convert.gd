## Renders the SpringBoneSimulator3D set-up of tests/sim_rig.gd after
## conversion to a TressSpringHair (Xvfb, OpenGL), mid head turn: the
## colliders as translucent shapes (the head ball, the shoulder capsule, the
## free Block), each chain's solver joints as spheres joined by sticks (the
## back lock orange, the extended left lock green with its simulated tip,
## the right lock blue). Saves target/godot-screens/sim_convert.png; the
## image must not be blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const SimRig = preload("res://tests/sim_rig.gd")
const JOINTS := [3, 3, 3]
const COLOURS := [Color(1.0, 0.55, 0.1), Color(0.2, 0.85, 0.3), Color(0.25, 0.5, 1.0)]

func run(tree: SceneTree) -> String:
	if not ClassDB.class_exists("SpringBoneSimulator3D"):
		print("SKIPPED: SpringBoneSimulator3D needs Godot 4.4+")
		return ""
	var rig := SimRig.build(tree)
	var skel: Skeleton3D = rig.skel
	await tree.process_frame
	var hair: TressSpringHair = TressSpringHair.from_spring_bone_simulator(rig.sim)
	if hair == null:
		return "the converter refused the set-up"
	rig.sim.active = false
	skel.add_child(hair)
	var scene: Node3D = rig.scene
	_stage(scene)
	var shapes := _collider_meshes(scene)
	var joints: Array = []
	for c in 3:
		var row: Array = []
		for j in JOINTS[c] + 1:
			row.append(_ball(scene, 0.012, COLOURS[c]))
		joints.append(row)
	var head := skel.find_bone("Head")
	for f in 60:
		var q := Quaternion(Vector3.UP, deg_to_rad(50.0) * sin(PI * f / 50.0))
		skel.set_bone_pose_rotation(head, q)
		await tree.process_frame
		_place(hair, skel, joints, shapes, q)
	return await TestUtil.screenshot(tree, "sim_convert")

func _stage(scene: Node3D) -> void:
	var env := WorldEnvironment.new()
	env.environment = Environment.new()
	env.environment.background_mode = Environment.BG_COLOR
	env.environment.background_color = Color(0.13, 0.14, 0.17)
	env.environment.ambient_light_color = Color(0.5, 0.5, 0.55)
	env.environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	scene.add_child(env)
	var sun := DirectionalLight3D.new()
	sun.rotation = Vector3(deg_to_rad(-40), deg_to_rad(30), 0)
	scene.add_child(sun)
	var cam := Camera3D.new()
	cam.fov = 30.0
	cam.position = Vector3(0.75, 1.62, 0.8)
	scene.add_child(cam)
	cam.look_at(Vector3(0, 1.44, 0.03))
	cam.current = true

func _material(colour: Color) -> StandardMaterial3D:
	var m := StandardMaterial3D.new()
	m.albedo_color = colour
	if colour.a < 1.0:
		m.transparency = BaseMaterial3D.TRANSPARENCY_ALPHA
	return m

func _ball(scene: Node3D, r: float, colour: Color) -> MeshInstance3D:
	var mesh := SphereMesh.new()
	mesh.radius = r
	mesh.height = 2.0 * r
	mesh.material = _material(colour)
	var n := MeshInstance3D.new()
	n.mesh = mesh
	scene.add_child(n)
	return n

## [head ball, capsule, block] meshes, drawn at the sizes the hair uses.
func _collider_meshes(scene: Node3D) -> Array:
	var see := Color(0.85, 0.85, 0.9, 0.35)
	var ball := _ball(scene, 0.1, see)
	var block := _ball(scene, 0.03, Color(0.9, 0.3, 0.6, 0.45))
	block.position = SimRig.BLOCK
	var cap_mesh := CapsuleMesh.new()
	cap_mesh.radius = 0.03
	cap_mesh.height = 0.46
	cap_mesh.material = _material(see)
	var cap := MeshInstance3D.new()
	cap.mesh = cap_mesh
	scene.add_child(cap)
	return [ball, cap, block]

func _place(hair: TressSpringHair, skel: Skeleton3D, joints: Array, shapes: Array, q: Quaternion) -> void:
	var head := Transform3D(Basis(q), SimRig.HEAD)
	shapes[0].transform = head
	shapes[1].transform = head * Transform3D(Basis(Quaternion(Vector3.UP, Vector3.RIGHT)), Vector3(0, -0.17, -0.02))
	var roots := [Vector3(0, 0, 0.12), Vector3(0.12, 0, 0), Vector3(-0.12, 0, 0)]
	for c in 3:
		var points: Array[Vector3] = [head * roots[c]]
		for j in JOINTS[c]:
			points.append(hair.get_joint_tail(c, j))
		for j in points.size():
			joints[c][j].position = points[j]
		_sticks(skel.get_parent(), c, points)

## Thin cylinders between consecutive joints, reused frame to frame.
func _sticks(scene: Node3D, c: int, points: Array[Vector3]) -> void:
	for j in points.size() - 1:
		var name := "Stick%d_%d" % [c, j]
		var n: MeshInstance3D = scene.get_node_or_null(name)
		if n == null:
			var mesh := CylinderMesh.new()
			mesh.top_radius = 0.005
			mesh.bottom_radius = 0.005
			mesh.height = 1.0
			mesh.material = _material(COLOURS[c])
			n = MeshInstance3D.new()
			n.name = name
			n.mesh = mesh
			scene.add_child(n)
		var a: Vector3 = points[j]
		var b: Vector3 = points[j + 1]
		var up := (b - a).normalized()
		var side := up.cross(Vector3.FORWARD)
		if side.length() < 1e-3:
			side = up.cross(Vector3.RIGHT)
		side = side.normalized()
		n.transform = Transform3D(Basis(side, up * a.distance_to(b), side.cross(up)), (a + b) * 0.5)
