## Strand hair demo: 6,000 strands on two turning heads, side by side.
## Left: gravity and length only (the baseline). Right: shape constraints and
## colliders. Buttons lower both shape stiffnesses to 0.3× and 0.08× and
## restore them. The heads turn yaw ±60° with a 2 s period for 4 s, then stay
## still; "Turn again" restarts that. "Camera far" steps the camera back to
## 20 m, where both hairs drop to quarter detail (30 Hz steps, a quarter of
## the strands drawn; the overlay says which level each side runs).
## "Volume" turns the right hair's volume pass on (`keep_volume`: strands
## kept apart; the overlay counts the particles the last pass pushed).
##
## The right head draws 60,000 strands placed by the hair shader from its
## 6,000 simulated ones (render_ratio 10); the left draws its simulated strands.
##
## Command line (after `--`): --strands=FRACTION (level of detail, 0..1),
## --ratio=N (render strands per simulated strand on the right, default 10).
extends Node3D

const GROOM := "assets/tress_groom.tfx"
const HEAD_Y := 1.6
const HEAD_R := 0.1

## Render strands per simulated strand on the right head (the command line's
## --ratio wins); set before the scene enters the tree.
var ratio := 10
var left: TressStrandHair
var right: TressStrandHair
var heads: Array[Node3D] = []
var t := 0.0
var scale_label: Label
var perf: Label
var camera: Camera3D

func _ready() -> void:
	var fraction := 1.0
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--ratio="):
			ratio = clampi(int(arg.trim_prefix("--ratio=")), 1, 32)
		if arg.begins_with("--strands="):
			fraction = clampf(float(arg.trim_prefix("--strands=")), 0.01, 1.0)
	_environment()
	left = _head(-0.32, false, fraction, 1)
	right = _head(0.32, true, fraction, ratio)
	_ui()

func _environment() -> void:
	preload("res://demo/stage.gd").add_lighting(self)
	camera = Camera3D.new()
	camera.fov = 35
	camera.position = Vector3(0, HEAD_Y - 0.05, 1.55)
	add_child(camera)
	camera.look_at(Vector3(0, HEAD_Y - 0.08, 0))

func _head(x: float, full: bool, fraction: float, ratio: int) -> TressStrandHair:
	var head := Node3D.new()
	head.name = "HeadRight" if full else "HeadLeft"
	head.position = Vector3(x, HEAD_Y, 0)
	add_child(head)
	heads.append(head)
	var skin := MeshInstance3D.new()
	var sphere := SphereMesh.new()
	sphere.radius = HEAD_R
	sphere.height = HEAD_R * 2
	skin.mesh = sphere
	var mat := StandardMaterial3D.new()
	mat.albedo_color = Color(0.93, 0.78, 0.68)
	skin.material_override = mat
	head.add_child(skin)
	var neck := MeshInstance3D.new()
	var cyl := CylinderMesh.new()
	cyl.top_radius = 0.045
	cyl.bottom_radius = 0.05
	cyl.height = 0.2
	neck.mesh = cyl
	neck.material_override = mat
	neck.position = Vector3(x, HEAD_Y - 0.15, 0)
	add_child(neck)
	var hair := TressStrandHair.new()
	hair.name = "Strands"
	hair.groom_origin = Vector3(0, HEAD_Y, 0)
	hair.strand_fraction = fraction
	hair.shape_constraints = full
	hair.collisions = full
	hair.render_ratio = ratio
	head.add_child(hair)
	var col := CollisionShape3D.new()
	var s := SphereShape3D.new()
	s.radius = HEAD_R
	col.shape = s
	hair.add_child(col)
	var repo := ProjectSettings.globalize_path("res://").path_join("..").simplify_path()
	hair.load_groom(repo.path_join(GROOM))
	var label := Label3D.new()
	label.text = "shape + colliders" if full else "gravity + length only"
	label.font_size = 28
	label.pixel_size = 0.001
	label.position = Vector3(x, HEAD_Y + 0.27, 0)
	add_child(label)
	return hair

func _ui() -> void:
	var ui := CanvasLayer.new()
	add_child(ui)
	var box := VBoxContainer.new()
	box.position = Vector2(12, 12)
	ui.add_child(box)
	var row := HBoxContainer.new()
	box.add_child(row)
	for pair in [["Shape ×1", 1.0], ["Shape ×0.3", 0.3], ["Shape ×0.08", 0.08]]:
		var b := Button.new()
		b.text = pair[0]
		b.pressed.connect(set_shape_scale.bind(pair[1]))
		row.add_child(b)
	var again := Button.new()
	again.text = "Turn again"
	again.pressed.connect(func() -> void: t = 0.0)
	row.add_child(again)
	var far := CheckButton.new()
	far.text = "Camera far"
	far.toggled.connect(set_camera_far)
	row.add_child(far)
	var volume := CheckButton.new()
	volume.text = "Volume"
	volume.toggled.connect(func(on: bool) -> void: right.keep_volume = on)
	row.add_child(volume)
	scale_label = Label.new()
	scale_label.text = "shape stiffness ×1"
	box.add_child(scale_label)
	perf = Label.new()
	box.add_child(perf)

## Scales both shape stiffnesses of both sides from their defaults.
func set_shape_scale(k: float) -> void:
	for hair in [left, right]:
		hair.global_stiffness = 0.1 * k
		hair.local_stiffness = 0.6 * k
	scale_label.text = "shape stiffness ×%s" % k

## Puts the camera 20 m back (level of detail) or at its place in front.
func set_camera_far(on: bool) -> void:
	var d := 20.0 if on else 1.55
	camera.position = Vector3(0, HEAD_Y - 0.05, d)
	camera.look_at(Vector3(0, HEAD_Y - 0.08, 0))

const DETAIL := ["full", "half", "quarter"]

func _process(delta: float) -> void:
	t += delta
	var yaw := deg_to_rad(60.0) * sin(PI * t) if t < 4.0 else 0.0
	for h in heads:
		h.rotation = Vector3(0, yaw, 0)
	var volume := "off"
	if right.keep_volume:
		volume = "%d particles pushed" % right.get_volume_stats()["moved"]
	perf.text = "%d strands simulated per side, %d drawn on the right; update %.1f ms (right, of which the guide texture %.1f ms); detail %s, %d Hz; volume %s" % [
		right.strand_count(), right.get_render_strand_count(),
		right.get_last_update_usec() / 1000.0, right.get_last_interpolation_usec() / 1000.0,
		DETAIL[right.get_lod_level()], 120 / right.get_rate_divisor(), volume]
