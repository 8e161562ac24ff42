## Renders the built-in avatar with strand hair grown by TressAvatar
## (`strand_groom`, a quarter of the 6,000 strands) during a head turn, its
## ponytail hidden through `hidden_meshes`; saves
## target/godot-screens/avatar_strands.png, which must be non-blank.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const TressStage = preload("res://demo/stage.gd")

func run(tree: SceneTree) -> String:
	var stage := TressStage.new()
	tree.root.add_child(stage)
	stage.avatar.hidden_meshes = PackedStringArray(["Ponytail"])
	stage.avatar.strand_groom = TestUtil.repo_path("assets/tress_groom.tfx")
	stage.avatar.strand_fraction = 0.25
	if not stage.load_model(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	var strands := stage.avatar.get_strand_node()
	if strands == null or strands.strand_count() != 1500:
		return "expected 1,500 strands on the avatar"
	var skel := stage.avatar.get_skeleton()
	var head := skel.find_bone(stage.avatar.get_humanoid_bone("head"))
	stage.fit_to_head((skel.global_transform * skel.get_bone_global_rest(head)).origin)
	stage.yaw = 0.5
	stage.frame(true)
	for f in 40:
		skel.set_bone_pose_rotation(head, skel.get_bone_rest(head).basis.get_rotation_quaternion() * Quaternion(Vector3.UP, deg_to_rad(45.0) * sin(PI * f / 40.0)))
		await tree.process_frame
	return await TestUtil.screenshot(tree, "avatar_strands")
