#!/bin/bash
# Install whatever the build and the tests need and is missing.
set -e
. "$(dirname "$0")/lib.sh"

need=()
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio xz-utils
      kmod rsync ccache qemu-system-x86 busybox-static python3 clang git
      libclang-rt-14-dev bash perf-tools-unstable trace-cmd gawk
      libtraceevent1-plugin"
[ -n "${KSRC:-}" ] || pkgs="$pkgs linux-source-6.12"
for p in $pkgs; do have "$p" || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || die "missing packages (${need[*]}); run as root"
	step "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null
	apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
