## One side of the demo's split view: a SubViewport with a world of its own
## holding a stage (camera, light, avatar), the hair solver it runs, and a
## label naming that solver. Both panes get the same model, clip, motion,
## camera and slider values, so only the solver differs.
extends SubViewportContainer

const TressStage = preload("res://demo/stage.gd")
const GodotPeer = preload("res://demo/godot_peer.gd")
const HeadTurn = preload("res://demo/head_turn.gd")
const ToonLook = preload("res://demo/toon_look.gd")
const MODES := ["Tress improved", "Tress earlier", "Tress VRM-compatible", "Godot SpringBoneSimulator3D"]

var viewport: SubViewport
var stage: TressStage
var label: Label
## Godot's SpringBoneSimulator3D on the same chains (mode 3), built on demand.
var peer: SkeletonModifier3D
var mode := 0
var head_turn: SkeletonModifier3D
var head_bone := -1
var root_start := Vector3.ZERO
## Names of the clips retargeted by the last load_model.
var clips := PackedStringArray()
## The model loaded ("" when the last load failed).
var loaded_path := ""

func _init() -> void:
	stretch = true
	size_flags_horizontal = SIZE_EXPAND_FILL
	size_flags_vertical = SIZE_EXPAND_FILL
	# Orbit and zoom are handled by the demo for both panes at once.
	mouse_filter = MOUSE_FILTER_IGNORE
	viewport = SubViewport.new()
	# Each pane has its own avatar at the origin: separate worlds keep the
	# other pane's avatar out of view.
	viewport.own_world_3d = true
	viewport.msaa_3d = Viewport.MSAA_4X
	add_child(viewport)
	stage = TressStage.new()
	viewport.add_child(stage)
	label = Label.new()
	label.position = Vector2(14, 10)
	label.add_theme_font_size_override("font_size", 22)
	label.add_theme_constant_override("outline_size", 6)
	label.add_theme_color_override("font_outline_color", Color(0, 0, 0, 0.8))
	viewport.add_child(label)

## Loads `path`, retargets `anim_files` onto it, adds the head-turn layer
## and (built-in avatar) the face and toon look; false (with an error
## logged) when the model does not load.
func load_model(path: String, anim_files: Array[String]) -> bool:
	clips = PackedStringArray()
	loaded_path = ""
	peer = null
	head_turn = null
	head_bone = -1
	stage.avatar.hair_mode = mini(mode, 2)
	if not stage.load_model(path):
		return false
	var skel := stage.avatar.get_skeleton()
	head_bone = skel.find_bone(stage.avatar.get_humanoid_bone("head")) if skel else -1
	root_start = stage.avatar.position
	if head_bone >= 0:
		head_turn = HeadTurn.new()
		head_turn.name = "DemoHeadTurn"
		head_turn.bone = head_bone
		skel.add_child(head_turn)
		var hair := stage.avatar.get_hair_node()
		# Before the hair, so the hair sees the turned head this frame.
		if hair and hair.get_parent() == skel:
			skel.move_child(head_turn, hair.get_index())
	if ToonLook.wants(path):
		ToonLook.apply(stage.avatar)
	for f in anim_files:
		clips.append_array(stage.avatar.load_animations(f))
	set_mode(mode)
	loaded_path = path
	return true

## Tress's three solvers (0..2) or Godot's SpringBoneSimulator3D (3) built
## on the same chains and colliders, the Tress node switched off meanwhile.
func set_mode(i: int) -> void:
	mode = i
	label.text = MODES[clampi(i, 0, 3)]
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
		# No SpringBoneSimulator3D (Godot 4.3): say so and keep Tress on.
		label.text = "Godot SpringBoneSimulator3D needs Godot 4.4+ (showing Tress improved)"
		i = 0
	if peer:
		peer.active = false
	hair.active = true
	hair.solver_mode = i

## The sliders' multipliers on every joint's stiffness, drag and gravity,
## for the Tress node and Godot's peer alike.
func set_scales(stiffness: float, drag: float, gravity: float) -> void:
	var hair := stage.avatar.get_hair_node()
	if hair == null:
		return
	hair.stiffness_scale = stiffness
	hair.drag_scale = drag
	hair.gravity_scale = gravity
	if peer:
		GodotPeer.apply_scales(peer, hair)

## Head yaw (radians, layered on the clip) and sideways offset of the body.
func pose(yaw: float, offset: Vector3) -> void:
	if head_turn:
		head_turn.yaw = yaw
	stage.avatar.position = root_start + offset
