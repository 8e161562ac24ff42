## VRM node constraints in Godot (issue 8): the VRM sample file's 11
## constraints (no skin: plain nodes) aim, roll and rotate their targets when
## the sources move; on the built-in avatar a constraint added by name runs
## after the playing animation (it overrides the animated right hand) and
## before the hair; bad names and a self-constraint are refused.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var sample := TestUtil.repo_path("../shared/assets/vrm-spec-samples/vrm_node_constraint_examples.glb")
	if not FileAccess.file_exists(sample):
		if OS.get_environment("CI") != "":
			return "../shared/assets is missing under CI"
		print("SKIPPED: ../shared/assets not found")
		return ""
	var why: String = await _sample(tree, sample)
	if why != "":
		return "sample: " + why
	return await _bones(tree)

func _sample(tree: SceneTree, path: String) -> String:
	var avatar := TressAvatar.new()
	avatar.spring_hair = false
	tree.root.add_child(avatar)
	if not avatar.load_vrm(path):
		return "could not load"
	if avatar.get_node_constraint_count() != 11:
		return "expected 11 constraints, got %d" % avatar.get_node_constraint_count()
	# Constraints on plain nodes run in the avatar's own process.
	if not avatar.is_processing():
		return "the avatar does not process its scene constraints"
	var model := avatar.get_child(0)
	var src: Node3D = model.find_child("SourceNNA", true, false)
	var aim_x: Node3D = model.find_child("TargetPosXNNA", true, false)
	var rot_src: Node3D = model.find_child("SourceRTNNSS", true, false)
	var rot_dst: Node3D = model.find_child("TargetRTNNSS", true, false)
	var roll_src: Node3D = model.find_child("SourceNNRL", true, false)
	var roll_x: Node3D = model.find_child("TargetX_NNRL", true, false)
	for n in [src, aim_x, rot_src, rot_dst, roll_src, roll_x]:
		if n == null:
			return "a sample node is missing"
	var rot_src_rest := rot_src.quaternion
	var rot_dst_rest := rot_dst.quaternion
	var roll_rest := roll_x.quaternion
	src.position += Vector3(0.3, 0.25, -0.2)
	rot_src.quaternion = rot_src_rest * Quaternion(Vector3(0.3, 1.0, 0.2).normalized(), 0.7)
	roll_src.quaternion = roll_src.quaternion * Quaternion(Vector3.RIGHT, 0.6) * Quaternion(Vector3.UP, 0.4)
	await TestUtil.frames(tree, 3)
	# Aim: the target's +X points at the source.
	var to_src := (src.global_position - aim_x.global_position).normalized()
	var x_axis := aim_x.global_transform.basis.x.normalized()
	if x_axis.dot(to_src) < 0.999:
		return "aim +X is %.1f° off the source" % rad_to_deg(acos(clampf(x_axis.dot(to_src), -1.0, 1.0)))
	# Rotation: the target's rotation change equals the source's.
	var want := rot_dst_rest * (rot_src_rest.inverse() * rot_src.quaternion)
	if rot_dst.quaternion.angle_to(want) > deg_to_rad(0.5):
		return "rotation target off by %.2f°" % rad_to_deg(rot_dst.quaternion.angle_to(want))
	# Roll about X: the target turned, and only about its X axis.
	var delta := roll_rest.inverse() * roll_x.quaternion
	if delta.get_angle() < deg_to_rad(5.0):
		return "roll target did not turn"
	if absf(delta.get_axis().normalized().dot(Vector3.RIGHT)) < 0.999:
		return "roll target turned about %s, not X" % str(delta.get_axis())
	avatar.queue_free()
	print("sample: aim, rotation and roll targets follow their sources")
	return ""

func _bones(tree: SceneTree) -> String:
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	# Nothing for its process to do: a crowd's avatars cost nothing there.
	if avatar.is_processing():
		return "an avatar without scene constraints processes every frame"
	var lib := TestUtil.repo_path("../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf")
	if avatar.load_animations(lib).size() == 0 or not avatar.play_animation("Idle_Loop"):
		return "could not play Idle_Loop"
	if avatar.add_node_constraint("NoSuchBone", "leftHand", "rotation", "", 1.0):
		return "an unknown bone was accepted"
	if avatar.add_node_constraint("rightHand", "rightHand", "rotation", "", 1.0):
		return "a self-constraint (a cycle) was accepted"
	if not avatar.add_node_constraint("rightHand", "leftHand", "rotation", "", 1.0):
		return "rightHand ← leftHand was refused"
	if avatar.get_node_constraint_count() != 1:
		return "expected 1 constraint, got %d" % avatar.get_node_constraint_count()
	var skel := avatar.get_skeleton()
	var cons := skel.get_child(0)
	if not cons.is_class("TressNodeConstraints"):
		return "TressNodeConstraints is not the skeleton's first modifier"
	var hair_index := avatar.get_hair_node().get_index()
	if hair_index <= cons.get_index():
		return "the hair (child %d) runs before the constraints (child %d)" % [hair_index, cons.get_index()]
	var l := skel.find_bone("LeftHand")
	var r := skel.find_bone("RightHand")
	var worst := [0.0, 0.0]
	skel.skeleton_updated.connect(func() -> void:
		var want := skel.get_bone_rest(r).basis.get_rotation_quaternion() * (skel.get_bone_rest(l).basis.get_rotation_quaternion().inverse() * skel.get_bone_pose_rotation(l))
		worst[0] = maxf(worst[0], skel.get_bone_pose_rotation(r).angle_to(want))
		worst[1] = maxf(worst[1], skel.get_bone_pose_rotation(l).angle_to(skel.get_bone_rest(l).basis.get_rotation_quaternion())))
	await TestUtil.frames(tree, 30)
	if worst[1] < deg_to_rad(1.0):
		return "the left hand never moved, so the check proves nothing"
	if worst[0] > deg_to_rad(0.5):
		return "right hand off the constraint by %.2f° while animated" % rad_to_deg(worst[0])
	print("bones: right hand follows the animated left hand within %.3f° (left moved %.1f°)" % [rad_to_deg(worst[0]), rad_to_deg(worst[1])])
	avatar.queue_free()
	return ""
