## The skirt avatar (assets/tress_avatar_skirt.vrm, issue 19 item 1) under
## Xvfb: Dance_Loop, Sitting_Idle_Loop and Crouch_Idle_Loop from the
## Universal Animation Library play on it, the skirt's hem must swing at
## least 3 cm from its rest place carried by the hips during the dance, no
## skirt joint may sit inside a thigh capsule (radius 8 cm about the upper
## leg bone) in the dance nor once sitting or crouching has settled (its
## last half second), the skirt's 24 chains must be held in one band
## (TRESS_springBone_band) whose neighbouring joints stay within 10 % of
## their rest spacing in the dance, and target/godot-screens/skirt_dance.png,
## skirt_sitting.png and skirt_crouch.png are saved and checked non-blank;
## then sitting again with the band left out, skirt_sitting_no_band.png, for
## comparison. The folds between the chains (the band's fold joints,
## SkirtFoldNN_k) must be placed by the node: after crouching, every fold
## joint is as far from one chain's joint as from the other's (the cloth's
## two halves across a gap equal, within 1 mm), and some fold has flattened
## or deepened by over 5 mm since rest.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const THIGH_RADIUS := 0.08
## skirt::CHAINS in crates/tress-tools/src/avatar/skirt.rs.
const CHAINS := 24
## The clips played, in order, and the screenshot each saves.
const SHOTS := {"Dance_Loop": "skirt_dance", "Sitting_Idle_Loop": "skirt_sitting", "Crouch_Idle_Loop": "skirt_crouch"}
## The fold bones as the last skeleton update left them (the modified pose
## is readable only then: `skeleton_updated`).
var _last_folds := []

func _bone_world(skel: Skeleton3D, bone: int) -> Vector3:
	return (skel.global_transform * skel.get_bone_global_pose(bone)).origin

func _to_segment(p: Vector3, a: Vector3, b: Vector3) -> float:
	var ab := b - a
	var t := clampf((p - a).dot(ab) / maxf(ab.length_squared(), 1e-12), 0.0, 1.0)
	return p.distance_to(a + ab * t)

## The skirt chains of `hair` (by their root bone's name) and, per chain,
## each segment end (the solver's own answer), tip last.
func _skirt_ends(hair: TressSpringHair) -> Array:
	var out := []
	var descs := hair.get_chain_descriptions()
	for c in hair.chain_count():
		if not String(descs[c]["root_bone"]).begins_with("Skirt"):
			continue
		var ends: Array[Vector3] = []
		var j := 0
		while hair.get_joint_tail(c, j) != Vector3.ZERO:
			ends.append(hair.get_joint_tail(c, j))
			j += 1
		out.append(ends)
	return out

## Largest distance between joint k of neighbouring skirt chains (the ring
## closes) over its value in `rest`, the same chains' ends at rest.
func _worst_spacing(chains: Array, rest: Array) -> float:
	var worst := 0.0
	for c in chains.size():
		var n := (c + 1) % chains.size()
		for k in chains[c].size():
			var d0: float = rest[c][k].distance_to(rest[n][k])
			worst = maxf(worst, chains[c][k].distance_to(chains[n][k]) / d0)
	return worst

## Plays `clip` for `seconds`; returns [largest hem swing (m), deepest skirt
## joint inside a thigh capsule (m, 0 when none), the same over the last
## half second, worst neighbour spacing over rest] or a String saying why
## not. `rest_tips`: each skirt tip at rest in the hips' frame; `rest_ends`:
## every skirt chain's ends at rest (world, the avatar does not move).
func _play(tree: SceneTree, avatar: TressAvatar, hair: TressSpringHair, rest_tips: Array, rest_ends: Array, clip: String, seconds: float) -> Variant:
	var skel := avatar.get_skeleton()
	if not avatar.play_animation(clip):
		return "%s did not play" % clip
	var hips := skel.find_bone(avatar.get_humanoid_bone("hips"))
	var thighs := []
	for side in ["left", "right"]:
		thighs.append([skel.find_bone(avatar.get_humanoid_bone(side + "UpperLeg")),
			skel.find_bone(avatar.get_humanoid_bone(side + "LowerLeg"))])
	var swing := 0.0
	var inside := 0.0
	var late := 0.0
	var spacing := 0.0
	var start := Time.get_ticks_msec()
	while Time.get_ticks_msec() - start < seconds * 1000.0:
		await tree.process_frame
		var is_late := Time.get_ticks_msec() - start > (seconds - 0.5) * 1000.0
		var hips_xf := skel.global_transform * skel.get_bone_global_pose(hips)
		var chains := _skirt_ends(hair)
		spacing = maxf(spacing, _worst_spacing(chains, rest_ends))
		for c in chains.size():
			var ends: Array[Vector3] = chains[c]
			swing = maxf(swing, ends[-1].distance_to(hips_xf * rest_tips[c]))
			for pair in thighs:
				var a := _bone_world(skel, pair[0])
				var b := _bone_world(skel, pair[1])
				for p in ends:
					var depth := THIGH_RADIUS - _to_segment(p, a, b)
					inside = maxf(inside, depth)
					if is_late:
						late = maxf(late, depth)
	return [swing, inside, late, spacing]

## Per fold joint below the waistband (rows 1 and 2): [distance to its
## chain's joint, distance to the next chain's joint, distance to their
## midpoint].
func _folds(skel: Skeleton3D) -> Array:
	var out := []
	for c in CHAINS:
		for k in [1, 2]:
			var f := skel.find_bone("SkirtFold%02d_%d" % [c, k])
			var a := skel.find_bone("Skirt%02d_%d" % [c, k])
			var b := skel.find_bone("Skirt%02d_%d" % [(c + 1) % CHAINS, k])
			if f < 0 or a < 0 or b < 0:
				return []
			var pf := _bone_world(skel, f)
			var pa := _bone_world(skel, a)
			var pb := _bone_world(skel, b)
			out.append([pf.distance_to(pa), pf.distance_to(pb), pf.distance_to((pa + pb) * 0.5)])
	return out

func run(tree: SceneTree) -> String:
	var lib := TestUtil.repo_path("../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf")
	if not FileAccess.file_exists(lib):
		if OS.get_environment("CI") != "":
			return "../shared/assets is missing under CI"
		print("SKIPPED: ../shared/assets not found")
		return ""
	var stage := await TestUtil.stage_with(tree, TestUtil.repo_path("assets/tress_avatar_skirt.vrm"))
	if stage == null:
		return "could not load the skirt avatar"
	var avatar: TressAvatar = stage.avatar
	var names := avatar.load_animations(lib)
	for c in SHOTS:
		if not names.has(c):
			return "%s is not in the library" % c
	# Hips and legs from the front left, a little from above.
	stage.target = Vector3(0, 0.75, 0)
	stage.distance = 1.7
	stage.yaw = 0.55
	stage.pitch = -0.2
	stage.update_camera()
	var found := avatar.find_children("*", "TressSpringHair", true, false)
	if found.is_empty():
		return "the skirt avatar has no TressSpringHair"
	var hair: TressSpringHair = found[0]
	await TestUtil.frames(tree, 2)
	var skel := avatar.get_skeleton()
	var hips_rest := skel.global_transform * skel.get_bone_global_pose(skel.find_bone(avatar.get_humanoid_bone("hips")))
	var rest_tips := []
	var rest_ends := _skirt_ends(hair)
	for ends in rest_ends:
		rest_tips.append(hips_rest.affine_inverse() * ends[-1])
	var rest_folds := _folds(skel)
	if rest_folds.size() != CHAINS * 2:
		return "expected the skirt's fold bones SkirtFoldNN_1/_2 between its chains"
	skel.skeleton_updated.connect(func() -> void: _last_folds = _folds(skel))
	if rest_tips.size() != CHAINS:
		return "expected %d skirt chains, found %d" % [CHAINS, rest_tips.size()]
	# The file's band reaches the solver: one link per chain round the ring.
	var links := hair.get_band_links()
	if links.size() != CHAINS or not String(links[0]["a"]).begins_with("Skirt"):
		return "expected the skirt's %d band links, got %s" % [CHAINS, links]
	# With the shear the file gives (skirt::BAND_SHEAR, 2 %).
	if links[0]["shear"] == null or absf(float(links[0]["shear"]) - 0.02) > 1e-6:
		return "expected the band's 2 %% shear, got %s" % [links[0]]
	# hold_bands off leaves them out, on brings them back (each a rebuild).
	hair.hold_bands = false
	if not hair.get_band_links().is_empty():
		return "hold_bands = false still holds %d links" % hair.get_band_links().size()
	hair.hold_bands = true
	if hair.get_band_links().size() != CHAINS:
		return "hold_bands = true holds %d links" % hair.get_band_links().size()
	await TestUtil.frames(tree, 2)
	for clip in SHOTS:
		var got: Variant = await _play(tree, avatar, hair, rest_tips, rest_ends, clip, 1.6)
		if got is String:
			return got
		print("%s: hem swing %.3f m, deepest skirt joint inside a thigh capsule %.4f m (last 0.5 s: %.4f m), neighbour spacing up to %.3f of rest" % [clip, got[0], got[1], got[2], got[3]])
		if clip == "Dance_Loop" and got[3] > 1.1:
			return "Dance_Loop: neighbouring skirt joints %.3f times their rest spacing apart" % got[3]
		if clip == "Crouch_Idle_Loop":
			var now := _last_folds
			if now.size() != rest_folds.size():
				return "Crouch_Idle_Loop: no skeleton update read the fold bones"
			var uneven := 0.0
			var changed := 0.0
			for i in now.size():
				uneven = maxf(uneven, absf(now[i][0] - now[i][1]))
				changed = maxf(changed, absf(now[i][2] - rest_folds[i][2]))
			print("Crouch_Idle_Loop: fold halves differ by up to %.4f m, fold depth changed by up to %.4f m" % [uneven, changed])
			if uneven > 0.001:
				return "Crouch_Idle_Loop: a fold's two halves differ by %.4f m (folds not placed)" % uneven
			if changed < 0.005:
				return "Crouch_Idle_Loop: no fold changed depth (%.4f m)" % changed
		var shot := await TestUtil.screenshot(tree, SHOTS[clip])
		if not shot.is_empty():
			return "%s: %s" % [clip, shot]
		if clip == "Dance_Loop" and got[0] < 0.03:
			return "Dance_Loop: the hem swings only %.3f m" % got[0]
		# The dance starts from rest; sitting and crouching start from the
		# clip before's pose in one frame, the thighs jumping up through the
		# skirt, so there only the settled pose (the last half second) is
		# held to it.
		var depth: float = got[1] if clip == "Dance_Loop" else got[2]
		if depth > 0.0:
			return "%s: a skirt joint is %.4f m inside a thigh capsule" % [clip, depth]
	# For the docs' comparison: the same sitting with the band left out (the
	# rig rebuilt at rest, then one frame to the sitting pose, as above).
	hair.hold_bands = false
	var alone: Variant = await _play(tree, avatar, hair, rest_tips, rest_ends, "Sitting_Idle_Loop", 1.6)
	if alone is String:
		return alone
	print("Sitting_Idle_Loop without the band: neighbour spacing up to %.3f of rest" % alone[3])
	var shot_alone := await TestUtil.screenshot(tree, "skirt_sitting_no_band")
	hair.hold_bands = true
	return shot_alone
