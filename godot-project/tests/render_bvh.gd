## BVH motion capture on TressAvatar (issue #18, item 3): Walk_Loop and
## Idle_Loop written as BVH by Tress's exporter (tools/godot-tests.sh writes
## target/bvh/ before this test: CMU names and channel order, and Rigify
## names in YXZ order) load onto the built-in avatar with load_animations,
## play, move the bones, keep the lower ankle near its rest height, and
## render (target/godot-screens/bvh_walk.png, checked non-blank). A broken
## BVH is reported and adds nothing while the scene keeps running.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var walk := TestUtil.repo_path("target/bvh/Walk_Loop.bvh")
	var idle := TestUtil.repo_path("target/bvh/Idle_Loop.bvh")
	if not FileAccess.file_exists(TestUtil.repo_path("../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf")):
		if OS.get_environment("CI") != "":
			return "../shared/assets is missing under CI"
		print("SKIPPED: ../shared/assets not found")
		return ""
	if not FileAccess.file_exists(walk) or not FileAccess.file_exists(idle):
		return "target/bvh/ has no Walk_Loop.bvh / Idle_Loop.bvh (tools/godot-tests.sh render_bvh writes them)"
	var stage := await TestUtil.stage_with(tree, TestUtil.repo_path("assets/tress_avatar.vrm"))
	if stage == null:
		return "could not load the built-in avatar"
	var avatar: TressAvatar = stage.avatar
	var skel := avatar.get_skeleton()
	await TestUtil.frames(tree, 2)
	var rest_foot := minf(TestUtil.humanoid_world(avatar, skel, "leftFoot").y, TestUtil.humanoid_world(avatar, skel, "rightFoot").y)
	var rest_hips := TestUtil.humanoid_world(avatar, skel, "hips").y

	# Broken input first: reported, nothing added.
	var bad := "user://broken.bvh"
	var f := FileAccess.open(bad, FileAccess.WRITE)
	f.store_string("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 90 0\n  CHANNELS 3 Zrotation Xrotation Qrotation\n}\n")
	f.close()
	if avatar.load_animations(bad).size() != 0:
		return "a broken BVH added clips"

	var names := avatar.load_animations(walk)
	names.append_array(avatar.load_animations(idle))
	if names != PackedStringArray(["Walk_Loop", "Idle_Loop"]):
		return "expected clips Walk_Loop and Idle_Loop, got %s" % [names]
	if not avatar.play_animation("Walk_Loop"):
		return "Walk_Loop did not play"
	var w: Dictionary = await TestUtil.watch_stride(tree, avatar, skel, rest_foot)
	var left_ahead: int = w.left_ahead
	var right_ahead: int = w.right_ahead
	var low_min: float = w.low_min
	var low_max: float = w.low_max
	var hand_min: float = w.hand_min
	var hand_max: float = w.hand_max
	if left_ahead == 0 or right_ahead == 0:
		return "BVH walk: feet do not alternate (left ahead %d, right ahead %d frames)" % [left_ahead, right_ahead]
	if hand_max - hand_min < 0.05:
		return "BVH walk: the left hand swings only %.3f m" % (hand_max - hand_min)
	# As test_animation: the ankle never sunk, and up no more than a heel-off.
	if low_min < -0.02 or low_max > 0.1 * rest_hips / 0.95:
		return "BVH walk: lower ankle between %.3f and %.3f m of its rest height" % [low_min, low_max]
	print("BVH walk: feet alternate (%d/%d frames), lower ankle %.3f..%.3f m, hand swing %.3f m" % [
		left_ahead, right_ahead, low_min, low_max, hand_max - hand_min])
	stage.frame(false)
	avatar.restart_animation()
	await TestUtil.frames(tree, 12)
	var shot := await TestUtil.screenshot(tree, "bvh_walk")
	if not shot.is_empty():
		return shot
	if not avatar.play_animation("Idle_Loop"):
		return "Idle_Loop did not play"
	await TestUtil.frames(tree, 10)
	var idle_hips := TestUtil.humanoid_world(avatar, skel, "hips").y
	if absf(idle_hips - rest_hips) > 0.08 * rest_hips:
		return "BVH idle hips at %.3f m, rest %.3f m" % [idle_hips, rest_hips]
	return ""
