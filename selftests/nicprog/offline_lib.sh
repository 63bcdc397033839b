#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What offline.sh compares the kernel with, computed from the objects
# alone: nicprog-plan's facts, handler graph (--blocks) and plan of each
# object on each profile. It does not depend on the NIC, so run-checks
# computes it natively before the guests start (offline_lib.sh --expect),
# into $NICPROG_SRC/build/check/offline-expect/<nicprog-plan's sha256>/
# <object's sha256>.<what>[.<profile>]; offline.sh in the guest takes an
# answer from there when one was made by the same nicprog-plan from the
# same object, and computes it itself otherwise. nicprog-plan's absint in
# the TCG guest was about half of offline.sh's time (testing.rst).
OFFLINE_NFS=${OFFLINE_NFS:-"count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest"}
OFFLINE_PROGS="ident_csum ident_near"
# the reference bodies of identification (bpf/ident), on the first profile
OFFLINE_IDENT="crc32c csum"
OFFLINE_PROFILES="nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga"
OFFLINE_PLAN=$NICPROG_SRC/tools/nicprog-plan/nicprog-plan

# offline_dir: where answers of this nicprog-plan are kept
offline_dir() {
	local sum
	sum=$(sha256sum "$OFFLINE_PLAN" 2>/dev/null) || return 1
	echo "$NICPROG_SRC/build/check/offline-expect/${sum%% *}"
}

# the objects' sha256, each hashed once (a process each in the guest)
declare -A OFFLINE_SUMS

# offline_answer OUT WHAT OBJ [PROFILE]: nicprog-plan's answer (stdout and
# stderr) for OBJ into OUT: WHAT is facts (--facts), blocks (--blocks
# --profile) or plan (--profile); a kept one where there is one.
offline_answer() {
	local out=$1 what=$2 obj=$3 prof=${4:-} sum
	if [ -d "${OFFLINE_DIR:-}" ]; then
		if [ -z "${OFFLINE_SUMS[$obj]:-}" ]; then
			sum=$(sha256sum "$obj") || return 1
			OFFLINE_SUMS[$obj]=${sum%% *}
		fi
		sum=$OFFLINE_DIR/${OFFLINE_SUMS[$obj]}.$what${prof:+.$prof}
		if [ -f "$sum" ]; then
			cat "$sum" > "$out"
			return
		fi
	fi
	case $what in
	facts) "$OFFLINE_PLAN" --facts "$obj" ;;
	blocks) "$OFFLINE_PLAN" --blocks --profile "$prof" "$obj" ;;
	plan) "$OFFLINE_PLAN" --profile "$prof" "$obj" ;;
	esac > "$out" 2>&1
}

# --expect: keep every answer offline.sh asks for, for this nicprog-plan
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ "${1:-}" = --expect ]; then
	NICPROG_SRC=${NICPROG_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
	OFFLINE_PLAN=$NICPROG_SRC/tools/nicprog-plan/nicprog-plan
	dir=$(offline_dir) || exit 1
	rm -rf "$dir.new" && mkdir -p "$dir.new" || exit 1
	OFFLINE_DIR=
	for o in $OFFLINE_NFS; do objs+=("$NICPROG_SRC/bpf/examples/$o.o"); done
	for o in $OFFLINE_PROGS map_order; do
		objs+=("$NICPROG_SRC/selftests/nicprog/progs/$o.o")
	done
	for o in $OFFLINE_IDENT; do objs+=("$NICPROG_SRC/bpf/ident/$o.o"); done
	for obj in "${objs[@]}"; do
		sum=$(sha256sum "$obj") || exit 1
		sum=${sum%% *}
		offline_answer "$dir.new/$sum.facts" facts "$obj"
		# map_order is compared by its facts only
		[ "${obj##*/}" = map_order.o ] && continue
		for prof in $OFFLINE_PROFILES; do
			offline_answer "$dir.new/$sum.blocks.$prof" blocks "$obj" "$prof"
			offline_answer "$dir.new/$sum.plan.$prof" plan "$obj" "$prof"
		done
	done
	rm -rf "$dir" && mv "$dir.new" "$dir"
fi
