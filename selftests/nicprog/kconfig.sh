#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel options the suite needs, as "config" lists them (the
# kselftest convention: what a CI kernel must enable), against the running
# kernel's configuration: each option built in where the list says y,
# built in or a module where it says m. nicprog's own (NICPROG,
# NICPROG_EXEC, NICPROG_RING, NICSIM) are built out of tree; modules.sh
# loads them.
# Skipped, with the reason, where the running kernel's configuration cannot
# be read.
. "$(dirname "$0")/lib.sh"

LIST=$SELFDIR/config
if [ -r /proc/config.gz ]; then
	CFG=$(zcat /proc/config.gz)
elif [ -r "/boot/config-$(uname -r)" ]; then
	CFG=$(cat "/boot/config-$(uname -r)")
else
	skip_all "no /proc/config.gz or /boot/config-$(uname -r) to read"
fi

tap_begin
n=0
while IFS='=' read -r opt want; do
	case $opt in
	CONFIG_NICPROG | CONFIG_NICPROG_EXEC | CONFIG_NICPROG_RING | CONFIG_NICSIM | '' | '#'*) continue ;;
	esac
	n=$((n + 1))
	have=$(sed -n "s/^$opt=//p" <<< "$CFG")
	if [ "$want" = y ]; then
		check "$opt=y (the kernel has ${have:-it unset})" test "$have" = y
	else
		check "$opt=y or m (the kernel has ${have:-it unset})" \
			test "$have" = y -o "$have" = m
	fi
done < "$LIST"
check "the list names the options ($n)" test "$n" -gt 20
tap_end
