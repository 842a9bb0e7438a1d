#!/bin/bash
# Build the test initramfs: static busybox, the selftests with their
# helper, retrace's modules, and an /init that runs what the kernel
# command line asks for (rt.mode=check|shell|demo).
set -e
. "$(dirname "$0")/lib.sh"

OUT=$(outdir)
ROOT=$OUT/initramfs.d
IMG=$OUT/initramfs.cpio.gz
BB=$(command -v busybox || true)
[ -x /bin/busybox ] && BB=/bin/busybox
file -L "$BB" 2>/dev/null | grep -q 'statically linked' || BB=/usr/bin/busybox
[ -x "$BB" ] || die "static busybox not found (apt-get install busybox-static)"

step "building initramfs $IMG"
rm -rf "$ROOT"
mkdir -p "$ROOT"/{bin,sbin,dev,proc,sys,tmp,etc,root,lib/modules}
cp "$BB" "$ROOT/bin/busybox"
for a in $("$BB" --list); do
	[ -e "$ROOT/bin/$a" ] || ln -s busybox "$ROOT/bin/$a"
done
cp -a "$TOP/tools/testing/selftests/ftrace" "$ROOT/selftests"
for h in rtio rtbench; do
	gcc -static -O2 -Wall -o "$ROOT/selftests/helpers/$h" \
		"$TOP/tools/testing/selftests/ftrace/helpers/$h.c"
done
# The kmemtrace reader (tools/kmemtrace), static like the helpers.
make -s -C "$TOP/tools/kmemtrace" O="$ROOT/bin" >/dev/null
cp -a "$OUT/modules/lib/modules/." "$ROOT/lib/modules/"
# bash and perf-tools' funcgraph, a real client of function_graph
# (45graph/perf_funcgraph); bash comes with the libraries it links.
mkdir -p "$ROOT/usr/sbin" "$ROOT/var/tmp"
cp -L /bin/bash "$ROOT/bin/bash.real"
ln -sf bash.real "$ROOT/bin/bash"
for lib in $(ldd /bin/bash | grep -o '/[^ ]*'); do
	mkdir -p "$ROOT$(dirname "$lib")"
	cp -L "$lib" "$ROOT$lib"
done
if [ -f /usr/sbin/funcgraph-perf ]; then
	install -m 0755 /usr/sbin/funcgraph-perf "$ROOT/usr/sbin/funcgraph"
fi
install -m 0755 "$TOP/harness/guest-init.sh" "$ROOT/init"
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1 >"$IMG")
