# SPDX-License-Identifier: BSD-3-Clause
# scripts/need-root.sh - sourced by the scripts that need root
#
# They are written to be typed as they are, by root (a minimal Debian
# system has no sudo) and by an ordinary user with sudo alike.

# need_root NAME WHY SCRIPT [ARG...] - go on as root; as an ordinary user,
# execute SCRIPT ARG... again through sudo, or, where there is no sudo,
# stop saying what root is needed for
need_root() {
	local name=$1 why=$2
	shift 2
	[ "$(id -u)" = 0 ] && return 0
	if command -v sudo >/dev/null 2>&1; then
		echo "$name: needs root for $why: running it through sudo" >&2
		exec sudo -- "$@"
	fi
	echo "$name: needs root for $why: run it as root, or install sudo" >&2
	exit 1
}
