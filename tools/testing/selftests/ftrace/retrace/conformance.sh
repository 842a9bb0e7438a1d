#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run upstream's ftracetest (the kernel tree's own
# tools/testing/selftests/ftrace, copied to $1 by harness/initramfs.sh)
# against retrace, in the guest, and print for harness/conformance.sh:
#   CONF-CASE N FILE          the case ftracetest numbers N (FILE is
#                             relative to its test.d; "(instance)" is
#                             appended for the run inside an instance)
#   ftracetest's own "[N] description [RESULT]" lines
#   CONF-WHY N TEXT           for each case: the line of its log that
#                             says why it is unsupported, or the log's
#                             last lines
#   CONF-NO-INSTANCES         there is no instances/ directory (why
#                             every "(instance)" run could not start)
#   CONF-DONE                 the run ended
# ftracetest numbers its cases in `find | sort` order, then again, from
# where it stopped, the cases flagged "instance"; the same order here
# gives each number its file.
FT=${1:-/ftracetest}
LOGS=/tmp/ftracetest-logs
cd "$FT" || exit 1
n=0
for f in $(find test.d -name '*.tc' | sort); do
	n=$((n + 1))
	echo "CONF-CASE $n ${f#test.d/}"
done
for f in $(find test.d -name '*.tc' | sort); do
	grep -q "^#[ \t]*flags:.*instance" "$f" || continue
	n=$((n + 1))
	echo "CONF-CASE $n ${f#test.d/} (instance)"
done
rm -rf "$LOGS"
# -k keeps every case's log (named N-BASENAME-log.*), passed or not.
bash ./ftracetest -k -l "$LOGS" 2>&1 | grep -v '^$'
for log in "$LOGS"/*-log.*; do
	[ -f "$log" ] || continue
	num=${log##*/}
	num=${num%%-*}
	# "Required ..." says why a case is unsupported; otherwise the
	# log's last lines (its set -x trace) show where it stopped.
	why=$(grep -v '^+' "$log" | grep -m 1 "Required .*\|is not configured\|doesn't exist\|not found")
	[ -n "$why" ] || why=$(grep -v '^$' "$log" | tail -n 3 | cut -c1-100 | tr '\n' '|')
	echo "CONF-WHY $num $why"
done
# Without instances/ every "(instance)" run failed to make its own.
[ -d /sys/kernel/debug/tracing/instances ] || echo "CONF-NO-INSTANCES"
echo "CONF-DONE"
