## Helper for the docs pictures (not a test): crops a PNG, e.g. the split
## view's two panes out of a demo frame, or crops several the same way and
## joins them left to right (the README's four-mode strip).
##   godot --headless --script res://tests/tools/crop_png.gd -- --in=PATH[,PATH...] --out=PATH --rect=X,Y,W,H [--width=W]
## Paths are relative to the repository root; --width scales the result.
extends SceneTree

func _initialize() -> void:
	var srcs := PackedStringArray()
	var dst := ""
	var rect := Rect2i()
	var width := 0
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--in="):
			srcs = arg.trim_prefix("--in=").split(",", false)
		elif arg.begins_with("--out="):
			dst = arg.trim_prefix("--out=")
		elif arg.begins_with("--width="):
			width = int(arg.trim_prefix("--width="))
		elif arg.begins_with("--rect="):
			var n := arg.trim_prefix("--rect=").split_floats(",")
			if n.size() == 4:
				rect = Rect2i(int(n[0]), int(n[1]), int(n[2]), int(n[3]))
	var root := ProjectSettings.globalize_path("res://").path_join("..")
	var parts: Array[Image] = []
	for src in srcs:
		var img := Image.load_from_file(root.path_join(src))
		if img == null:
			break
		parts.append(img.get_region(rect.intersection(Rect2i(Vector2i.ZERO, img.get_size()))))
	if parts.is_empty() or parts.size() != srcs.size() or rect.size == Vector2i.ZERO:
		printerr("crop_png: need readable --in files and --rect=X,Y,W,H (got %s, %s)" % [srcs, rect])
		quit(1)
		return
	var out := Image.create(parts[0].get_width() * parts.size(), parts[0].get_height(), false, parts[0].get_format())
	for i in parts.size():
		out.blit_rect(parts[i], Rect2i(Vector2i.ZERO, parts[i].get_size()), Vector2i(i * parts[0].get_width(), 0))
	if width > 0:
		out.resize(width, int(round(out.get_height() * float(width) / out.get_width())), Image.INTERPOLATE_LANCZOS)
	var err := out.save_png(root.path_join(dst))
	if err != OK:
		printerr("crop_png: cannot write %s: %s" % [dst, error_string(err)])
	quit(0 if err == OK else 1)
