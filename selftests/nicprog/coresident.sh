#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Co-resident NFs: programs on ports of one NIC split its cores and its
# engines and MAT stages. With one port's program holding ten of
# nicsim-generic's sixteen cores, another port's program is planned for
# the six left and runs on them only (the NIC's per-core counters), equals
# the host (the oracle), and its plan and throughput are what nicprog-plan
# predicts for a six-core slice. A third program with no core left is
# refused with a message and changes nothing; once a program goes, its
# cores serve the next. Two programs using the same engines, eight cores
# each, get half of them each: one runs as predicted for its slice, and
# as fast beside the other flooded as alone; a program for whom no engine
# of a kind is left runs those calls on its cores.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_plan
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
EX=$NICPROG_SRC/bpf/examples
. "$SELFDIR/nf_entries.sh"
TMP=$(mktemp -d /tmp/nicprog-coresident.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT
# 8,000 of the syn workload's frames (predict.sh: as good as 20,000)
workload syn "${CORESIDENT_FRAMES:-8000}"

# core_packets PORT: per core "N packets", from the NIC's counters
core_packets() {
	ethtool -S "$1" 2>/dev/null ||
		ip netns exec "$NS" ethtool -S "$1"
}
# moved BEFORE AFTER LO HI: frames cores LO..HI ran between two snapshots
moved() {
	awk -v lo="$3" -v hi="$4" '
		FNR == 1 { f++ }
		$1 ~ /^core[0-9]+_packets:$/ {
			c = $1; gsub(/[^0-9]/, "", c)
			if (c + 0 >= lo && c + 0 <= hi) v[f] += $2
		}
		END { print v[2] - v[1] }' "$1" "$2"
}
# "shape S (asked A), cores N of M, stages K"
plan_cores() { awk '$1 == "shape" { print $6 }' "/sys/kernel/debug/nicprog/$1/plan"; }

tap_begin
oracle_nic cores nicsim-generic 6
A=nicsim${ID}p4 B=nicsim${ID}p5
echo "$ID:4 $ID:5" > "$BUS/link_device"
for p in $A $B; do
	sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
	ip link set "$p" up
done

# B's program holds ten cores, from 0
plan_set "$B" cores 10
check "a program on one port, planned for 10 cores" \
	ip link set dev "$B" xdpoffload obj "$EX/count.o" sec xdp
expect_eq "its plan holds 10 cores" 10 "$(plan_cores "$B")"
ip addr add 10.77.0.1/24 dev "$A"
ip neigh replace 10.77.0.2 lladdr "$(cat "/sys/class/net/$B/address")" dev "$A"
core_packets "$B" > "$TMP/c0"
ping -q -c 40 -i 0.01 -W 0.1 -I "$A" 10.77.0.2 > /dev/null 2>&1
sleep 0.5
core_packets "$B" > "$TMP/c1"
n=$(moved "$TMP/c0" "$TMP/c1" 0 9)
check "its frames run on cores 0-9 ($n)" test "$n" -ge 40
expect_eq "and on none of 10-15" 0 "$(moved "$TMP/c0" "$TMP/c1" 10 15)"

# the oracle's NF on another port of the same NIC gets the other six
nf_entries router
args=()
for e in "${ENTRIES[@]}"; do args+=(--entry "$e"); done
"$PLAN" --profile nicsim-generic --cores 6 --workload "$WL" "${args[@]}" \
	"$EX/router.o" > "$TMP/pred" 2>&1
read -r pt < <(awk '/^predicted/ { print $3 }' "$TMP/pred")
oshape=$(awk '/^workload/ { s = $0; sub(/.*plan /, "", s); print s }' "$TMP/pred")
core_packets "$B" > "$TMP/c2"
core_packets "$NF" > "$TMP/n2"
D=/sys/kernel/debug/nicprog/$NF
HOOK="{ mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; } && cat $D/plan"
ip netns exec "$NS" env ORACLE_BENCH=1 ORACLE_PCAP="$TMP/syn.pcap" \
	ORACLE_HOOK="$HOOK > $TMP/plan" \
	"$SELFDIR/oracle" "$EX/router.o" "$IN" "$NF" "$OUT" "$CAP" 7 \
	"$FRAMES" "${ENTRIES[@]}" > "$TMP/oracle" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$TMP/oracle" | tail -n 20
check "router beside it equals the host over $FRAMES frames" test $rc = 0
pending() { core_packets "$B" | awk '$1 == "timing_pending:" { exit $2 != 0 }'; }
wait_for 5 pending
core_packets "$B" > "$TMP/c3"
core_packets "$NF" > "$TMP/n3"
kcores=$(awk '$1 == "shape" { print $6 }' "$TMP/plan")
expect_eq "router was planned for the six cores left" 6 "$kcores"
n=$(moved "$TMP/c2" "$TMP/c3" 10 15)
check "router's frames ran on cores 10-15 ($n)" test "$n" -ge "$FRAMES"
expect_eq "and on none of count's" 0 "$(moved "$TMP/c2" "$TMP/c3" 0 9)"
kshape=$(awk '$1 == "shape" { print $2 ", cores " $6 ", stages " $10 }' "$TMP/plan")
expect_eq "the kernel's plan is nicprog-plan's for a six-core slice" "$oshape" "$kshape"
read -r mt _ < <(nic_rates "$TMP/n2" "$TMP/n3")
te=$(pct_err "$pt" "$mt")
tap_info "router on six cores: $mt frames per million cycles measured, $pt predicted ($te%)"
check "its throughput is the six-core prediction within 8%" within "$te" 8

# NF holds the six, B the ten: a third program has no core
plan_set "$NF" cores 6
ip -n "$NS" link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp
out=$(ip -n "$NS" link set dev "$CAP" xdpoffload obj "$EX/count.o" sec xdp 2>&1)
rc=$?
tap_info "$out"
check "a third program with no core left is refused" test $rc -ne 0
check "with a message that says why" grep -qF \
	"every core of the NIC runs another port's program" <<< "$out"
check "and nothing is attached to its port" \
	sh -c "! ip -n $NS link show dev $CAP | grep -q prog/xdp"
expect_eq "the others keep their cores" "10 6" \
	"$(plan_cores "$B") $(plan_cores "$NF")"

# once B's program goes, its cores serve the next
ip link set dev "$B" xdpoffload off
check "once a program goes, the next takes its cores" \
	ip -n "$NS" link set dev "$CAP" xdpoffload obj "$EX/count.o" sec xdp
expect_eq "all ten of them" 10 "$(plan_cores "$CAP")"
ip -n "$NS" link set dev "$CAP" xdpoffload off
ip -n "$NS" link set dev "$NF" xdpoffload off

# They split the NIC's engines too. digest.o makes two CRC and two hash
# engine jobs per UDP frame: on two ports, eight cores each, each plan
# has eight of the sixteen CRC engines and one of the two hash engines to
# itself, so one runs as predicted for its slice whatever the other does.
# accel_line PORT KIND: the plan's "accel KIND: N calls on M engines"
accel_line() { grep "^accel $2:" "/sys/kernel/debug/nicprog/$1/plan"; }
plan_set "$B" cores 8
plan_set "$NF" cores 8
check "digest.o on $B, planned for 8 cores" \
	ip link set dev "$B" xdpoffload obj "$EX/digest.o" sec xdp
expect_eq "its plan: 8 of the 16 CRC engines" \
	"accel crc: 2 calls on 8 engines, cycles 74.61" "$(accel_line "$B" crc)"
expect_eq "its plan: 1 of the 2 hash engines" \
	"accel hash: 2 calls on 1 engines, cycles 27.48" "$(accel_line "$B" hash)"
CLI=$NICPROG_SRC/tools/nicprog/nicprog
if [ -x "$CLI" ]; then
	expect_eq "prog show: the plan's units, 8 of 16 CRC and 1 of 2 hash engines" \
		"crc:8:16 hash:1:2" "$("$CLI" -j prog show dev "$B" | /usr/bin/python3 -c "
import json, sys
print(' '.join('%s:%d:%d' % (u.get('accel', u['type']), u['count'], u['total'])
	       for u in json.load(sys.stdin)[0]['units']))")"
	check "prog show in words names them" sh -c \
		"'$CLI' prog show dev $B | grep -q '^    units: crc engines 8 of 16, hash engines 1 of 2$'"
else
	tap_skip "prog show: the plan's units" "tools/nicprog/nicprog not built"
	tap_skip "prog show in words names them" "tools/nicprog/nicprog not built"
fi
# (the syn workload: its UDP frames leave the engines lightly loaded,
# where the predictor is exact; near saturation it is not, see
# Documentation/nicprog/offloader.rst)
"$PLAN" --profile nicsim-generic --cores 8 --workload "$WL" "$EX/digest.o" \
	> "$TMP/dpred" 2>&1
read -r pt pl < <(predicted_rates "$TMP/dpred")
tap_info "digest.o on an 8-core slice: $(grep -E '^(hash|crc) engine' "$TMP/dpred" | tr '\t\n' ' ')"
# digest_run: NF's digest.o over the workload's frames, its rates into $TMP/m
digest_run() {
	core_packets "$NF" > "$TMP/d0"
	ip netns exec "$NS" env ORACLE_BENCH=1 ORACLE_PCAP="$TMP/syn.pcap" \
		ORACLE_HOOK="{ mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; } && cat /sys/kernel/debug/nicprog/$NF/plan" \
		"$SELFDIR/oracle" "$EX/digest.o" "$IN" "$NF" "$OUT" "$CAP" 7 \
		"$FRAMES" > "$TMP/doracle" 2>&1
	local rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/doracle" | tail -n 20
	wait_for 5 pending
	core_packets "$NF" > "$TMP/d1"
	nic_rates "$TMP/d0" "$TMP/d1" 8 15 > "$TMP/m"
	return $rc
}
check "digest.o beside it, alone: $FRAMES frames" digest_run
grep -E "^accel (crc|hash):" "$TMP/doracle" | sed 's/^/# NF plan: /'
check "its plan has the other 8 CRC engines and the other hash engine" \
	sh -c "grep -q '^accel crc: 2 calls on 8 engines' '$TMP/doracle' && grep -q '^accel hash: 2 calls on 1 engines' '$TMP/doracle'"
n=$(moved "$TMP/d0" "$TMP/d1" 8 15)
check "its frames ran on cores 8-15 ($n)" test "$n" -ge "$FRAMES"
read -r m1 l1 < "$TMP/m"
rates_held "digest on an 8-core slice, the other idle" "$pt" "$pl" $(cat "$TMP/m")
# the same frames again while a flood keeps the other port's digest.o
# and its engines busy
ip addr add 10.77.0.1/24 dev "$A" 2>/dev/null
ip neigh replace 10.77.0.2 lladdr "$(cat "/sys/class/net/$B/address")" dev "$A"
timeout 60 "$SELFDIR/udp_stream" flood 10.77.0.2 9 30 > "$TMP/flood" 2>&1 &
FPID=$!
_bg_pids+=($FPID)
sleep 0.5
core_packets "$B" > "$TMP/b0"
check "digest.o beside it again, the other flooded: $FRAMES frames" digest_run
core_packets "$B" > "$TMP/b1"
kill "$FPID" 2>/dev/null
wait "$FPID" 2>/dev/null
n=$(moved "$TMP/b0" "$TMP/b1" 0 7)
tap_info "the flooded digest.o ran $n frames on cores 0-7 meanwhile"
check "the other's digest.o ran frames meanwhile ($n)" test "$n" -ge 1000
read -r m2 l2 < "$TMP/m"
tap_info "alone $m1 frames per million cycles, latency $l1; beside the flood $m2, latency $l2"
check "beside the flood it runs as alone: throughput within 2%" \
	within "$(pct_err "$m2" "$m1")" 2
# Its runs wait for no engine of the other's, so they take no longer. (Not
# "as long": nicsim times runs in the order they reach its timing model,
# which has no arrival times; beside a flood a core's runs reach it in
# smaller batches, fewer of its threads overlap, and a run waits less for
# its core.)
check "and its runs take no longer (mean latency at most 2% over)" \
	awk -v a="$l1" -v b="$l2" 'BEGIN { exit !(b <= a * 1.02) }'
read -r mt _ < "$TMP/m"
check "beside the flood its throughput is the slice's prediction within 8%" \
	within "$(pct_err "$pt" "$mt")" 8
ip link set dev "$B" xdpoffload off

# a pool with no unit left: the plan runs those calls on its cores
plan_set "$B" cores 4
plan_set "$A" cores 4
check "digest.o on $NF, 8 cores" \
	ip -n "$NS" link set dev "$NF" xdpoffload obj "$EX/digest.o" sec xdp
check "and on $B, 4 cores" \
	ip link set dev "$B" xdpoffload obj "$EX/digest.o" sec xdp
check "and on $A, 4 cores" \
	ip link set dev "$A" xdpoffload obj "$EX/digest.o" sec xdp
expect_eq "the last has the 4 CRC engines left" \
	"accel crc: 2 calls on 4 engines, cycles 74.61" "$(accel_line "$A" crc)"
expect_eq "and no hash engine: both were taken" "" "$(accel_line "$A" hash)"
check "so its hash calls run on its cores" grep -q \
	"^accel: 2 calls without an engine run on cores" "/sys/kernel/debug/nicprog/$A/plan"
ip link set dev "$A" xdpoffload off
ip link set dev "$B" xdpoffload off
ip -n "$NS" link set dev "$NF" xdpoffload off
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
