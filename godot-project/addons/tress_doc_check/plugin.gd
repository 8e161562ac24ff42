## Test hook for tools/godot-tests.sh: proves the Tress classes' Rust doc
## comments reach the editor's help. Inert unless the editor is started with
## `-- --tress-doc-check`; then it opens each class's help page through the
## script editor, prints the page's text, and quits.
@tool
extends EditorPlugin

const CLASSES := {
	"TressAvatar": "avatar at runtime",
	"TressSpringHair": "fixed-step solver",
	"TressStrandHair": "camera-facing ribbons",
	"TressCollider3D": "keeps spring hair out",
	"TressNodeConstraints": "node constraints",
	"TressSpringConfig": "springs as scene data",
}

func _enter_tree() -> void:
	if not OS.get_cmdline_user_args().has("--tress-doc-check"):
		return
	_check.call_deferred()

func _find_help(n: Node) -> Array[RichTextLabel]:
	var out: Array[RichTextLabel] = []
	if n is RichTextLabel and n.get_parent() != null and n.get_parent().get_class() == "EditorHelp":
		out.append(n)
	for c in n.get_children():
		out.append_array(_find_help(c))
	return out

func _check() -> void:
	for i in 30:
		await get_tree().process_frame
	var failed := 0
	for cls: String in CLASSES:
		var text := ""
		# The editor builds its class reference in a thread on start; give it
		# time, reopening the page until the description shows (or 5 s pass).
		var deadline := Time.get_ticks_msec() + 5000
		while Time.get_ticks_msec() < deadline:
			EditorInterface.get_script_editor().goto_help("class_name:" + cls)
			await get_tree().create_timer(0.25).timeout
			for label in _find_help(EditorInterface.get_base_control()):
				if label.is_visible_in_tree() and label.get_parsed_text().contains(cls):
					text = label.get_parsed_text()
			if text.contains(CLASSES[cls]):
				break
		if text.contains(CLASSES[cls]):
			print("DOC OK %s: %s" % [cls, text.substr(0, 160).replace("\n", " ")])
		else:
			failed += 1
			print("DOC MISSING %s (help page text: %s)" % [cls, text.substr(0, 200).replace("\n", " ")])
	print("DOC CHECK %s" % ("PASS" if failed == 0 else "FAIL"))
	get_tree().quit(0 if failed == 0 else 1)
