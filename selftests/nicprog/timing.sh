#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicsim's timing model on real runs. The same seeded frames go through the
# same NF on one core of two NICs that differ only in hardware threads per
# core (1 and 4): the instructions issued and the memory accesses are the
# same; one thread waits out every access, so its runs' latencies add up
# to the core's cycles exactly; four threads overlap runs and hide most of
# the waiting. Every run the cores did is timed, none lost. And a program's
# clock, backlogged, moves on between frames at the NIC's time a frame,
# on one core and in a pipeline.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_plan
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

fw_profiles timing
EX=$NICPROG_SRC/bpf/examples
FRAMES=3000
NFN=firewall
. "$SELFDIR/nf_entries.sh"

for t in 1 4; do
	"$PLAN" --lnic | sed "s/^lnic nicsim-generic\$/lnic threads$t/
		s/^unit core type core count 16 threads 4 /unit core type core count 16 threads $t /" \
		> "$TMP/nicsim/threads$t.lnic"
done

tap_begin
declare -A S
for t in 1 4; do
	oracle_nic tim threads$t
	plan_set "$NF" cores 1
	nf_entries $NFN
	ip netns exec "$NS" "$SELFDIR/oracle" "$EX/$NFN.o" "$IN" "$NF" "$OUT" \
		"$CAP" 3 "$FRAMES" "${ENTRIES[@]}" > "$TMP/oracle$t" 2>&1
	check "threads $t: $NFN's output equals the host's" test $? = 0
	pending() {
		ip netns exec "$NS" ethtool -S "$NF" |
			awk '$1 == "timing_pending:" { exit $2 != 0 }'
	}
	check "threads $t: the idle NIC times every run within 5 s" \
		wait_for 5 pending
	while read -r k v; do
		S[$t,${k%:}]=$v
	done < <(ip netns exec "$NS" ethtool -S "$NF" | tail -n +2)
	tap_info "threads $t: cycles ${S[$t,core0_cycles]} busy ${S[$t,core0_busy]}" \
		"runs ${S[$t,core0_runs]} latency ${S[$t,core0_latency]}" \
		"dram ${S[$t,mem_dram_accesses]} bank_wait ${S[$t,mem_dram_bank_wait]}"
	expect_eq "threads $t: every run timed" "${S[$t,core0_packets]}" \
		"${S[$t,core0_runs]}"
	expect_eq "threads $t: no event lost" 0 "${S[$t,timing_lost_events]}"
	expect_eq "threads $t: no run dropped" 0 "${S[$t,timing_dropped]}"
	check "threads $t: $FRAMES frames ran on core 0" \
		test "${S[$t,core0_runs]}" -ge "$FRAMES"
done

expect_eq "same instruction cycles on both" "${S[1,core0_busy]}" \
	"${S[4,core0_busy]}"
expect_eq "same DRAM accesses on both" "${S[1,mem_dram_accesses]}" \
	"${S[4,mem_dram_accesses]}"
check "the NF touches DRAM" test "${S[1,mem_dram_accesses]}" -gt 0
expect_eq "one thread: run latencies add up to the core's cycles" \
	"${S[1,core0_cycles]}" "${S[1,core0_latency]}"
stall1=$((S[1,core0_cycles] - S[1,core0_busy]))
stall4=$((S[4,core0_cycles] - S[4,core0_busy]))
tap_info "cycles not issuing: $stall1 with one thread, $stall4 with four"
check "four threads hide at least half of the waiting" \
	test $((2 * stall4)) -le "$stall1"
check "four threads overlap runs (latencies exceed the cycles)" \
	test "${S[4,core0_latency]}" -gt "${S[4,core0_cycles]}"

# The program's clock, backlogged: the model times runs NICSIM_TM_BATCH
# (1,024) at a time, and lets a pipeline's first stage run ahead of its
# bottleneck; the NIC's clock moves on between the frames its cores take,
# at the NIC's time a frame. clock_step.o drops a frame that reads the
# clock less than a step past the last one's (min_step; 2 ns by
# default). On one core: until the model has timed runs there is no pace
# (those frames are a ns apart: 1,277 of 4,000 on 2026-11-28); without
# the pace every frame but each batch's first was (3,996). As a pipeline,
# with a step of half the NIC's time a frame (its busiest core's cycles
# over the frames, from a first run: 41 ns), the frames before the pace
# and few others (765 of 4,000); without the pace a frame read the
# model's clock, which follows the first stage running ahead of the
# bottleneck (3,967).
# clock_run SHAPE FRAMES [ENTRY]: clock_step.o's drops and passes, and
# the busiest core's cycles, in STEPS.
clock_run() {
	oracle_nic clk
	plan_set "$NF" shape "$1"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/clk.before"
	ip netns exec "$NS" env ORACLE_BENCH=1 "$SELFDIR/oracle" \
		"$SELFDIR/progs/clock_step.o" "$IN" "$NF" "$OUT" "$CAP" 5 "$2" \
		${3:+"$3"} > "$TMP/clk.oracle" 2>&1
	check "clock_step, $1: $2 frames sent, a verdict each" test $? = 0
	timing_settled "$NS" "$NF"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/clk.after"
	STEPS=$(awk '$1 == "xdp_drop:" { d = $2 - d }
		$1 == "xdp_pass:" { p = $2 - p }
		$1 ~ /^core[0-9]+_cycles:$/ { c[$1] = $2 - c[$1] }
		END { for (k in c) if (c[k] > m) m = c[k]; print d, p, m }' \
		"$TMP/clk.before" "$TMP/clk.after")
	tap_info "clock_step, $1${3:+ ($3)}: drops, passes, busiest core's cycles: $STEPS"
}
clock_run single 4000
check "one core: the clock moves on between a batch's frames (fewer than half stand still)" \
	awk -v s="$STEPS" 'BEGIN { split(s, a, " "); exit !(a[1] + a[2] == 4000 && 2 * a[1] < a[2]) }'
clock_run pipelined 4000
# half a frame's time, in ns at nicsim-generic's 800 MHz
half=$(awk -v s="$STEPS" 'BEGIN { split(s, a, " "); printf "%d", a[3] * 1000 / 800 / 4000 / 2 }')
check "pipelined: the busiest core took some time a frame ($half ns half of it)" test "$half" -gt 2
clock_run pipelined 4000 "min_step:00000000:$(printf '%02x' $((half & 255)))$(printf '%02x' $((half >> 8 & 255)))000000000000"
check "pipelined: the clock moves on at the NIC's pace (fewer than half of the frames under half of it)" \
	awk -v s="$STEPS" 'BEGIN { split(s, a, " "); exit !(a[1] + a[2] == 4000 && 2 * a[1] < a[2]) }'
tap_end
