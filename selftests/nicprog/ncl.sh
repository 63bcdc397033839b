#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In-network computing (Documentation/nicprog/ncl.rst) on the testbed of
# tools/testing/topo: the allreduce kernel (bpf/ncl/allreduce.o) offloaded
# to every port of the switch sums int32 arrays of 2, 4 and 8 workers
# exactly, every element checked against the sum computed on the host,
# with 1% seeded loss on every link: windows and results are lost, resent
# windows are never added twice.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"
for t in bpftool jq; do
	command -v $t >/dev/null || skip_all "$t not installed"
done
AR=$NICPROG_SRC/tools/apps/allreduce
KOBJ=$NICPROG_SRC/bpf/ncl/allreduce.o
[ -x "$AR" ] && [ -f "$KOBJ" ] || skip_all "tools/apps/allreduce or bpf/ncl/allreduce.o not built"
# shellcheck source=../../tools/testing/topo
. "$NICPROG_SRC/tools/testing/topo"
TMP=$(mktemp -d)
trap 'topo_down; rm -rf "$TMP"; cleanup' EXIT
P=npn$$-
ELEMS=${NCL_ELEMS:-20000}

ncl_stat() {	# SLOT: the switch's ncl_stats[SLOT]
	local b v=0 bytes
	# shellcheck disable=SC2046  # one word per byte
	bytes=$(bpftool -j map lookup pinned "$TOPO_PINS/ncl_stats" \
		key hex $(_topo_hex "$1" 4) | jq -r '.value | reverse | .[]')
	for b in $bytes; do
		v=$((v * 256 + b))
	done
	echo "$v"
}

tap_begin
for n in 2 4 8; do
	check "$n workers, 1% loss on every link" \
		topo_up "${P}$n" "$n" loss 10000 seed $((n * 100))
	check "the allreduce kernel runs on every switch port" topo_attach "$KOBJ"
	check "the job's control variables are set" "$AR" setup "$TOPO_PINS" "$n"
	pids=()
	for ((i = 1; i <= n; i++)); do
		ip netns exec "${TOPO_NS[$i]}" timeout 300 "$AR" run -r 300 \
			"$i" "$n" "$ELEMS" 7 "$TOPO_SW_IP" > "$TMP/w$i" 2>&1 &
		pids+=($!)
	done
	exact=0 resent=0
	for ((i = 1; i <= n; i++)); do
		wait "${pids[$((i - 1))]}" && grep -q ': exact$' "$TMP/w$i" &&
			exact=$((exact + 1))
		r=$(sed -n 's/.* resent \([0-9]*\) .*/\1/p' "$TMP/w$i")
		resent=$((resent + ${r:-0}))
		[ "$i" = 1 ] && tap_info "$(tail -n 1 "$TMP/w$i")"
	done
	for ((i = 1; i <= n; i++)); do
		grep -q ': exact$' "$TMP/w$i" || sed 's/^/worker '"$i"': /' "$TMP/w$i" | head -5 | while read -r l; do tap_info "$l"; done
	done
	expect_eq "$n workers: every worker's every element equals the host's sum" "$n" "$exact"
	dups=$(ncl_stat 6) stale=$(ncl_stat 5)
	tap_info "$n workers: $resent windows resent; the switch dropped $dups duplicates, $stale stale"
	check "$n workers: loss made windows be resent" test "$resent" -gt 0
	topo_down
done
tap_end
