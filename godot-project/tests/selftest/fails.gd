## Runner self-test: a test that reports a failure must fail the suite.
extends RefCounted

func run(_tree: SceneTree) -> String:
	return "deliberate failure (runner self-test)"
