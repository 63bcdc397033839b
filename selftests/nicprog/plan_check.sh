#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plan_check.sh PORT SHAPE: does the plan installed on PORT have the form of
# SHAPE (a plan_shape value)? Prints the plan's summary as TAP comments.
# Reads debugfs in the initial mount namespace, so that it also works from
# inside "ip netns exec", which remounts /sys. oracle.sh runs it after
# every oracle run: it starts no process but nsenter's shell (each costs
# about a tenth of a second in the TCG guest).
port=$1 shape=$2
# shellcheck disable=SC2016 # expanded by the inner shell
plan=$(nsenter --mount=/proc/1/ns/mnt bash -c '
	[ -e /sys/kernel/debug/nicprog ] || mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug
	IFS= read -r -d "" p < "/sys/kernel/debug/nicprog/$1/plan"
	printf "%s" "$p"' sh "$port") || exit 1
n=0 stages='' cores='' sym=''
while IFS= read -r l; do
	n=$((n + 1))
	[ $n -gt 3 ] || echo "# $l"
	[[ $l =~ ^stage\ .*\ steer\ key-symmetric ]] && sym=1 && echo "# $l"
	[[ $l == bound:* ]] && echo "# $l"
	[[ $l =~ ^shape\ .*\ stages\ ([0-9]+)$ ]] && stages=${BASH_REMATCH[1]}
	[[ $l =~ ^shape\ .*,\ cores\ ([0-9]+)\ of\  ]] && cores=${BASH_REMATCH[1]}
done <<< "$plan"
[ -n "$stages" ] && [ -n "$cores" ] || exit 1
case $shape in
single) [ "$stages" = 1 ] && [ "$cores" = 1 ] ;;
replicated) [ "$stages" = 1 ] ;;
pipelined) [ "$stages" -gt 1 ] && [ "$cores" = "$stages" ] ;;
pipelined+replicated) [ "$stages" -gt 1 ] ;;
key-symmetric) [ -n "$sym" ] && [ "$cores" -gt 1 ] ;;
*) true ;;
esac
