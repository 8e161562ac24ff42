#!/usr/bin/env bash
# The C ABI checked from C: builds tress-ffi's staticlib, compiles
# examples/c/hair_tips.c, errors.c and render_strands.c against include/tress.h,
# runs both, runs the Rust reference (crates/tress-ffi/examples/hair_tips.rs)
# and compares the tip bits exactly. Self-contained: the exit status is the
# result and the last line reads `ffi: N passed, M failed`, as the other
# steps of tools/dev.sh test print theirs.
#
# Usage: tools/ffi-check.sh [--wasm]   (from anywhere; CC overrides the compiler)
#   --wasm  also builds the wasm32-unknown-unknown cdylib (dev profile:
#           the tips are the same bits at any optimisation, and a release
#           build of every dependency for wasm32 cost minutes), runs
#           tools/ffi-wasm/run.mjs under Node and compares its hair tips
#           with the native C program's, bit for bit (needs the target and
#           Node 18+; this script installs neither)
set -u
wasm=0
for arg in "$@"; do
	case "$arg" in
	--wasm) wasm=1 ;;
	*) echo "usage: $0 [--wasm]" >&2; exit 2 ;;
	esac
done
cd "$(dirname "$0")/.."
root=$PWD
out=${CARGO_TARGET_DIR:-$root/target}/ffi-check
mkdir -p "$out"
cc=${CC:-cc}
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }
finish() {
	echo "ffi: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}

if cargo build -p tress-ffi; then
	pass "cargo build -p tress-ffi"
else
	fail "cargo build -p tress-ffi"
	finish
fi
lib=${CARGO_TARGET_DIR:-$root/target}/debug/libtress_ffi.a
# The native libraries the staticlib needs on this platform, as rustc
# reports them (Linux: -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc).
native=$(cargo rustc -q -p tress-ffi --lib --crate-type staticlib -- --print native-static-libs 2>&1 |
	sed -n 's/.*native-static-libs: //p' | tail -n 1)
[ -n "$native" ] || native="-lm -lpthread -ldl"

# No FMA contraction: hair_tips.c's motion must round as the Rust program does.
cflags=(-std=c11 -O2 -Wall -Wextra -Werror -ffp-contract=off -I"$root/crates/tress-ffi/include")
for prog in hair_tips errors render_strands; do
	rm -f "$out/$prog" "$out/$prog.txt" "$out/tips-c.txt" "$out/tips-rust.txt"
	# shellcheck disable=SC2086 # $native is a list of flags
	if "$cc" "${cflags[@]}" "examples/c/$prog.c" "$lib" $native -o "$out/$prog"; then
		pass "cc examples/c/$prog.c"
	else
		fail "cc examples/c/$prog.c"
	fi
done

if [ -x "$out/errors" ]; then
	if "$out/errors" >"$out/errors.txt" 2>&1; then
		pass "errors: $(tail -n 1 "$out/errors.txt")"
	else
		cat "$out/errors.txt"
		fail "errors: $(tail -n 1 "$out/errors.txt")"
	fi
else
	fail "errors: not built"
fi

if [ -x "$out/render_strands" ] && "$out/render_strands" assets/tress_groom.tfx >"$out/render_strands.txt" 2>&1; then
	pass "render_strands: $(tail -n 1 "$out/render_strands.txt")"
else
	cat "$out/render_strands.txt" 2>/dev/null
	fail "render_strands: render segments keep their guides' lengths within 1 %"
fi

if [ -x "$out/hair_tips" ] && "$out/hair_tips" assets/tress_avatar.vrm >"$out/tips-c.txt"; then
	pass "hair_tips (C) ran"
else
	fail "hair_tips (C) ran"
fi
if cargo run -q -p tress-ffi --example hair_tips -- assets/tress_avatar.vrm >"$out/tips-rust.txt"; then
	pass "hair_tips (Rust) ran"
else
	fail "hair_tips (Rust) ran"
fi
tips=$(grep -c '^chain ' "$out/tips-c.txt" 2>/dev/null)
if [ "${tips:-0}" -gt 0 ] && diff -u "$out/tips-rust.txt" "$out/tips-c.txt"; then
	pass "hair tips: C and Rust agree bit for bit on $tips tips"
else
	fail "hair tips: C and Rust differ (or no tips: ${tips:-0}); outputs in $out"
fi

if [ "$wasm" -eq 1 ]; then
	if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
		fail "wasm32: target not installed (rustup target add wasm32-unknown-unknown)"
	elif ! command -v node >/dev/null; then
		fail "wasm32: node not found (Node 18 or newer)"
	elif ! cargo build -p tress-ffi --target wasm32-unknown-unknown; then
		fail "cargo build -p tress-ffi --target wasm32-unknown-unknown"
	else
		pass "cargo build -p tress-ffi --target wasm32-unknown-unknown"
		wasm_file=${CARGO_TARGET_DIR:-$root/target}/wasm32-unknown-unknown/debug/tress_ffi.wasm
		rm -f "$out/tips-wasm.txt"
		if node tools/ffi-wasm/run.mjs "$wasm_file" --tips assets/tress_avatar.vrm "$out/tips-wasm.txt" >"$out/wasm.txt" 2>&1; then
			pass "wasm32 in Node: $(tail -n 1 "$out/wasm.txt")"
		else
			cat "$out/wasm.txt"
			fail "wasm32 in Node: $(tail -n 1 "$out/wasm.txt")"
		fi
		# The same program in wasm32 gives the native build's bits.
		if [ "${tips:-0}" -gt 0 ] && [ -s "$out/tips-wasm.txt" ] && diff -u "$out/tips-c.txt" "$out/tips-wasm.txt"; then
			pass "hair tips: wasm32 and native agree bit for bit on $tips tips"
		else
			fail "hair tips: wasm32 and native differ (or no tips); outputs in $out"
		fi
	fi
fi
finish
