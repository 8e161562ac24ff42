## Loads the built-in avatar through TressAvatar, steps frames, and checks the
## skeleton; a missing file must fail cleanly without stopping the scene.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	var path := TestUtil.repo_path("assets/tress_avatar.vrm")
	if not avatar.load_vrm(path):
		return "could not load %s" % path
	await TestUtil.frames(tree, 30)
	var skel := avatar.get_skeleton()
	if skel == null:
		return "no Skeleton3D in the loaded avatar"
	# 17 humanoid bones plus the hair joints of 8 locks (4x5 + 2x5 + 2x7 = 44).
	if avatar.bone_count() != 17 + 44:
		return "expected 61 bones, got %d" % avatar.bone_count()
	for bone in ["Hips", "Head", "HairFrontLockL_0", "HairFrontLockL_tip"]:
		if skel.find_bone(bone) < 0:
			return "bone %s missing" % bone
	if avatar.get_humanoid_bone("head") != "Head" or avatar.get_humanoid_bone("leftHand") != "LeftHand":
		return "humanoid lookup gave head=%s leftHand=%s" % [avatar.get_humanoid_bone("head"), avatar.get_humanoid_bone("leftHand")]
	var head := skel.get_bone_global_pose(skel.find_bone("Head"))
	if not head.origin.is_equal_approx(Vector3(0, 1.5, 0)):
		return "Head rest at %s, expected (0, 1.5, 0)" % head.origin
	# A missing file is reported and the avatar keeps its model.
	if avatar.load_vrm(TestUtil.repo_path("assets/does-not-exist.vrm")):
		return "loading a missing file reported success"
	await TestUtil.frames(tree, 2)
	if avatar.get_skeleton() == null:
		return "a failed load dropped the previous model"
	avatar.queue_free()
	return ""
