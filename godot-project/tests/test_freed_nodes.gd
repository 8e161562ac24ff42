## Nodes the extension keeps a handle to, freed from outside while it runs:
## a collider placed in the scene, the strand ribbon mesh, an avatar's
## animation player, its hair node and its whole model. Release builds skip
## gdext's per-call liveness checks (Cargo.toml: safeguards-release-disengaged),
## so every handle kept across frames must be checked before use; this debug
## build keeps the checks, and any call on a freed object panics, which fails
## the test (the runner rejects a log with "panic"). The scene keeps running
## and what remains keeps working.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	# 1. A hand-made rig whose scene-placed collider is freed mid-swing.
	var scene: Node3D = load("res://tests/scenes/hand_rig.tscn").instantiate()
	tree.root.add_child(scene)
	await tree.process_frame
	var skel: Skeleton3D = scene.get_node("Skeleton")
	var hair: TressSpringHair = scene.get_node("Skeleton/Hair")
	var head := skel.find_bone("Head")
	var tip := skel.find_bone("Lock3")
	await TestUtil.frames(tree, 10)
	scene.get_node("Skeleton/Hair/Block").free()
	for f in 30:
		skel.set_bone_pose_rotation(head, Quaternion(Vector3.UP, deg_to_rad(40.0) * sin(PI * f / 30.0)))
		await tree.process_frame
	if not skel.get_bone_global_pose(tip).origin.is_finite():
		return "the lock went non-finite after its collider was freed"
	if hair.chain_count() != 1:
		return "the hand-made chain is gone after a collider was freed (%d chains)" % hair.chain_count()
	scene.queue_free()

	# 2. Strand hair whose ribbon mesh node is freed: it keeps simulating
	# (the mesh is drawn again when the groom reloads).
	var holder := Node3D.new()
	tree.root.add_child(holder)
	var strands := TressStrandHair.new()
	strands.groom_path = TestUtil.repo_path("assets/tress_groom.tfx")
	holder.add_child(strands)
	await TestUtil.frames(tree, 5)
	var ribbons := strands.get_children(true).filter(func(n: Node) -> bool: return n is MeshInstance3D)
	if ribbons.is_empty():
		return "no ribbon mesh under the strand hair"
	ribbons[0].free()
	await TestUtil.frames(tree, 5)
	if strands.strand_count() <= 0:
		return "the strand hair lost its strands after its mesh node was freed"
	strands.strand_fraction = 0.5
	await TestUtil.frames(tree, 3)
	ribbons = strands.get_children(true).filter(func(n: Node) -> bool: return n is MeshInstance3D)
	if ribbons.size() != 1:
		return "reloading the groom did not make the ribbon mesh again (%d meshes)" % ribbons.size()
	holder.queue_free()

	# 3. An avatar whose animation player, hair node and model are freed.
	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the built-in avatar"
	await TestUtil.frames(tree, 5)
	var player := avatar.get_animation_player()
	if player:
		player.free()
	avatar.play_animation("nothing")
	avatar.stop_animation()
	avatar.restart_animation()
	await TestUtil.frames(tree, 3)
	avatar.get_hair_node().free()
	await TestUtil.frames(tree, 3)
	if avatar.get_hair_node() != null:
		return "get_hair_node() returned a freed node"
	avatar.get_skeleton().get_parent().free()
	await TestUtil.frames(tree, 3)
	if avatar.get_skeleton() != null:
		return "get_skeleton() returned a freed node"
	if avatar.bone_count() != 0:
		return "bone_count() = %d after the model was freed" % avatar.bone_count()
	avatar.hidden_meshes = PackedStringArray(["Body"])
	avatar.get_mesh_names()
	avatar.unload()
	# The avatar still loads a model afterwards.
	if not avatar.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "could not load the avatar again after its model was freed"
	await TestUtil.frames(tree, 5)
	if avatar.bone_count() != 61:
		return "reloaded avatar has %d bones, expected 61" % avatar.bone_count()
	avatar.queue_free()
	print("freed nodes: collider, ribbon mesh, animation player, hair node, model; the scene kept running")
	return ""
