#!/bin/bash
# make conformance: boot the normal kernel (TCG single, -smp 4) and run
# upstream's ftracetest, from the kernel tree retrace was built on,
# against it; then hold the result against the record checked into the
# tree, tools/testing/selftests/ftrace/retrace/conformance.txt.
#
# The record has one line per case: RESULT, the case's file under
# ftracetest's test.d (with " (instance)" for its run inside a trace
# instance), and for a case that does not pass, "# why".  A case the
# record calls PASS that no longer passes fails, and so does a kernel
# splat on the console; a case that passes where the record says it
# does not is reported, for the record to be updated.
#
# Prints "[PASS] conformance/CASE" for each case the record calls PASS
# and that passed, "[FAIL] conformance/CASE (...)" for each that did
# not, and "[FAIL] conformance/boot|console-clean|complete" for a run
# that went wrong, then the counts.  Exit status 0 when nothing failed.
#
# Environment: CONF_BUILD=0 boots the kernel and initramfs already
# built; CONF_BOOT=0 judges the last run's console log again without
# booting; CONF_UPDATE=1 rewrites the record from this run (keeping the
# record's reasons for a failed or unresolved case whose result did not
# change).
set -e
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/judge.sh"

RECORD=$TOP/tools/testing/selftests/ftrace/retrace/conformance.txt
RES=$BUILD/conformance
log=$RES/console.log
mkdir -p "$RES"
rm -f "$RES/results.txt"
if [ "${CONF_BOOT:-1}" = 0 ]; then
	[ -s "$log" ] || die "CONF_BOOT=0: no console log at $log"
	boot_rc=0
else
	rm -f "$log"
	if [ "${CONF_BUILD:-1}" != 0 ]; then
		"$TOP/harness/deps.sh"
		"$TOP/harness/kernel.sh"
		"$TOP/harness/initramfs.sh"
	fi
	[ -d "$(outdir)/initramfs.d/ftracetest/test.d" ] ||
		die "no ftracetest in the initramfs: $SRC/tools/testing/selftests/ftrace is missing"

	step "conformance: upstream ftracetest on the $(flavour) kernel (TCG single, -smp ${SMP:-4})"
	set +e
	QUIET=1 TCG_THREAD=single BOOT_TIMEOUT=${BOOT_TIMEOUT:-1500} \
		"$TOP/harness/boot.sh" conformance "$log" >/dev/null
	boot_rc=$?
	set -e
fi

bad=0
verdict() {	# verdict PASS|FAIL NAME [WHY]
	if [ "$1" = PASS ]; then
		echo "[PASS] conformance/$2"
	else
		echo "[FAIL] conformance/$2${3:+ ($3)}"
		bad=1
	fi
}
[ -s "$log" ] || { verdict FAIL boot "no console log"; exit 1; }
if [ "$boot_rc" != 0 ]; then
	verdict FAIL boot "boot.sh exit status $boot_rc; see $log"
fi
if grep -aqE "$JUDGE_SPLAT" "$log"; then
	verdict FAIL console-clean "$(grep -aE -m 1 "$JUDGE_SPLAT" "$log" | tr -d '\r')"
else
	verdict PASS console-clean
fi
grep -aq '^CONF-DONE' "$log" || verdict FAIL complete "no CONF-DONE line; see $log"

# This run's results: "RESULT<TAB>CASE<TAB>WHY", in case order.
tr -d '\r' <"$log" | awk '
	/^CONF-NO-INSTANCES/ { noinst = 1; next }
	/^CONF-CASE / { n = $2; sub(/^CONF-CASE [0-9]+ /, ""); file[n] = $0; next }
	/^CONF-WHY / { n = $2; sub(/^CONF-WHY [0-9]+ /, ""); why[n] = $0; next }
	/^\[[0-9]+\].*\[[A-Z]+\]$/ {
		n = substr($0, 2, index($0, "]") - 2)
		r = $NF; gsub(/[][]/, "", r)
		res[n] = r; if (n > max) max = n
	}
	END {
		for (n = 1; n <= max; n++) {
			if (!(n in res))
				continue
			w = res[n] == "PASS" ? "" : why[n]
			if (noinst && w != "" && file[n] ~ / \(instance\)$/)
				w = "no instances/"
			printf "%s\t%s\t%s\n", res[n], file[n], w
		}
	}' >"$RES/results.txt"

# Hold it against the record.
declare -A now nowwhy
while IFS=$'\t' read -r r f w; do
	now[$f]=$r
	nowwhy[$f]=$w
done <"$RES/results.txt"
improved=()
while read -r r f; do
	case $r in '' | '#'*) continue ;; esac
	f=${f%%	#*}
	f=${f%% #*}
	f=${f%"${f##*[![:space:]]}"}
	got=${now[$f]:-MISSING}
	if [ "$r" = PASS ]; then
		if [ "$got" = PASS ]; then
			verdict PASS "$f"
		else
			verdict FAIL "$f" "recorded PASS, now $got: ${nowwhy[$f]:-}"
		fi
	elif [ "$got" = PASS ]; then
		improved+=("$f (recorded $r)")
	fi
done <"$RECORD"
for i in "${improved[@]}"; do
	echo "    now passes: $i (update $RECORD with CONF_UPDATE=1)"
done

count() { awk -F'\t' -v r="$1" '$1 == r' "$2" | wc -l; }
for r in PASS FAIL UNRESOLVED UNTESTED UNSUPPORTED XFAIL; do
	printf '%s %s ' "$(count "$r" "$RES/results.txt")" "$r"
done | sed 's/ $//; s/^/conformance: /'
echo " ($(wc -l <"$RES/results.txt") cases; record: $(grep -c '^PASS' "$RECORD" || true) PASS)"

if [ "${CONF_UPDATE:-0}" = 1 ]; then
	declare -A oldres oldwhy
	while read -r r f; do
		case $r in '' | '#'*) continue ;; esac
		w=
		case $f in *'#'*) w=${f#*# } ;; esac
		f=${f%%	#*}
		f=${f%% #*}
		f=${f%"${f##*[![:space:]]}"}
		oldres[$f]=$r
		oldwhy[$f]=$w
	done <"$RECORD"
	{
		sed -n '/^#/p; /^#/!q' "$RECORD"
		while IFS=$'\t' read -r r f w; do
			# Hand-written reasons stay; ftracetest's own (for an
			# unsupported case) are taken fresh, except from a
			# case that gave up at run time with no reason (the
			# log's tail, "++ exit_unsupported..."): a reason
			# written for it stays.
			if [ "$r" = "${oldres[$f]:-}" ] && [ -n "${oldwhy[$f]:-}" ]; then
				case $r:$w:${oldwhy[$f]} in
				UNSUPPORTED:"++ exit_unsupported"*:"++ "*) ;;
				UNSUPPORTED:"++ exit_unsupported"*) w=${oldwhy[$f]} ;;
				UNSUPPORTED:*) ;;
				*) w=${oldwhy[$f]} ;;
				esac
			fi
			if [ "$r" = PASS ]; then
				printf '%-12s%s\n' "$r" "$f"
			else
				printf '%-12s%s\t# %s\n' "$r" "$f" "$w"
			fi
		done <"$RES/results.txt"
	} >"$RECORD.new"
	mv "$RECORD.new" "$RECORD"
	echo "conformance: $RECORD rewritten from this run"
fi
[ "$bad" = 0 ]
