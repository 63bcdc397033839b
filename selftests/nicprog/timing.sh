#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicsim's timing model on real runs. The same seeded frames go through the
# same NF on one core of two NICs that differ only in hardware threads per
# core (1 and 4): the instructions issued and the memory accesses are the
# same; one thread waits out every access, so its runs' latencies add up
# to the core's cycles exactly; four threads overlap runs and hide most of
# the waiting. Every run the cores did is timed, none lost.
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
	echo 1 > /sys/class/nicprog/$NF/plan_cores
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
# (1,024) at a time, and the NIC's clock moves on between the frames a
# core takes meanwhile, at the pace of the batch before: clock_step.o
# drops a frame that reads the clock less than 2 ns past the last one's.
# The first batch has no pace (its frames are a ns apart); of 4,000
# frames, before the pace, every frame but the batches' first was.
oracle_nic clk
echo 1 > /sys/class/nicprog/$NF/plan_cores
ip netns exec "$NS" ethtool -S "$NF" > "$TMP/clk.before"
ip netns exec "$NS" env ORACLE_BENCH=1 "$SELFDIR/oracle" \
	"$SELFDIR/progs/clock_step.o" "$IN" "$NF" "$OUT" "$CAP" 5 4000 \
	> "$TMP/clk.oracle" 2>&1
check "clock_step: 4000 frames sent, a verdict each" test $? = 0
ip netns exec "$NS" ethtool -S "$NF" > "$TMP/clk.after"
steps=$(awk '$1 == "xdp_drop:" { d = $2 - d } $1 == "xdp_pass:" { p = $2 - p }
	END { print d, p }' "$TMP/clk.before" "$TMP/clk.after")
tap_info "clock_step: frames a ns or less past the last, and more: $steps"
check "the clock moves on between a batch's frames (fewer than half stand still)" \
	awk -v s="$steps" 'BEGIN { split(s, a, " "); exit !(a[1] + a[2] == 4000 && 2 * a[1] < a[2]) }'
tap_end
