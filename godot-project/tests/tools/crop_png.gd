## Helper for the docs pictures (not a test): crops a PNG, e.g. the split
## view's two panes out of a demo frame.
##   godot --headless --script res://tests/tools/crop_png.gd -- --in=PATH --out=PATH --rect=X,Y,W,H
## Paths are relative to the repository root.
extends SceneTree

func _initialize() -> void:
	var src := ""
	var dst := ""
	var rect := Rect2i()
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--in="):
			src = arg.trim_prefix("--in=")
		elif arg.begins_with("--out="):
			dst = arg.trim_prefix("--out=")
		elif arg.begins_with("--rect="):
			var n := arg.trim_prefix("--rect=").split_floats(",")
			if n.size() == 4:
				rect = Rect2i(int(n[0]), int(n[1]), int(n[2]), int(n[3]))
	var root := ProjectSettings.globalize_path("res://").path_join("..")
	var img := Image.load_from_file(root.path_join(src))
	if img == null or rect.size == Vector2i.ZERO:
		printerr("crop_png: need a readable --in and --rect=X,Y,W,H (got %s, %s)" % [src, rect])
		quit(1)
		return
	var err := img.get_region(rect.intersection(Rect2i(Vector2i.ZERO, img.get_size()))).save_png(root.path_join(dst))
	if err != OK:
		printerr("crop_png: cannot write %s: %s" % [dst, error_string(err)])
	quit(0 if err == OK else 1)
