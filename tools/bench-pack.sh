#!/usr/bin/env bash
# The Godot performance harness as a shipped game runs it: exported as a pack.
#
#   tools/bench-pack.sh [--release] [--out FILE] [-- BENCH_ARGS]
#
# Copies the bench (godot-project/bench/, demo/godot_peer.gd, project.godot)
# to target/bench-pack/project/ with the built-in avatar at
# res://bench/tress_avatar.vrm, the exported game's .gdextension
# (tests/export-game/tress.gdextension: the library beside the game) and the
# preset tests/bench-pack/export_presets.cfg (custom feature `tress_bench`:
# bench.tscn is the main scene, as on a phone). Then exports it
# (`godot --headless --export-pack Bench bench.pck`), deletes the project
# folder and runs `godot --headless --fixed-fps 60 --main-pack bench.pck`
# from a folder holding only the pack and the library (the debug one, or the
# release one with --release). BENCH_ARGS go to the bench (e.g.
# --counts=1,10 --frames=60; default: the bench's own 1,10,50,100 x 240).
#
# It passes when the bench loaded the avatar from res:// inside the pack,
# printed its JSON (every count with Tress's and Godot's costs) and wrote it
# to user://, with no SCRIPT ERROR or panic; the JSON is copied to FILE
# (default target/bench/godot-pack.json). Logs: target/godot-logs/bench_pack_*.log.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
source "$here/godot-env.sh"

profile=debug json_out="$repo/target/bench/godot-pack.json" bench_args=()
while [ $# -gt 0 ]; do
	case "$1" in
	--release) profile=release ;;
	--out) json_out=$2; shift ;;
	--) shift; bench_args=("$@"); break ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
source "$here/pack-common.sh"
pack_init bench_pack bench-pack
lib="$repo/target/$profile/libtress_godot.so"
mkdir -p "$(dirname "$json_out")"

[ -f "$lib" ] || fail "no extension library at $lib (cargo build${profile/debug/} -p tress-godot${profile/debug/})"
pack_project
mkdir -p "$project/demo"
cp "$repo/godot-project/project.godot" "$project/"
cp -r "$repo/godot-project/bench" "$project/"
cp "$repo/godot-project/demo/godot_peer.gd"* "$project/demo/"
cp "$repo/tests/export-game/tress.gdextension" "$project/"
cp "$repo/tests/bench-pack/export_presets.cfg" "$project/"
cp "$repo/assets/tress_avatar.vrm" "$project/bench/"
cp "$repo/assets/tress_groom.tfx" "$project/bench/"
# Loaded at run time with load_vrm / load_groom, so shipped as they are.
keep "$project/bench/tress_avatar.vrm"
keep "$project/bench/tress_groom.tfx"

echo "==> export the bench as a pack"
pack_export Bench bench.pck
rm -rf "$project"
echo "    $(cd "$game" && ls | tr '\n' ' ')($profile library)"

echo "==> run the pack from a folder of its own"
log="$logs/bench_pack_game.log"
godot_run "$repo" target/bench-pack/game 1200 -- --headless --fixed-fps 60 --main-pack bench.pck \
	-- "${bench_args[@]}" >"$log" 2>&1
rc=$?
grep -E "^bench: " "$log" | sed 's/^/    /'
why=$(run_failed $rc "$log")
[ -z "$why" ] || fail "$why (log: ${log#$repo/})"

# The JSON the bench printed (one line per print), checked and kept.
sed -n '/^{$/,/^}$/p' "$log" >"$json_out"
python3 - "$json_out" "$log" <<'PY' || fail "the bench's JSON is incomplete (log: ${log#$repo/})"
import json, re, sys
doc = json.load(open(sys.argv[1]))
log = open(sys.argv[2]).read()
problems = []
if doc.get("model_path") != "res://bench/tress_avatar.vrm":
    problems.append(f"the avatar came from {doc.get('model_path')!r}, not the pack")
if not doc.get("results"):
    problems.append("no results")
for r in doc.get("results", []):
    for key in ("avatars", "tress_update_us_per_avatar", "godot_update_us_per_avatar",
                "update_godot_over_tress", "tress_cost_us_per_avatar", "godot_cost_us_per_avatar"):
        if not isinstance(r.get(key), (int, float)) or not r[key] > 0:
            problems.append(f"{key} = {r.get(key)!r} at {r.get('avatars')} avatars")
for c in doc.get("crowd", []):
    for t, r in c.get("by_threads", {}).items():
        for key in ("hair_us_per_frame", "tress_own_us_per_frame", "step_us_per_frame"):
            if not isinstance(r.get(key), (int, float)) or not r[key] > 0:
                problems.append(f"crowd {key} = {r.get(key)!r} at {c.get('avatars')} avatars, {t} threads")
for r in doc.get("strands", []):
    if r.get("groom_path") != "res://bench/tress_groom.tfx":
        problems.append(f"the groom came from {r.get('groom_path')!r}, not the pack")
    if not isinstance(r.get("update_p50_us"), (int, float)) or not r["update_p50_us"] > 0:
        problems.append(f"strands update_p50_us = {r.get('update_p50_us')!r} at {r.get('threads')} threads")
if doc.get("hair_threads", 0) < 1:
    problems.append("no hair thread seen")
wrote = re.search(r"^bench: wrote (.*)$", log, re.M)
if not wrote or "tress_bench.json" not in wrote.group(1) or "bench.pck" in wrote.group(1):
    problems.append("no 'wrote .../tress_bench.json' line for user://")
for p in problems:
    print("    " + p)
print(f"    {doc.get('processor')} ({doc.get('processor_count')} logical cores), {doc.get('engine')}, "
      f"renderer {doc.get('renderer', {}).get('method', '?')}, debug build: {doc.get('debug_build')}")
for r in doc.get("results", []):
    print(f"    {r.get('avatars'):>4} avatars: Tress {r.get('tress_update_us_per_avatar', 0):.1f} us, "
          f"Godot {r.get('godot_update_us_per_avatar', 0):.1f} us per avatar update "
          f"({r.get('update_godot_over_tress', 0):.2f}x)")
for c in doc.get("crowd", []):
    one, many = (c["by_threads"][str(t)] for t in c["threads_compared"])
    print(f"    crowd {c['avatars']:>4}: hair {one['hair_us_per_frame'] / 1000:.2f} -> "
          f"{many['hair_us_per_frame'] / 1000:.2f} ms/frame ({c['speedup_hair']:.2f}x, host ceiling "
          f"{c['host_ceiling']:.2f}x), frame cost {one['frame_cost_us_per_frame'] / 1000:.2f} -> "
          f"{many['frame_cost_us_per_frame'] / 1000:.2f} ms, step CPU {one['step_us_per_frame'] / 1000:.2f} -> "
          f"{many['step_us_per_frame'] / 1000:.2f} ms, main thread stepped "
          f"{many['main_thread_steps_per_frame']:.0f} of {c['avatars']} (waited "
          f"{many['main_thread_wait_us_per_frame'] / 1000:.2f} ms) at {c['threads_compared']} threads")
for r in doc.get("strands", []):
    print(f"    strands, {r['threads']} thread(s): node update {r['update_p50_us'] / 1000:.3f} ms/frame "
          f"(p95 {r['update_p95_us'] / 1000:.3f}; guide texture {r['texture_p50_us'] / 1000:.3f}), "
          f"{r['strands']} x {r['particles']}, placed in the shader: {r['in_shader']}")
sys.exit(1 if problems else 0)
PY
echo "bench_pack: PASS (JSON: ${json_out#$repo/})"
