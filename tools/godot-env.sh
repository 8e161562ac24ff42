#!/usr/bin/env bash
# Finds or installs a Godot 4 runtime and runs it. Sourced by tools/dev.sh.
#
# Order of preference:
#   1. $GODOT, if it is Godot 4.4 or newer;
#   2. a `godot` on PATH, if it is Godot 4.4 or newer;
#   3. a Debian sid chroot under $TRESS_CACHE (default /var/cache/tress) holding
#      Debian's godot package, installed on first use (Debian-family Linux, root;
#      about a minute and 1.2 GB) and reused afterwards.
# Godot in the chroot sees the repository bind-mounted at /repo (and ../shared
# at /shared when present); every mount is
# undone on every exit path (trap), and runs are serialised with flock.

TRESS_CACHE="${TRESS_CACHE:-/var/cache/tress}"
GODOT_ROOT="$TRESS_CACHE/godot-sid"
GODOT_STAMP="$GODOT_ROOT/.tress-godot-ready"
GODOT_PACKAGES="godot xvfb xauth libgl1-mesa-dri libegl-mesa0 libglx-mesa0 mesa-vulkan-drivers libvulkan1"

# Prints "MAJOR MINOR" of a godot binary, or nothing.
godot_version_of() {
	local out
	out=$(timeout 30 "$1" --version 2>/dev/null | head -n1) || return 1
	# e.g. 4.6.3.stable.debian
	echo "$out" | sed -n 's/^\([0-9]\+\)\.\([0-9]\+\).*/\1 \2/p'
}

godot_is_recent() {
	local v
	v=$(godot_version_of "$1") || return 1
	[ -n "$v" ] || return 1
	set -- $v
	[ "$1" -gt 4 ] || { [ "$1" -eq 4 ] && [ "$2" -ge 4 ]; }
}

# Sets GODOT_MODE=native|chroot and GODOT_BIN.
godot_select() {
	if [ -n "${GODOT:-}" ] && godot_is_recent "$GODOT"; then
		GODOT_MODE=native; GODOT_BIN="$GODOT"; return 0
	fi
	if [ -n "${GODOT:-}" ]; then
		echo "note: \$GODOT=$GODOT is not a Godot 4.4+; ignoring it" >&2
	fi
	local p
	if p=$(command -v godot) && godot_is_recent "$p"; then
		GODOT_MODE=native; GODOT_BIN="$p"; return 0
	fi
	godot_install_chroot || return 1
	GODOT_MODE=chroot; GODOT_BIN=/usr/bin/godot
}

godot_install_chroot() {
	[ -f "$GODOT_STAMP" ] && return 0
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		echo "error: no Godot 4.4+ found (set \$GODOT or put godot on PATH);" \
			"automatic install needs root on Debian-family Linux" >&2
		return 1
	fi
	echo "==> installing Godot 4 into a Debian sid chroot at $GODOT_ROOT (once; ~1 min, 1.2 GB)" >&2
	if ! command -v debootstrap >/dev/null; then
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2 || return 1
	fi
	mkdir -p "$TRESS_CACHE"
	# A half-finished earlier attempt is thrown away rather than trusted.
	rm -rf "$GODOT_ROOT.partial"
	debootstrap --variant=minbase sid "$GODOT_ROOT.partial" >&2 || { echo "error: debootstrap failed" >&2; return 1; }
	local apt_opts="-o Acquire::Check-Valid-Until=false"
	chroot "$GODOT_ROOT.partial" /bin/sh -c "apt-get $apt_opts update && DEBIAN_FRONTEND=noninteractive apt-get $apt_opts install -y --no-install-recommends $GODOT_PACKAGES" >&2 \
		|| { echo "error: installing godot in the chroot failed" >&2; return 1; }
	rm -rf "$GODOT_ROOT"
	mv "$GODOT_ROOT.partial" "$GODOT_ROOT"
	chroot "$GODOT_ROOT" /usr/bin/godot --version > "$GODOT_STAMP" 2>/dev/null || true
	echo "==> Godot $(cat "$GODOT_STAMP") ready" >&2
}

godot_unmount() {
	local m
	for m in "$GODOT_ROOT/shared" "$GODOT_ROOT/repo" "$GODOT_ROOT/dev/shm" "$GODOT_ROOT/dev/pts" "$GODOT_ROOT/dev" "$GODOT_ROOT/proc"; do
		mountpoint -q "$m" 2>/dev/null && umount -l "$m"
	done
	return 0
}

# godot_run REPO_ROOT WORKDIR_REL TIMEOUT_S [--xvfb] -- GODOT_ARGS...
# Runs godot with CWD = REPO_ROOT/WORKDIR_REL under `timeout`; returns godot's
# exit code (124 on timeout).
godot_run() {
	local repo="$1" rel="$2" limit="$3"; shift 3
	local xvfb=0
	[ "${1:-}" = "--xvfb" ] && { xvfb=1; shift; }
	[ "${1:-}" = "--" ] && shift
	if [ "$GODOT_MODE" = native ]; then
		local pre=()
		[ $xvfb = 1 ] && pre=(xvfb-run -a -s '-screen 0 1280x720x24')
		(cd "$repo/$rel" && timeout -k 5 "$limit" "${pre[@]}" "$GODOT_BIN" "$@")
		return $?
	fi
	local q rc
	q=$(printf '%q ' "$@")
	local pre=""
	[ $xvfb = 1 ] && pre="xvfb-run -a -s '-screen 0 1280x720x24'"
	(
		exec 9>"$TRESS_CACHE/godot-run.lock"
		flock 9
		trap godot_unmount EXIT INT TERM
		mkdir -p "$GODOT_ROOT/repo"
		mount -t proc proc "$GODOT_ROOT/proc"
		mount --bind /dev "$GODOT_ROOT/dev"
		mountpoint -q /dev/pts && mount --bind /dev/pts "$GODOT_ROOT/dev/pts"
		mountpoint -q /dev/shm && mount --bind /dev/shm "$GODOT_ROOT/dev/shm"
		mount --bind "$repo" "$GODOT_ROOT/repo"
		# Third-party test assets beside the repository (../shared) stay
		# beside it inside the chroot (/shared), read-only.
		if [ -d "$repo/../shared" ]; then
			mkdir -p "$GODOT_ROOT/shared"
			mount --bind "$(cd "$repo/../shared" && pwd -P)" "$GODOT_ROOT/shared"
			mount -o remount,bind,ro "$GODOT_ROOT/shared" 2>/dev/null || true
		fi
		timeout -k 5 "$limit" chroot "$GODOT_ROOT" /usr/bin/env -i \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp/godot-home LANG=C.UTF-8 \
			/bin/sh -c "mkdir -p /tmp/godot-home && cd /repo/$rel && $pre /usr/bin/godot $q"
	)
}
