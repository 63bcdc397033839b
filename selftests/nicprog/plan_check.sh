#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# plan_check.sh PORT SHAPE: does the plan installed on PORT have the form of
# SHAPE (a plan_shape value)? Prints the plan's summary as TAP comments.
# Reads debugfs in the initial mount namespace, so that it also works from
# inside "ip netns exec", which remounts /sys.
port=$1 shape=$2
plan=$(nsenter --mount=/proc/1/ns/mnt sh -c \
	"mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	 cat /sys/kernel/debug/nicprog/$port/plan") || exit 1
sed -n '1,3s/^/# /p' <<< "$plan"
stages=$(sed -n 's/^shape .* stages \([0-9]*\)$/\1/p' <<< "$plan")
cores=$(sed -n 's/^shape .*, cores \([0-9]*\) of .*/\1/p' <<< "$plan")
[ -n "$stages" ] && [ -n "$cores" ] || exit 1
case $shape in
single) [ "$stages" = 1 ] && [ "$cores" = 1 ] ;;
replicated) [ "$stages" = 1 ] ;;
pipelined) [ "$stages" -gt 1 ] && [ "$cores" = "$stages" ] ;;
pipelined+replicated) [ "$stages" -gt 1 ] ;;
*) true ;;
esac
