## Runner self-test: the control case, which must pass.
extends RefCounted

func run(tree: SceneTree) -> String:
	await tree.process_frame
	return "" if ClassDB.class_exists("TressAvatar") else "TressAvatar is not registered"
