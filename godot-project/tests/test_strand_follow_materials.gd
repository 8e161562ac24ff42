## Where TressStrandHair's render strands are placed (issue 22, item 1):
## with the built-in material the hair shader places them from the guide
## texture; a ShaderMaterial of the user's with the same shader does too,
## from the node's own copy (two nodes sharing it must not share one
## guide texture); a shader without the guide block gets them placed on
## the CPU. In every case 4 strands are drawn per simulated one and their
## segments stay within 3 % of their guides' while the head turns, and
## switching the material switches the placement without a reload.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")

const GROOM := "assets/tress_groom.tfx"
const HEAD_Y := 1.6
const DT := 1.0 / 60.0

## A ribbon shader with no guide block: positions come from the mesh.
const PLAIN_RIBBON := """
shader_type spatial;
render_mode skip_vertex_transform, cull_disabled;
void vertex() {
	vec3 p = (MODELVIEW_MATRIX * vec4(VERTEX, 1.0)).xyz;
	vec3 t = normalize((MODELVIEW_MATRIX * vec4(CUSTOM0.xyz, 0.0)).xyz);
	VERTEX = p + normalize(cross(t, -p)) * 0.0005 * UV.x;
}
void fragment() { ALBEDO = vec3(0.4, 0.25, 0.1); }
"""

func make_hair(head: Node3D) -> TressStrandHair:
	var hair := TestUtil.strand_hair(head, HEAD_Y)
	hair.render_ratio = 4
	hair.lod_enabled = false
	hair.pause_when_hidden = false
	return hair

func turn(head: Node3D, hairs: Array, frames: int) -> float:
	var worst := 0.0
	for i in frames:
		head.rotation.y = 1.0 * sin(3.0 * head.get_meta("t", 0.0))
		head.set_meta("t", head.get_meta("t", 0.0) + DT)
		for h in hairs:
			h.step_frame(DT)
			worst = maxf(worst, h.render_max_length_error())
	return worst

func check(hair: TressStrandHair, what: String, in_shader: bool) -> String:
	if hair.places_strands_in_shader() != in_shader:
		return "%s: placed in the shader %s, expected %s" % [what, hair.places_strands_in_shader(), in_shader]
	if hair.get_render_strand_count() != 4 * hair.strand_count():
		return "%s: %d strands drawn from %d" % [what, hair.get_render_strand_count(), hair.strand_count()]
	return ""

func run(tree: SceneTree) -> String:
	var head := Node3D.new()
	head.position = Vector3(0, HEAD_Y, 0)
	tree.root.add_child(head)
	var a := make_hair(head)
	var b := make_hair(head)
	for h in [a, b]:
		if not h.load_groom(TestUtil.repo_path(GROOM)):
			return "the procedural groom did not load"
	var why := check(a, "built-in material", true)
	if not why.is_empty():
		return why
	var worst := turn(head, [a, b], 30)
	var tex = a.get_active_material().get_shader_parameter("guide_points")
	if not tex is ImageTexture:
		return "the built-in material was given no guide texture: %s" % tex
	# One material of the user's, with the built-in shader, on both nodes.
	var shared := ShaderMaterial.new()
	shared.shader = load("res://strands/hair_ribbon.gdshader")
	a.material = shared
	b.material = shared
	for h in [a, b]:
		why = check(h, "the user's material with the hair shader", true)
		if not why.is_empty():
			return why
	worst = maxf(worst, turn(head, [a, b], 30))
	var ta = a.get_active_material().get_shader_parameter("guide_points")
	var tb = b.get_active_material().get_shader_parameter("guide_points")
	if a.get_active_material() == shared or ta == null or ta == tb:
		return "two nodes sharing a material share its guide texture (%s, %s)" % [ta, tb]
	if shared.get_shader_parameter("guide_points") != null:
		return "the user's own material was written to"
	# A shader without the guide block: placed on the CPU.
	var plain := ShaderMaterial.new()
	plain.shader = Shader.new()
	plain.shader.code = PLAIN_RIBBON
	a.material = plain
	why = check(a, "a plain ribbon shader", false)
	if not why.is_empty():
		return why
	worst = maxf(worst, turn(head, [a], 30))
	if a.get_active_material() != plain:
		return "a material that does not place strands is not drawn as given"
	# Back to the built-in material: in the shader again, no reload.
	var count := a.strand_count()
	a.material = null
	why = check(a, "the built-in material again", true)
	if not why.is_empty():
		return why
	worst = maxf(worst, turn(head, [a], 10))
	if a.strand_count() != count:
		return "switching materials reloaded the groom"
	print("render strands: worst segment error %.4f of their guides' across four materials; interpolation %d us" % [worst, a.get_last_interpolation_usec()])
	if worst <= 0.0 or worst > 0.03:
		return "render segment error %.4f outside (0, 3 %%]" % worst
	head.queue_free()
	return ""
