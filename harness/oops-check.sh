#!/bin/bash
# Judge a console log of an rt.mode=oops boot (ftrace_dump_on_oops):
#   harness/oops-check.sh LOG MODE
# MODE 1: every CPU's records dumped; MODE 2: only the oopsing CPU's
# (CPU 1, where the guest script oopses).  Prints one line saying why
# and exits 0 (as expected) or 1.
log=$1 mode=$2
bad() { echo "$*"; exit 1; }
[ -f "$log" ] || bad "no console log $log"
# The serial console ends lines with CR LF.
clean=$(mktemp)
trap 'rm -f "$clean"' EXIT
tr -d '\r' < "$1" > "$clean"
log=$clean
grep -q 'OOPS-SETUP-FAIL' "$log" && bad "$(grep -m1 'OOPS-SETUP-FAIL' "$log")"
grep -q 'RETRACE-OOPS-NOT-TRIGGERED' "$log" && bad "the guest did not oops"
ready=$(grep -n -m1 "OOPS-TEST-READY mode=$mode" "$log" | cut -d: -f1)
[ -n "$ready" ] || bad "the guest script never got ready"
ncpu=$(sed -n "s/.*OOPS-TEST-READY mode=$mode cpus=\([0-9]*\).*/\1/p" "$log" | head -n 1)
# Reports that fail any boot fail this one too; the oops itself is the point.
splat=$(grep -nE 'WARNING:|BUG: KASAN|UBSAN:|possible (circular|recursive) locking|inconsistent lock|suspicious RCU usage|BUG: sleeping|soft lockup|hard LOCKUP|rcu: INFO|self-detected stall|blocked for more than|general protection fault|BUG: unable to handle' "$log" | head -n 1)
[ -z "$splat" ] || bad "a report besides the oops: $splat"
oops=$(grep -n -m1 'BUG: kernel NULL pointer dereference' "$log" | cut -d: -f1)
[ -n "$oops" ] || bad "no NULL pointer oops"
grep -q 'RIP: 0010:rt_printk_test_oops' "$log" || bad "the oops is not rt_printk_test_oops's"
start=$(grep -n -m1 'Dumping retrace buffer:' "$log" | cut -d: -f1)
[ -n "$start" ] || bad "no dump banner"
[ "$(grep -c 'Dumping retrace buffer:' "$log")" = 1 ] || bad "dumped more than once"
[ "$start" -gt "$oops" ] || bad "the dump starts before the oops"
end=$(awk -v s="$start" 'NR > s + 1 && /-----------------------------$/ { print NR; exit }' "$log")
[ -n "$end" ] || bad "no end banner after the dump"
fin=$(grep -n -m1 -E -- '---\[ end trace|Kernel panic - not syncing' "$log" | cut -d: -f1)
[ -n "$fin" ] || bad "the oops report has no end"
[ "$end" -lt "$fin" ] || bad "the dump ends after the oops report"
# CPU column of each traced call in the dump; the trace_printk of the
# oopsing function must be there too.
cpus=$(sed -n "${start},${end}p" "$log" | sed -n 's/.*-[0-9]* *\[\([0-9]*\)\].*: __do_sys_getppid <-.*/\1/p')
n=$(echo "$cpus" | grep -c .)
sed -n "${start},${end}p" "$log" | grep -q 'retrace oops test: writing to NULL' ||
	bad "the oopsing CPU's last record (trace_printk) is not in the dump"
case $mode in
1)	c=0
	while [ $c -lt "$ncpu" ]; do
		k=$(echo "$cpus" | grep -c "^0*$c\$")
		[ "$k" -ge 5 ] || bad "mode 1: CPU $c has $k records in the dump, want >= 5"
		c=$((c + 1))
	done ;;
2)	other=$(echo "$cpus" | grep -vc '^0*1$')
	[ "$other" = 0 ] || bad "mode 2: $other records from CPUs other than 1"
	[ "$n" -ge 5 ] || bad "mode 2: $n records of CPU 1, want >= 5" ;;
*)	bad "unknown mode $mode" ;;
esac
echo "dump of $n traced calls ($(echo "$cpus" | sort -u | tr '\n' ' ')CPUs) between the oops (line $oops) and the report's end (line $fin)"
exit 0
