## The Ratboy mohawk (../shared/assets; SKIPPED without it, failing under
## CI) on its moving test skeleton (test_strand_skinning.gd builds it from
## the .tfxbone's bone names; no Ratboy skeleton or body ships), seen from
## the side: the head nodded forward and the upper spine swayed, then the
## other way, each after 1 s of a procedural animation, on its body
## (Ratboy_body.tfxmesh, skinned to the same bones by load_body_mesh). Saves
## target/godot-screens/strand_skinning_{forward,back}.png and the two side
## by side as strand_skinning.png. The orange sphere marks the pivot the
## head and spine bones turn about. Each picture must be non-blank, and the crown's roots must have
## moved between the two poses by more than 5 cm on screen-space terms
## (the head's nod is ±0.5 rad about a pivot 0.95 m up).
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const Skinning = preload("res://tests/test_strand_skinning.gd")

func run(tree: SceneTree) -> String:
	var dir := TestUtil.repo_path("../shared/assets/tressfx4-ratboy")
	var tfx := dir.path_join("Ratboy_mohawk.tfx")
	if not FileAccess.file_exists(tfx):
		print("SKIPPED: strand skinning render (%s not found)" % tfx)
		if OS.has_environment("CI"):
			return "shared assets missing under CI"
		return ""
	var root := Node3D.new()
	tree.root.add_child(root)
	_environment(root)
	var names := TressStrandHair.read_tfxbone_names(dir.path_join("Ratboy_mohawk.tfxbone"))
	var pivot := Vector3(0.0, 0.95, 0.0)
	var skel := Skinning.build_skeleton(names, pivot)
	root.add_child(skel)
	for bone in ["frenchHornMonster_head_JNT", "frenchHornMonster_spine03_JNT", "frenchHornMonster_root_JNT"]:
		var at := BoneAttachment3D.new()
		at.bone_name = bone
		skel.add_child(at)
		var ball := MeshInstance3D.new()
		var sphere := SphereMesh.new()
		sphere.radius = 0.03
		sphere.height = 0.06
		ball.mesh = sphere
		var mat := StandardMaterial3D.new()
		mat.albedo_color = Color(1.0, 0.55, 0.1)
		ball.material_override = mat
		at.add_child(ball)
	var hair := TressStrandHair.new()
	hair.particles = 16
	hair.root_color = Color(0.25, 0.08, 0.05)
	hair.tip_color = Color(0.95, 0.45, 0.2)
	skel.add_child(hair)
	if not hair.load_groom(tfx):
		return "the mohawk did not load"
	if not hair.is_skinned():
		return "the mohawk is not skinned on its skeleton"
	# The body the groom was made on, skinned to the same bones.
	var body := hair.load_body_mesh(dir.path_join("Ratboy_body.tfxmesh"))
	if body == null:
		return "the Ratboy body did not load"
	# Ratboy_body.tfxmesh: 86 bones, 12,909 vertices (docs/STRANDS.md).
	if body.skin == null or body.skin.get_bind_count() != 86:
		return "the Ratboy body is not skinned to its 86 bones"
	if body.mesh.surface_get_array_len(0) != 12909:
		return "the Ratboy body has %d vertices, not 12909" % body.mesh.surface_get_array_len(0)
	var body_mat := StandardMaterial3D.new()
	body_mat.albedo_color = Color(0.62, 0.56, 0.52)
	body.material_override = body_mat
	skel.add_child(body)
	var cam := Camera3D.new()
	cam.fov = 35
	root.add_child(cam)
	cam.position = Vector3(1.75, 0.75, 0.0)
	cam.look_at(Vector3(0.0, 0.68, 0.0))
	cam.current = true
	var head := skel.find_bone("frenchHornMonster_head_JNT")
	var spine3 := skel.find_bone("frenchHornMonster_spine03_JNT")
	# The strand whose root is highest: a crown strand on the head bone.
	var crown := 0
	for s in hair.strand_count():
		if hair.get_particle(s, 0).y > hair.get_particle(crown, 0).y:
			crown = s
	var shots: Array[Image] = []
	var crown_at: Array[Vector3] = []
	for side: float in [1.0, -1.0]:
		# Ease into the pose over 1 s so the strands swing and settle.
		for f in 60:
			var k: float = side * sin(0.5 * PI * (f + 1) / 60.0)
			skel.set_bone_pose_rotation(head, Quaternion(Vector3.RIGHT, 0.5 * k))
			skel.set_bone_pose_rotation(spine3, Quaternion(Vector3.RIGHT, 0.25 * k))
			await tree.process_frame
		await TestUtil.frames(tree, 30)
		var name := "strand_skinning_" + ("forward" if side > 0.0 else "back")
		var why := await TestUtil.screenshot(tree, name)
		if not why.is_empty():
			return "%s: %s" % [name, why]
		shots.append(tree.root.get_texture().get_image())
		crown_at.append(hair.get_particle(crown, 0))
	var w := shots[0].get_width()
	var h := shots[0].get_height()
	var both := Image.create(w * 2, h, false, shots[0].get_format())
	both.blit_rect(shots[0], Rect2i(0, 0, w, h), Vector2i(0, 0))
	both.blit_rect(shots[1], Rect2i(0, 0, w, h), Vector2i(w, 0))
	var path := TestUtil.repo_path("target/godot-screens/strand_skinning.png")
	if both.save_png(path) != OK:
		return "could not save " + path
	print("screenshot: ", path)
	var moved := crown_at[0].distance_to(crown_at[1])
	print("crown root moved %.3f m between the poses; length error max %.5f" % [moved, hair.max_length_error()])
	if moved < 0.05:
		return "the crown's root moved only %.3f m between the poses" % moved
	root.queue_free()
	return ""

func _environment(root: Node3D) -> void:
	preload("res://demo/stage.gd").add_lighting(root, Color(0.13, 0.14, 0.17),
			Color(0.5, 0.55, 0.65), 0.35, Vector3(-35, 60, 0), 1.6)
