## Helpers shared by the headless tests.
extends RefCounted

const Stage = preload("res://demo/stage.gd")

## Absolute path of a file given relative to the repository root.
static func repo_path(rel: String) -> String:
	return ProjectSettings.globalize_path("res://").path_join("..").path_join(rel).simplify_path()

## Gives `hair` (a TressStrandHair) the procedural groom's head to collide
## with: a sphere of `radius` at its origin, as a CollisionShape3D child.
static func add_head_sphere(hair: Node3D, radius := 0.1) -> void:
	var col := CollisionShape3D.new()
	var sphere := SphereShape3D.new()
	sphere.radius = radius
	col.shape = sphere
	hair.add_child(col)

## A TressStrandHair under `head` for the procedural groom's head at
## `head_y` (groom origin there, a head sphere), drawing a share `fraction`
## of the strands on one thread and stepped by its test (`step_frame`), not
## by `_process`. The groom is not loaded yet.
static func strand_hair(head: Node3D, head_y: float, fraction := 0.1) -> TressStrandHair:
	var hair := TressStrandHair.new()
	hair.groom_origin = Vector3(0, head_y, 0)
	hair.strand_fraction = fraction
	hair.threads = 1
	head.add_child(hair)
	add_head_sphere(hair)
	hair.set_process(false)
	return hair

## Waits `n` process frames.
static func frames(tree: SceneTree, n: int) -> void:
	for i in n:
		await tree.process_frame

## Swings the Head bone of every scene's "Skeleton" for `frames` frames,
## ±60° of yaw over 80 frames, counting on from frame `first`; returns the
## last frame's number (the live-edit tests carry it from call to call).
static func swing_heads(tree: SceneTree, scenes: Array, first: int, frames: int) -> int:
	var f := first
	for i in frames:
		f += 1
		var q := Quaternion(Vector3.UP, deg_to_rad(60.0) * sin(PI * f / 40.0))
		for s: Node3D in scenes:
			var skel: Skeleton3D = s.get_node("Skeleton")
			skel.set_bone_pose_rotation(skel.find_bone("Head"), q)
		await tree.process_frame
	return f

## World position of humanoid bone `bone` of `avatar`.
static func humanoid_world(avatar: TressAvatar, skel: Skeleton3D, bone: String) -> Vector3:
	var b := skel.find_bone(avatar.get_humanoid_bone(bone))
	return (skel.global_transform * skel.get_bone_global_pose(b)).origin

## Watches the walk `avatar` plays for 1.5 s (one whole 1.33 s stride,
## however fast headless frames come): frames with the left or the right
## foot 5 cm ahead, the lower ankle's range above `rest_foot`, frames with
## the left foot on the character's right, and the left hand's forward range.
static func watch_stride(tree: SceneTree, avatar: TressAvatar, skel: Skeleton3D, rest_foot: float) -> Dictionary:
	var w := {left_ahead = 0, right_ahead = 0, low_min = INF, low_max = -INF, wrong_side = 0,
		hand_min = INF, hand_max = -INF}
	var fwd := avatar.global_transform.basis.z
	var start := Time.get_ticks_msec()
	while Time.get_ticks_msec() - start < 1500:
		await tree.process_frame
		var l := humanoid_world(avatar, skel, "leftFoot")
		var r := humanoid_world(avatar, skel, "rightFoot")
		var d := (l - r).dot(fwd)
		if d > 0.05:
			w.left_ahead += 1
		elif d < -0.05:
			w.right_ahead += 1
		var lower := minf(l.y, r.y) - rest_foot
		w.low_min = minf(w.low_min, lower)
		w.low_max = maxf(w.low_max, lower)
		# Facing +Z, the character's left is +X.
		if (l - r).dot(avatar.global_transform.basis.x) <= 0.0:
			w.wrong_side += 1
		var hand := humanoid_world(avatar, skel, "leftHand").dot(fwd)
		w.hand_min = minf(w.hand_min, hand)
		w.hand_max = maxf(w.hand_max, hand)
	return w

## `n` TressAvatars of the built-in avatar, added to the tree; empty when
## one does not load.
static func builtin_avatars(tree: SceneTree, n: int) -> Array[TressAvatar]:
	var out: Array[TressAvatar] = []
	for i in n:
		var a := TressAvatar.new()
		tree.root.add_child(a)
		if not a.load_vrm(repo_path("assets/tress_avatar.vrm")):
			return []
		out.append(a)
	return out

## Adds the demo scene to the tree and waits until it has loaded its first
## model, clip and split view (demo.gd sets `started`); null after 120
## frames without.
static func start_demo(tree: SceneTree) -> Node3D:
	var demo: Node3D = load("res://demo/demo.tscn").instantiate()
	tree.root.add_child(demo)
	for i in 120:
		if demo.started:
			return demo
		await tree.process_frame
	return null

## The demo's stage (camera, light, floor) in the tree with the model at
## `path` loaded, or null when it could not be loaded.
static func stage_with(tree: SceneTree, path: String) -> Stage:
	var stage := Stage.new()
	tree.root.add_child(stage)
	await tree.process_frame
	return stage if stage.load_model(path) else null

## Saves what the root viewport shows to target/godot-screens/NAME.png.
## Returns "" or why it failed (including a blank image).
static func screenshot(tree: SceneTree, name: String) -> String:
	await RenderingServer.frame_post_draw
	var img := tree.root.get_texture().get_image()
	if img == null or img.is_empty():
		return "viewport gave no image (is a renderer running? use Xvfb, not --headless)"
	var dir := repo_path("target/godot-screens")
	DirAccess.make_dir_recursive_absolute(dir)
	var path := dir.path_join(name + ".png")
	var err := img.save_png(path)
	if err != OK:
		return "could not save %s: %s" % [path, error_string(err)]
	print("screenshot: ", path)
	return blank_reason(img)

## "" when the image has real content: not one flat colour, and a good share
## of pixels away from the background colour at the corner.
static func blank_reason(img: Image) -> String:
	var w := img.get_width()
	var h := img.get_height()
	var bg := img.get_pixel(0, 0)
	var differing := 0
	var samples := 0
	for y in range(0, h, 8):
		for x in range(0, w, 8):
			samples += 1
			var c := img.get_pixel(x, y)
			if absf(c.r - bg.r) + absf(c.g - bg.g) + absf(c.b - bg.b) > 0.08:
				differing += 1
	var share := float(differing) / float(samples)
	if share < 0.02:
		return "image looks blank: only %.1f%% of pixels differ from the background" % (share * 100.0)
	return ""
