## A plain glTF humanoid plays in TressAvatar (issue 18, item 1): the
## Godot-spring-bone-test-rig-style file that crates/tress-cli/tests/plain_rig.rs
## writes (snake_case bones, four 5-bone chains under `head`, no VRM data)
## gets a humanoid from its bone names and its dangling chains as spring
## hair; turning the head swings every chain (each tip lags a rigidly
## carried chain by over 1 cm). With chains_under_head off it
## gets no chains.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var path := TestUtil.repo_path("target/test-out/plain_rig.glb")
	if not FileAccess.file_exists(path):
		if OS.get_environment("CI") != "":
			return "%s is missing: the cargo tests (tress-cli plain_rig.rs) write it first" % path
		print("SKIPPED: %s not found (run cargo test -p tress-cli --test plain_rig)" % path)
		return ""
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(path):
		return "could not load %s" % path
	if avatar.get_humanoid_bone("head") != "head" or avatar.get_humanoid_bone("leftLowerArm") != "forearm_l":
		return "humanoid by name gave head=%s leftLowerArm=%s" % [avatar.get_humanoid_bone("head"), avatar.get_humanoid_bone("leftLowerArm")]
	var hair := avatar.get_hair_node()
	if hair == null:
		return "no TressSpringHair for the chains under the head"
	var skel := avatar.get_skeleton()
	var head := skel.find_bone("head")
	var head_rest := skel.get_bone_rest(head).basis.get_rotation_quaternion()
	var tips: Array[int] = []
	for c in 4:
		var b := skel.find_bone("ponytail_%d_4" % c)
		if b < 0:
			return "bone ponytail_%d_4 missing" % c
		tips.append(b)
	# Godot restores the un-modified poses after each update; the modified
	# ones are readable when the skeleton reports it has updated.
	var seen: Array[Transform3D] = []
	seen.resize(5)
	skel.skeleton_updated.connect(func() -> void:
		seen[0] = skel.get_bone_global_pose(head)
		for c in 4:
			seen[c + 1] = skel.get_bone_global_pose(tips[c]))
	var lag: Array[float] = [0.0, 0.0, 0.0, 0.0]
	for f in 90:
		skel.set_bone_pose_rotation(head, head_rest * Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 45.0)))
		await tree.process_frame
		for c in 4:
			var tip := seen[c + 1].origin
			if not tip.is_finite():
				return "ponytail_%d_4 is not finite at frame %d" % [c, f]
			# How far the tip is from where a rigidly carried chain would be.
			var rigid_tip := seen[0] * (skel.get_bone_global_rest(head).affine_inverse() * skel.get_bone_global_rest(tips[c]).origin)
			lag[c] = maxf(lag[c], rigid_tip.distance_to(tip))
	for c in 4:
		if lag[c] < 0.01:
			return "chain %d never lagged the head (%.4f m): is it simulated?" % [c, lag[c]]
	print("plain rig: humanoid by name; the 4 chains' tips lag a rigid carry by %.3f, %.3f, %.3f, %.3f m" % lag)
	avatar.queue_free()
	# Off: the model shows, no chain is added.
	var bare := TressAvatar.new()
	bare.chains_under_head = false
	tree.root.add_child(bare)
	if not bare.load_vrm(path):
		return "could not load %s with chains_under_head off" % path
	await TestUtil.frames(tree, 2)
	var none := bare.get_hair_node()
	if none != null and not none.get_chain_descriptions().is_empty():
		return "chains_under_head = false still added %d chains" % none.get_chain_descriptions().size()
	bare.queue_free()
	return ""
