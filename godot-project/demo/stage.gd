## The stage every demo and render test uses: floor, light, sky-less
## environment, an orbit camera, and a TressAvatar.
extends Node3D

var avatar: TressAvatar
var camera: Camera3D
var yaw := 0.0
var pitch := -0.12
var distance := 3.2
var target := Vector3(0, 1.0, 0)

## Adds the shared look (flat background, ambient light, a sun) to `parent`
## and returns the sun; a render test that needs its own light passes its
## values.
static func add_lighting(parent: Node, background := Color(0.16, 0.17, 0.2),
		ambient := Color(0.55, 0.55, 0.6), ambient_energy := 0.6,
		sun_degrees := Vector3(-40, 30, 0), sun_energy := 1.1) -> DirectionalLight3D:
	var env := WorldEnvironment.new()
	env.environment = Environment.new()
	env.environment.background_mode = Environment.BG_COLOR
	env.environment.background_color = background
	env.environment.ambient_light_source = Environment.AMBIENT_SOURCE_COLOR
	env.environment.ambient_light_color = ambient
	env.environment.ambient_light_energy = ambient_energy
	parent.add_child(env)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = sun_degrees
	sun.light_energy = sun_energy
	parent.add_child(sun)
	return sun

func _ready() -> void:
	add_lighting(self)
	var floor_mesh := MeshInstance3D.new()
	var plane := PlaneMesh.new()
	plane.size = Vector2(6, 6)
	floor_mesh.mesh = plane
	var mat := StandardMaterial3D.new()
	mat.albedo_color = Color(0.32, 0.34, 0.36)
	floor_mesh.material_override = mat
	add_child(floor_mesh)
	camera = Camera3D.new()
	camera.fov = 40
	add_child(camera)
	camera.current = true
	avatar = TressAvatar.new()
	add_child(avatar)
	update_camera()

## Loads a model into the stage's avatar; false (with an error logged) on failure.
func load_model(path: String) -> bool:
	return avatar.load_vrm(path)

var head := Vector3(0, 1.5, 0)
## Height of the top of the model (hair included) above the floor.
var top := 1.7
var close := false

## Head and shoulders (the demo's first view) or the full body.
func frame(close_up: bool) -> void:
	close = close_up
	var height := maxf(head.y, 0.3)
	if close_up:
		# From the upper chest to just above the hair top, the head bone a
		# little above the middle: the locks that hang to the shoulders stay
		# in view, and chibi heads (much of the height above the head bone)
		# widen the frame through `top`.
		var centre := head.y - 0.06 * height
		var half := maxf(top, head.y + 0.1 * height) + 0.05 * height - centre
		target = Vector3(head.x, centre, head.z)
		distance = half / tan(deg_to_rad(camera.fov * 0.5)) if camera else 0.8
	else:
		# Fit the whole model: chibi avatars carry much of their height above
		# the head bone.
		var h := maxf(top, height)
		target = Vector3(head.x, 0.5 * h, head.z)
		distance = 1.65 * h + 0.3
	update_camera()

## Re-frames the camera around an avatar whose head bone is at `head_pos`
## (the top of the model is read from its meshes' rest bounds).
func fit_to_head(head_pos: Vector3) -> void:
	head = head_pos
	top = head_pos.y * 1.12
	for m in avatar.find_children("*", "MeshInstance3D", true, false):
		var box: AABB = m.global_transform * m.get_aabb()
		top = maxf(top, box.end.y)
	frame(close)

func update_camera() -> void:
	var offset := Vector3(0, 0, distance).rotated(Vector3.RIGHT, pitch).rotated(Vector3.UP, yaw)
	camera.position = target + offset
	camera.look_at(target)
