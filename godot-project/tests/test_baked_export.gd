## The baked export loads in Godot (issue 6, acceptance 3): the file that
## crates/tress-tools/tests/tools/export.rs writes (`tress export … --bake --loop`
## in library form: Walk_Loop on the built-in avatar with its spring hair
## baked) imports through GLTFDocument with an animation whose tracks move
## the hair bones, and playing it moves them.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var path := TestUtil.repo_path("target/test-out/baked_walk.glb")
	if not FileAccess.file_exists(path):
		if OS.get_environment("CI") != "":
			return "%s is missing: the cargo tests (export.rs) write it first" % path
		print("SKIPPED: %s not found (run cargo test -p tress-tools --test tools export)" % path)
		return ""
	var doc := GLTFDocument.new()
	var state := GLTFState.new()
	if doc.append_from_file(path, state) != OK:
		return "GLTFDocument could not read the baked file"
	var scene := doc.generate_scene(state)
	tree.root.add_child(scene)
	var players := scene.find_children("*", "AnimationPlayer", true, false)
	if players.is_empty():
		return "no AnimationPlayer in the imported scene"
	var player: AnimationPlayer = players[0]
	var name := ""
	for n in player.get_animation_list():
		if String(n).contains("baked hair"):
			name = n
	if name == "":
		return "no baked animation among %s" % str(player.get_animation_list())
	var anim := player.get_animation(name)
	var hair_tracks := 0
	for t in anim.get_track_count():
		if String(anim.track_get_path(t)).contains(":Hair"):
			hair_tracks += 1
	if hair_tracks < 36:
		return "only %d hair bone tracks in '%s' (want 36)" % [hair_tracks, name]
	var skel: Skeleton3D = scene.find_children("*", "Skeleton3D", true, false)[0]
	var bone := skel.find_bone("HairBangL1_0")
	var rest := skel.get_bone_rest(bone).basis.get_rotation_quaternion()
	player.play(name)
	var widest := 0.0
	for f in 40:
		await tree.process_frame
		widest = maxf(widest, rad_to_deg(skel.get_bone_pose_rotation(bone).angle_to(rest)))
	if widest < 1.0:
		return "the baked hair does not move HairBangL1_0 (%.2f°)" % widest
	print("baked export: '%s', %d hair tracks, HairBangL1_0 swings %.1f° from rest" % [name, hair_tracks, widest])
	scene.queue_free()
	return ""
