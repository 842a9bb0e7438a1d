# Judging one guest console log of `make check` (sourced, not run, by
# harness/check.sh and harness/check-parse-test.sh).
# shellcheck shell=bash
#
# judge_log NAME LOG BOOT_RC [FILTERS]
#   NAME     the boot's name (single, mttcg); verdicts are NAME/...
#   LOG      the console log boot.sh wrote
#   BOOT_RC  boot.sh's exit status (124: BOOT_TIMEOUT ran out)
#   FILTERS  the boot's rt.filter list, comma-separated, if any
# Calls the caller's `record NAME/WHAT PASS|FAIL|SKIP [WHY]` once per
# verdict (WHY, for a failure, is a one-line reason for the summary):
#   NAME/TEST           each [PASS], [FAIL] or [SKIP] line of the runner
#   NAME/boot           boot.sh exited 0 and left a log
#   NAME/plan           one "RETRACE-PLAN N" line, and N result lines
#   NAME/runner-status  "RETRACE-STATUS 0" (the runner's exit status)
#   NAME/run-completed  the RETRACE-TESTS-DONE end marker
#   NAME/console-clean  no kernel splat ($JUDGE_SPLAT)
#   NAME/filter:F       (FAIL only) no test name contains filter entry F;
#                       for "!F", no test was left out for it, or one ran
# and prints a [FAIL] line with evidence for each failure.  Safe under
# set -e; returns 0.

JUDGE_SPLAT='WARNING:|BUG:|Oops|Kernel panic|KASAN|UBSAN|general protection fault|possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|soft lockup|hard LOCKUP|blocked for more than|Call Trace:'

# The first "FAIL: ..." line the runner echoed under test $2's [FAIL].
judge_fail_reason() {
	tr -d '\r' < "$1" | awk -v t="$2" '
		found && /^ +(FAIL: |\(timed out)/ { sub(/^ +(FAIL: )?/, ""); print substr($0, 1, 200); exit }
		found && /^\[(PASS|FAIL|SKIP)\] / { exit }
		$1 == "[FAIL]" && $2 == t { found = 1 }'
}

judge_log() {
	local name=$1 log=$2 boot_rc=$3 filters=${4:-}
	local st tname f t found status why
	local -a names=() plans=() statuses=() flist=()

	# The boot itself.
	if [ ! -s "$log" ]; then
		echo "[FAIL] $name/boot (boot.sh exit status $boot_rc; no console log at $log)"
		record "$name/boot" FAIL
		return 0
	fi
	if [ "$boot_rc" != 0 ]; then
		why="exit status $boot_rc"
		[ "$boot_rc" = 124 ] && why="timed out (BOOT_TIMEOUT)"
		# The runner announces each test: name the one that never ended.
		t=$(tr -d '\r' < "$log" | sed -n 's/^RETRACE-START //p' | tail -n 1)
		if [ -n "$t" ] && ! grep -aqE "^\[(PASS|FAIL|SKIP)\] $t( |\r?$)" "$log"; then
			why="$why, during $t"
		fi
		echo "[FAIL] $name/boot (boot.sh: $why; see $log)"
		record "$name/boot" FAIL "$why"
	else
		record "$name/boot" PASS
	fi

	# One verdict per test the runner reported.
	while read -r st tname _; do
		case $st in
		"[PASS]") record "$name/$tname" PASS ;;
		"[FAIL]") record "$name/$tname" FAIL "$(judge_fail_reason "$log" "$tname")" ;;
		"[SKIP]") record "$name/$tname" SKIP ;;
		*) continue ;;
		esac
		names+=("$tname")
	done < <(grep -aE '^\[(PASS|FAIL|SKIP)\] ' "$log" | tr -d '\r')

	# The plan: every planned test reported, no more, no fewer.
	mapfile -t plans < <(grep -aoE 'RETRACE-PLAN [0-9]+' "$log")
	if [ ${#plans[@]} -eq 0 ]; then
		echo "[FAIL] $name/plan (no RETRACE-PLAN line: the runner never started; see $log)"
		grep -av '^\[' "$log" | tr -d '\r' | tail -n 20
		record "$name/plan" FAIL
	elif [ ${#plans[@]} -gt 1 ]; then
		echo "[FAIL] $name/plan (${#plans[@]} RETRACE-PLAN lines)"
		record "$name/plan" FAIL
	elif [ "${plans[0]#RETRACE-PLAN }" -ne ${#names[@]} ]; then
		echo "[FAIL] $name/plan (planned ${plans[0]#RETRACE-PLAN } tests, ${#names[@]} reported; see $log)"
		record "$name/plan" FAIL
	else
		echo "[PASS] $name/plan (${#names[@]} of ${plans[0]#RETRACE-PLAN } tests reported)"
		record "$name/plan" PASS
	fi

	# The runner's exit status, as the guest's /init saw it.
	mapfile -t statuses < <(grep -aoE 'RETRACE-STATUS [0-9]+' "$log")
	if [ ${#statuses[@]} -eq 0 ]; then
		echo "[FAIL] $name/runner-status (no RETRACE-STATUS line; see $log)"
		record "$name/runner-status" FAIL
	else
		status=${statuses[${#statuses[@]} - 1]#RETRACE-STATUS }
		if [ "$status" = 0 ]; then
			record "$name/runner-status" PASS
		else
			echo "[FAIL] $name/runner-status (retrace_test.sh exited with $status)"
			record "$name/runner-status" FAIL
		fi
	fi

	if grep -aq 'RETRACE-TESTS-DONE' "$log"; then
		record "$name/run-completed" PASS
	else
		echo "[FAIL] $name/run-completed (no end marker; see $log)"
		tr -d '\r' <"$log" | tail -n 40
		record "$name/run-completed" FAIL
	fi

	if grep -aEq "$JUDGE_SPLAT" "$log"; then
		echo "[FAIL] $name/console-clean: kernel reported a problem:"
		grep -aE -n -A 25 "$JUDGE_SPLAT" "$log" | tr -d '\r' | head -n 60
		record "$name/console-clean" FAIL
	else
		echo "[PASS] $name/console-clean"
		record "$name/console-clean" PASS
	fi

	# Each filter entry must have picked at least one test: a renamed
	# or deleted test must not vanish from the run unnoticed.
	IFS=, read -ra flist <<<"$filters"
	for f in "${flist[@]}"; do
		[ -n "$f" ] || continue
		found=0
		case $f in
		!*)	# An exclusion: the runner names each test it left
			# out, and none of them may have run.
			why=
			grep -aq "^RETRACE-EXCLUDED .*${f#!}" "$log" || why="excluded no test"
			for t in "${names[@]}"; do
				case $t in *"${f#!}"*) why="ran $t"; break ;; esac
			done
			if [ -n "$why" ]; then
				echo "[FAIL] $name/filter:$f (rt.filter entry '$f' $why)"
				record "$name/filter:$f" FAIL
			fi
			continue ;;
		esac
		for t in "${names[@]}"; do
			case $t in *"$f"*) found=1; break ;; esac
		done
		if [ $found = 0 ]; then
			echo "[FAIL] $name/filter:$f (rt.filter entry '$f' matched no test)"
			record "$name/filter:$f" FAIL
		fi
	done
	return 0
}
