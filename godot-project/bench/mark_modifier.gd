## An empty SkeletonModifier3D. Its `modification_processed` signal marks a
## point in the skeleton's modifier pass, so the bench can time whatever
## modifiers run between two marks (Tress's or Godot's hair) from outside,
## the same way for both.
extends SkeletonModifier3D

func _process_modification_with_delta(_delta: float) -> void:
	pass
