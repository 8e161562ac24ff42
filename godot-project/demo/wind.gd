## The demo's Wind: one node whose settings every pane's hair takes, so
## the split view compares solvers in the same wind. TressSpringHair gets
## them as its wind properties (gusts and flutter from seeded noise of the
## simulated time, applied without a reset); Godot's SpringBoneSimulator3D
## peer gets the mean force as its `external_force` (in its gravity units,
## strength / 9.81), without gusts: it has none.
extends Node

## Mean acceleration, m/s² (0 = calm).
@export var strength := 0.0
## Where it blows to (world space): from the avatar's front-left.
@export var direction := Vector3(0.6, 0.0, -1.0)
## Gust amplitude relative to the strength.
@export var gust := 0.7
## Typical seconds between gusts.
@export var gust_seconds := 1.2
## Sideways and vertical flutter relative to the strength.
@export var turbulence := 0.4

## Hands the wind to `hair` (may be null) and to Godot's `peer` (may be null).
func apply(hair: TressSpringHair, peer: Node) -> void:
	if hair:
		hair.wind_direction = direction
		hair.wind_strength = strength
		hair.wind_gust = gust
		hair.wind_gust_seconds = gust_seconds
		hair.wind_turbulence = turbulence
	if peer and "external_force" in peer:
		peer.external_force = direction.normalized() * strength / 9.81
