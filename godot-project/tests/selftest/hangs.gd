## Runner self-test: a test that never finishes must fail by the watchdog.
extends RefCounted

signal never

func run(_tree: SceneTree) -> String:
	await never
	return ""
