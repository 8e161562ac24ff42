## Builds Godot's own SpringBoneSimulator3D (Godot 4.4+) on the same chains
## and colliders as a TressSpringHair, for the demo's side-by-side mode and
## the performance comparison. Values are the VRM ones (Godot's simulator
## follows the VRM spring-bone model); per chain it uses the first joint's
## values, times the TressSpringHair's stiffness/drag/gravity scales, and
## each chain collides with exactly its VRM collider groups.
extends RefCounted

const FROM_PARENT := 6 # SkeletonModifier3D.BONE_DIRECTION_FROM_PARENT

static func build(skel: Skeleton3D, hair: TressSpringHair) -> SkeletonModifier3D:
	if not ClassDB.class_exists("SpringBoneSimulator3D"):
		push_warning("Godot's SpringBoneSimulator3D needs Godot 4.4 or newer")
		return null
	var sim: SkeletonModifier3D = ClassDB.instantiate("SpringBoneSimulator3D")
	sim.name = "GodotSpringBones"
	skel.add_child(sim)
	var nodes: Array[Node3D] = []
	for c: Dictionary in hair.get_collider_descriptions():
		var n: Node3D
		var offset: Vector3 = c.offset
		var tail: Vector3 = c.tail
		match c.shape:
			"sphere", "insideSphere":
				n = ClassDB.instantiate("SpringBoneCollisionSphere3D")
				n.radius = c.radius
				n.inside = c.shape == "insideSphere"
				n.position_offset = offset
			"capsule", "insideCapsule":
				n = ClassDB.instantiate("SpringBoneCollisionCapsule3D")
				var axis := tail - offset
				n.radius = c.radius
				n.height = axis.length() + 2.0 * c.radius
				n.inside = c.shape == "insideCapsule"
				n.position_offset = (offset + tail) * 0.5
				if axis.length() > 1e-6:
					n.rotation_offset = Quaternion(Vector3.UP, axis.normalized())
			_:
				n = ClassDB.instantiate("SpringBoneCollisionPlane3D")
				n.position_offset = offset
				n.rotation_offset = Quaternion(Vector3.UP, (c.normal as Vector3).normalized())
		n.bone_name = c.bone
		sim.add_child(n)
		nodes.append(n)
	var chains: Array = hair.get_chain_descriptions()
	sim.setting_count = chains.size()
	for i in chains.size():
		var d: Dictionary = chains[i]
		sim.set_root_bone_name(i, d.root_bone)
		sim.set_end_bone_name(i, d.end_bone)
		if d.extend_end:
			sim.set_extend_end_bone(i, true)
			sim.set_end_bone_direction(i, FROM_PARENT)
			sim.set_end_bone_length(i, d.end_length)
		sim.set_gravity_direction(i, d.gravity_dir)
		sim.set_radius(i, d.hit_radius)
		sim.set_enable_all_child_collisions(i, false)
		var ids: PackedInt32Array = d.colliders
		sim.set_collision_count(i, ids.size())
		for k in ids.size():
			sim.set_collision_path(i, k, sim.get_path_to(nodes[ids[k]]))
	apply_scales(sim, hair)
	return sim

## Sets each chain's stiffness, drag and gravity from the file's values
## times `hair`'s scales (the demo's sliders), as TressSpringHair applies
## them: drag clamped to 0..1.
static func apply_scales(sim: SkeletonModifier3D, hair: TressSpringHair) -> void:
	var chains: Array = hair.get_chain_descriptions()
	for i in mini(chains.size(), sim.setting_count):
		var d: Dictionary = chains[i]
		sim.set_stiffness(i, d.stiffness * hair.stiffness_scale)
		sim.set_drag(i, clampf(d.drag * hair.drag_scale, 0.0, 1.0))
		sim.set_gravity(i, d.gravity_power * hair.gravity_scale)
