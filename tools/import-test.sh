#!/usr/bin/env bash
# The .vrm import test: .vrm files imported as scenes by a headless editor,
# played in the project folder, then from an exported pack without them.
#
#   tools/import-test.sh [--lib PATH]
#
# Copies tests/import-game/ to target/import-test/project/ and adds under
# res://avatars/ the built-in avatar, the layered one, the built-in avatar
# again with other import options (VRM-compatible hair, colliders as
# authored, the ponytail mesh hidden; written into its .import file),
# Godette (VRM 0.x) and two VRM 1.0 files with extended colliders (inside
# sphere, plane) from ../shared/assets, and the extension library (PATH;
# default target/debug/libtress_godot.so) beside tress.gdextension. Then:
#   1. `godot --headless --import`: the editor imports each .vrm with
#      TressVrmImporter; each must have its .import file (with the Tress
#      options) and scene; then swap.vrm is overwritten with the layered
#      avatar and imported again, which must change its scene;
#   2. a headless editor with --tress-editor-check
#      (addons/tress_import_check): TressAvatar shows its model in the
#      editor, and a scene saved with it leaves the model out;
#   3. runs the project folder headless (--fixed-fps 60, so runs repeat): the game (tests/import-game/main.gd)
#      instantiates each imported scene, turns the head, checks the hair
#      moves and clears its colliders, matches TressAvatar.load_vrm of the
#      same file to 1e-5 m, and survives a .tscn save and reload;
#   4. exports the project as a pack whose filter leaves the .vrm files out,
#      deletes the project and runs the pack from a folder holding only the
#      pack and the library (`godot --main-pack game.pck`, under Xvfb): the
#      imported scenes still work, with no .vrm to read, and a screenshot of
#      two of them goes to target/godot-screens/editor_import.png.
# Without ../shared/assets Godette and the VRM 1.0 files are left out and
# said SKIPPED (a failure under CI). Logs: target/godot-logs/editor_import_*.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
source "$here/godot-env.sh"
source "$here/pack-common.sh"
pack_init editor_import import-test
pack_lib_arg "$@"

# bad_log LOG -> prints why the log shows a failure, or nothing. The
# errors about res://bad/ and ProvokedBadConfig are the ones the test
# provokes.
provoked='res://bad/|ProvokedBadConfig|it was imported as a scene'
bad_log() {
	if grep -q "SCRIPT ERROR" "$1"; then echo "SCRIPT ERROR in $(basename "$1")"
	elif grep -qi "panic" "$1"; then echo "panic in $(basename "$1")"
	elif grep "ERROR: Tress" "$1" | grep -qvE "$provoked"; then
		echo "Tress error in $(basename "$1"): $(grep "ERROR: Tress" "$1" | grep -vE "$provoked" | head -n1)"
	fi
}
# provoked_config LOG -> fails unless the bad spring config was reported,
# and flat locks asked of imported hair were warned about.
provoked_config() {
	grep -qF "ERROR: TressSpringHair 'ProvokedBadConfig': its spring config does not fit the scene: collider" "$1" \
		|| fail "no clear error for the bad spring config in $(basename "$1")"
	grep -qF "flat_lock_stiffness and lock_twist have no effect on hair built from a spring config without lock shapes" "$1" \
		|| fail "no warning for flat locks on imported hair in $(basename "$1")"
}

pack_project
mkdir -p "$project/avatars" "$project/bad"
cp -r "$repo/tests/import-game/." "$project/"

# avatars.txt: path, hair mode, fit colliders, hidden meshes (the options
# each file is imported with), then whether the game checks that the hair
# clears the colliders (tab separated).
list="$project/avatars.txt"
: >"$list"
add() { # add FILE NAME MODE FIT HIDDEN CLEARANCE
	cp "$1" "$project/avatars/$2"
	printf 'res://avatars/%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" "$6" >>"$list"
}
add "$repo/assets/tress_avatar.vrm" tress_avatar.vrm 0 1 "" 1
add "$repo/assets/tress_avatar_layered.vrm" tress_avatar_layered.vrm 0 1 "" 1
add "$repo/assets/tress_avatar.vrm" tress_avatar_options.vrm 2 0 "Ponytail" 1
# The built-in avatar with a VRMC_node_constraint on a bone (none of the
# files at hand has one): LeftHand copies half of Head's rotation.
python3 - "$repo/assets/tress_avatar.vrm" "$out/constrained.vrm" <<'PY'
import json, struct, sys
data = open(sys.argv[1], "rb").read()
n = struct.unpack("<I", data[12:16])[0]
doc = json.loads(data[20:20 + n])
names = [x.get("name") for x in doc["nodes"]]
doc["nodes"][names.index("LeftHand")].setdefault("extensions", {})["VRMC_node_constraint"] = {
    "specVersion": "1.0", "constraint": {"rotation": {"source": names.index("Head"), "weight": 0.5}}}
doc["extensionsUsed"].append("VRMC_node_constraint")
text = json.dumps(doc).encode()
text += b" " * (-len(text) % 4)
rest = data[20 + n:]
out = struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + len(rest))
open(sys.argv[2], "wb").write(out + struct.pack("<II", len(text), 0x4E4F534A) + text + rest)
PY
add "$out/constrained.vrm" constrained.vrm 0 1 "" 1
# Imported as the built-in avatar, then overwritten with the layered one
# and imported again: the game must find the layered hair in it.
add "$repo/assets/tress_avatar.vrm" swap.vrm 0 1 "" 1
cat >"$project/avatars/tress_avatar_options.vrm.import" <<'EOF'
[remap]

importer="scene"
importer_version=1

[params]

tress/hair_mode=2
tress/fit_colliders=false
tress/hidden_meshes=PackedStringArray("Ponytail")
EOF
if [ -d "$shared" ]; then
	add "$shared/godette-vrm0/Godette_vrm_v4.vrm" godette.vrm 0 1 "" 1
	add "$shared/vrm1-springbone/springbone_extended_isphere_pmed.vrm" vrm1_inside_sphere.vrm 0 1 "" 1
	# Its chain's rest pose reaches 12 cm through the plane (the file tests
	# a start in penetration), so the lock cannot clear it; it is held to
	# TressAvatar.load_vrm's result instead.
	add "$shared/vrm1-springbone/springbone_extended_plane_with_base_sphere.vrm" vrm1_plane.vrm 0 1 "" 0
elif [ -n "${CI:-}" ]; then
	fail "../shared/assets is missing under CI"
else
	echo "SKIPPED: Godette and the VRM 1.0 extended-collider files (../shared/assets not found)"
fi

# Broken files: the editor must report them and import the rest.
head -c 4096 "$repo/assets/tress_avatar.vrm" >"$project/bad/corrupt.vrm"
echo "this is not a model" >"$project/bad/not_a_model.vrm"
# A .glb is Godot's own glTF importer's: the Tress options stay off it.
cp "$repo/assets/tress_avatar.vrm" "$project/plain.glb"

echo "==> import with a headless editor"
godot_run "$repo" target/import-test/project 300 -- --headless --import >"$logs/editor_import_editor.log" 2>&1
rc=$?
[ $rc -eq 0 ] || fail "the editor exited $rc (log: target/godot-logs/editor_import_editor.log)"
why=$(bad_log "$logs/editor_import_editor.log")
[ -z "$why" ] || fail "$why"
for bad in corrupt not_a_model; do
	grep -qF "ERROR: Tress import: cannot import 'res://bad/$bad.vrm': not a valid glTF/VRM" "$logs/editor_import_editor.log" \
		|| fail "no clear error for res://bad/$bad.vrm in the editor's log"
done
for vrm in "$project"/avatars/*.vrm; do
	imp="$vrm.import"
	name=$(basename "$vrm")
	grep -q '^importer="scene"' "$imp" 2>/dev/null || fail "$name was not imported as a scene (no $name.import with importer=\"scene\")"
	dest=$(sed -n 's/^path="res:\/\/\(.*\)"$/\1/p' "$imp" | head -n1)
	[ -n "$dest" ] && [ -s "$project/$dest" ] || fail "$name: no imported scene ($dest)"
	echo "    $name -> $dest ($(wc -c <"$project/$dest") bytes)"
done
grep -q '^tress/hair_mode=2' "$project/avatars/tress_avatar_options.vrm.import" \
	|| fail "the import options written for tress_avatar_options.vrm were not kept"
# The editor wrote the importer's options (with their defaults) for the rest.
for opt in 'tress/spring_hair=true' 'tress/hair_mode=0' 'tress/fit_colliders=true' 'tress/hidden_meshes=PackedStringArray()'; do
	grep -qF "$opt" "$project/avatars/tress_avatar.vrm.import" || fail "tress_avatar.vrm.import lacks the option $opt"
done

grep -q '^tress/' "$project/plain.glb.import" && fail "plain.glb.import got the Tress options"

echo "==> change swap.vrm and import again"
swap_dest=$(sed -n 's/^path="res:\/\/\(.*\)"$/\1/p' "$project/avatars/swap.vrm.import" | head -n1)
before=$(md5sum <"$project/$swap_dest")
cp "$repo/assets/tress_avatar_layered.vrm" "$project/avatars/swap.vrm"
godot_run "$repo" target/import-test/project 300 -- --headless --import >"$logs/editor_import_reimport.log" 2>&1
rc=$?
why=$(bad_log "$logs/editor_import_reimport.log")
[ $rc -eq 0 ] && [ -z "$why" ] || fail "the second import failed (exit $rc${why:+, $why}; log: target/godot-logs/editor_import_reimport.log)"
[ "$(md5sum <"$project/$swap_dest")" != "$before" ] || fail "swap.vrm changed but its scene was not imported again"

echo "==> TressAvatar in the editor"
log="$logs/editor_import_tool.log"
godot_run "$repo" target/import-test/project 120 -- --headless --editor -- --tress-editor-check >"$log" 2>&1
rc=$?
grep -E "EDITOR CHECK|TressAvatar in the editor" "$log" | sed 's/^/    /'
why=$(bad_log "$log")
[ $rc -eq 0 ] && grep -q "EDITOR CHECK PASS" "$log" && [ -z "$why" ] \
	|| fail "the editor check did not pass (exit $rc${why:+, $why}; log: ${log#$repo/})"

echo "==> run the project folder (headless)"
log="$logs/editor_import_folder.log"
godot_run "$repo" target/import-test/project 200 -- --headless --fixed-fps 60 >"$log" 2>&1
rc=$?
grep -E "IMPORT (CHECK|FAIL)|: [0-9]+ chains" "$log" | sed 's/^/    /'
why=$(bad_log "$log")
[ $rc -eq 0 ] && grep -q "IMPORT PASS" "$log" && [ -z "$why" ] \
	|| fail "the project folder run did not pass (exit $rc${why:+, $why}; log: ${log#$repo/})"
provoked_config "$log"

echo "==> export the pack (no .vrm in it)"
pack_export Linux game.pck

echo "==> run the pack from a folder of its own (Xvfb)"
rm -rf "$project"
log="$logs/editor_import_pack.log"
godot_run "$repo" target/import-test/game 200 --xvfb -- --rendering-driver opengl3 --fixed-fps 60 \
	--main-pack game.pck -- --shot=imported.png >"$log" 2>&1
rc=$?
[ -f "$game/imported.png" ] && cp "$game/imported.png" "$repo/target/godot-screens/editor_import.png"
grep -E "IMPORT (CHECK|FAIL)|: [0-9]+ chains" "$log" | sed 's/^/    /'
why=$(bad_log "$log")
[ $rc -eq 0 ] && grep -q "IMPORT PASS" "$log" && grep -q "res:// is inside the pack" "$log" && [ -z "$why" ] \
	|| fail "the pack run did not pass (exit $rc${why:+, $why}; log: ${log#$repo/})"
provoked_config "$log"
[ -f "$game/imported.png" ] || fail "the pack run saved no screenshot"
grep -qF "ERROR: TressAvatar: cannot load 'res://avatars/tress_avatar.vrm': file not found; it was imported as a scene" "$log" \
	|| fail "load_vrm of an imported .vrm the pack left out gave no advice"
echo "editor_import: PASS (screenshot: target/godot-screens/editor_import.png)"
