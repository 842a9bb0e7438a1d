#!/bin/bash
# Self-test of harness/layering.sh on small fake trees in a temporary
# directory.  Prints "ok N - desc" / "not ok N - desc"; exits non-zero
# if any case fails.
LAYERING=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/layering.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

put() {	# put ROOT RELPATH [LINE...]: write a file, one line per argument
	local root=$1 f=$2; shift 2
	mkdir -p "$(dirname "$root/$f")"
	printf '%s\n' "/* fake */" "$@" >"$root/$f"
}

# A tree that obeys every rule.
clean_tree() {	# clean_tree ROOT
	local r=$1 k=kernel/trace/retrace i=include/trace/retrace
	put "$r" $i/glob.h
	put "$r" $i/ring_buffer.h '#include "rb_host_shim.h"'
	put "$r" $i/callsite.h
	put "$r" $i/core.h '#include <trace/retrace/ring_buffer.h>'
	put "$r" $i/kernel_api.h
	put "$r" $i/event_filter.h '#include <string.h>'
	put "$r" $i/event.h '#include <trace/retrace/core.h>' \
		'#include <trace/retrace/event_filter.h>'
	put "$r" $i/probe_def.h
	put "$r" $k/Makefile
	put "$r" $k/host/pure_shim.h
	put "$r" $k/host/rb_host_shim.h '#include "pure_shim.h"'
	put "$r" $k/host/host_env.c '#include "rb_host_shim.h"' \
		'#include "../core/internal.h"'	# host/ is exempt
	put "$r" $k/lib/glob.c '#include <linux/kernel.h>' \
		'#include <trace/retrace/glob.h>'
	put "$r" $k/lib/glob_test.c '#include <stdio.h>' \
		'#include <trace/retrace/glob.h>'
	put "$r" $k/ring_buffer/ring_buffer.c '#ifdef RETRACE_HOST' \
		'#include "rb_host_shim.h"' '#endif' \
		'#include <trace/retrace/ring_buffer.h>' \
		'#include <trace/retrace/glob.h>'
	put "$r" $k/callsite/site.c '#include "pure_shim.h"' \
		'#include <trace/retrace/callsite.h>'
	put "$r" $k/hooks/irqflags.c '#include <linux/irqflags.h>'
	put "$r" $k/core/internal.h '#include <trace/retrace/core.h>'
	put "$r" $k/core/core.c '#include <trace/retrace/core.h>' \
		'#  include "internal.h"' '#include <trace/retrace/callsite.h>'
	put "$r" $k/events/event.c '#include <trace/retrace/event.h>' \
		'#include <trace/retrace/core.h>'
	put "$r" $k/events/filter_records.h '#include <trace/retrace/event_filter.h>'
	put "$r" $k/events/filter_test.c '#include "filter_records.h"'
	put "$r" $k/tracers/function.h '#include <trace/retrace/callsite.h>'
	put "$r" $k/tracers/function.c '#include "function.h"' \
		'#include <trace/retrace/core.h>' '#include <trace/retrace/event.h>'
	put "$r" $k/producers/kprobe_event.c '#include <trace/retrace/event.h>' \
		'#include <trace/retrace/probe_def.h>' '#include "pure_shim.h"'
}

n=0 failed=0
# expect PASS|FAIL DESC [EXPECTED-OUTPUT-LINE] -- run on $root
expect() {
	local want=$1 desc=$2 line=$3 out rc ok=1
	n=$((n + 1))
	out=$("$LAYERING" "$root" 2>&1)
	rc=$?
	case $want in
	PASS) [ $rc -eq 0 ] && grep -q '^layering: OK' <<<"$out" || ok=0 ;;
	FAIL) [ $rc -eq 1 ] || ok=0
		[ -z "$line" ] || grep -qF -- "$line" <<<"$out" || ok=0 ;;
	esac
	if [ $ok = 1 ]; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc (exit $rc)"
		sed 's/^/#   /' <<<"$out"
		failed=$((failed + 1))
	fi
}
fresh() {	# fresh NAME: a new clean tree in $root
	root=$tmp/$1
	clean_tree "$root"
}
k=kernel/trace/retrace

fresh clean
expect PASS "a clean tree passes"

fresh callsite-core
put "$root" $k/callsite/x.c '#include <trace/retrace/callsite.h>' \
	'#include <trace/retrace/core.h>'
expect FAIL "callsite including <trace/retrace/core.h> fails" \
	"$k/callsite/x.c:3: callsite includes <trace/retrace/core.h> (core)"

fresh events-internal
put "$root" $k/events/x.c '#include "../core/internal.h"'
expect FAIL "events including \"../core/internal.h\" fails" \
	"$k/events/x.c:2: events includes \"../core/internal.h\" (core)"

fresh tracers-probe_def
put "$root" $k/tracers/x.c '#include <trace/retrace/probe_def.h>'
expect FAIL "tracers including peer <trace/retrace/probe_def.h> fails" \
	"$k/tracers/x.c:2: tracers includes <trace/retrace/probe_def.h> (producers)"

fresh unknown-header
put "$root" include/trace/retrace/nosuch.h
expect FAIL "an unknown header under include/trace/retrace/ fails" \
	"include/trace/retrace/nosuch.h: unknown header"

fresh unknown-include
put "$root" $k/tracers/x.c '#include <trace/retrace/nosuch.h>'
expect FAIL "including an unknown retrace header fails" \
	"$k/tracers/x.c:2: tracers includes <trace/retrace/nosuch.h> (unknown header)"

fresh unknown-folder
put "$root" $k/newlayer/x.c
expect FAIL "an unknown folder under kernel/trace/retrace/ fails" \
	"$k/newlayer/: unknown layer folder"

fresh missing-quoted
put "$root" $k/callsite/x.c '#include "internal.h"'
expect FAIL "a quoted include not in the file's own folder fails" \
	"$k/callsite/x.c:2: callsite includes \"internal.h\" (not in $k/callsite/)"

fresh header-up
put "$root" include/trace/retrace/core.h '#include <trace/retrace/event.h>'
expect FAIL "a public header including a higher layer's header fails" \
	"include/trace/retrace/core.h:2: core includes <trace/retrace/event.h> (events)"

fresh stray-file
put "$root" $k/stray.c
expect FAIL "a .c outside any layer folder fails" "$k/stray.c: not in a layer folder"

echo "1..$n"
[ $failed -eq 0 ]
