#!/usr/bin/env bash
# The one entry point for Tress development; CI runs `tools/dev.sh test`.
#
#   tools/dev.sh test            the whole suite: fmt, clippy, unit + integration
#                                tests, core feature combinations, cargo doc,
#                                the Godot crate's dependencies, no_std proof,
#                                the C ABI from C and in wasm32
#                                (tools/ffi-check.sh --wasm),
#                                golden digests on x86-64, aarch64 (qemu) and
#                                wasm32, bare-metal size, Android compile,
#                                bench compile, Godot tests
#   tools/dev.sh golden          only the golden digests on the three platforms
#   tools/dev.sh bare-metal      only the thumbv7em build and its size figures
#   tools/dev.sh android-check   only the Android compile (aarch64-linux-android)
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
#   tools/dev.sh bench-godot --pack [--release] [-- ARGS]
#                                the same bench exported as a pack and run
#                                with --main-pack, as a game ships
#                                (tools/bench-pack.sh; godot-pack.json)
#   tools/dev.sh addon [--debug] the Godot addon: target/addon/addons/tress/
#                                and a zip (release libraries by default)
#   tools/dev.sh assets          regenerate assets/ from code
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
source "$here/godot-env.sh"

# Each step's heading; the previous step's wall time goes to the summary that
# cmd_test prints last with the disk space left after it, so a slow or
# disk-hungry step shows in every CI log.
step_name="" step_start=$SECONDS step_times=()
step_done() {
	[ -n "$step_name" ] && step_times+=("$(printf '%5ss  %6s free  %s' $((SECONDS - step_start)) \
		"$(df -h --output=avail . | tail -1 | tr -d ' ')" "$step_name")")
	step_name="" step_start=$SECONDS
}
step() { step_done; step_name="$*"; step_start=$SECONDS; printf '\n==> %s\n' "$*"; }

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
# Adds a step's own "NAME: N passed, M failed" line from LOG to the totals;
# a missing line counts as MISSING failures (default 0: the step's exit code
# is recorded in `fails` by the caller).
count_line() {
	local name=$1 log=$2 missing=${3:-0} p f
	p=$(sed -n "s/^$name: \([0-9]*\) passed.*/\1/p" "$log")
	f=$(sed -n "s/^$name: [0-9]* passed, \([0-9]*\) failed.*/\1/p" "$log")
	total_passed=$((total_passed + ${p:-0})); total_failed=$((total_failed + ${f:-$missing}))
}

# Installs rustup target $1 when missing.
ensure_target() {
	rustup target list --installed | grep -qx "$1" || rustup target add "$1"
}

# The aarch64 target, cross linker and qemu-user, installed when missing
# (apt: Debian/Ubuntu).
ensure_aarch64() {
	ensure_target aarch64-unknown-linux-gnu || return 1
	if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
		local sudo=; [ "$(id -u)" -eq 0 ] || sudo=sudo
		$sudo apt-get update && $sudo apt-get install -y gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user || return 1
	fi
}

# The golden digests (crates/tress-golden) on this host, on aarch64 under
# qemu and in wasm32 under Node, then side by side. Adds to `fails`.
step_golden() {
	local logs=$1
	cargo test -p tress-core --features std --test golden -- --nocapture 2>&1 | tee "$logs/golden-host.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(golden-host)
	count_cargo "$logs/golden-host.log"

	: >"$logs/golden-aarch64.log"
	if ensure_aarch64; then
		# The whole core suite: about a minute under qemu once built.
		CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
			CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
			cargo test -p tress-core --target aarch64-unknown-linux-gnu --features std -- --nocapture 2>&1 |
			tee "$logs/golden-aarch64.log"
		[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(golden-aarch64)
		count_cargo "$logs/golden-aarch64.log"
	else
		total_failed=$((total_failed + 1)); fails+=(aarch64-setup)
	fi

	: >"$logs/golden-wasm32.log"
	if ! command -v node >/dev/null; then
		echo "node not found: the wasm32 digests need Node 18 or newer"
		total_failed=$((total_failed + 1)); fails+=(golden-wasm32)
	elif ensure_target wasm32-unknown-unknown &&
		cargo build --manifest-path tools/golden-wasm/Cargo.toml --release --target wasm32-unknown-unknown \
			--target-dir tools/golden-wasm/target; then
		# run.mjs reads the module from that folder: a CARGO_TARGET_DIR
		# elsewhere would leave it running an old build.
		node tools/golden-wasm/run.mjs | tee "$logs/golden-wasm32.log"
		[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(golden-wasm32)
		count_line wasm32 "$logs/golden-wasm32.log" 1
	else
		total_failed=$((total_failed + 1)); fails+=(golden-wasm32)
	fi

	local name log
	printf '\n%-16s %-20s %s\n' platform spring strand
	for name in "host ($(uname -m))" aarch64-qemu wasm32; do
		case "$name" in host*) log=host ;; aarch64*) log=aarch64 ;; *) log=wasm32 ;; esac
		printf '%-16s %-20s %s\n' "$name" \
			"$(sed -n 's/^spring: \(0x[0-9a-f]*\)$/\1/p' "$logs/golden-$log.log" | head -1)" \
			"$(sed -n 's/^strand: \(0x[0-9a-f]*\)$/\1/p' "$logs/golden-$log.log" | head -1)"
	done
	echo "checked against crates/tress-golden: SPRING_DIGEST and STRAND_DIGEST, the same on every platform"
}

# tress-core and tress-golden built and linked for thumbv7em-none-eabihf
# (tools/bare-metal); prints the spring world's code size and the RAM of a
# SpringWorld at the default capacities. Adds to `fails`.
step_bare_metal() {
	local out=${CARGO_TARGET_DIR:-tools/bare-metal/target}/thumbv7em-none-eabihf/release sizer
	if ensure_target thumbv7em-none-eabihf &&
		cargo build --manifest-path tools/bare-metal/Cargo.toml --release --target thumbv7em-none-eabihf; then
		total_passed=$((total_passed + 1)); echo "bare-metal: 1 passed, 0 failed"
	else
		total_failed=$((total_failed + 1)); fails+=(bare-metal); return
	fi
	sizer=$(command -v llvm-size || command -v size)
	if [ -z "$sizer" ]; then
		echo "no llvm-size or size: file sizes only"; ls -l "$out/spring-world" "$out/golden"; return
	fi
	local bin
	sec() { "$sizer" -A "$1" | awk -v s="$2" '$1 == s { print $2 }'; }
	for bin in spring-world golden; do
		echo "$bin: .text $(sec "$out/$bin" .text) B, .rodata $(sec "$out/$bin" .rodata) B ($(basename "$sizer") -A $out/$bin)"
	done
	echo "SpringWorld at the default capacities (256 joints, 32 chains, 32 colliders, 8 frames): $(sec "$out/spring-world" .tress_world) B of RAM"
}

# Phones: every crate of the suite compiles for Android's arm64 target. No
# NDK here means nothing can be linked, so what needs no linker is built
# (every library but the extension's cdylib, and the no_std staticlib) and
# the rest (the extension, the binaries) is linted, which compiles it as far
# as `cargo check`. Tests and benches are left out for time: a cold build of
# gdext's code for a second target took 22 min on these 2 cores.
# Artifacts go to target/aarch64-linux-android/; nothing the host build made
# is rebuilt. Prints "android: N passed, M failed"; returns non-zero on a
# failure.
android_check() {
	local t=aarch64-linux-android p=0 f=0 failed=()
	if ! ensure_target "$t"; then
		echo "android: 0 passed, 1 failed (rustup target add $t)"; total_failed=$((total_failed + 1)); return 1
	fi
	local members
	members=$(cargo tree --workspace --depth 0 -e normal --prefix none --format '{p}' | awk '/^tress-/ {print $1}' | sort -u | tr '\n' ' ')
	# tress-ffi's cdylib needs the NDK's linker; its staticlib does not.
	if cargo build --target "$t" --workspace --exclude tress-godot --exclude tress-ffi --lib; then
		p=$((p + 1)); else f=$((f + 1)); failed+=("build libraries"); fi
	if cargo rustc --target "$t" -p tress-ffi --lib --crate-type staticlib; then
		p=$((p + 1)); else f=$((f + 1)); failed+=("tress-ffi staticlib"); fi
	if cargo clippy --target "$t" --workspace --lib --bins -- -D warnings; then
		p=$((p + 1)); else f=$((f + 1)); failed+=("clippy libraries and binaries"); fi
	if cargo build --target "$t" --manifest-path tools/no-std-check/Cargo.toml --release; then
		p=$((p + 1)); else f=$((f + 1)); failed+=("no_std staticlib"); fi
	echo "android ($t): members: $members"
	echo "android ($t): built: every member's library but the tress-godot and tress-ffi cdylibs, tress-ffi's staticlib, tools/no-std-check's staticlib"
	echo "android ($t): clippy -D warnings (a full check): every member's libraries and binaries, tress-godot's cdylib included"
	[ ${#failed[@]} -eq 0 ] || echo "android: failed: ${failed[*]}"
	echo "android: $p passed, $f failed"
	total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
	[ "$f" -eq 0 ]
}

cmd_test() {
	ensure_rust
	local logs="$repo/target/test-logs"; mkdir -p "$logs"
	local fails=()
	# A fresh CI checkout never reuses incremental state; it only fills the disk.
	[ -n "${CI:-}" ] && export CARGO_INCREMENTAL=0
	echo "disk at the start: $(df -h --output=avail "$repo" | tail -1 | tr -d ' ') free"

	step "format check"
	cargo fmt --all -- --check || fails+=(fmt)

	step "clippy (-D warnings)"
	cargo clippy --workspace --all-targets -- -D warnings || fails+=(clippy)

	step "unit and integration tests"
	cargo test --workspace 2>&1 | tee "$logs/cargo-test.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(cargo-test)
	count_cargo "$logs/cargo-test.log"

	step "tress-core feature combinations (none, std, serde, all)"
	local combo
	for combo in --no-default-features "--features std" "--features serde" --all-features; do
		# shellcheck disable=SC2086 # the combination is two words on purpose
		cargo clippy -p tress-core --all-targets $combo -- -D warnings || fails+=("core-clippy $combo")
		# shellcheck disable=SC2086
		cargo test -p tress-core $combo 2>&1 | tee "$logs/core-features.log"
		if [ "${PIPESTATUS[0]}" -ne 0 ]; then fails+=("core $combo"); fi
		count_cargo "$logs/core-features.log"
	done

	step "API docs (cargo doc, warnings denied)"
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet || fails+=(doc)

	step "what a game links: tress-godot depends on core, vrm and rig only"
	local shipped
	shipped=$(cargo tree -p tress-godot -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)
	if echo "$shipped" | grep -qxE 'tress-tools|tress-cli|plotters|clap|indicatif'; then
		echo "tress-godot links an authoring crate:"; echo "$shipped" | grep -xE 'tress-tools|tress-cli|plotters|clap|indicatif'
		total_failed=$((total_failed + 1)); fails+=(godot-deps)
	else
		echo "$shipped" | grep '^tress-' | tr '\n' ' '; echo
		total_passed=$((total_passed + 1)); echo "godot-deps: 1 passed, 0 failed"
	fi

	step "crates package on their own (cargo package, each built from its .crate)"
	# cargo verifies each crate against the others' packaged .crate files
	# through a temporary local registry, and treats what it built from
	# that registry in an earlier run as fresh while the version is the
	# same: a tress-vrm using newer tress-core code then fails to verify
	# against the old tress-core. Start clean: the package folder, the
	# registry's extractions (their directory's name starts with '-') and
	# the tress crates' debug fingerprints (the workspace's own crates
	# rebuild in about a minute).
	# Fingerprints of an earlier package run exist only beside its
	# target/package: a fresh checkout skips the minute of rebuilding.
	[ -d target/package ] && rm -rf target/debug/.fingerprint/tress-*
	rm -rf target/package "${CARGO_HOME:-$HOME/.cargo}"/registry/src/-*/tress-*
	if cargo package --workspace --allow-dirty --quiet \
		--exclude tress-godot --exclude tress-testkit --exclude tress-golden --exclude tress-benches --exclude tress-tests \
		--exclude tress-ffi; then
		total_passed=$((total_passed + 1)); echo "package: 1 passed, 0 failed"
	else
		total_failed=$((total_failed + 1)); fails+=(package)
	fi

	step "no_std proof: tress-core linked into a #![no_std] panic=abort staticlib"
	if cargo build --manifest-path tools/no-std-check/Cargo.toml --release; then
		total_passed=$((total_passed + 1)); echo "no_std: 1 passed, 0 failed"
	else
		total_failed=$((total_failed + 1)); fails+=(no_std)
	fi

	step "C ABI: tress-ffi's staticlib from C, tips equal to Rust's and to wasm32's in Node"
	ensure_target wasm32-unknown-unknown
	tools/ffi-check.sh --wasm 2>&1 | tee "$logs/ffi.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(ffi)
	count_line ffi "$logs/ffi.log" 1

	step "golden digests: host, aarch64 (qemu), wasm32 (Node)"
	step_golden "$logs"

	step "bare metal: thumbv7em-none-eabihf build, code size, SpringWorld RAM"
	step_bare_metal

	step "Android: every crate compiles for aarch64-linux-android (built where no link is needed, else linted)"
	android_check || fails+=(android)

	step "benches compile"
	# Built and linked in the dev profile on the test step's dependencies:
	# clippy already type-checked them, and a release build of every crate
	# (what `cargo bench --no-run` does) cost minutes of a fresh CI run for
	# nothing the tests use. Timing runs build them optimised themselves.
	cargo build --workspace --exclude tress-godot --benches || fails+=(bench-compile)

	step "Godot extension build"
	cargo build -p tress-godot || fails+=(godot-build)

	step "Godot runner self-test"
	if "$here/godot-tests.sh" --selftest; then total_passed=$((total_passed + 1))
	else total_failed=$((total_failed + 1)); fails+=(godot-selftest); fi

	step "Godot headless tests"
	"$here/godot-tests.sh" | tee "$logs/godot.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(godot)
	count_line godot "$logs/godot.log"

	step "Godot addon in a brand-new project"
	"$here/addon-test.sh" | tee "$logs/addon.log"
	[ "${PIPESTATUS[0]}" -eq 0 ] || fails+=(addon)
	count_line addon "$logs/addon.log"

	step_done
	printf '\nstep times (wall):\n'; printf '%s\n' "${step_times[@]}"
	echo "disk at the end: target/ $(du -sh target 2>/dev/null | cut -f1), tools/*/target $(du -shc tools/*/target 2>/dev/null | tail -1 | cut -f1), $(df -h --output=avail "$repo" | tail -1 | tr -d ' ') free"
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
	if [ "${1:-}" = "--pack" ]; then
		shift
		local build=()
		[ "${1:-}" = "--release" ] && { build=(--release); shift; }
		[ "${1:-}" = "--" ] && shift
		cargo build "${build[@]}" -p tress-godot || exit 1
		exec "$here/bench-pack.sh" "${build[@]}" -- "$@"
	fi
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
golden | bare-metal)
	ensure_rust
	fails=(); mkdir -p "$repo/target/test-logs"
	if [ "$1" = golden ]; then step_golden "$repo/target/test-logs"; else step_bare_metal; fi
	echo "total: $total_passed passed, $total_failed failed"
	[ ${#fails[@]} -eq 0 ] ;;
demo) shift; cmd_demo "$@" ;;
android-check) shift; ensure_rust; android_check ;;
godot-tests) shift; cargo build -p tress-godot && "$here/godot-tests.sh" "$@" ;;
addon) shift; "$here/addon.sh" "$@" ;;
assets) shift; cargo run -q -p tress-cli -- generate-assets "$@" ;;
*) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0"; exit 2 ;;
esac
