## A crowd's motion: the standard head turn (±60° of yaw at 0.5 Hz, as the
## bench and issue #6's run use) as a looping Animation clip, played on
## each avatar from its own phase, so a crowd does not swing in step.
## Shared by bench.gd and tests/test_crowd_threads.gd.
extends RefCounted

const PERIOD := 2.0
const KEYS := 16

## The clip for avatars shaped like `avatar` (its skeleton's path and a
## bone named Head): one rotation track, KEYS keys per period.
static func head_swing(avatar: TressAvatar) -> Animation:
	var anim := Animation.new()
	anim.length = PERIOD
	anim.loop_mode = Animation.LOOP_LINEAR
	var track := anim.add_track(Animation.TYPE_ROTATION_3D)
	anim.track_set_path(track, NodePath("%s:Head" % avatar.get_path_to(avatar.get_skeleton())))
	for i in KEYS:
		var t := PERIOD * i / KEYS
		anim.rotation_track_insert_key(track, t, Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(TAU * t / PERIOD)))
	return anim

## Plays `clip` on `avatar` from `phase` seconds in, from an AnimationPlayer
## of its own (idle process, so it applies before the skeletons update).
static func play(avatar: TressAvatar, clip: Animation, phase: float) -> AnimationPlayer:
	var player := AnimationPlayer.new()
	var lib := AnimationLibrary.new()
	lib.add_animation("swing", clip)
	avatar.add_child(player)
	player.add_animation_library("", lib)
	player.play("swing")
	player.seek(phase, true)
	return player
