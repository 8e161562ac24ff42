## The Tress demo: plays a VRM avatar with Tress spring hair.
##
## Controls: model, hair solver, animation (the Universal Animation Library
## and the VRMA clips retargeted onto the avatar, looping, kept in place),
## head-turn test (the standard 4 s yaw ±60° then stillness), move-then-settle,
## pause, restart, framing; drag to orbit, wheel to zoom. The overlay shows the
## hair update time (p50/p95 over the last 120 frames), substeps and joints.
##
## Command-line (after `--`): --model=PATH.vrm, --framing=hair,
## --hair=improved|earlier|vrm, --motion=turn|move|still, --anim=CLIP.
extends Node3D

const TressStage = preload("res://demo/stage.gd")
const GodotPeer = preload("res://demo/godot_peer.gd")
const MODES := ["Improved", "Earlier", "VRM-compatible", "Godot SpringBoneSimulator3D"]

var stage: TressStage
var info: Label
var perf: Label
var model_menu: OptionButton
var mode_menu: OptionButton
var anim_menu: OptionButton
var models: Array[String] = []
## Animation files retargeted onto each model that loads (those present).
var anim_files: Array[String] = []
var anim_wanted := ""
var motion := "turn"
var motion_time := 0.0
var paused := false
var hair_mode := 0
var head_bone := -1
var root_start := Vector3.ZERO
var samples: Array[float] = []
var dragging := false
var peer: SkeletonModifier3D

func _ready() -> void:
	stage = TressStage.new()
	add_child(stage)
	var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
	models = [repo.path_join("assets/tress_avatar.vrm"), repo.path_join("assets/tress_avatar_layered.vrm")]
	var godette := repo.path_join("../shared/assets/godette-vrm0/Godette_vrm_v4.vrm").simplify_path()
	if FileAccess.file_exists(godette):
		models.append(godette)
	for rel in ["../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf",
			"../shared/assets/three-vrm-vrma/idle_loop.vrma", "../shared/assets/three-vrm-vrma/test.vrma"]:
		var f := repo.path_join(rel).simplify_path()
		if FileAccess.file_exists(f):
			anim_files.append(f)
	var model := models[0]
	var close_up := false
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--model="):
			model = arg.trim_prefix("--model=")
			if not models.has(model):
				models.append(model)
		elif arg == "--framing=hair":
			close_up = true
		elif arg.begins_with("--hair="):
			hair_mode = maxi(0, ["improved", "earlier", "vrm", "godot"].find(arg.trim_prefix("--hair=")))
		elif arg.begins_with("--motion="):
			motion = arg.trim_prefix("--motion=")
		elif arg.begins_with("--anim="):
			anim_wanted = arg.trim_prefix("--anim=")
	_build_ui()
	_load(model)
	stage.frame(close_up)

func _build_ui() -> void:
	var ui := CanvasLayer.new()
	add_child(ui)
	var panel := PanelContainer.new()
	panel.position = Vector2(12, 12)
	ui.add_child(panel)
	var box := VBoxContainer.new()
	panel.add_child(box)
	info = Label.new()
	box.add_child(info)
	model_menu = OptionButton.new()
	for m in models:
		model_menu.add_item(m.get_file())
	model_menu.add_item("Open…")
	model_menu.item_selected.connect(_on_model_selected)
	box.add_child(_row("Model", model_menu))
	mode_menu = OptionButton.new()
	for m in MODES:
		mode_menu.add_item(m)
	mode_menu.selected = hair_mode
	mode_menu.item_selected.connect(_on_mode_selected)
	box.add_child(_row("Hair motion", mode_menu))
	anim_menu = OptionButton.new()
	anim_menu.item_selected.connect(_on_anim_selected)
	box.add_child(_row("Animation", anim_menu))
	var buttons := HBoxContainer.new()
	box.add_child(buttons)
	for pair in [["Head-turn test", _start.bind("turn")], ["Move then settle", _start.bind("move")],
			["Pause", _toggle_pause], ["Restart", _restart], ["Framing", _toggle_framing],
			["Strand demo →", func() -> void: get_tree().change_scene_to_file("res://strands/strands.tscn")]]:
		var b := Button.new()
		b.text = pair[0]
		b.pressed.connect(pair[1])
		buttons.add_child(b)
	perf = Label.new()
	box.add_child(perf)

func _row(title: String, control: Control) -> HBoxContainer:
	var row := HBoxContainer.new()
	var l := Label.new()
	l.text = title
	l.custom_minimum_size.x = 100
	row.add_child(l)
	row.add_child(control)
	return row

func _load(path: String) -> void:
	stage.avatar.hair_mode = mini(hair_mode, 2)
	peer = null
	if stage.load_model(path):
		_on_mode_selected(hair_mode)
		var skel := stage.avatar.get_skeleton()
		head_bone = skel.find_bone(stage.avatar.get_humanoid_bone("head")) if skel else -1
		root_start = stage.avatar.position
		info.text = "Tress — %s" % path.get_file()
		var i := models.find(path)
		if i >= 0:
			model_menu.selected = i
		_load_animations()
		if head_bone >= 0:
			await get_tree().process_frame
			# The rest pose: a clip already playing (kept across models) may crouch.
			stage.fit_to_head((skel.global_transform * skel.get_bone_global_rest(head_bone)).origin)
	else:
		head_bone = -1
		info.text = "Could not load %s (see the log)" % path.get_file()
	motion_time = 0.0
	samples.clear()

## Retargets every animation file onto the loaded model and lists the clips.
func _load_animations() -> void:
	anim_menu.clear()
	anim_menu.add_item("None (rest pose)")
	for f in anim_files:
		for n in stage.avatar.load_animations(f):
			anim_menu.add_item(n)
	if anim_menu.item_count == 1:
		anim_menu.set_item_text(0, "None (no animation files found)")
	var want := anim_wanted
	for i in anim_menu.item_count:
		if anim_menu.get_item_text(i) == want:
			anim_menu.selected = i
			_on_anim_selected(i)
			return
	anim_menu.selected = 0

## A clip plays instead of the head-turn / move motions (both drive the
## skeleton); picking a motion button stops the clip.
func _on_anim_selected(i: int) -> void:
	if i <= 0:
		anim_wanted = ""
		stage.avatar.stop_animation()
		return
	anim_wanted = anim_menu.get_item_text(i)
	motion = "still"
	stage.avatar.position = root_start
	stage.avatar.play_animation(anim_wanted)

func _on_model_selected(i: int) -> void:
	if i == models.size():
		var dlg := FileDialog.new()
		dlg.file_mode = FileDialog.FILE_MODE_OPEN_FILE
		dlg.access = FileDialog.ACCESS_FILESYSTEM
		dlg.filters = PackedStringArray(["*.vrm ; VRM avatars", "*.glb ; glTF binary"])
		dlg.file_selected.connect(func(p: String) -> void:
			models.insert(models.size(), p)
			model_menu.add_item(p.get_file(), models.size() - 1)
			_load(p))
		add_child(dlg)
		dlg.popup_centered_ratio(0.7)
		return
	_load(models[i])

## Tress's three solvers, or Godot's own SpringBoneSimulator3D built on the
## same chains and colliders (the Tress node is switched off meanwhile).
func _on_mode_selected(i: int) -> void:
	hair_mode = i
	# Chosen by code (tests, --hair=) as well as from the menu: the menu
	# shows the mode that runs. Setting it does not emit item_selected.
	mode_menu.selected = i
	var hair := stage.avatar.get_hair_node()
	if hair == null:
		return
	if i == 3:
		if peer == null:
			peer = GodotPeer.build(stage.avatar.get_skeleton(), hair)
		if peer:
			hair.active = false
			peer.active = true
		return
	if peer:
		peer.active = false
	hair.active = true
	hair.solver_mode = i

func _start(kind: String) -> void:
	if anim_menu.selected > 0:
		anim_menu.selected = 0
		_on_anim_selected(0)
	motion = kind
	motion_time = 0.0
	paused = false

func _toggle_pause() -> void:
	paused = not paused
	Engine.time_scale = 0.0 if paused else 1.0

func _restart() -> void:
	motion_time = 0.0
	stage.avatar.position = root_start
	_apply_motion()
	stage.avatar.restart_animation()
	var hair := stage.avatar.get_hair_node()
	if hair:
		hair.reset()

func _toggle_framing() -> void:
	stage.frame(not stage.close)

## The standard movement: 4 s of head yaw 60°·sin(πt) (turn) or a sideways
## sway of the whole avatar (move), then stillness.
func _apply_motion() -> void:
	var skel := stage.avatar.get_skeleton()
	if skel == null or head_bone < 0 or anim_wanted != "":
		return
	var t := motion_time
	var active := t < 4.0
	var yaw := 0.0
	var offset := Vector3.ZERO
	if motion == "turn" and active:
		yaw = deg_to_rad(60.0) * sin(PI * t)
	elif motion == "move" and active:
		offset = Vector3(0.4 * sin(PI * t), 0, 0)
	skel.set_bone_pose_rotation(head_bone, skel.get_bone_rest(head_bone).basis.get_rotation_quaternion() * Quaternion(Vector3.UP, yaw))
	stage.avatar.position = root_start + offset

func _process(delta: float) -> void:
	if not paused:
		motion_time += delta
	_apply_motion()
	var hair := stage.avatar.get_hair_node()
	if hair and hair_mode == 3:
		perf.text = "Godot SpringBoneSimulator3D (its time is not reported per node; see bench.tscn)"
	elif hair:
		samples.append(hair.get_last_update_usec())
		if samples.size() > 120:
			samples.pop_front()
		var sorted := samples.duplicate()
		sorted.sort()
		var p50: float = sorted[sorted.size() / 2]
		var p95: float = sorted[mini(sorted.size() - 1, int(sorted.size() * 0.95))]
		perf.text = "hair update p50 %.0f µs  p95 %.0f µs   substeps %d   chains %d   joints %d   %s" % [
			p50, p95, hair.get_last_substeps(), hair.chain_count(), hair.joint_count(), MODES[hair.solver_mode]]
	else:
		perf.text = "no spring hair"

func _unhandled_input(event: InputEvent) -> void:
	if event is InputEventMouseButton:
		if event.button_index == MOUSE_BUTTON_LEFT:
			dragging = event.pressed
		elif event.button_index == MOUSE_BUTTON_WHEEL_UP:
			stage.distance = maxf(0.5, stage.distance * 0.9)
			stage.update_camera()
		elif event.button_index == MOUSE_BUTTON_WHEEL_DOWN:
			stage.distance = minf(8.0, stage.distance * 1.1)
			stage.update_camera()
	elif event is InputEventMouseMotion and dragging:
		stage.yaw -= event.relative.x * 0.01
		stage.pitch = clampf(stage.pitch - event.relative.y * 0.01, -1.2, 1.2)
		stage.update_camera()
