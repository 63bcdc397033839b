#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Offline planning: nicprog-plan reads an ELF object and computes the
# verifier's facts itself (tools/nicprog-plan/absint.c). The kernel is the
# oracle: for every example NF, offloaded to a nicsim port of each profile,
# the facts the verifier recorded (debugfs .../facts), the handler graph
# with its block frequencies and loop trips, and the plan must be those
# nicprog-plan computes from the object alone.
#
# Two facts are left out of the comparison: the kinds a register held
# (dst/src kinds) and which registers held a map value (mapval). Both are
# recorded for registers about to be overwritten too, so they depend on
# which dead paths a walk visits before pruning; the offloader reads
# neither except masked by liveness (ir.c), which the block table covers.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_plan
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

EX=$NICPROG_SRC/bpf/examples
. "$SELFDIR/offline_lib.sh"
NFS=$OFFLINE_NFS
PROFILES=$OFFLINE_PROFILES
# nicprog-plan's answers from the objects, where run-checks kept them
# shellcheck disable=SC2034 # read by offline_answer (offline_lib.sh)
OFFLINE_DIR=$(offline_dir)
TMP=$(mktemp -d /tmp/nicprog-offline.XXXXXX)
_cleanup_tmp() { rm -rf "$TMP"; }
trap 'cleanup; _cleanup_tmp' EXIT

# A comparison started twelve processes (80 s of the file): the shell
# filters and compares itself where it can (lib.sh's slurp).
facts_of() { sed 's/ dst [0-9a-fx]* src [0-9a-fx]*//; s/ mapval [0-9a-fx]*//'; }
# plan_of: a plan without what differs between runs
plan_of() {
	local line
	while IFS= read -r line; do
		case $line in
		"offloader time"*|object:*|visits:*|"[nicprog]"*) ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
}

# same DESC FILE-A FILE-B: one test point; the first differences as comments
same() {
	local a='' b=''
	slurp a "$2"
	slurp b "$3"
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		tap_ok "$1"
	else
		diff "$2" "$3" | head -8 | sed 's/^/# /'
		tap_fail "$1"
	fi
}

# compare PROFILE OBJ [facts]: offload OBJ to a port of a PROFILE device,
# compare (the facts only, if asked).
compare() {
	local profile=$1 obj=$2 name=${2##*/} kf=/sys/kernel/debug/nicprog/$PORT/facts
	name=${name%.o}
	if ! ip -force link set dev "$PORT" xdpoffload obj "$obj" sec xdp 2>"$TMP/err"; then
		sed 's/^/# /' "$TMP/err"
		tap_fail "$profile $name: offloads"
		return
	fi
	# the verifier's facts do not depend on the NIC: on the first profile
	if [ "$profile" = "$FIRST" ]; then
		"$PLAN" --facts "$kf" | facts_of > "$TMP/k.f"
		offline_answer "$TMP/o.raw" facts "$obj"
		facts_of < "$TMP/o.raw" > "$TMP/o.f"
		same "$name: the facts (insns, tables, accesses, offsets, calls) are the verifier's" "$TMP/k.f" "$TMP/o.f"
	fi
	if [ "${3:-}" = facts ]; then
		ip link set dev "$PORT" xdpoffload off
		return
	fi
	"$PLAN" --blocks "$kf" > "$TMP/k.b"
	offline_answer "$TMP/o.b" blocks "$obj" "$profile"
	same "$profile $name: the handler graph (blocks, frequencies, loop trips, live state) is the kernel's" "$TMP/k.b" "$TMP/o.b"
	"$PLAN" "$kf" | plan_of > "$TMP/k.p"
	offline_answer "$TMP/o.raw" plan "$obj" "$profile"
	plan_of < "$TMP/o.raw" > "$TMP/o.p"
	same "$profile $name: the plan is the kernel's" "$TMP/k.p" "$TMP/o.p"
	ip link set dev "$PORT" xdpoffload off
}

FIRST=${PROFILES%% *}
tap_begin
for profile in $PROFILES; do
	ID=$(nicsim_new_id)
	echo "$ID 1 $profile" > "$BUS/new_device" || skip_all "cannot create a $profile device"
	_created_devs+=("$ID")
	PORT=nicsim${ID}p0
	ip link set "$PORT" up
	for nf in $NFS; do
		compare "$profile" "$EX/$nf.o"
	done
	for p in $OFFLINE_PROGS; do
		compare "$profile" "$SELFDIR/progs/$p.o"
	done
	# tables numbered in instruction order, not as this kernel's
	# verifier meets them (nicprog-plan --entry relies on it)
	[ "$profile" != "$FIRST" ] ||
		compare "$profile" "$SELFDIR/progs/map_order.o" facts
	# identification decided alike from the same instructions
	if [ "$profile" = "$FIRST" ]; then
		for o in $OFFLINE_IDENT; do
			compare "$profile" "$NICPROG_SRC/bpf/ident/$o.o"
		done
	fi
done
tap_end
