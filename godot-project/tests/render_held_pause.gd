## Renders the built-in avatar's head and shoulders with its hair node
## disabled while the head turns 80° (the node holds the hair:
## `SpringWorld::hold`, docs/SOLVER.md "Hold"), and saves the picture
## (avatar_held_pause.png): the front lock that the turn carries towards the
## shoulder lies on it instead of through it. Checks that the disabled node
## still writes the hair bones (the locks turn with the head) and that the
## picture is not blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var stage := await TestUtil.stage_with(tree, TestUtil.repo_path("assets/tress_avatar.vrm"))
	if stage == null:
		return "could not load the built-in avatar"
	stage.frame(true)
	var hair := stage.avatar.get_hair_node()
	var skel := stage.avatar.get_skeleton()
	var head := skel.find_bone(stage.avatar.get_humanoid_bone("head"))
	var lock := skel.find_bone("HairFrontLockR_0")
	var rest := skel.get_bone_rest(head).basis.get_rotation_quaternion()
	await TestUtil.frames(tree, 60)
	var before := (skel.global_transform * skel.get_bone_global_pose(lock)).basis.get_rotation_quaternion()
	hair.process_mode = Node.PROCESS_MODE_DISABLED
	for f in 41:
		var yaw := deg_to_rad(-80.0) * f / 40.0
		skel.set_bone_pose_rotation(head, rest * Quaternion(Vector3.UP, yaw))
		await tree.process_frame
	var after := (skel.global_transform * skel.get_bone_global_pose(lock)).basis.get_rotation_quaternion()
	var turned := rad_to_deg(before.angle_to(after))
	print("held pause: the front lock's root bone turned %.1f° with the head's 80°" % turned)
	if turned < 40.0:
		return "the held hair did not follow the head (%.1f°)" % turned
	return await TestUtil.screenshot(tree, "avatar_held_pause")
