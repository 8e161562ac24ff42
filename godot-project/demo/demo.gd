## The Tress demo: plays a VRM avatar with Tress spring hair.
##
## First view: head and shoulders of the built-in avatar (with a face and
## toon shading) playing an idle clip while its head keeps turning, in a
## split view: Tress's improved solver on the left, Godot's own
## SpringBoneSimulator3D on the right, on the same chains, colliders and
## motion. Sliders scale every joint's stiffness, drag and gravity in both
## panes, live.
##
## Controls: model, each pane's hair solver (the right one or Off for a
## single view), animation (the Universal Animation Library and the VRMA
## clips retargeted onto the avatar, looping, kept in place), head-turn test
## (the standard 4 s yaw ±60° then stillness), looping turn, move-then-settle,
## pause, restart, framing; drag to orbit, wheel to zoom. The overlay shows
## the hair update time (p50/p95 over the last 120 frames), substeps and
## joints.
##
## Command-line (after `--`): --model=PATH.vrm, --framing=body|hair,
## --hair=improved|earlier|vrm|godot (left pane),
## --split[=off|improved|earlier|vrm|godot] (right pane; on by default),
## --anim=CLIP|none,
## --motion=loop|turn|move|still, --stiffness=F, --drag=F, --gravity=F,
## --wind=F (the Wind node's strength, m/s²; the Wind slider).
extends Node3D

const TressStage = preload("res://demo/stage.gd")
const Pane = preload("res://demo/pane.gd")
const WindNode = preload("res://demo/wind.gd")
const MODES := ["Improved", "Earlier", "VRM-compatible", "Godot SpringBoneSimulator3D"]
const MODE_FLAGS := ["improved", "earlier", "vrm", "godot"]
## Preferred first clips, in order: the Universal Animation Library's idle,
## then three-vrm's idle VRMA (whatever name it retargets under).
const IDLE_CLIPS := ["Idle_Loop", "idle_loop", "VRMA_idle_loop"]
const SIDEBAR_WIDTH := 300

var panes: Array[Pane] = []
var info: Label
var status: Label
var perf: Label
var model_menu: OptionButton
var mode_menu: OptionButton
var pair_menu: OptionButton
var anim_menu: OptionButton
var sliders := {}
## The wind both panes' hair feels (a child named Wind).
var wind: WindNode
var wind_slider: HSlider
## Holds the file's bands (a skirt's chains kept together); the skirt avatar
## shows the difference.
var bands_check: CheckBox
var models: Array[String] = []
## Animation files retargeted onto each model that loads (those present).
var anim_files: Array[String] = []
## "" until the first load picks the idle clip; "none" for no clip.
var anim_wanted := ""
var motion := "loop"
var motion_time := 0.0
var paused := false
var hair_mode := 0
## Right pane's solver, -1 when the split view is off.
var pair_mode := 3
var samples: Array[float] = []
var dragging := false
## The model both panes show.
var model_path := ""
## Set once the first model, clip and split view are up (for tests).
var started := false

## The left pane's stage, avatar and Godot peer (the single view's).
var stage: TressStage:
	get: return panes[0].stage
var peer: SkeletonModifier3D:
	get: return panes[0].peer
var head_bone: int:
	get: return panes[0].head_bone

func _ready() -> void:
	var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
	# The skirt avatar's skirt chains carry cone limits in the file
	# (VRMC_springBone_limit), which TressSpringHair applies as it loads.
	models = [repo.path_join("assets/tress_avatar.vrm"), repo.path_join("assets/tress_avatar_layered.vrm"),
		repo.path_join("assets/tress_avatar_skirt.vrm")]
	var godette := repo.path_join("../shared/assets/godette-vrm0/Godette_vrm_v4.vrm").simplify_path()
	if FileAccess.file_exists(godette):
		models.append(godette)
	for rel in ["../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf",
			"../shared/assets/three-vrm-vrma/idle_loop.vrma", "../shared/assets/three-vrm-vrma/test.vrma"]:
		var f := repo.path_join(rel).simplify_path()
		if FileAccess.file_exists(f):
			anim_files.append(f)
	wind = WindNode.new()
	wind.name = "Wind"
	add_child(wind)
	var model := models[0]
	var close_up := true
	var scales := [1.0, 1.0, 1.0]
	# Godot 4.3 has no SpringBoneSimulator3D: compare with Tress earlier.
	var default_pair := 3 if ClassDB.class_exists("SpringBoneSimulator3D") else 1
	pair_mode = default_pair
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--model="):
			model = arg.trim_prefix("--model=")
			if not models.has(model):
				models.append(model)
		elif arg == "--framing=hair":
			close_up = true
		elif arg == "--framing=body":
			close_up = false
		elif arg.begins_with("--hair="):
			hair_mode = _mode_flag(arg, hair_mode)
		elif arg == "--split":
			pair_mode = default_pair
		elif arg.begins_with("--split="):
			pair_mode = -1 if arg == "--split=off" else _mode_flag(arg, default_pair)
		elif arg.begins_with("--motion="):
			motion = arg.trim_prefix("--motion=")
		elif arg.begins_with("--anim="):
			anim_wanted = arg.trim_prefix("--anim=")
		else:
			for k in 3:
				var key: String = ["--stiffness=", "--drag=", "--gravity="][k]
				if arg.begins_with(key) and arg.trim_prefix(key).is_valid_float():
					scales[k] = float(arg.trim_prefix(key))
			if arg.begins_with("--wind=") and arg.trim_prefix("--wind=").is_valid_float():
				wind.strength = float(arg.trim_prefix("--wind="))
	_build_ui()
	for k in 3:
		sliders.values()[k].value = scales[k]
	for p in panes:
		p.stage.close = close_up
	panes[1].visible = pair_mode >= 0
	await _load(model)
	await set_split(pair_mode)
	started = true

## The mode named by `--flag=NAME` (see MODE_FLAGS), or `fallback` with a
## warning for a name it does not know.
func _mode_flag(arg: String, fallback: int) -> int:
	var i := MODE_FLAGS.find(arg.get_slice("=", 1))
	if i < 0:
		push_warning("demo: %s is not one of %s; keeping %s" % [arg, MODE_FLAGS, MODE_FLAGS[fallback]])
		return fallback
	return i

func _build_ui() -> void:
	var ui := CanvasLayer.new()
	add_child(ui)
	var row := HBoxContainer.new()
	row.set_anchors_preset(Control.PRESET_FULL_RECT)
	row.add_theme_constant_override("separation", 2)
	ui.add_child(row)
	var panel := PanelContainer.new()
	panel.custom_minimum_size.x = SIDEBAR_WIDTH
	row.add_child(panel)
	for i in 2:
		var p := Pane.new()
		row.add_child(p)
		panes.append(p)
	panes[0].mode = hair_mode
	var box := VBoxContainer.new()
	box.add_theme_constant_override("separation", 6)
	panel.add_child(box)
	info = Label.new()
	info.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
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
	box.add_child(_row("Left hair", mode_menu))
	pair_menu = OptionButton.new()
	pair_menu.add_item("Off (one view)")
	for m in MODES:
		pair_menu.add_item(m)
	pair_menu.item_selected.connect(func(i: int) -> void: set_split(i - 1))
	box.add_child(_row("Right hair", pair_menu))
	anim_menu = OptionButton.new()
	anim_menu.item_selected.connect(_on_anim_selected)
	box.add_child(_row("Animation", anim_menu))
	var buttons := GridContainer.new()
	buttons.columns = 2
	box.add_child(buttons)
	for pair in [["Looping turn", _start.bind("loop")], ["Head-turn test", _start.bind("turn")],
			["Move then settle", _start.bind("move")], ["Hold still", _start.bind("still")],
			["Pause", _toggle_pause], ["Restart", _restart], ["Framing", _toggle_framing],
			["Strand demo →", func() -> void: get_tree().change_scene_to_file("res://strands/strands.tscn")]]:
		var b := Button.new()
		b.text = pair[0]
		b.size_flags_horizontal = Control.SIZE_EXPAND_FILL
		b.pressed.connect(pair[1])
		buttons.add_child(b)
	for key in ["stiffness", "drag", "gravity"]:
		box.add_child(_slider(key))
	box.add_child(_wind_slider())
	bands_check = CheckBox.new()
	bands_check.text = "Bands (skirt chains held together)"
	bands_check.button_pressed = true
	bands_check.toggled.connect(func(_on: bool) -> void:
		for p in panes:
			_apply_bands(p))
	box.add_child(bands_check)
	status = Label.new()
	status.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	box.add_child(status)
	perf = Label.new()
	perf.autowrap_mode = TextServer.AUTOWRAP_WORD_SMART
	perf.add_theme_font_size_override("font_size", 13)
	box.add_child(perf)

func _row(title: String, control: Control) -> HBoxContainer:
	var row := HBoxContainer.new()
	var l := Label.new()
	l.text = title
	l.custom_minimum_size.x = 90
	row.add_child(l)
	control.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	control.clip_text = true
	row.add_child(control)
	return row

## A ×0…×3 multiplier slider on every joint's configured value.
func _slider(key: String) -> VBoxContainer:
	var box := VBoxContainer.new()
	var l := Label.new()
	box.add_child(l)
	var s := HSlider.new()
	s.min_value = 0.0
	s.max_value = 3.0
	s.step = 0.05
	s.value = 1.0
	s.value_changed.connect(func(v: float) -> void:
		l.text = "%s ×%.2f" % [key.capitalize(), v]
		_apply_scales())
	l.text = "%s ×1.00" % key.capitalize()
	box.add_child(s)
	sliders[key] = s
	return box

## The Wind node's strength, 0…15 m/s², live (the hair keeps its motion).
func _wind_slider() -> VBoxContainer:
	var box := VBoxContainer.new()
	var l := Label.new()
	box.add_child(l)
	wind_slider = HSlider.new()
	wind_slider.min_value = 0.0
	wind_slider.max_value = 15.0
	wind_slider.step = 0.5
	wind_slider.value = wind.strength
	wind_slider.value_changed.connect(func(v: float) -> void:
		l.text = "Wind %.1f m/s²" % v
		wind.strength = v
		_apply_wind())
	l.text = "Wind %.1f m/s²" % wind.strength
	box.add_child(wind_slider)
	return box

## The Wind node's settings into every pane's hair and Godot peer.
func _apply_wind() -> void:
	for p in panes:
		wind.apply(p.stage.avatar.get_hair_node(), p.peer)

## The Bands box into `pane`'s hair (a rebuild only when it changes).
func _apply_bands(pane: Pane) -> void:
	var hair := pane.stage.avatar.get_hair_node()
	if hair and hair.hold_bands != bands_check.button_pressed:
		hair.hold_bands = bands_check.button_pressed

func _apply_scales() -> void:
	for p in panes:
		p.set_scales(sliders.stiffness.value, sliders.drag.value, sliders.gravity.value)

## The right pane's solver (a MODES index) or -1: one view, full width.
func set_split(mode: int) -> void:
	pair_mode = mode
	pair_menu.selected = mode + 1
	var right := panes[1]
	right.visible = mode >= 0
	samples.clear()
	if mode < 0:
		return
	right.set_mode(mode)
	_apply_wind()
	if model_path != "" and right.loaded_path != model_path:
		# Loaded on demand: a single view never pays for the second avatar.
		if await _load_pane(right):
			_on_anim_selected(anim_menu.selected)
			_restart()

func _load(path: String) -> void:
	model_path = path
	samples.clear()
	motion_time = 0.0
	var loaded := await _load_pane(panes[0])
	if panes[1].visible:
		loaded = await _load_pane(panes[1]) and loaded
	if not loaded:
		info.text = "Could not load %s (see the log)" % path.get_file()
		status.text = ""
		return
	info.text = "Tress — %s" % path.get_file()
	var i := models.find(path)
	if i >= 0:
		model_menu.selected = i
	_fill_anim_menu(panes[0].clips)

## Loads the current model into `pane`, applies the sliders and frames its
## camera on the head; false when the model does not load.
func _load_pane(pane: Pane) -> bool:
	if not pane.load_model(model_path, anim_files):
		return false
	pane.set_scales(sliders.stiffness.value, sliders.drag.value, sliders.gravity.value)
	wind.apply(pane.stage.avatar.get_hair_node(), pane.peer)
	_apply_bands(pane)
	if pane.head_bone >= 0:
		await get_tree().process_frame
		var skel := pane.stage.avatar.get_skeleton()
		# The rest pose: a clip already playing (kept across models) may crouch.
		pane.stage.fit_to_head((skel.global_transform * skel.get_bone_global_rest(pane.head_bone)).origin)
	return true

## Lists the retargeted clips and plays the wanted one: `--anim=`, the one
## playing before a model change, or else the idle clip when one is found.
func _fill_anim_menu(names: PackedStringArray) -> void:
	anim_menu.clear()
	anim_menu.add_item("None (rest pose)")
	for n in names:
		anim_menu.add_item(n)
	if anim_menu.item_count == 1:
		anim_menu.set_item_text(0, "None (no animation files found)")
	var want := anim_wanted
	if want == "":
		for idle in IDLE_CLIPS:
			if names.has(idle):
				want = idle
				break
	for i in anim_menu.item_count:
		if i > 0 and anim_menu.get_item_text(i) == want:
			anim_menu.selected = i
			_on_anim_selected(i)
			return
	anim_menu.selected = 0
	_on_anim_selected(0)

## A clip plays under the motion: the head turn is layered on it.
func _on_anim_selected(i: int) -> void:
	for p in panes:
		if p.loaded_path != model_path:
			continue
		p.stage.avatar.position = p.root_start
		if i <= 0:
			p.stage.avatar.stop_animation()
		else:
			p.stage.avatar.play_animation(anim_menu.get_item_text(i))
	anim_wanted = anim_menu.get_item_text(i) if i > 0 else "none"
	_update_status()

func _update_status() -> void:
	var turning: String = {"loop": "the head turning again and again", "turn": "the head-turn test",
		"move": "move then settle", "still": "holding still"}.get(motion, motion)
	if anim_wanted != "none":
		status.text = "Clip: %s, with %s." % [anim_wanted, turning]
	elif anim_files.is_empty():
		status.text = "No idle clip (../shared/assets not found): %s only." % turning
	else:
		status.text = "No clip: %s." % turning

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

## The left pane's solver: Tress's three, or Godot's own
## SpringBoneSimulator3D built on the same chains and colliders.
func _on_mode_selected(i: int) -> void:
	hair_mode = i
	# Chosen by code (tests, --hair=) as well as from the menu: the menu
	# shows the mode that runs. Setting it does not emit item_selected.
	mode_menu.selected = i
	panes[0].set_mode(i)
	_apply_wind()
	samples.clear()

func _start(kind: String) -> void:
	motion = kind
	motion_time = 0.0
	paused = false
	Engine.time_scale = 1.0
	_update_status()

func _toggle_pause() -> void:
	paused = not paused
	Engine.time_scale = 0.0 if paused else 1.0

func _restart() -> void:
	motion_time = 0.0
	_apply_motion()
	for p in panes:
		p.stage.avatar.restart_animation()
		var hair := p.stage.avatar.get_hair_node()
		if hair:
			hair.reset()
		if p.peer and p.peer.has_method("reset"):
			p.peer.reset()

func _toggle_framing() -> void:
	for p in panes:
		p.stage.frame(not p.stage.close)

## The standard movement: 4 s of head yaw 60°·sin(πt) (turn; loop repeats
## it after 2 s of stillness, so the settling shows too) or a sideways
## sway of the whole avatar (move), then stillness.
func _apply_motion() -> void:
	var t := motion_time
	if motion == "loop":
		t = fmod(t, 6.0)
	var active := t < 4.0
	var yaw := 0.0
	var offset := Vector3.ZERO
	if (motion == "turn" or motion == "loop") and active:
		yaw = deg_to_rad(60.0) * sin(PI * t)
	elif motion == "move" and active:
		offset = Vector3(0.4 * sin(PI * t), 0, 0)
	for p in panes:
		p.pose(yaw, offset)

func _process(delta: float) -> void:
	if not paused:
		motion_time += delta
	_apply_motion()
	var hair := stage.avatar.get_hair_node()
	if hair and hair_mode == 3:
		perf.text = "Godot SpringBoneSimulator3D on the left (its time is not reported per node; see bench.tscn)"
	elif hair:
		samples.append(hair.get_last_update_usec())
		if samples.size() > 120:
			samples.pop_front()
		var sorted := samples.duplicate()
		sorted.sort()
		var p50: float = sorted[sorted.size() / 2]
		var p95: float = sorted[mini(sorted.size() - 1, int(sorted.size() * 0.95))]
		perf.text = "Left: hair update p50 %.0f µs, p95 %.0f µs; %d substeps; %d chains, %d joints (%s)" % [
			p50, p95, hair.get_last_substeps(), hair.chain_count(), hair.joint_count(), MODES[hair.solver_mode]]
	else:
		perf.text = "no spring hair"

func _unhandled_input(event: InputEvent) -> void:
	var cams: Array[TressStage] = []
	for p in panes:
		cams.append(p.stage)
	if event is InputEventMouseButton:
		if event.button_index == MOUSE_BUTTON_LEFT:
			dragging = event.pressed
		elif event.button_index == MOUSE_BUTTON_WHEEL_UP or event.button_index == MOUSE_BUTTON_WHEEL_DOWN:
			var k := 0.9 if event.button_index == MOUSE_BUTTON_WHEEL_UP else 1.1
			for s in cams:
				s.distance = clampf(s.distance * k, 0.3, 8.0)
				s.update_camera()
	elif event is InputEventMouseMotion and dragging:
		for s in cams:
			s.yaw -= event.relative.x * 0.01
			s.pitch = clampf(s.pitch - event.relative.y * 0.01, -1.2, 1.2)
			s.update_camera()
