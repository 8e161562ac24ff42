## Renders the built-in avatar's head close up in the middle of a head
## swing, with the ribbon-lock options off and then on (flat locks at 5/s, drape
## and the lock twist: docs/SOLVER.md, "Lock twist"), and saves both
## screenshots (avatar_locks_plain.png, avatar_locks_options.png) for a
## look at what the options do to the skinned locks while the head turns.
## Checks that the options reach the rig (lock shapes read from the skin)
## and that neither picture is blank.
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
	var rest := skel.get_bone_rest(head).basis.get_rotation_quaternion()
	if hair.get_lock_shapes().size() == 0:
		return "no lock shapes read from the built-in avatar's skin"
	for pass_name in ["plain", "options"]:
		var on: bool = pass_name == "options"
		hair.flat_lock_stiffness = 5.0 if on else 0.0
		hair.drape = on
		hair.lock_twist = on
		if hair.lock_twist != on or hair.chain_count() == 0:
			return "%s: the options did not take (lock_twist %s, %d chains)" % [pass_name, hair.lock_twist, hair.chain_count()]
		# Swing the head ±50° and take the picture mid-swing, turning back
		# through 25°: the locks trail across the face and shoulder, where
		# they bend most.
		for f in 31:
			var yaw := deg_to_rad(50.0) * sin(PI * f / 18.0)
			skel.set_bone_pose_rotation(head, rest * Quaternion(Vector3.UP, yaw))
			await tree.process_frame
		var why: String = await TestUtil.screenshot(tree, "avatar_locks_" + pass_name)
		if why != "":
			return "%s: %s" % [pass_name, why]
		skel.set_bone_pose_rotation(head, rest)
		await TestUtil.frames(tree, 30)
	return ""
