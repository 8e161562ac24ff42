## TressAvatar options: accessories hidden by mesh name (and shown again),
## an unknown name reported, and strand hair grown on the head bone from a
## groom (the built-in 6,000-strand groom at 5 %), carried by the head as it
## turns, finite, roots on the scalp.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var avatar := TressAvatar.new()
	avatar.hidden_meshes = PackedStringArray(["Ponytail"])
	avatar.strand_groom = TestUtil.repo_path("assets/tress_groom.tfx")
	avatar.strand_fraction = 0.05
	tree.root.add_child(avatar)
	if not avatar.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	var names := avatar.get_mesh_names()
	if not names.has("Ponytail"):
		return "mesh names %s lack Ponytail" % str(names)
	var model := avatar.get_child(0)
	var ponytail: MeshInstance3D = model.find_child("Ponytail", true, false)
	var body: MeshInstance3D = model.find_child("Body", true, false)
	if ponytail == null or body == null:
		return "Ponytail or Body mesh instance not found"
	if ponytail.visible or not body.visible:
		return "hidden_meshes did not hide only the ponytail"
	avatar.hidden_meshes = PackedStringArray()
	if not ponytail.visible:
		return "clearing hidden_meshes did not show the ponytail again"
	avatar.hidden_meshes = PackedStringArray(["NoSuchMesh"])
	if not ponytail.visible or not body.visible:
		return "an unknown name hid something"
	var strands := avatar.get_strand_node()
	if strands == null:
		return "no TressStrandHair for strand_groom"
	if strands.strand_count() != 300:
		return "expected 300 strands (5 %% of 6,000), got %d" % strands.strand_count()
	var skel := avatar.get_skeleton()
	var head := skel.find_bone(avatar.get_humanoid_bone("head"))
	var head_xf := skel.global_transform * skel.get_bone_global_pose(head)
	# Each root's place in the head's frame must not change as the head turns.
	var roots: Array[Vector3] = []
	for s in strands.strand_count():
		roots.append(head_xf.affine_inverse() * strands.get_particle(s, 0))
	for f in 70:
		skel.set_bone_pose_rotation(head, skel.get_bone_rest(head).basis.get_rotation_quaternion() * Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 45.0)))
		await tree.process_frame
	head_xf = skel.global_transform * skel.get_bone_global_pose(head)
	var worst_root := 0.0
	for s in strands.strand_count():
		var root := strands.get_particle(s, 0)
		var tip := strands.get_particle(s, 15)
		if not root.is_finite() or not tip.is_finite():
			return "strand %d is not finite" % s
		worst_root = maxf(worst_root, (head_xf.affine_inverse() * root).distance_to(roots[s]))
	# The head did turn (so a root left behind in the world would show).
	var turned := skel.get_bone_pose_rotation(head).angle_to(skel.get_bone_rest(head).basis.get_rotation_quaternion())
	if turned < deg_to_rad(5.0):
		return "the head did not turn (%.1f°)" % rad_to_deg(turned)
	if worst_root > 0.002:
		return "a root moved %.4f m in the head's frame" % worst_root
	if strands.count_penetrations(0.002) > 0:
		return "%d particles more than 2 mm inside the head collider" % strands.count_penetrations(0.002)
	print("strands: %d on the head, roots within %.5f m of their place on the head after a %.0f° turn; hidden: Ponytail" % [strands.strand_count(), worst_root, rad_to_deg(turned)])
	avatar.queue_free()
	return ""
