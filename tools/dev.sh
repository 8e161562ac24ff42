#!/usr/bin/env bash
# The one entry point for Tress development; CI runs `tools/dev.sh test`.
#
#   tools/dev.sh test            the whole suite: fmt, clippy, unit + integration
#                                tests, no_std proof, bench compile, Godot tests
#   tools/dev.sh demo [OPTS]     the Godot demo playing the built-in avatar
#       --record [DIR]           no display needed: render under Xvfb and write
#                                PNG frames to DIR (default target/demo-frames)
#       --frames N               with --record, how many frames (default 240)
#       --release                use the release build of the extension
#       --scene strands          the strand-hair demo instead of the avatar
#       -- ARGS                  passed to the demo (e.g. -- --model=PATH.vrm)
#   tools/dev.sh godot-tests     only the Godot headless tests
#   tools/dev.sh bench-godot [--release] [ARGS]
#                                the Godot performance harness (bench.tscn):
#                                1/10/50/100 avatars, p50/p95/p99 hair update
#                                times as JSON in target/bench/godot.json
#                                (--release: the release extension, from a
#                                copy of the project; godot-release.json)
#   tools/dev.sh assets          regenerate assets/ from code
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
source "$here/godot-env.sh"

step() { printf '\n==> %s\n' "$*"; }

ensure_rust() {
	command -v cargo >/dev/null || { echo "error: cargo not found; install Rust with rustup" >&2; exit 1; }
	rustup component list --installed 2>/dev/null | grep -q clippy || rustup component add clippy rustfmt
}

total_passed=0
total_failed=0
count_cargo() { # sums the "test result:" lines of a cargo test log
	local p f
	p=$(awk '/^test result:/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^passed/) s += $i } END { print s + 0 }' "$1")
	f=$(awk '/^test result:/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^failed/) s += $i } END { print s + 0 }' "$1")
	total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
	echo "cargo test: $p passed, $f failed"
}

cmd_test() {
	ensure_rust
	local logs="$repo/target/test-logs"; mkdir -p "$logs"
	local fails=()

	step "format check"
	cargo fmt --all -- --check || fails+=(fmt)

	step "clippy (-D warnings)"
	cargo clippy --workspace --all-targets -- -D warnings || fails+=(clippy)

	step "unit and integration tests"
	cargo test --workspace 2>&1 | tee "$logs/cargo-test.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(cargo-test)
	count_cargo "$logs/cargo-test.log"

	step "no_std proof: tress-core linked into a #![no_std] panic=abort staticlib"
	if cargo build --manifest-path tools/no-std-check/Cargo.toml --release; then
		total_passed=$((total_passed + 1)); echo "no_std: 1 passed, 0 failed"
	else
		total_failed=$((total_failed + 1)); fails+=(no_std)
	fi

	step "benches compile"
	# tress-godot has no benches; leaving it out avoids a release build of gdext.
	cargo bench --workspace --exclude tress-godot --no-run || fails+=(bench-compile)

	step "Godot extension build"
	cargo build -p tress-godot || fails+=(godot-build)

	step "Godot runner self-test"
	if "$here/godot-tests.sh" --selftest; then total_passed=$((total_passed + 1))
	else total_failed=$((total_failed + 1)); fails+=(godot-selftest); fi

	step "Godot headless tests"
	"$here/godot-tests.sh" | tee "$logs/godot.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(godot)
	local gp gf
	gp=$(sed -n 's/^godot: \([0-9]*\) passed.*/\1/p' "$logs/godot.log"); gf=$(sed -n 's/^godot: [0-9]* passed, \([0-9]*\) failed.*/\1/p' "$logs/godot.log")
	total_passed=$((total_passed + ${gp:-0})); total_failed=$((total_failed + ${gf:-0}))

	echo
	if [ ${#fails[@]} -gt 0 ]; then
		echo "failed steps: ${fails[*]}"
		[ "$total_failed" -gt 0 ] || total_failed=${#fails[@]}
	fi
	echo "total: $total_passed passed, $total_failed failed"
	[ ${#fails[@]} -eq 0 ]
}

cmd_demo() {
	local record="" frames=240 profile=debug extra=() scene=res://demo/demo.tscn
	while [ $# -gt 0 ]; do
		case "$1" in
		--record) record="$repo/target/demo-frames"; if [ $# -gt 1 ] && [ "${2#--}" = "$2" ]; then record="$2"; shift; fi ;;
		--frames) frames="$2"; shift ;;
		--release) profile=release ;;
		--scene) case "$2" in strands) scene=res://strands/strands.tscn ;; avatar) ;; *) echo "unknown scene $2" >&2; exit 2 ;; esac; shift ;;
		--) shift; extra=("$@"); break ;;
		*) echo "unknown option $1" >&2; exit 2 ;;
		esac
		shift
	done
	ensure_rust
	if [ $profile = release ]; then cargo build -p tress-godot --release || exit 1
	else cargo build -p tress-godot || exit 1; fi
	godot_select || exit 1
	if [ -n "$record" ]; then
		mkdir -p "$record"
		record=$(cd "$record" && pwd)
		case "$record" in "$repo"/*) ;; *) echo "error: --record DIR must be inside the repository" >&2; exit 2 ;; esac
		local rel=${record#$repo/}
		# Movie Maker mode renders at a fixed 30 fps and writes frameNNNNNNNN.png.
		godot_run "$repo" godot-project 600 --xvfb -- --rendering-driver opengl3 \
			--write-movie "../$rel/frame.png" --fixed-fps 30 --quit-after "$frames" \
			"$scene" -- "${extra[@]}"
		local rc=$?
		echo "frames in ${rel}/ (exit $rc)"
		return $rc
	fi
	if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
		echo "no display: use 'tools/dev.sh demo --record' to render frames headless" >&2
		exit 2
	fi
	godot_run "$repo" godot-project 86400 -- "$scene" -- "${extra[@]}"
}

cmd_bench_godot() {
	# Godot's editor binary loads the debug library (tress.gdextension's
	# linux.debug entry); with --release the bench runs from a copy of the
	# project under target/ whose .gdextension points that entry at the
	# release library, so Tress is measured as a game would ship it.
	local rel=godot-project model=()
	if [ "${1:-}" = "--release" ]; then
		shift
		cargo build --release -p tress-godot || exit 1
		local copy="$repo/target/bench-project"
		rm -rf "$copy"; mkdir -p "$copy/.godot" "$copy/demo"
		cp godot-project/project.godot "$copy/"
		cp -r godot-project/bench "$copy/"
		cp godot-project/demo/godot_peer.gd "$copy/demo/"
		cp godot-project/.godot/extension_list.cfg "$copy/.godot/"
		sed 's|res://../target/debug/|res://../release/|' godot-project/tress.gdextension >"$copy/tress.gdextension"
		rel=target/bench-project
		model=(--model=../../assets/tress_avatar.vrm)
	else
		cargo build -p tress-godot || exit 1
	fi
	godot_select || exit 1
	mkdir -p "$repo/target/bench"
	# --fixed-fps 60: every frame advances 1/60 s (two 1/120 s substeps),
	# however fast the machine renders.
	local out=../target/bench/godot.json
	[ "$rel" != godot-project ] && out=../../target/bench/godot-release.json
	godot_run "$repo" "$rel" 1200 -- --headless --fixed-fps 60 res://bench/bench.tscn -- \
		--out="$out" "${model[@]}" "$@"
}

case "${1:-}" in
test) shift; cmd_test "$@" ;;
bench-godot) shift; cmd_bench_godot "$@" ;;
demo) shift; cmd_demo "$@" ;;
godot-tests) shift; cargo build -p tress-godot && "$here/godot-tests.sh" "$@" ;;
assets) shift; cargo run -q -p tress-rig --bin tress -- generate-assets "$@" ;;
*) sed -n '2,15p' "$0"; exit 2 ;;
esac
