#!/usr/bin/env bash
# The exported-game test: Tress inside a game exported as a pack.
#
#   tools/export-test.sh [--lib PATH]
#
# Copies tests/export-game/ to target/export-test/project/ and adds under
# res:// the built-in avatar and groom (assets/), the Universal Animation
# Library's glTF + .bin and three-vrm's cubes.gltf + .bin (from
# ../shared/assets), broken files, and the extension library (PATH; default
# target/debug/libtress_godot.so) beside tress.gdextension. Then:
#   1. exports the project as a pack with the committed export_presets.cfg
#      (`godot --headless --export-pack Linux game.pck`; no export templates);
#   2. runs the project folder headless, for the errors the editor gives;
#   3. deletes the project folder and runs the pack from a folder holding
#      only game.pck and the library (`godot --main-pack game.pck`) under
#      Xvfb; the game (tests/export-game/main.gd) checks itself and saves a
#      screenshot, copied to target/godot-screens/export_pack.png.
# It passes when the pack run says EXPORT PASS with no SCRIPT ERROR or panic,
# read res:// from the pack, and logged the same Tress errors as the project
# folder run. Without ../shared/assets the clip and the .gltf model are left
# out and said SKIPPED (a failure under CI). Logs: target/godot-logs/export_pack_*.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
source "$here/godot-env.sh"
source "$here/pack-common.sh"
pack_init export_pack export-test
pack_lib_arg "$@"

# The project: the library (pack_project), the committed files, the assets
# under res://.
pack_project
mkdir -p "$project/avatar" "$project/grooms" "$project/bad"
cp -r "$repo/tests/export-game/." "$project/"
cp "$repo/assets/tress_avatar.vrm" "$project/avatar/"
cp "$repo/assets/tress_groom.tfx" "$project/grooms/"
# Godot imports .gltf/.glb/.obj files as scenes and meshes (and, with the
# extension loaded, .vrm files: TressVrmImporter) and leaves their sources
# out of an export; "keep" ships them as they are, for load_vrm to read.
keep "$project/avatar/tress_avatar.vrm"
if [ -d "$shared" ]; then
	mkdir -p "$project/clips" "$project/models"
	cp "$shared/quaternius-ual1/AnimationLibrary_Godot_Standard."{gltf,bin} "$project/clips/"
	cp "$shared/three-vrm-springbone/cubes.gltf" "$shared/three-vrm-springbone/cube_mesh.bin" "$project/models/"
	keep "$project/clips/AnimationLibrary_Godot_Standard.gltf"
	keep "$project/models/cubes.gltf"
elif [ -n "${CI:-}" ]; then
	fail "../shared/assets is missing under CI"
else
	echo "SKIPPED: the clip and the .gltf model (../shared/assets not found)"
fi
# Broken files: a truncated VRM, text named .vrm, a .gltf whose buffer is
# not there, a groom too short for its header.
head -c 4096 "$repo/assets/tress_avatar.vrm" >"$project/bad/corrupt.vrm"
echo "this is not a model" >"$project/bad/not_a_model.vrm"
keep "$project/bad/corrupt.vrm"
keep "$project/bad/not_a_model.vrm"
printf 'tfx' >"$project/bad/broken_groom.tfx"
cat >"$project/bad/lost_buffer.gltf" <<'EOF'
{ "asset": { "version": "2.0" }, "scene": 0, "scenes": [{ "nodes": [0] }],
  "nodes": [{ "name": "tri", "mesh": 0 }],
  "meshes": [{ "primitives": [{ "attributes": { "POSITION": 0 } }] }],
  "accessors": [{ "bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                  "min": [0, 0, 0], "max": [1, 1, 0] }],
  "bufferViews": [{ "buffer": 0, "byteLength": 36 }],
  "buffers": [{ "byteLength": 36, "uri": "lost.bin" }] }
EOF
keep "$project/bad/lost_buffer.gltf"

echo "==> export the pack"
pack_export Linux game.pck

echo "==> run the project folder (headless), for the editor's errors"
godot_run "$repo" target/export-test/project 200 -- --headless >"$logs/export_pack_folder.log" 2>&1
rc=$?
# A failure here is reported after the pack has run too.
folder_failed=""
grep -q "EXPORT PASS" "$logs/export_pack_folder.log" \
	|| folder_failed="the project folder run did not pass (exit $rc; log: target/godot-logs/export_pack_folder.log)"
grep -E "EXPORT (CHECK|FAIL)" "$logs/export_pack_folder.log" | sed 's/^/    /'

echo "==> run the pack from a folder of its own (Xvfb)"
rm -rf "$project"
echo "    $(cd "$game" && ls | tr '\n' ' ')"
log="$logs/export_pack_game.log"
godot_run "$repo" target/export-test/game 200 --xvfb -- --rendering-driver opengl3 \
	--main-pack game.pck -- --shot=exported.png >"$log" 2>&1
rc=$?
[ -f "$game/exported.png" ] && cp "$game/exported.png" "$repo/target/godot-screens/export_pack.png"
grep -E "EXPORT (CHECK|FAIL)|SKIPPED|  (head|chest|hips) at" "$log" | sed 's/^/    /'
why=$(run_failed $rc "$log")
if [ -n "$why" ]; then :
elif ! grep -q "EXPORT PASS" "$log"; then why="no EXPORT PASS line"
elif ! grep -q "res:// is inside the pack" "$log"; then why="res:// was not the pack"
elif [ ! -f "$game/exported.png" ]; then why="no screenshot"
fi
[ -z "$why" ] || fail "$why (log: ${log#$repo/})${folder_failed:+; and $folder_failed}"
[ -z "$folder_failed" ] || fail "$folder_failed"

# Same errors, word for word, in the pack as in the project folder; and the
# ones the game provokes are all there.
tress_lines() { grep -E '^(ERROR|WARNING): Tress' "$1"; }
if ! diff <(tress_lines "$logs/export_pack_folder.log") <(tress_lines "$log") >"$logs/export_pack_diff.log"; then
	fail "the pack logged other Tress errors than the project folder (target/godot-logs/export_pack_diff.log)"
fi
for want in \
	"TressAvatar: cannot load 'res://bad/missing.vrm': file not found" \
	"TressAvatar: cannot load 'res://bad/corrupt.vrm': file truncated: the GLB header (byte 8) declares " \
	"TressAvatar: cannot load 'res://bad/not_a_model.vrm': invalid JSON at line 1 column 2" \
	"TressAvatar: cannot load 'res://bad/lost_buffer.gltf': buffers[0].uri: cannot read res://bad/lost.bin: file not found" \
	"TressAvatar: cannot load animations 'res://bad/missing.vrma': file not found" \
	"TressAvatar: cannot load animations 'res://bad/lost_buffer.gltf': " \
	"TressSpringHair: cannot use 'res://bad/missing.vrm': file not found" \
	"TressStrandHair: cannot load groom 'res://bad/missing.tfx': file not found" \
	"TressStrandHair: cannot load groom 'res://bad/broken_groom.tfx': groom truncated"; do
	grep -qF "ERROR: $want" "$log" || fail "no error '$want' in the pack's log"
done
grep -F "cannot load animations 'res://bad/lost_buffer.gltf'" "$log" | grep -qF "cannot read res://bad/lost.bin: file not found" \
	|| fail "the lost buffer was not named in the pack's log"
echo "    $(tress_lines "$log" | grep -c '^ERROR') Tress errors, the same as in the project folder"
echo "export_pack: PASS (screenshot: target/godot-screens/export_pack.png)"
