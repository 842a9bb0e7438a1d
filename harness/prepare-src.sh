#!/bin/bash
# Lay out the kernel source tree in build/src: the pristine 6.12 tree
# (from the Debian tarball or $KSRC), Kconfig.patch applied, and the
# retrace overlay copied in.  Re-running only refreshes what changed so
# kernel builds stay incremental.
set -e
. "$(dirname "$0")/lib.sh"

TARBALL=/usr/src/linux-source-6.12.tar.xz
mkdir -p "$BUILD"
if [ ! -f "$SRC/Makefile" ]; then
	rm -rf "$SRC" "$BUILD/src.tmp"
	mkdir -p "$BUILD/src.tmp"
	if [ -n "${KSRC:-}" ]; then
		step "copying kernel tree from $KSRC"
		grep -q '^PATCHLEVEL = 12' "$KSRC/Makefile" || die "$KSRC is not a 6.12 tree"
		rsync -a --exclude=.git "$KSRC"/ "$BUILD/src.tmp"/
	else
		step "unpacking $TARBALL"
		tar xf "$TARBALL" -C "$BUILD/src.tmp" --strip-components=1
	fi
	mv "$BUILD/src.tmp" "$SRC"
fi

# Kconfig.patch: keep a copy of what is applied; swap it when it changes.
# A file the new patch leaves as it was keeps its mtime, so changing one
# hunk does not rebuild everything that includes <linux/kernel.h>.
applied=$SRC/.retrace-Kconfig.patch
if ! cmp -s "$TOP/Kconfig.patch" "$applied"; then
	keep=$BUILD/src.keep
	rm -rf "$keep"
	mkdir -p "$keep"
	files=$(cat "$TOP/Kconfig.patch" "$applied" 2>/dev/null |
		sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u)
	for f in $files; do
		[ -f "$SRC/$f" ] || continue
		mkdir -p "$keep/$(dirname "$f")"
		cp -p "$SRC/$f" "$keep/$f"
	done
	if [ -f "$applied" ]; then
		step "reverting previous Kconfig.patch"
		patch -p1 -R -s -d "$SRC" <"$applied"
	fi
	step "applying Kconfig.patch"
	patch -p1 -s -d "$SRC" <"$TOP/Kconfig.patch"
	cp "$TOP/Kconfig.patch" "$applied"
	for f in $files; do
		if [ -f "$keep/$f" ] && cmp -s "$keep/$f" "$SRC/$f"; then
			touch -r "$keep/$f" "$SRC/$f"
		fi
	done
	rm -rf "$keep"
fi

# The overlay: rsync keeps mtimes so make rebuilds only what changed.
for d in kernel include arch Documentation samples; do
	[ -d "$TOP/$d" ] && rsync -a "$TOP/$d"/ "$SRC/$d"/
done
exit 0
