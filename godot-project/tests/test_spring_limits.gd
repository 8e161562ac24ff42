## TressSpringHair.chain_limits (VRMC_springBone_limit shapes per chain):
## two built-in avatars get the same hard head turn (90° of yaw in a tenth
## of a second, then a nod); on one, a 6° cone on the long front lock keeps
## every segment within 6° of where its rest shape says it should point
## (for the first segment: its rest direction carried by the head; for the
## others: their rest bend from the parent's actual direction), while the
## unlimited twin swings well past that. Setting the limit does not move
## the hair; bad entries are reported and leave the chain unlimited.
extends RefCounted

const TestUtil = preload("res://tests/util.gd")
const CONE_DEG := 6.0
## Rounding of the f32 solver and of Godot's float32 transforms.
const TOLERANCE_DEG := 0.05

func run(tree: SceneTree) -> String:
	var pair := TestUtil.builtin_avatars(tree, 2)
	if pair.is_empty():
		return "could not load the built-in avatar"
	var free := pair[0].get_hair_node()
	var limited := pair[1].get_hair_node()
	var chain := -1
	var descriptions: Array = limited.get_chain_descriptions()
	for c in descriptions.size():
		if descriptions[c]["name"] == "HairFrontLockL":
			chain = c
	if chain < 0:
		return "the built-in avatar has no HairFrontLockL chain"
	await TestUtil.frames(tree, 2)
	var skel := pair[1].get_skeleton()
	var head := skel.find_bone("Head")
	var joints := 6
	# Rest: the bones' rest directions in head space (the solver's rest arc).
	var rest_dirs := _rest_dirs(skel, head, descriptions[chain]["root_bone"], joints)
	var before := limited.get_joint_tail(chain, 2)
	limited.chain_limits = { "HairFrontLockL": { "shape": "cone", "angle": CONE_DEG } }
	if limited.get_joint_tail(chain, 2) != before:
		return "setting chain_limits moved the hair (a reset?)"
	var got: Dictionary = limited.get_joint_limit(chain, 0)
	if got.get("shape", "") != "cone" or not is_equal_approx(got.get("angle", 0.0), CONE_DEG):
		return "get_joint_limit gave %s" % got
	var worst_limited := 0.0
	var worst_free := 0.0
	for f in 60:
		var yaw := deg_to_rad(90.0) * clampf(f / 6.0, 0.0, 1.0)
		var nod := deg_to_rad(35.0) * sin(PI * clampf((f - 10) / 10.0, 0.0, 2.0))
		for a in pair:
			var s := a.get_skeleton()
			s.set_bone_pose_rotation(s.find_bone("Head"), Quaternion(Vector3.UP, yaw) * Quaternion(Vector3.RIGHT, nod))
		await tree.process_frame
		worst_limited = maxf(worst_limited, _worst_excess(limited, skel, head, chain, joints, rest_dirs))
		worst_free = maxf(worst_free, _worst_excess(free, pair[0].get_skeleton(), head, chain, joints, rest_dirs))
	print("largest angle off the rest shape: limited %.3f°, free %.3f° (cone %.1f°)" % [worst_limited, worst_free, CONE_DEG])
	if worst_free < 2.0 * CONE_DEG:
		return "the free twin moved only %.2f°: the turn is not hard enough to test the limit" % worst_free
	if worst_limited > CONE_DEG + TOLERANCE_DEG:
		return "the limited chain left its %.1f° cone by %.3f°" % [CONE_DEG, worst_limited - CONE_DEG]
	# Bad entries: reported, the chain back to the file's limits (none here).
	limited.chain_limits = { "HairFrontLockL": { "shape": "cube" }, "NoSuchChain": { "shape": "cone", "angle": 5.0 }, 0: 7 }
	if not limited.get_joint_limit(chain, 0).is_empty():
		return "a bad entry left a limit on the chain"
	await tree.process_frame
	for j in joints:
		if not limited.get_joint_tail(chain, j).is_finite():
			return "NaN after bad chain_limits"
	return ""

## Segment directions of `chain`: in head space (`in_head`) or world space.
func _dirs(hair: TressSpringHair, skel: Skeleton3D, head: int, chain: int, joints: int, in_head: bool) -> Array[Vector3]:
	var out: Array[Vector3] = []
	var head_basis := (skel.global_transform * skel.get_bone_global_pose(head)).basis.orthonormalized()
	var o := _origin(hair, skel, chain)
	for j in joints:
		var t := hair.get_joint_tail(chain, j)
		var d := (t - o).normalized()
		out.append(head_basis.inverse() * d if in_head else d)
		o = t
	return out

## Rest direction of each of `joints` bones from `root` down, in the rest
## space of `head`.
func _rest_dirs(skel: Skeleton3D, head: int, root: String, joints: int) -> Array[Vector3]:
	var out: Array[Vector3] = []
	var head_basis := skel.get_bone_global_rest(head).basis.orthonormalized()
	var b := skel.find_bone(root)
	for j in joints:
		var child: int = skel.get_bone_children(b)[0]
		var d := (skel.get_bone_global_rest(child).origin - skel.get_bone_global_rest(b).origin).normalized()
		out.append(head_basis.inverse() * d)
		b = child
	return out

## World position of the chain's first bone.
func _origin(hair: TressSpringHair, skel: Skeleton3D, chain: int) -> Vector3:
	var d: Dictionary = hair.get_chain_descriptions()[chain]
	var b := skel.find_bone(d["root_bone"])
	return (skel.global_transform * skel.get_bone_global_pose(b)).origin

## How far (degrees) any segment points from where its limit's cone is
## centred: the first from its rest direction carried by the head, the
## others from their parent's actual direction turned by their rest bend.
func _worst_excess(hair: TressSpringHair, skel: Skeleton3D, head: int, chain: int, joints: int, rest_dirs: Array[Vector3]) -> float:
	var now := _dirs(hair, skel, head, chain, joints, true)
	var worst := rad_to_deg(now[0].angle_to(rest_dirs[0]))
	var per_joint := [worst]
	for j in range(1, joints):
		# The cone's centre: the rest direction turned by the rotation
		# that takes the parent's rest direction to its actual one.
		var turn := Quaternion(rest_dirs[j - 1], now[j - 1])
		var off := rad_to_deg(now[j].angle_to(turn * rest_dirs[j]))
		per_joint.append(off)
		worst = maxf(worst, off)
	if worst > CONE_DEG + TOLERANCE_DEG and hair.chain_limits.size() > 0:
		print("  per joint: ", per_joint)
	return worst
