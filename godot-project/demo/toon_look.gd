## The built-in avatar's demo look: a face (eyes, brows, mouth) and toon
## shading, added in the scene so that assets/tress_avatar.vrm, whose bytes
## feed the measured figures, stays as generated.
extends RefCounted

const TOON := preload("res://demo/toon.gdshader")

## The generated head (crates/tress-tools/src/avatar/skeleton.rs): a sphere
## of radius 0.10 m centred 0.10 m above the head bone, facing +Z.
const HEAD_CENTRE := Vector3(0.0, 0.10, 0.0)
const HEAD_RADIUS := 0.10

## Whether `path` is the built-in avatar (the layered variant and other
## models keep their own look).
static func wants(path: String) -> bool:
	return path.get_file() == "tress_avatar.vrm"

## Adds the face on the head bone and swaps every mesh surface's material
## for a toon one of the same colour. Returns the face node, or null (with
## a warning) when the avatar has no head bone.
static func apply(avatar: TressAvatar) -> Node3D:
	var skel := avatar.get_skeleton()
	var head := skel.find_bone(avatar.get_humanoid_bone("head")) if skel else -1
	if head < 0:
		push_warning("toon_look: the avatar has no head bone; no face added")
		return null
	for m: MeshInstance3D in avatar.find_children("*", "MeshInstance3D", true, false):
		_toon_surfaces(m)
	var attach := BoneAttachment3D.new()
	attach.name = "DemoFace"
	attach.bone_idx = head
	skel.add_child(attach)
	_add_face(attach)
	return attach

static func _toon_surfaces(m: MeshInstance3D) -> void:
	if m.mesh == null:
		return
	for s in m.mesh.get_surface_count():
		var src := m.get_active_material(s)
		var colour := Color(0.8, 0.8, 0.8)
		if src is BaseMaterial3D:
			colour = (src as BaseMaterial3D).albedo_color
		var mat := ShaderMaterial.new()
		mat.shader = TOON
		mat.set_shader_parameter("albedo", colour)
		# Skin shadows warm, cloth and hair cool: reads less grey.
		var warm := colour.r > colour.b + 0.15 and colour.g > 0.5
		mat.set_shader_parameter("shadow_tint", Color(0.78, 0.6, 0.62) if warm else Color(0.55, 0.55, 0.72))
		# Skin gets a softer line: on the small nose a dark one reads as a ring.
		mat.set_shader_parameter("line_color", colour.darkened(0.35 if warm else 0.7))
		m.set_surface_override_material(s, mat)

## Eyes (white, iris, highlight), brows and a mouth, just off the head
## sphere's surface so they follow its curve.
static func _add_face(parent: Node3D) -> void:
	for side in [-1.0, 1.0]:
		var eye_dir := Vector3(0.36 * side, -0.05, 0.93)
		_blob(parent, _on_head(eye_dir, 0.0), eye_dir, Vector3(0.02, 0.028, 0.006), Color(0.97, 0.97, 0.97))
		_blob(parent, _on_head(eye_dir, 0.003), eye_dir, Vector3(0.014, 0.021, 0.004), Color(0.2, 0.14, 0.1))
		var glint := _on_head(eye_dir + Vector3(0.03 * side, 0.06, 0.0), 0.0055)
		_blob(parent, glint, eye_dir, Vector3(0.0035, 0.0035, 0.002), Color(1, 1, 1))
		var brow_dir := Vector3(0.36 * side, 0.24, 0.9)
		var brow := _blob(parent, _on_head(brow_dir, 0.002), brow_dir, Vector3(0.02, 0.004, 0.004), Color(0.28, 0.16, 0.09))
		brow.rotate_object_local(Vector3.FORWARD, -0.18 * side)
	var mouth_dir := Vector3(0.0, -0.5, 0.87)
	_blob(parent, _on_head(mouth_dir, 0.0), mouth_dir, Vector3(0.016, 0.004, 0.004), Color(0.62, 0.25, 0.25))

## A point `lift` metres off the head sphere in direction `dir`.
static func _on_head(dir: Vector3, lift: float) -> Vector3:
	return HEAD_CENTRE + dir.normalized() * (HEAD_RADIUS + lift)

## A flattened sphere at `pos` facing `dir` with half-extents `size`.
static func _blob(parent: Node3D, pos: Vector3, dir: Vector3, size: Vector3, colour: Color) -> MeshInstance3D:
	var mi := MeshInstance3D.new()
	var sphere := SphereMesh.new()
	sphere.radius = 1.0
	sphere.height = 2.0
	sphere.radial_segments = 16
	sphere.rings = 8
	mi.mesh = sphere
	var mat := StandardMaterial3D.new()
	mat.albedo_color = colour
	mat.shading_mode = BaseMaterial3D.SHADING_MODE_UNSHADED
	mi.material_override = mat
	mi.cast_shadow = GeometryInstance3D.SHADOW_CASTING_SETTING_OFF
	parent.add_child(mi)
	mi.transform = Transform3D(Basis.looking_at(-dir.normalized(), Vector3.UP) * Basis.from_scale(size), pos)
	return mi
