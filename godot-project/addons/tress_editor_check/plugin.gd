## Test hook for tools/godot-tests.sh (the editor_tool step): proves the
## Tress nodes run in the editor and draw gizmos. Inert unless the editor is
## started with `-- --tress-editor-check`; then it opens
## tests/scenes/editor_gizmos.tscn, turns the head bone the way a user would
## in the inspector, checks that the lock lags and settles, that
## simulate_in_editor and live edits work, that nothing the simulation
## writes would be saved, that every collider shape has a gizmo, saves a
## screenshot of the 3D view (target/godot-screens/editor_gizmos.png),
## prints EDITOR CHECK PASS or FAIL and quits.
@tool
extends EditorPlugin

const SCENE := "res://tests/scenes/editor_gizmos.tscn"
const SHAPES := ["Sphere", "Capsule", "Plane", "InsideSphere", "InsideCapsule"]
## The lock's rest tip against the simulated one: the solver's answer
## (get_joint_tail) sits on the rigid pose within this (metres, the scene is
## scaled 4x; gravity_power 0.5 sags it by well under a millimetre).
const REST_TOLERANCE := 0.01

var _done := false

func _enter_tree() -> void:
	if not OS.get_cmdline_user_args().has("--tress-editor-check"):
		return
	get_tree().create_timer(150.0).timeout.connect(func() -> void:
		_finish("watchdog fired after 150 s"))
	_check.call_deferred()

func _finish(why: String) -> void:
	if _done:
		return
	_done = true
	print("EDITOR CHECK %s" % ("PASS" if why.is_empty() else "FAIL: " + why))
	get_tree().quit(0 if why.is_empty() else 1)

func _check() -> void:
	_finish(await _run())

func _frames(n: int) -> void:
	for i in n:
		await get_tree().process_frame

func _run() -> String:
	await _frames(30)
	EditorInterface.set_main_screen_editor("3D")
	EditorInterface.open_scene_from_path(SCENE)
	await _frames(30)
	var root := EditorInterface.get_edited_scene_root()
	if root == null or root.scene_file_path != SCENE:
		return "the editor did not open %s" % SCENE
	var fresh: Node = load(SCENE).instantiate()
	var before := _saved_text(fresh, "before")
	fresh.free()
	var why := await _tool_mode(root)
	if not why.is_empty():
		return why
	why = await _strands(root)
	if not why.is_empty():
		return why
	why = _gizmos(root)
	if not why.is_empty():
		return why
	# Nothing the simulation wrote is saved: the scene packs to what the
	# file holds (the head is back at its authored rotation by now).
	var after := _saved_text(root, "after")
	if after != before:
		return "saving the scene after simulating changes it (compare user://editor_before.tscn and user://editor_after.tscn)"
	why = await _animation_preview(root)
	if not why.is_empty():
		return why
	return await _screenshot(root)

## Packs `root` as the editor saves a scene, writes it to user:// and
## returns the text, without the node ids Godot 4.6 draws at random for
## nodes packed without one.
func _saved_text(root: Node, tag: String) -> String:
	var packed := PackedScene.new()
	packed.pack(root)
	var path := "user://editor_%s.tscn" % tag
	ResourceSaver.save(packed, path)
	var ids := RegEx.create_from_string(" unique_id=[0-9]+")
	return ids.sub(FileAccess.get_file_as_string(path), "", true)

func _tool_mode(root: Node) -> String:
	var skel: Skeleton3D = root.get_node("Avatar/Skeleton")
	var hair: TressSpringHair = root.get_node("Avatar/Skeleton/Hair")
	if hair.chain_count() != 1 or hair.joint_count() != 3:
		return "the hair is not configured in the editor (tool mode off?): %d chains, %d joints" % [hair.chain_count(), hair.joint_count()]
	var head := skel.find_bone("Head")
	var tip := skel.find_bone("Lock3")
	var drawn := [Vector3.ZERO]
	skel.skeleton_updated.connect(func() -> void:
		drawn[0] = skel.global_transform * skel.get_bone_global_pose(tip).origin)
	var rest_tip := skel.global_transform * skel.get_bone_global_rest(tip).origin
	await _frames(10)
	if hair.get_joint_tail(0, 2).distance_to(rest_tip) > REST_TOLERANCE:
		return "at rest in the editor the tip is %.4f m from its authored place" % hair.get_joint_tail(0, 2).distance_to(rest_tip)
	# The user turns the head 60 degrees in the inspector.
	var turn := Quaternion(Vector3.UP, deg_to_rad(60.0))
	skel.set_bone_pose_rotation(head, turn)
	var head_pos := skel.global_transform * skel.get_bone_global_rest(head).origin
	var rigid := head_pos + turn * (rest_tip - head_pos)
	var lag := 0.0
	var bone_lag := 0.0
	for f in 20:
		await get_tree().process_frame
		lag = maxf(lag, hair.get_joint_tail(0, 2).distance_to(rigid))
		bone_lag = maxf(bone_lag, drawn[0].distance_to(rigid))
	if lag < 0.05 or bone_lag < 0.05:
		return "the tip did not lag the head turn in the editor (solver %.4f m, bone %.4f m)" % [lag, bone_lag]
	# A live edit mid-swing keeps the motion (no reset to the rigid pose).
	var off := hair.get_joint_tail(0, 2).distance_to(rigid)
	hair.stiffness = 2.0
	await get_tree().process_frame
	var off_after := hair.get_joint_tail(0, 2).distance_to(rigid)
	if off > 0.01 and off_after < off * 0.3:
		return "changing stiffness reset the swing (%.4f m off the rigid pose, then %.4f m)" % [off, off_after]
	var settled := 1e9
	for f in 240:
		await get_tree().process_frame
		settled = hair.get_joint_tail(0, 2).distance_to(rigid)
		if settled < REST_TOLERANCE and f > 30:
			break
	if settled > REST_TOLERANCE:
		return "the tip did not settle after the head turn (%.4f m off)" % settled
	print("editor: tip lag up to %.3f m (bone %.3f m), settled to %.4f m" % [lag, bone_lag, settled])
	# Simulation off: the bones show the skeleton's own pose, untouched.
	hair.simulate_in_editor = false
	skel.set_bone_pose_rotation(head, Quaternion.IDENTITY)
	await _frames(5)
	if drawn[0].distance_to(rest_tip) > 1e-4:
		return "with simulate_in_editor off the tip bone is %.4f m from its rest pose" % drawn[0].distance_to(rest_tip)
	hair.simulate_in_editor = true
	hair.stiffness = 1.0
	await _frames(5)
	return ""

## The clip previewed in the editor (as the Animation panel's play button
## does) turns the head; the lock lags the rigid pose while it turns. Runs
## after the save check: playing sets the player's assigned animation.
func _animation_preview(root: Node) -> String:
	var skel: Skeleton3D = root.get_node("Avatar/Skeleton")
	var player: AnimationPlayer = root.get_node("Anim")
	var head := skel.find_bone("Head")
	var tip := skel.find_bone("Lock3")
	var head_pos := skel.global_transform * skel.get_bone_global_rest(head).origin
	var rest_tip := skel.global_transform * skel.get_bone_global_rest(tip).origin
	var lag := [0.0]
	var probe := func() -> void:
		var rigid := head_pos + skel.get_bone_pose_rotation(head) * (rest_tip - head_pos)
		var drawn := skel.global_transform * skel.get_bone_global_pose(tip).origin
		lag[0] = maxf(lag[0], drawn.distance_to(rigid))
	skel.skeleton_updated.connect(probe)
	player.play("turn")
	var until := Time.get_ticks_msec() + 800
	while Time.get_ticks_msec() < until:
		await get_tree().process_frame
	player.stop()
	skel.skeleton_updated.disconnect(probe)
	skel.set_bone_pose_rotation(head, Quaternion.IDENTITY)
	if lag[0] < 0.05:
		return "the tip did not lag the head turned by the previewed animation (%.4f m)" % lag[0]
	print("editor: animation preview, tip lag up to %.3f m" % lag[0])
	return ""

func _strands(root: Node) -> String:
	var mount: Node3D = root.get_node("StrandMount")
	var strands := TressStrandHair.new()
	strands.name = "Strands"
	strands.strand_fraction = 0.02
	strands.particles = 8
	mount.add_child(strands)
	strands.owner = root
	strands.groom_path = ProjectSettings.globalize_path("res://").path_join("../assets/tress_groom.tfx").simplify_path()
	await _frames(5)
	if strands.strand_count() == 0:
		return "TressStrandHair loaded no groom in the editor"
	# The roots ride on the mount: a root moves only when the solver steps.
	var p0 := strands.get_particle(0, 0)
	mount.position += Vector3(0.3, 0, 0)
	await _frames(5)
	var moved := strands.get_particle(0, 0).distance_to(p0)
	mount.position -= Vector3(0.3, 0, 0)
	if moved < 0.25:
		return "strands did not follow their mount in the editor (%.4f m)" % moved
	# Simulation off: the strands stay put, groomed, whatever the mount does.
	strands.simulate_in_editor = false
	await _frames(2)
	p0 = strands.get_particle(0, 0)
	mount.position += Vector3(0.3, 0, 0)
	await _frames(5)
	moved = strands.get_particle(0, 0).distance_to(p0)
	mount.position -= Vector3(0.3, 0, 0)
	strands.simulate_in_editor = true
	if moved > 1e-6:
		return "with simulate_in_editor off the strands still moved (%.4f m)" % moved
	for c in strands.get_children(true):
		if c.owner != null:
			return "TressStrandHair added an owned child %s (it would be saved)" % c.name
	var packed := PackedScene.new()
	packed.pack(root)
	var copy := packed.instantiate()
	var saved_children := copy.get_node("StrandMount/Strands").get_child_count(true)
	copy.free()
	if saved_children != 0:
		return "the saved scene holds %d children of TressStrandHair" % saved_children
	strands.free()
	return ""

func _gizmos(root: Node) -> String:
	var seen := {}
	for shape: String in SHAPES:
		var c: TressCollider3D = root.get_node("Shapes/" + shape)
		if c.get_gizmos().is_empty():
			return "no gizmo on the %s collider (is the Tress gizmo plugin loaded?)" % shape
		var lines := c.get_gizmo_lines()
		if lines.size() < 8:
			return "the %s collider's gizmo has %d points" % [shape, lines.size()]
		seen[var_to_str(lines).hash()] = shape
	# Inside shapes draw the same wire as their outside twins, in another
	# colour: three distinct wires for five shapes.
	if seen.size() != 3:
		return "expected 3 distinct collider wires, got %d" % seen.size()
	var hair: Node3D = root.get_node("Avatar/Skeleton/Hair")
	if hair.get_gizmos().is_empty():
		return "no chain gizmo on TressSpringHair"
	return ""

func _screenshot(root: Node) -> String:
	EditorInterface.get_selection().clear()
	EditorInterface.get_selection().add_node(root.get_node("Avatar/Skeleton/Hair"))
	await _frames(10)
	await RenderingServer.frame_post_draw
	var img := EditorInterface.get_editor_viewport_3d(0).get_texture().get_image()
	if img == null or img.is_empty():
		return "the 3D view gave no image"
	var dir := ProjectSettings.globalize_path("res://").path_join("../target/godot-screens").simplify_path()
	DirAccess.make_dir_recursive_absolute(dir)
	img.save_png(dir.path_join("editor_gizmos.png"))
	print("screenshot: ", dir.path_join("editor_gizmos.png"))
	# The gizmo colours must be on screen: orange outside shapes and
	# magenta inside shapes. Unselected gizmos blend at about 40 % over the
	# grey-brown ground (61, 50, 38): orange reads about (115, 85, 38),
	# magenta (115, 55, 100) in the first screenshot; the thresholds keep
	# out the ground, the grid, the red X axis (240, 48, 96) and the
	# selected chain's yellow (240, 192, 32).
	var orange := 0
	var magenta := 0
	for y in range(0, img.get_height(), 2):
		for x in range(0, img.get_width(), 2):
			var c := img.get_pixel(x, y)
			if c.r > 0.37 and c.r - c.b > 0.2 and c.g - c.b > 0.08 and c.g < c.r * 0.75:
				orange += 1
			elif c.b - c.g > 0.12 and c.r - c.g > 0.15 and absf(c.r - c.b) < 0.16:
				magenta += 1
	print("gizmo pixels: orange %d, magenta %d" % [orange, magenta])
	if orange < 40 or magenta < 40:
		return "the screenshot shows too few gizmo pixels (orange %d, magenta %d)" % [orange, magenta]
	return ""
