## The GDExtension loads and registers its classes.
extends RefCounted

func run(_tree: SceneTree) -> String:
	for cls in ["TressAvatar"]:
		if not ClassDB.class_exists(cls):
			return "class %s is not registered: the extension did not load" % cls
	return ""
