## Authored motion wins: with an AnimationPlayer animating a bone of the
## hand-made lock, TressSpringHair yields (the lock shows exactly the animated
## rotations, no second motion on top) and, when the animation ends, picks up
## from the animated motion without a jump.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

func run(tree: SceneTree) -> String:
	var scene: Node3D = load("res://tests/scenes/hand_rig.tscn").instantiate()
	var anim := Animation.new()
	anim.length = 1.0
	var track := anim.add_track(Animation.TYPE_ROTATION_3D)
	anim.track_set_path(track, NodePath("Skeleton:Lock1"))
	anim.rotation_track_insert_key(track, 0.0, Quaternion(Vector3.RIGHT, deg_to_rad(30.0)))
	anim.rotation_track_insert_key(track, 1.0, Quaternion(Vector3.RIGHT, deg_to_rad(-30.0)))
	var lib := AnimationLibrary.new()
	lib.add_animation("wave", anim)
	var player := AnimationPlayer.new()
	player.name = "Player"
	scene.add_child(player)
	player.add_animation_library("", lib)
	var hair: TressSpringHair = scene.get_node("Skeleton/Hair")
	# Without the block the lock can swing back freely once released.
	scene.get_node("Skeleton/Hair/Block").free()
	hair.animation_player = NodePath("../../Player")
	tree.root.add_child(scene)
	await TestUtil.frames(tree, 5)
	player.play("wave")
	# While it plays, the solver yields: the end of Lock1's segment is where
	# the animated rotation puts it (Lock0 keeps its rest pose, so Lock1
	# starts at head + (0, 0, 0.12) + (0, -0.08, 0)).
	var worst := 0.0
	for f in 40:
		await tree.process_frame
		if f < 2:
			continue
		var q := anim.rotation_track_interpolate(track, player.current_animation_position)
		var want := Vector3(0, 1.52, 0.12) + q * Vector3(0, -0.08, 0)
		worst = maxf(worst, want.distance_to(hair.get_joint_tail(0, 1)))
	if worst > 0.002:
		return "while animated, Lock2 is %.4f m off the animated pose: the solver did not yield" % worst
	# Run until the animation ends, then watch the solver take over.
	for f in 300:
		if not player.is_playing():
			break
		await tree.process_frame
	if player.is_playing():
		return "the animation should have ended"
	var jump := 0.0
	var start := hair.get_joint_tail(0, 2)
	var last := start
	for f in 30:
		await tree.process_frame
		var now := hair.get_joint_tail(0, 2)
		jump = maxf(jump, last.distance_to(now))
		last = now
	var moved := start.distance_to(last)
	if moved < 0.01:
		return "after the animation ended the lock did not move back toward rest (%.4f m)" % moved
	if not last.is_finite() or jump > 0.02:
		return "after the animation ended the tip jumped %.4f m in one frame" % jump
	print("authored: within %.5f m of the animation while it played; after release the tip moved %.3f m, at most %.4f m a frame" % [worst, moved, jump])
	scene.queue_free()
	return ""
