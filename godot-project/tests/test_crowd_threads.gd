## Issue 21 acceptance 3: hairs stepped together on two threads
## (`TressSpringHair.set_crowd_threads(2)`) pose their bones bit for bit as
## hairs stepped one by one in their own updates (the threads = 1 path).
##
## 20 pairs of built-in avatars: in each pair both avatars stand at the same
## place and play the same head-swing clip from the same phase (a different
## phase per pair); one hair joins the shared step, its twin does not
## (`step_with_crowd = false`, the serial update), so both get the same
## frame deltas. Every bone's local pose of every skeleton is read after
## each skeleton update (`skeleton_updated`: the modified pose is readable
## only then) for 90 frames and compared with `==` (exact).
## Each joined skeleton's update also asks the next pair's joined hair for
## a joint tail, before that hair's own update: its step may still be out
## on a helper, and the call must wait for it (`crowd::settle`), see a
## solver (not the zero of a hair without one) and leave the result equal.
## It fails when the shared step did not run on 2 threads for the 20
## hairs, when the hair did not move (the comparison would be empty), when
## a peek found no solver, or on the first differing bone.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const Crowd = preload("res://bench/crowd.gd")
const PAIRS := 20
const FRAMES := 90

## Every bone's local pose after each update of one skeleton.
class Probe:
	var skel: Skeleton3D
	var poses: Array[Transform3D] = []
	## Another hair asked for a joint tail in each update (crowd probes).
	var peek: TressSpringHair = null
	var peeks := 0
	var empty_peeks := 0
	func _init(s: Skeleton3D) -> void:
		skel = s
		poses.resize(s.get_bone_count())
		s.skeleton_updated.connect(_read)
	func _read() -> void:
		for b in poses.size():
			poses[b] = skel.get_bone_pose(b)
		if peek != null:
			peeks += 1
			if peek.get_joint_tail(0, 1) == Vector3.ZERO:
				empty_peeks += 1

func run(tree: SceneTree) -> String:
	TressSpringHair.set_crowd_threads(2)
	var clip: Animation = null
	var crowd: Array[Probe] = []
	var serial: Array[Probe] = []
	var rest: Array[Transform3D] = []
	var joined_hairs: Array[TressSpringHair] = []
	for k in PAIRS:
		var place := Vector3((k % 5) * 1.5, 0.0, (k / 5) * 1.5)
		var phase := float(k) / PAIRS * Crowd.PERIOD
		for joined in [true, false]:
			var a := TressAvatar.new()
			a.position = place
			tree.root.add_child(a)
			if not a.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
				return "cannot load the built-in avatar"
			var hair := a.get_hair_node()
			if hair == null:
				return "the built-in avatar has no hair node"
			hair.step_with_crowd = joined
			if joined:
				joined_hairs.append(hair)
			if clip == null:
				clip = Crowd.head_swing(a)
			Crowd.play(a, clip, phase)
			var probe := Probe.new(a.get_skeleton())
			(crowd if joined else serial).append(probe)
			if rest.is_empty():
				for b in a.get_skeleton().get_bone_count():
					rest.append(a.get_skeleton().get_bone_pose(b))
	for k in PAIRS - 1:
		crowd[k].peek = joined_hairs[k + 1]
	if TressSpringHair.get_crowd_size() != 2 * PAIRS:
		return "%d hairs joined, expected %d" % [TressSpringHair.get_crowd_size(), 2 * PAIRS]
	var moved := 0
	for f in FRAMES:
		await tree.process_frame
		var timing := TressSpringHair.get_crowd_timing()
		if f > 2 and (timing["stepped"] != PAIRS or timing["threads"] != 2):
			return "frame %d: the shared step ran %s" % [f, timing]
		for k in PAIRS:
			var a := crowd[k]
			var b := serial[k]
			for bone in a.poses.size():
				if a.poses[bone] != b.poses[bone]:
					return "frame %d, pair %d, bone %s: together %s, one by one %s" % [
						f, k, a.skel.get_bone_name(bone), a.poses[bone], b.poses[bone]]
				if f == FRAMES - 1 and a.poses[bone] != rest[bone]:
					moved += 1
	var peeks := 0
	for p in crowd:
		peeks += p.peeks
		if p.empty_peeks > 0:
			return "a hair asked mid-frame had no solver %d times" % p.empty_peeks
	if peeks < (PAIRS - 1) * (FRAMES - 1):
		return "only %d peeks ran" % peeks
	# Hair bones and the head move; an empty pose list or a still crowd
	# would compare equal without proving anything.
	if moved < PAIRS * 20:
		return "only %d bone poses left their rest pose" % moved
	print("crowd threads: %d pairs equal for %d frames, %d moved bone poses at the end" % [PAIRS, FRAMES, moved])
	var why := await _reparented(tree, crowd[0], joined_hairs[0])
	TressSpringHair.set_crowd_threads(1)
	return why

## A joined hair moved to another avatar's skeleton (that avatar's own hair
## freed) poses the new skeleton's hair bones and leaves the old one's: the
## hair's skeleton is taken again when it enters the tree.
func _reparented(tree: SceneTree, old: Probe, hair: TressSpringHair) -> String:
	var other := TressAvatar.new()
	other.position = Vector3(-3, 0, 0)
	tree.root.add_child(other)
	if not other.load_vrm(TestUtil.repo_path("assets/tress_avatar.vrm")):
		return "cannot load the built-in avatar"
	other.get_hair_node().free()
	var fresh := Probe.new(other.get_skeleton())
	var bone := old.skel.find_bone("HairFrontLockL_2")
	if bone < 0:
		return "the built-in avatar has no bone HairFrontLockL_2"
	var rest_pose := other.get_skeleton().get_bone_pose(bone)
	hair.reparent(other.get_skeleton(), false)
	var moved_new := false
	for f in 10:
		await tree.process_frame
		moved_new = moved_new or fresh.poses[bone] != rest_pose
	if not moved_new:
		return "the reparented hair never posed its new skeleton's bone"
	if old.poses[bone] != rest_pose:
		return "the reparented hair still poses its old skeleton (%s)" % old.poses[bone]
	return ""
