#!/usr/bin/env bash
# Builds the Godot addon: target/addon/addons/tress/ and
# target/addon/tress-godot-addon-VERSION.zip.
#
#   tools/addon.sh [--debug]     release libraries by default; --debug packs
#                                the debug build (what the test command uses,
#                                so CI needs no second build of the extension)
#
# The addon holds tress.gdextension (library paths inside the addon), bin/
# with the libraries this machine builds (linux-x86_64 here), the strand
# ribbon shader, a README and the licences.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"

profile=release
[ "${1:-}" = "--debug" ] && profile=debug
if [ $profile = release ]; then cargo build --release -p tress-godot; else cargo build -p tress-godot; fi

out="$repo/target/addon"
addon="$out/addons/tress"
rm -rf "$out"
mkdir -p "$addon/bin/linux-x86_64" "$addon/shaders"
cp tools/addon/tress.gdextension tools/addon/README.md LICENSE-MIT LICENSE-APACHE "$addon/"
cp "target/$profile/libtress_godot.so" "$addon/bin/linux-x86_64/"
cp godot-project/strands/hair_ribbon.gdshader "$addon/shaders/"
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
zip="tress-godot-addon-$version-$profile.zip"
(cd "$out" && python3 -m zipfile -c "$zip" addons)
echo "addon: ${addon#$repo/} ($profile), zip: ${out#$repo/}/$zip"
find "$addon" -type f | sed "s|^$repo/|  |" | sort
