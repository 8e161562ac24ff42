## Issue #18: the nodes hand bad files to the readers and keep running. A BVH
## with no CHANNELS (read by load_animations, and not a model)
## given as a model or as animations, the built-in avatar cut to 1000 bytes,
## and a `.tfx` whose strand count does not fit its file are refused (the log says what each is and where: see
## target/godot-logs/test_bad_files.log); a `.tfx` with one zero-length strand
## loads the other two, with a warning naming strand 1. A `.tfxmesh` body cut
## off after its vertex count, and one that is not there, give no mesh.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

## A TressFX 4 file of `strands` strands × 4 vertices, strand `s` vertex `v`
## at (s, -v, 0); `flat` strand has all its points at (flat, 0, 0).
static func tfx(strands: int, declared: int, flat: int) -> PackedByteArray:
	var b := PackedByteArray()
	b.resize(160)
	b.encode_float(0, 4.0)
	b.encode_u32(4, declared)
	b.encode_u32(8, 4)
	b.encode_u32(12, 160)
	for s in strands:
		for v in 4:
			var at := b.size()
			b.resize(at + 16)
			b.encode_float(at, float(s))
			b.encode_float(at + 4, 0.0 if s == flat else -float(v))
			b.encode_float(at + 8, 0.0)
			b.encode_float(at + 12, 0.0 if v == 0 else 1.0)
	return b

static func write(path: String, bytes: PackedByteArray) -> void:
	var f := FileAccess.open(path, FileAccess.WRITE)
	f.store_buffer(bytes)
	f.close()

func run(tree: SceneTree) -> String:
	var dir := TestUtil.repo_path("target/test-out/bad_files")
	DirAccess.make_dir_recursive_absolute(dir)
	var bvh := dir.path_join("walk.bvh")
	write(bvh, "HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0 0\n}\nMOTION\n".to_utf8_buffer())
	var miscounted := dir.path_join("miscounted.tfx")
	write(miscounted, tfx(3, 2, -1))
	var one_flat := dir.path_join("one_flat.tfx")
	write(one_flat, tfx(3, 3, 1))

	var cut_body := dir.path_join("cut_body.tfxmesh")
	write(cut_body, "numOfBones 1\n0 root\nnumOfVertices 3\n0 0 0 0 0 1 0 0 0 0 0 1 0 0 0\n".to_utf8_buffer())

	var avatar_path := TestUtil.repo_path("assets/tress_avatar.vrm")
	var cut := dir.path_join("cut.vrm")
	write(cut, FileAccess.get_file_as_bytes(avatar_path).slice(0, 1000))

	var avatar := TressAvatar.new()
	tree.root.add_child(avatar)
	if not avatar.load_vrm(avatar_path):
		return "could not load the built-in avatar"
	if avatar.load_vrm(bvh):
		return "a BVH file loaded as a model"
	if avatar.load_vrm(cut):
		return "a GLB cut to 1000 bytes loaded"
	var added := avatar.load_animations(bvh)
	if not added.is_empty():
		return "a BVH file gave clips %s" % added
	var hair := TressStrandHair.new()
	tree.root.add_child(hair)
	if hair.load_groom(miscounted):
		return "a .tfx whose strand count does not fit its file loaded"
	if not hair.load_groom(one_flat):
		return "a .tfx with one zero-length strand did not load"
	if hair.strand_count() != 2:
		return "expected the 2 good strands, got %d" % hair.strand_count()
	if hair.load_body_mesh(cut_body) != null:
		return "a .tfxmesh cut off after its first vertex gave a mesh"
	if hair.load_body_mesh(dir.path_join("no_such_body.tfxmesh")) != null:
		return "a missing .tfxmesh gave a mesh"
	await TestUtil.frames(tree, 5)
	if avatar.get_skeleton() == null:
		return "the avatar lost its model"
	hair.queue_free()
	avatar.queue_free()
	return ""
