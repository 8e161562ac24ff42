## The Tress demo: plays a VRM avatar (the built-in one by default, or
## --model=PATH) and turns its head so the hair can be watched.
extends Node3D

const TressStage = preload("res://demo/stage.gd")

var stage: TressStage
var label: Label
var time := 0.0
var head_bone := -1

func _ready() -> void:
	stage = TressStage.new()
	add_child(stage)
	var model := ProjectSettings.globalize_path("res://").path_join("../assets/tress_avatar.vrm").simplify_path()
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--model="):
			model = arg.trim_prefix("--model=")
	var ui := CanvasLayer.new()
	add_child(ui)
	label = Label.new()
	label.position = Vector2(16, 12)
	label.add_theme_font_size_override("font_size", 20)
	ui.add_child(label)
	if stage.load_model(model):
		label.text = "Tress — %s" % model.get_file()
		var skel := stage.avatar.get_skeleton()
		head_bone = skel.find_bone("Head") if skel else -1
	else:
		label.text = "Could not load %s (see the log)" % model
	stage.frame(false)

func _process(delta: float) -> void:
	time += delta
	var skel := stage.avatar.get_skeleton()
	if skel and head_bone >= 0:
		# The standard head turn: yaw 60° · sin(πt).
		var yaw := deg_to_rad(60.0) * sin(PI * time)
		skel.set_bone_pose_rotation(head_bone, Quaternion(Vector3.UP, yaw))
