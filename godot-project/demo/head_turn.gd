## Adds the demo's head yaw on top of whatever pose the head bone already
## has (an idle clip, or the rest pose), so the head turns while the body
## breathes and sways. A skeleton modifier, placed before the hair, because
## the AnimationPlayer writes the head's pose every frame after the demo's
## _process: setting the bone from a script would be overwritten or would
## replace the clip's head motion.
extends SkeletonModifier3D

var bone := -1
## Radians about the bone's local up axis, set by the demo each frame.
var yaw := 0.0
var _written := Quaternion.IDENTITY
var _base := Quaternion.IDENTITY

func _process_modification() -> void:
	var skel := get_skeleton()
	if skel == null or bone < 0 or bone >= skel.get_bone_count():
		return
	var pose := skel.get_bone_pose_rotation(bone)
	# Without a clip nothing rewrites the bone between frames, and when
	# Godot does not restore the pre-modifier pose we would read our own
	# output back and turn further every frame: keep the last base instead.
	if not pose.is_equal_approx(_written):
		_base = pose
	_written = _base * Quaternion(Vector3.UP, yaw)
	skel.set_bone_pose_rotation(bone, _written)
