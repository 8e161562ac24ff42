#!/usr/bin/env bash
# The addon in a brand-new Godot project: builds the addon (debug libraries),
# copies it, tools/addon/test-project and the built-in avatar into
# target/addon-test/project, opens that project once in a headless editor (as
# a user does: Godot registers the extension), then runs its main scene,
# which adds a TressAvatar and checks that the hair moves and settles.
# Prints `addon: N passed, M failed`.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
source "$here/godot-env.sh"

fail() { echo "  FAIL  addon: $*"; echo "addon: 0 passed, 1 failed"; exit 1; }

"$here/addon.sh" --debug >/dev/null || fail "tools/addon.sh --debug failed"
rel=target/addon-test/project
proj="$repo/$rel"
rm -rf "$repo/target/addon-test"
mkdir -p "$proj"
cp -r tools/addon/test-project/. "$proj/"
cp -r target/addon/addons "$proj/"
cp assets/tress_avatar.vrm "$proj/"
godot_select || fail "no Godot"
logs="$repo/target/addon-test"
godot_run "$repo" "$rel" 180 -- --headless --editor --quit >"$logs/editor.log" 2>&1
grep -q 'res://addons/tress/tress.gdextension' "$proj/.godot/extension_list.cfg" 2>/dev/null ||
	fail "the editor did not register the extension (log: ${logs#$repo/}/editor.log)"
start=$SECONDS
godot_run "$repo" "$rel" 120 -- --headless --fixed-fps 60 >"$logs/run.log" 2>&1
rc=$?
why=""
if [ $rc -ne 0 ]; then why="exit $rc"
elif grep -qE "SCRIPT ERROR|panic" "$logs/run.log"; then why="error in the log"
elif ! grep -q "ADDON TEST PASS" "$logs/run.log"; then why="no ADDON TEST PASS line"
fi
if [ -n "$why" ]; then
	grep -E "ADDON TEST|SCRIPT ERROR|panic|ERROR" "$logs/run.log" | head -n 5 | sed 's/^/        /'
	fail "$why (log: ${logs#$repo/}/run.log)"
fi
echo "  ok    addon in a fresh project ($((SECONDS - start)) s): $(grep '^addon:' "$logs/run.log")"
echo "addon: 1 passed, 0 failed"
