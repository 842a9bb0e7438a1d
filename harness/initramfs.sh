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
# root and one unprivileged user and group (00basic/non_root's uid
# 1000; ftracetest's ownership cases look for a second group here).
printf 'root:x:0:0:root:/root:/bin/sh\nuser:x:1000:1000:user:/:/bin/sh\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' > "$ROOT/etc/group"
for a in $("$BB" --list); do
	[ -e "$ROOT/bin/$a" ] || ln -s busybox "$ROOT/bin/$a"
done
cp -a "$TOP/tools/testing/selftests/ftrace/retrace" "$ROOT/selftests"
for h in rtio rtbench; do
	gcc -static -O2 -Wall -o "$ROOT/selftests/helpers/$h" \
		"$TOP/tools/testing/selftests/ftrace/retrace/helpers/$h.c"
done
# The kmemtrace reader (tools/kmemtrace), static like the helpers.
make -s -C "$TOP/tools/kmemtrace" O="$ROOT/bin" >/dev/null
cp -a "$OUT/modules/lib/modules/." "$ROOT/lib/modules/"
# bash, which perf-tools' scripts need, with the libraries it links.
mkdir -p "$ROOT/usr/sbin" "$ROOT/usr/bin" "$ROOT/var/tmp"
# guest_dynamic BIN DEST: a host binary and the libraries it links.
guest_dynamic() {
	local lib
	cp -L "$1" "$ROOT$2"
	for lib in $(ldd "$1" | grep -o '/[^ ]*'); do
		mkdir -p "$ROOT$(dirname "$lib")"
		cp -L "$lib" "$ROOT$lib"
	done
}
guest_dynamic /bin/bash /bin/bash.real
ln -sf bash.real "$ROOT/bin/bash"
# util-linux's chrt (busybox has none): upstream ftracetest's wakeup
# and wakeup_rt cases require it.
if [ -x /usr/bin/chrt ]; then
	guest_dynamic /usr/bin/chrt /usr/bin/chrt
fi
# gawk: perf-tools' opensnoop parses with gawk's three-argument
# match(), which busybox's awk lacks (test.d/80perftools/opensnoop).
if [ -x /usr/bin/gawk ]; then
	guest_dynamic /usr/bin/gawk /usr/bin/gawk
fi
# trace-cmd with libtracefs and libtraceevent: test.d/85tracecmd.
if [ -x /usr/bin/trace-cmd ]; then
	guest_dynamic /usr/bin/trace-cmd /usr/bin/trace-cmd
	# libtraceevent's plugins (libtraceevent1-plugin), apart from where
	# the library looks by default, so that only the test that sets
	# TRACEEVENT_PLUGIN_DIR to them decodes through them
	# (85tracecmd/sched_plugin).
	mkdir -p "$ROOT/usr/lib/rt-traceevent-plugins"
	for f in /usr/lib/x86_64-linux-gnu/traceevent/plugins/*.so; do
		[ -f "$f" ] && guest_dynamic "$f" "/usr/lib/rt-traceevent-plugins/${f##*/}"
	done
fi
# perf-tools' scripts (Debian's perf-tools-unstable names them
# NAME-perf), as NAME: test.d/80perftools and 45graph/perf_funcgraph.
for f in /usr/sbin/*-perf; do
	[ -f "$f" ] || continue
	n=${f##*/}
	install -m 0755 "$f" "$ROOT/usr/sbin/${n%-perf}"
done
# Upstream's ftracetest from the kernel tree built on, for
# harness/conformance.sh (rt.mode=conformance).
if [ -d "$SRC/tools/testing/selftests/ftrace/test.d" ]; then
	cp -a "$SRC/tools/testing/selftests/ftrace" "$ROOT/ftracetest"
fi
install -m 0755 "$TOP/harness/guest-init.sh" "$ROOT/init"
(cd "$ROOT" && find . | cpio -o -H newc --quiet | gzip -1 >"$IMG")
