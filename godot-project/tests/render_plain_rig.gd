## Renders the plain glTF humanoid (no VRM data;
## `assets/tress_plain_rig.glb`) in TressAvatar under Xvfb, seen from
## behind and to the side while its head turns, so the four chains found
## under the head can be seen swinging; the screenshot must not be blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var path := TestUtil.repo_path("assets/tress_plain_rig.glb")
	var stage := await TestUtil.stage_with(tree, path)
	if stage == null:
		return "could not load %s" % path
	stage.frame(true)
	stage.yaw = deg_to_rad(140.0)
	stage.update_camera()
	var skel: Skeleton3D = stage.avatar.get_skeleton()
	var head := skel.find_bone("head")
	var rest := skel.get_bone_rest(head).basis.get_rotation_quaternion()
	for f in 30:
		skel.set_bone_pose_rotation(head, rest * Quaternion(Vector3.UP, deg_to_rad(50.0) * sin(PI * f / 30.0)))
		await tree.process_frame
	return await TestUtil.screenshot(tree, "plain_rig")
