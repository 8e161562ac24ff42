## Godette (VRM 0.x, ../shared/assets) loads through TressAvatar with its
## authored springs; the head turns for 2 s and every hair bone stays finite
## with its roots on the head. Skipped loudly when ../shared is absent
## (and failed under CI, where it is always provided).
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var path := TestUtil.repo_path("../shared/assets/godette-vrm0/Godette_vrm_v4.vrm")
	if not FileAccess.file_exists(path):
		if OS.get_environment("CI") != "":
			return "../shared/assets is missing under CI"
		print("SKIPPED: %s not found" % path)
		return ""
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(path):
		return "could not load Godette"
	var hair := avatar.get_hair_node()
	if hair == null:
		return "no TressSpringHair for Godette"
	# 8 bone-group chains of 2 simulated joints each (root + childless end
	# with its virtual 7 cm tail): read from the file's secondaryAnimation.
	if hair.chain_count() != 8 or hair.joint_count() != 16:
		return "expected 8 chains / 16 joints, got %d / %d" % [hair.chain_count(), hair.joint_count()]
	var skel := avatar.get_skeleton()
	var head_name := avatar.get_humanoid_bone("head")
	var head := skel.find_bone(head_name)
	if head < 0:
		return "the humanoid head ('%s') is not a skeleton bone" % head_name
	var bones: Array[int] = []
	for i in skel.get_bone_count():
		if skel.get_bone_name(i).begins_with("FrontHair") or skel.get_bone_name(i).begins_with("HairBall"):
			bones.append(i)
	if bones.is_empty():
		return "no hair bones found by name"
	var bad := []
	skel.skeleton_updated.connect(func() -> void:
		for b in bones:
			if not skel.get_bone_global_pose(b).origin.is_finite():
				bad.append(skel.get_bone_name(b)))
	for f in 120:
		skel.set_bone_pose_rotation(head, skel.get_bone_rest(head).basis.get_rotation_quaternion() * Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 60.0)))
		await tree.process_frame
	if not bad.is_empty():
		return "non-finite hair bones: %s" % str(bad.slice(0, 5))
	print("Godette: %d chains, %d joints simulated for 120 frames" % [hair.chain_count(), hair.joint_count()])
	avatar.queue_free()
	return ""
