# Sourced by the tests that export a Godot project as a pack and run it from
# a folder holding only the pack and the library, as a game ships
# (export-test.sh, import-test.sh, bench-pack.sh).
#
#   pack_init NAME DIR   the step's NAME (log and FAIL lines) and its folder
#                        target/DIR/; sets out, project, game, logs, shared
#   pack_lib_arg ARGS    --lib PATH (default target/debug/libtress_godot.so): sets lib
#   pack_project         a fresh project folder with the library beside
#                        tress.gdextension and the extension list a fresh
#                        checkout needs; the caller copies the rest in
#   pack_export PRESET PCK   exports the project, moves the pack and a copy
#                        of the library to the game folder
#   run_failed RC LOG    why a Godot run failed (timed out, exit code,
#                        SCRIPT ERROR or panic in LOG), or nothing
#   keep FILE            ships FILE as it is (Godot would import a .vrm,
#                        .gltf or .glb as a scene and leave the file out)

pack_init() {
	name=$1
	out="$repo/target/$2"
	project="$out/project"
	game="$out/game"
	logs="$repo/target/godot-logs"
	shared="$repo/../shared/assets"
	lib="$repo/target/debug/libtress_godot.so"
	mkdir -p "$logs" "$repo/target/godot-screens"
}

fail() { echo "$name: FAIL: $*"; exit 1; }

pack_lib_arg() {
	while [ $# -gt 0 ]; do
		case "$1" in
		--lib) lib=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
		*) echo "unknown option $1" >&2; exit 2 ;;
		esac
		shift
	done
}

pack_project() {
	[ -f "$lib" ] || fail "no extension library at $lib (cargo build -p tress-godot)"
	godot_select || exit 1
	rm -rf "$out"
	mkdir -p "$project/.godot" "$game"
	echo "res://tress.gdextension" >"$project/.godot/extension_list.cfg"
	cp "$lib" "$project/libtress_godot.so"
}

pack_export() {
	local preset=$1 pck=$2 log="$logs/${name}_export.log" rc
	godot_run "$repo" "${project#$repo/}" 300 -- --headless --export-pack "$preset" "$pck" >"$log" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ -s "$project/$pck" ] || fail "export exited $rc without a pack (log: ${log#$repo/})"
	mv "$project/$pck" "$game/"
	cp "$lib" "$game/libtress_godot.so"
	echo "    $pck: $(wc -c <"$game/$pck") bytes"
}

run_failed() {
	if [ "$1" -eq 124 ] || [ "$1" -eq 137 ]; then echo "timed out"
	elif [ "$1" -ne 0 ]; then echo "the game exited $1"
	elif grep -q "SCRIPT ERROR" "$2"; then echo "SCRIPT ERROR in the log"
	elif grep -qi "panic" "$2"; then echo "panic in the log"
	fi
}

keep() { printf '[remap]\n\nimporter="keep"\n' >"$1.import"; }
