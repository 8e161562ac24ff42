## TressStrandHair's volume pass (issue 22, item 3), `keep_volume`: two
## copies of the procedural groom (a 10 % share, 600 strands) on one
## turning head, one with the pass on. With it on the pass finds and
## pushes close particles (its stats say how many) and the hair differs
## from the copy without it, everything finite; switched off it stops at
## once, switched on again it resumes without a reload.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

const GROOM := "assets/tress_groom.tfx"
const HEAD_Y := 1.6
const DT := 1.0 / 60.0

func make_hair(head: Node3D, keep: bool) -> TressStrandHair:
	var hair := TestUtil.strand_hair(head, HEAD_Y)
	hair.keep_volume = keep
	return hair

func turn(head: Node3D, hairs: Array, frames: int) -> void:
	for i in frames:
		head.rotation.y = 1.0 * sin(3.0 * head.get_meta("t", 0.0))
		head.set_meta("t", head.get_meta("t", 0.0) + DT)
		for h in hairs:
			h.step_frame(DT)

func run(tree: SceneTree) -> String:
	var head := Node3D.new()
	head.position = Vector3(0, HEAD_Y, 0)
	tree.root.add_child(head)
	var on := make_hair(head, true)
	var off := make_hair(head, false)
	for h in [on, off]:
		if not h.load_groom(TestUtil.repo_path(GROOM)):
			return "the procedural groom did not load"
	turn(head, [on, off], 90)
	var s: Dictionary = on.get_volume_stats()
	print("volume on after 1.5 s of turning: %d close pairs, %d particles pushed in the last pass" % [s["pairs"], s["moved"]])
	if s["pairs"] <= 0 or s["moved"] <= 0:
		return "the volume pass found nothing to push: %s" % s
	var none: Dictionary = off.get_volume_stats()
	if none["pairs"] != 0 or none["moved"] != 0:
		return "a hair without keep_volume reports a pass: %s" % none
	var differs := false
	for st in on.strand_count():
		for p in on.get_particles_per_strand():
			var a := on.get_particle(st, p)
			if not a.is_finite():
				return "strand %d particle %d went non-finite with volume on" % [st, p]
			differs = differs or a != off.get_particle(st, p)
	if not differs:
		return "keep_volume changed nothing"
	var count := on.strand_count()
	on.keep_volume = false
	turn(head, [on], 2)
	if on.get_volume_stats()["moved"] != 0:
		return "switched off, the pass still ran"
	on.keep_volume = true
	turn(head, [on], 30)
	if on.get_volume_stats()["moved"] <= 0 or on.strand_count() != count:
		return "switched on again, the pass did not resume (stats %s, %d strands)" % [on.get_volume_stats(), on.strand_count()]
	head.free()
	return ""
