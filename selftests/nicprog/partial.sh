#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Partial offload: a program larger than nicsim-generic's instruction store
# (progs/partial.c, about 11K instructions against 8K) is refused unless
# the operator sets plan_partial, and then runs split: the NIC runs a
# prefix that fits and hands each run's live state, in front of the frame,
# to the host part in the port's receive path. The oracle holds under
# every plan shape (verdicts, bytes and tables equal the host's); the plan
# says what went where and why, the NIC's counters what was handed over.
# progs/flowlog.c fits no shipped profile whole (its table exceeds every
# profile's memory): on each of the four it runs split, the table in host
# memory. Where the store holds the program (nicsim-soc), nothing is split.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

OBJ=$SELFDIR/progs/partial.o
FRAMES=${PARTIAL_FRAMES:-1500}
SHAPES=${PARTIAL_SHAPES:-auto single pipelined+replicated}
TMP=$(mktemp -d /tmp/nicprog-partial.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# stat PORT NAME: one of the NIC's counters of PORT (in $NS)
stat() {
	ip netns exec "$NS" ethtool -S "$1" | awk -v n="$2:" '$1 == n { print $2 }'
}
plan() { cat "/sys/kernel/debug/nicprog/$NF/plan"; }

# split_oracle DESC PROG SEED: the oracle on PROG split between the NIC
# and the host, then the handover counters: some frames, not all, handed
# over, each run on the host, none lost.
split_oracle() {
	local desc=$1 out rc h0 r0 e0 h r e
	h0=$(stat "$NF" host_handovers) r0=$(stat "$NF" host_runs)
	e0=$(stat "$NF" host_errors)
	out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$2" "$IN" "$NF" "$OUT" \
		"$CAP" "$3" "$FRAMES" 2>&1)
	rc=$?
	grep '^# [0-9]* frames\|^# map' <<< "$out"
	oracle_equal "$desc" "$out" "$rc"
	h=$(($(stat "$NF" host_handovers) - h0))
	r=$(($(stat "$NF" host_runs) - r0))
	e=$(($(stat "$NF" host_errors) - e0))
	tap_info "$desc: $h of $FRAMES frames handed over to the host"
	check "$desc: some frames, not all, handed over ($h)" \
		test "$h" -gt 0 -a "$h" -lt "$FRAMES"
	expect_eq "$desc: the host ran every handover" "$h" "$r"
	expect_eq "$desc: no handover was lost" 0 "$e"
}

tap_begin
oracle_nic part nicsim-generic
SYS=/sys/class/nicprog/$NF	# seen in $NS, the port's namespace
expect_eq "plan_partial is off by default" 0 "$(npsys "$NF" plan_partial)"
check "plan_partial is read-only in sysfs: a write is refused, it stays 0" \
	ip netns exec "$NS" sh -c "! printf 1 > $SYS/plan_partial 2>/dev/null &&
	       test \$(cat $SYS/plan_partial) = 0"
for v in maybe 2 1:0 -1; do
	took=$(plan_set "$NF" partial "$v" 2>/dev/null && echo yes || echo no)
	expect_eq "nicprog dev set refuses partial '$v', it stays 0" "no 0" \
		"$took $(npsys "$NF" plan_partial)"
done
plan_set "$NF" partial on
expect_eq "netlink sets it: partial on" 1 "$(npsys "$NF" plan_partial)"
plan_set "$NF" partial off
expect_eq "and off" 0 "$(npsys "$NF" plan_partial)"

out=$(ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$OBJ" sec xdp 2>&1)
rc=$?
check "without plan_partial: refused" test $rc -ne 0
check "without plan_partial: the verifier log says why and what to do" \
	grep -q "\[nicprog\] program has [0-9]* instructions; the NIC's cores hold at most 8192" <<< "$out"
check "without plan_partial: the log says which part does not fit" \
	grep -q "\[nicprog\] program has [0-9]* instructions; the NIC's cores hold at most 8192: it can hold 8190 of them; 2972, from insn 8190 on, do not fit (plan_partial lets the host run them)" <<< "$out"

plan_set "$NF" partial on
out=$(ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$OBJ" sec xdp 2>&1)
rc=$?
expect_eq "with plan_partial: attached" 0 "$rc"
check "ip warns that the offload is partial" \
	grep -q "Warning: nicprog: partially offloaded: the host runs what the NIC cannot hold" <<< "$out"
plan > "$TMP/plan"
sed 's/^/# /' "$TMP/plan" | grep "^# host"
nic=$(awk '$1 == "host:" && $3 == "nodes," { print $9 }' "$TMP/plan")
check "the plan says what the host runs and why" \
	grep -q "^host: [0-9]* nodes, [0-9]* insns (the NIC holds [0-9]* of 8192): the NIC's instruction store$" "$TMP/plan"
check "the NIC holds at most its store ($nic of 8192)" \
	test -n "$nic" -a "${nic:-0}" -le 8192 -a "${nic:-0}" -gt 1000
check "the plan names the handover points" \
	grep -q "^host: [0-9.]*% of packets handed over (predicted), at most [0-9]* bytes of state, at insns [0-9]" "$TMP/plan"
split_like_kernel "the offline planner splits it as the kernel does" \
	"$TMP/plan" nicsim-generic "$OBJ"
check "the kernel log says it too" \
	sh -c "dmesg | grep -q '$NF: nicprog: partial offload (the NIC.s instruction store)'"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off

for shape in $SHAPES; do
	plan_set "$NF" shape "$shape"
	split_oracle "$shape" "$OBJ" 1
done
plan_set "$NF" shape auto

# Replacing the program while its handovers wait in the host's queue: the
# queued ones of the old plan are refused by cookie (kernel/exec/handover.c,
# unit-tested in handover_test); here, that every replacement is taken
# (ip -force: the oracle's program is attached) and nothing crashes or
# warns.
check "replacing the program under traffic: five replacements, no oops" sh -c "
	ip netns exec $NS env ORACLE_BENCH=1 $SELFDIR/oracle $OBJ $IN $NF $OUT $CAP 2 3000 >/dev/null 2>&1 &
	sleep 1
	n=0
	for i in 1 2 3 4 5; do
		ip netns exec $NS ip -force link set dev $NF xdpoffload obj $OBJ sec xdp && n=\$((n + 1))
		sleep 0.2
	done
	wait
	[ \$n = 5 ] && ! dmesg | grep -qE 'BUG|WARNING|Oops'"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off

# A program that fits no profile whole: flowlog's table (8M records of
# 8 KiB) exceeds every shipped profile's memory. Without plan_partial its
# map is refused; with it, the table stays in host memory and the host
# part reaches it, on each of the four architectures.
for prof in nicsim-nfp nicsim-soc nicsim-pipeline nicsim-fpga; do
	oracle_nic "fl${prof#nicsim-}" "$prof"
	out=$(ip netns exec "$NS" ip link set dev "$NF" xdpoffload \
		obj "$SELFDIR/progs/flowlog.o" sec xdp 2>&1)
	rc=$?
	check "$prof flowlog: refused without plan_partial" \
		test $rc -ne 0 -a -n "$(grep "map 'flows': failed to create: No space left on device" <<< "$out")"
	check "$prof flowlog: the kernel log says what to do" sh -c \
		"dmesg | tail -n 20 | grep -q '$NF: nicprog: map (type 1, key 16, value 8176, 8388608 entries) needs .* (plan_partial keeps it in host memory)'"
	plan_set "$NF" partial on
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload \
		obj "$SELFDIR/progs/flowlog.o" sec xdp 2>/dev/null
	plan > "$TMP/plan"
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
	check "$prof flowlog: the plan keeps the table in host memory" \
		grep -q "^table [0-9] flows: .*, region host (it did not fit the NIC)," "$TMP/plan"
	check "$prof flowlog: and says why the host runs a part" \
		grep -q "^host: [0-9]* nodes, .*: tables in host memory$" "$TMP/plan"
	split_oracle "$prof flowlog" "$SELFDIR/progs/flowlog.o" 3
done

# Predicted and measured: the offline predictor (nicprog-plan --partial)
# runs the same frames through the same split and prices the NIC's part;
# the NIC hands over exactly the frames it predicts, the host runs exactly
# the instructions it predicts, and the NIC's throughput and latency are
# those of predict.sh's tolerances.
if [ -x "$PLAN" ]; then
	for case in "partial nicsim-generic large" "flowlog nicsim-nfp syn"; do
		set -- $case
		prog=$1 prof=$2 wl=$3
		split_bench "$SELFDIR/progs/$prog.o" "$prof" "$wl"
		check "$prog on $prof, $wl: 2000 frames through the split" test $? = 0
		ph=$(awk '/^host: [0-9]* of/ { print $2 }' "$TMP/pred")
		read -r pt pl < <(predicted_rates "$TMP/pred")
		expect_eq "$prog on $prof, $wl: handovers as predicted" "$ph" \
			"$(stat_delta host_handovers)"
		pi=$(awk '/^host: [0-9]* insns on the host/ { print $2 }' "$TMP/pred")
		expect_eq "$prog on $prof, $wl: the host part's instructions as predicted" \
			"$pi" "$(stat_delta host_insns)"
		rates_within "$prog on $prof, $wl, the NIC's part" "$pt" "$pl" \
			"$TMP/before" "$TMP/after"
	done
else
	tap_skip "predicted and measured" "nicprog-plan not built"
fi

# Device removal while the NIC hands frames over: handovers still queued
# for the host go with the port, and nothing outlives the device.
if command -v bpftool > /dev/null; then
	oracle_nic del nicsim-generic
	plan_set "$NF" partial on
	objs() { echo "$(bpftool prog show | grep -c '^[0-9]') $(bpftool map show | grep -c '^[0-9]')"; }
	before=$(objs)
	ip netns exec "$NS" env ORACLE_BENCH=1 "$SELFDIR/oracle" "$OBJ" "$IN" \
		"$NF" "$OUT" "$CAP" 5 100000 > /dev/null 2>&1 &
	OPID=$!
	handing() {
		[ "$(ip netns exec "$NS" ethtool -S "$NF" 2>/dev/null |
		     awk '$1 == "host_handovers:" { print $2 }')" -gt 20 ] 2>/dev/null
	}
	check "removal: the NIC hands frames over" wait_for 30 handing
	check "removal: delete the device under traffic" nicsim_del "$ID"
	gone() { ! kill -0 "$OPID" 2>/dev/null; }
	check "removal: the traffic ends" wait_for 20 gone
	kill "$OPID" 2>/dev/null
	wait "$OPID" 2>/dev/null
	drained() { [ "$(objs)" = "$before" ]; }
	check "removal: no program or map outlives the device" wait_for 10 drained
else
	tap_skip "removal under traffic" "bpftool not installed"
fi

# Where the instruction store holds the program, nothing is split.
oracle_nic whole nicsim-soc
plan_set "$NF" partial on
check "nicsim-soc holds the program whole" \
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$OBJ" sec xdp
check "its plan has no host part" sh -c "! grep -q '^host:' /sys/kernel/debug/nicprog/$NF/plan"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
tap_end
