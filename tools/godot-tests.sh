#!/usr/bin/env bash
# Runs the Godot headless test suite (or the tests named as arguments), or
# (--selftest) proves the runner fails
# tests that fail, error, hang or panic.
#
# Each test is godot-project/tests/NAME.gd, run by tests/runner.gd under
# `timeout` with an in-script watchdog. A test passes only when Godot exits 0,
# the log says "TEST PASS NAME", and the log has no "SCRIPT ERROR" and no
# Rust "panic". Tests named render_* run under Xvfb with the OpenGL renderer;
# the others run --headless. Logs go to target/godot-logs/. Five steps are
# not scripts in tests/ (`steps` below): editor_docs and editor_tool (an
# editor), export_pack (Tress in an exported game, tools/export-test.sh),
# bench_pack (the bench exported and run as a game, tools/bench-pack.sh) and
# editor_import (.vrm files imported as scenes, played and exported,
# tools/import-test.sh); they run after the scripts and can be named like
# them.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
source "$here/godot-env.sh"

WATCHDOG="${TRESS_GODOT_WATCHDOG:-180}"
LIMIT=$((WATCHDOG + 30))
logs="$repo/target/godot-logs"
mkdir -p "$logs"

# render_bvh plays BVH files Tress's own exporter writes from the Universal
# Animation Library (CMU names and order; Rigify names in YXZ order) into
# target/bvh/; without ../shared the test says SKIPPED.
write_bvh_clips() {
	local lib="$repo/../shared/assets/quaternius-ual1/AnimationLibrary_Godot_Standard.gltf"
	[ -f "$lib" ] || return 0
	mkdir -p "$repo/target/bvh"
	(cd "$repo" && nice -n 19 cargo run -q -p tress-cli -- bvh "$lib" --clip Walk_Loop \
		-o target/bvh/Walk_Loop.bvh && nice -n 19 cargo run -q -p tress-cli -- bvh "$lib" \
		--clip Idle_Loop --order YXZ --source-names -o target/bvh/Idle_Loop.bvh) >/dev/null
}

# run_one NAME -> 0 pass, 1 fail; prints one line.
run_one() {
	local name="$1" log="$logs/${1//\//_}.log" rc mode
	[ "$name" = render_bvh ] && write_bvh_clips
	case "$(basename "$name")" in
	render_*) mode=(--xvfb -- --rendering-driver opengl3) ;;
	*) mode=(-- --headless) ;;
	esac
	# A test that declares `const FIXED_FPS := N` runs with --fixed-fps N:
	# every frame then advances 1/N s, whatever the machine's speed.
	local fps
	fps=$(sed -n 's/^const FIXED_FPS := \([0-9][0-9]*\).*/\1/p' \
		"$repo/godot-project/tests/$name.gd" 2>/dev/null | head -n 1)
	[ -n "$fps" ] && mode+=(--fixed-fps "$fps")
	local start=$SECONDS
	godot_run "$repo" godot-project "$LIMIT" "${mode[@]}" \
		--script res://tests/runner.gd -- "--test=$name" "--watchdog=$WATCHDOG" >"$log" 2>&1
	rc=$?
	local why=""
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then why="timed out after ${LIMIT}s"
	elif [ $rc -ne 0 ]; then why="godot exited $rc"
	elif grep -q "SCRIPT ERROR" "$log"; then why="SCRIPT ERROR in log"
	elif grep -qi "panic" "$log"; then why="panic in log"
	elif ! grep -q "TEST PASS $name" "$log"; then why="no TEST PASS line"
	fi
	if [ -z "$why" ]; then
		echo "  ok    $name ($((SECONDS - start)) s)"
		return 0
	fi
	echo "  FAIL  $name: $why ($((SECONDS - start)) s; log: ${log#$repo/})"
	grep -E "TEST FAIL|SCRIPT ERROR|panic|ERROR" "$log" | head -n 5 | sed 's/^/        /'
	return 1
}

godot_select || exit 1
echo "==> Godot: $GODOT_MODE ($(cat "$GODOT_STAMP" 2>/dev/null || "$GODOT_BIN" --version))"

if [ ! -f "$repo/godot-project/.godot/extension_list.cfg" ]; then
	echo "error: godot-project/.godot/extension_list.cfg is missing; the extension would silently not load" >&2
	exit 1
fi

if [ "${1:-}" = "--selftest" ]; then
	# Each of these must be reported as failing; the control must pass.
	WATCHDOG=15; LIMIT=45
	bad=0
	for t in selftest/fails selftest/script_error selftest/hangs selftest/panics; do
		if run_one "$t" >/dev/null; then
			echo "  FAIL  runner let $t pass"; bad=$((bad + 1))
		else
			echo "  ok    runner caught $t"
		fi
	done
	if run_one selftest/passes >/dev/null; then echo "  ok    runner passes the control"
	else echo "  FAIL  runner failed the control selftest/passes"; bad=$((bad + 1)); fi
	echo "godot runner selftest: $((5 - bad)) passed, $bad failed"
	[ $bad -eq 0 ]
	exit
fi

# report NAME START LOG RC PATTERN [LINES] -> the step's ok or FAIL line, and
# on a failure the first LINES (default 5) log lines matching PATTERN; returns
# 0 when RC is 0.
report() {
	local name=$1 start=$2 log=$3 rc=$4 pattern=$5 lines=${6:-5}
	if [ "$rc" -eq 0 ]; then
		echo "  ok    $name ($((SECONDS - start)) s)"
		return 0
	fi
	echo "  FAIL  $name ($((SECONDS - start)) s; log: ${log#$repo/})"
	grep -E "$pattern" "$log" | head -n "$lines" | sed 's/^/        /'
	return 1
}

# editor_docs: the Rust doc comments reach the editor's help pages. Godot
# builds its class-reference cache on the first editor start without the
# extension's pages (upstream behaviour; a restart shows them), so the
# editor starts once to warm the cache, then the check runs in a second start
# (addons/tress_doc_check, inert without --tress-doc-check).
run_editor_docs() {
	local log="$logs/editor_docs.log" start=$SECONDS rc
	godot_run "$repo" godot-project 120 -- --headless --editor --quit >"$logs/editor_docs_warm.log" 2>&1
	godot_run "$repo" godot-project 120 -- --headless --editor -- --tress-doc-check >"$log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && ! grep -q "DOC CHECK PASS" "$log" && rc=1
	report editor_docs "$start" "$log" $rc "DOC MISSING|ERROR|exit"
}

# editor_tool: the hair nodes run in the editor and the Tress gizmos draw
# (addons/tress_editor_check, inert without --tress-editor-check). The editor
# runs under Xvfb with OpenGL so its 3D view renders; the screenshot goes to
# target/godot-screens/editor_gizmos.png.
run_editor_tool() {
	local log="$logs/editor_tool.log" start=$SECONDS rc
	local settings="$repo/godot-project/project.godot" kept
	# The editor with a display rewrites project.godot on the way out
	# (comments and the mobile renderer override gone, features set to its
	# own version); the committed file is put back.
	kept=$(mktemp)
	cp "$settings" "$kept"
	godot_run "$repo" godot-project 200 --xvfb -- --editor --rendering-driver opengl3 \
		-- --tress-editor-check >"$log" 2>&1
	rc=$?
	cp "$kept" "$settings"
	rm -f "$kept"
	{ grep -q "EDITOR CHECK PASS" "$log" && ! grep -qi "panic" "$log"; } || rc=1
	report editor_tool "$start" "$log" $rc "EDITOR CHECK|SCRIPT ERROR|panic|ERROR"
}

# The steps that are scripts of their own, each passing when it exits 0:
#   export_pack    the project in tests/export-game/ exported as a pack and
#                  run with --main-pack from a folder of its own
#                  (tools/export-test.sh);
#   bench_pack     the performance harness exported as a pack and run the
#                  same way, briefly (tools/bench-pack.sh);
#   editor_import  .vrm files imported as scenes by a headless editor, played
#                  in the project folder and from an exported pack
#                  (tools/import-test.sh).
run_script_step() {
	local name=$1 log="$logs/$1.log" start=$SECONDS pattern="FAIL|SCRIPT ERROR|panic" lines=5 rc
	case "$name" in
	export_pack) "$here/export-test.sh" >"$log" 2>&1; rc=$? ;;
	bench_pack)
		pattern="$pattern|^    " lines=8
		"$here/bench-pack.sh" --out "$repo/target/bench/godot-pack-test.json" -- --counts=1,10 --frames=60 --crowd=20 >"$log" 2>&1
		rc=$? ;;
	editor_import) "$here/import-test.sh" >"$log" 2>&1; rc=$? ;;
	esac
	report "$name" "$start" "$log" $rc "$pattern" $lines
}

# run_step NAME: a named step or a test script; 0 when it passed.
steps="editor_docs editor_tool export_pack bench_pack editor_import"
run_step() {
	case "$1" in
	editor_docs) run_editor_docs ;;
	editor_tool) run_editor_tool ;;
	export_pack | bench_pack | editor_import) run_script_step "$1" ;;
	*) run_one "$1" ;;
	esac
}

passed=0; failed=0
# Named tests (e.g. `tools/godot-tests.sh test_animation`) or all of them.
if [ $# -gt 0 ]; then tests="$*"
else tests=$(cd "$repo/godot-project/tests" && ls test_*.gd render_*.gd 2>/dev/null | sed 's/\.gd$//'); fi
for t in $tests $([ $# -eq 0 ] && echo "$steps"); do
	if run_step "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "godot: $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
