#!/bin/bash
# Layering check: kernel/trace/retrace/ has one folder per layer, and a
# file may include only its own layer's headers or those of a layer of
# strictly lower rank (peers of equal rank may not include each other).
#
#   harness/layering.sh [ROOT]	(ROOT defaults to the repository top)
#
# Checks every .c/.h under ROOT/kernel/trace/retrace/<layer>/ and
# ROOT/include/trace/retrace/*.h:
#  - <trace/retrace/X.h> is allowed if X's layer is the file's own layer
#    or of strictly lower rank;
#  - "X" must resolve to the file's own folder, or be a host shim
#    (host-only tests and pure files may include "pure_shim.h" etc.);
#  - an unknown folder under kernel/trace/retrace/, an unknown header
#    under include/trace/retrace/ or a .c/.h outside any layer folder is
#    an error: add new layers and headers to the map below on purpose.
# Prints "file:line: LAYER includes HEADER (LAYER2)" per violation and
# exits 1; prints one OK line and exits 0 otherwise.

# ---- The map: extend here. ------------------------------------------
# Layer folders and their ranks.
declare -A RANK=(
	[lib]=0
	[ring_buffer]=1 [callsite]=1 [hooks]=1
	[core]=2
	[events]=3
	[tracers]=4 [producers]=4
)
# Public headers (relative to include/trace/retrace/) and their layer.
declare -A HEADER=(
	[glob.h]=lib
	[ring_buffer.h]=ring_buffer
	[rb_record.h]=ring_buffer
	[callsite.h]=callsite [ret_stack.h]=hooks
	[latency_hooks.h]=hooks [latency_client.h]=hooks
	[core.h]=core [kernel_api.h]=core [raw_page.h]=core [ipset.h]=lib [carry.h]=lib [arch_regs.h]=lib
	[event.h]=events [event_filter.h]=events [trigger_parse.h]=events
	[probe_def.h]=producers [mark_format.h]=producers [syscall_meta.h]=producers
)
# Folders under kernel/trace/retrace/ that are not layers (not checked).
EXEMPT_DIRS=(host)
# Host shims (in host/) that any layer's host-only code may include.
HOST_SHIMS=(pure_shim.h rb_host_shim.h)
# ----------------------------------------------------------------------

ROOT=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ROOT=$(realpath -m "$ROOT")
KDIR=$ROOT/kernel/trace/retrace
IDIR=$ROOT/include/trace/retrace
HOSTDIR=$KDIR/host
[ -d "$KDIR" ] || { echo "layering: no $KDIR" >&2; exit 2; }

nerr=0 nfiles=0 nincl=0
err() { echo "$*"; nerr=$((nerr + 1)); }
rel() { echo "${1#"$ROOT"/}"; }
in_list() {	# in_list WORD LIST...
	local w=$1 x; shift
	for x; do [ "$x" = "$w" ] && return 0; done
	return 1
}

# The map must be consistent with itself.
for h in "${!HEADER[@]}"; do
	[ -n "${RANK[${HEADER[$h]}]}" ] ||
		err "harness/layering.sh: header $h maps to unknown layer ${HEADER[$h]}"
done

# Which layer a folder is (a layer's sub-folders belong to it).
dir_layer() {	# dir_layer ABSDIR -> folder under kernel/trace/retrace/, or ""
	local d=$1 top
	case $d/ in "$KDIR"/*/) ;; *) return ;; esac
	top=${d#"$KDIR"/}
	echo "${top%%/*}"
}

# check_file FILE LAYER
check_file() {
	local f=$1 layer=$2 dir lineno delim name h l2 t tdir
	dir=$(dirname "$f")
	nfiles=$((nfiles + 1))
	while IFS=$'\t' read -r lineno delim name; do
		[ -n "$lineno" ] || continue
		if [ "$delim" = '<' ]; then
			case $name in trace/retrace/*) ;; *) continue ;; esac
			nincl=$((nincl + 1))
			h=${name#trace/retrace/}
			l2=${HEADER[$h]}
			if [ -z "$l2" ]; then
				err "$(rel "$f"):$lineno: $layer includes <$name> (unknown header)"
			elif [ "$l2" != "$layer" ] && [ "${RANK[$l2]}" -ge "${RANK[$layer]}" ]; then
				err "$(rel "$f"):$lineno: $layer includes <$name> ($l2)"
			fi
			continue
		fi
		nincl=$((nincl + 1))
		case $name in */*) ;; *) in_list "$name" "${HOST_SHIMS[@]}" && continue ;; esac
		t=$(realpath -m "$dir/$name")
		tdir=$(dirname "$t")
		if [ -f "$t" ] && [ "$tdir" = "$dir" ]; then
			continue
		fi
		if [ -f "$t" ] && [ "$tdir" = "$HOSTDIR" ] &&
			in_list "$(basename "$t")" "${HOST_SHIMS[@]}"; then
			continue
		fi
		if [ ! -f "$t" ]; then
			l2="not in $(rel "$dir")/"
		elif [ "$tdir" = "$IDIR" ]; then
			l2=${HEADER[$(basename "$t")]:-unknown header}; l2+=", use <trace/retrace/...>"
		else
			l2=$(dir_layer "$tdir")
			[ -n "$l2" ] || l2="outside retrace: $(rel "$tdir")/"
		fi
		err "$(rel "$f"):$lineno: $layer includes \"$name\" ($l2)"
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("[^"]*"|<[^>]*>)' "$f" |
		sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*(["<])([^">]*)[">].*/\1\t\2\t\3/')
}

# kernel/trace/retrace/: every folder is a known layer or exempt; no
# .c/.h outside a layer folder.
layers=()
for d in "$KDIR"/*/; do
	[ -d "$d" ] || continue
	d=${d%/}; n=$(basename "$d")
	in_list "$n" "${EXEMPT_DIRS[@]}" && continue
	if [ -z "${RANK[$n]}" ]; then
		err "$(rel "$d")/: unknown layer folder (add it to RANK in harness/layering.sh)"
		continue
	fi
	layers+=("$n")
done
for f in "$KDIR"/*.[ch]; do
	[ -f "$f" ] && err "$(rel "$f"): not in a layer folder"
done

for n in "${layers[@]}"; do
	while IFS= read -r -d '' f; do
		check_file "$f" "$n"
	done < <(find "$KDIR/$n" -type f \( -name '*.c' -o -name '*.h' \) -print0 | sort -z)
done

# include/trace/retrace/: every header is in the map.
if [ -d "$IDIR" ]; then
	while IFS= read -r -d '' f; do
		h=${f#"$IDIR"/}
		if [ -z "${HEADER[$h]}" ]; then
			err "$(rel "$f"): unknown header (add it to HEADER in harness/layering.sh)"
			continue
		fi
		check_file "$f" "${HEADER[$h]}"
	done < <(find "$IDIR" -type f -name '*.h' -print0 | sort -z)
fi

if [ "$nerr" -ne 0 ]; then
	echo "layering: $nerr violation(s) in $(rel "$KDIR")/ and $(rel "$IDIR")/"
	exit 1
fi
echo "layering: OK ($nfiles files, $nincl includes checked, ${#layers[@]} layers)"
