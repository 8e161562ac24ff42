## Test hook for tools/import-test.sh: TressAvatar is a tool class. Inert
## unless the editor is started with `-- --tress-editor-check`; then it puts
## a TressAvatar in the editor's tree and checks that it shows its model
## (skeleton, no hair: that runs in the game), that a scene saved with it
## holds the avatar node but not the model, and that a new `vrm_path`
## swaps the model. Prints "EDITOR CHECK PASS" or "EDITOR CHECK FAIL: ..."
## and quits.
@tool
extends EditorPlugin

const FIRST := "res://avatars/tress_avatar.vrm"
const SECOND := "res://avatars/tress_avatar_layered.vrm"

func _enter_tree() -> void:
	if OS.get_cmdline_user_args().has("--tress-editor-check"):
		_check.call_deferred()

func _check() -> void:
	var why := await _run()
	if why.is_empty():
		print("EDITOR CHECK PASS")
	else:
		print("EDITOR CHECK FAIL: ", why)
	get_tree().quit(0 if why.is_empty() else 1)

func _run() -> String:
	var scene := Node3D.new()
	scene.name = "Scene"
	EditorInterface.get_base_control().add_child(scene)
	var avatar := TressAvatar.new()
	avatar.name = "Avatar"
	avatar.vrm_path = FIRST
	scene.add_child(avatar)
	avatar.owner = scene
	await get_tree().process_frame
	if avatar.get_skeleton() == null:
		return "TressAvatar shows no model in the editor"
	if avatar.get_hair_node() != null:
		return "TressAvatar added spring hair in the editor"
	var bones := avatar.bone_count()
	var packed := PackedScene.new()
	if packed.pack(scene) != OK:
		return "PackedScene.pack failed"
	if packed.get_state().get_node_count() != 2:
		return "the saved scene holds %d nodes, expected the root and the avatar" % packed.get_state().get_node_count()
	avatar.vrm_path = SECOND
	await get_tree().process_frame
	if avatar.get_skeleton() == null or avatar.bone_count() == bones:
		return "a new vrm_path did not show the new model (%d bones, before %d)" % [avatar.bone_count(), bones]
	print("TressAvatar in the editor: %d bones, then %d after a new vrm_path; saved scene: %d nodes" % [bones, avatar.bone_count(), packed.get_state().get_node_count()])
	scene.queue_free()
	return ""
