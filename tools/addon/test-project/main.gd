## Adds a TressAvatar with the built-in avatar from this project's res://,
## turns its head 60 degrees and back, and checks that the hair lags the head
## during the turn and settles where it began. Prints ADDON TEST PASS or ADDON TEST
## FAIL and quits 0 or 1.
extends Node3D

const TIP := "HairFrontLockL_tip"

func _ready() -> void:
	var failure: String = await _run()
	if failure.is_empty():
		print("ADDON TEST PASS")
		get_tree().quit(0)
	else:
		printerr("ADDON TEST FAIL: ", failure)
		get_tree().quit(1)

func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame

func _run() -> String:
	if not ClassDB.class_exists("TressAvatar"):
		return "the TressAvatar class is not registered: the addon's extension did not load"
	var avatar: Node3D = ClassDB.instantiate("TressAvatar")
	add_child(avatar)
	if not avatar.load_vrm("res://tress_avatar.vrm"):
		return "load_vrm(res://tress_avatar.vrm) failed"
	await _frames(30)
	var skel: Skeleton3D = avatar.get_skeleton()
	if skel == null:
		return "no Skeleton3D"
	if avatar.get_hair_node() == null:
		return "no TressSpringHair under the avatar"
	var head := skel.find_bone("Head")
	var tip := skel.find_bone(TIP)
	if head < 0 or tip < 0:
		return "bones Head / %s missing" % TIP
	# Godot restores the unmodified poses after each update; the hair's
	# result is readable when the skeleton reports it has updated.
	var seen: Array[Transform3D] = [Transform3D(), Transform3D()]
	skel.skeleton_updated.connect(func() -> void:
		seen[0] = skel.get_bone_global_pose(head)
		seen[1] = skel.get_bone_global_pose(tip))
	await _frames(2)
	var head_rest := seen[0]
	var tip_rest := seen[1].origin
	# The tip as carried rigidly by the head, for a head pose `h`.
	var carried := func(h: Transform3D) -> Vector3:
		return h * (head_rest.affine_inverse() * tip_rest)
	# Turn the head 60 degrees about the vertical in a quarter second.
	var largest_lag := 0.0
	var base := skel.get_bone_pose_rotation(head)
	for i in 15:
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * (i + 1) / 15.0)
		skel.set_bone_pose_rotation(head, q * base)
		await _frames(1)
		largest_lag = maxf(largest_lag, seen[1].origin.distance_to(carried.call(seen[0])))
	if largest_lag < 0.01:
		return "the hair tip stayed within %.4f m of where the head carries it: no spring motion" % largest_lag
	# Hold a second, turn back, hold still: the hair settles where it began.
	await _frames(60)
	for i in 15:
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * (14 - i) / 15.0)
		skel.set_bone_pose_rotation(head, q * base)
		await _frames(1)
	await _frames(240)
	var settled: float = seen[1].origin.distance_to(tip_rest)
	if settled > 0.005:
		return "4 s after the head came back the tip is %.4f m from where it began" % settled
	print("addon: hair tip lagged up to %.3f m during the turn, came back to %.4f m of its start" % [largest_lag, settled])
	return ""
