#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Co-resident NFs: programs on two ports of one NIC split its cores. With
# one port's program holding ten of nicsim-generic's sixteen cores, another
# port's program is planned for the six left and runs on them only (the
# NIC's per-core counters), equals the host (the oracle), and its plan
# and throughput are what nicprog-plan predicts for a six-core slice. A
# third program with no core left is refused with a message and changes
# nothing; once a program goes, its cores serve the next.
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
syn_workload

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
echo 10 > "/sys/class/nicprog/$B/plan_cores"
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
echo 6 > "/sys/class/nicprog/$NF/plan_cores"
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
tap_end
