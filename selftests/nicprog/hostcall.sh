#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Partial offload for a capability the NIC lacks: progs/router.c routes
# with bpf_fib_lookup() and bpf_check_mtu(), which read the host's FIB,
# neighbours and MTUs. Without plan_partial it is refused, the verifier log
# naming the helper and where it is called; with it the NIC runs what comes
# before the first call and the host part calls the kernel's own helpers
# on the port's receive queue. The oracle holds on each of the four
# architectures against a namespace with routes, a blackhole, unreachable
# and prohibited prefixes and an MTU frames exceed (BPF_PROG_TEST_RUN reads
# the same FIB), and again after a route goes: the host reads the FIB live.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

OBJ=$SELFDIR/progs/router.o
FRAMES=${HOSTCALL_FRAMES:-2000}
TMP=$(mktemp -d /tmp/nicprog-hostcall.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

stat() {
	ip netns exec "$NS" ethtool -S "$1" | awk -v n="$2:" '$1 == n { print $2 }'
}

# routes: $NS forwards what arrives on $NF; the oracle's destinations
# 10.1.0.0/16 and 8.8.8.8 leave through $OUT (MTU 1000) to permanent
# neighbours, three others meet a blackhole, an unreachable and a
# prohibited route, the rest no route. Nothing makes the stack send.
routes() {
	ip netns exec "$NS" sysctl -qw "net.ipv4.conf.$NF.forwarding=1" &&
	ip -n "$NS" link set "$OUT" mtu 1000 &&
	ip -n "$NS" addr add 10.9.0.1/24 dev "$OUT" &&
	ip -n "$NS" neigh add 10.9.0.2 lladdr 02:00:00:00:09:02 dev "$OUT" nud permanent &&
	ip -n "$NS" neigh add 10.9.0.3 lladdr 02:00:00:00:09:03 dev "$OUT" nud permanent &&
	ip -n "$NS" route add 10.1.0.0/16 via 10.9.0.2 dev "$OUT" &&
	ip -n "$NS" route add 8.8.8.8/32 via 10.9.0.3 dev "$OUT" &&
	ip -n "$NS" route add blackhole 192.168.0.0/24 &&
	ip -n "$NS" route add unreachable 172.16.0.0/12 &&
	ip -n "$NS" route add prohibit 10.0.0.0/30
}

# verdicts OUT: the oracle's per-verdict counts, as "PASS DROP REDIRECT"
verdicts() {
	sed -n 's/^# [0-9]* frames: PASS \([0-9]*\), DROP \([0-9]*\), TX [0-9]*, REDIRECT \([0-9]*\),.*/\1 \2 \3/p' <<< "$1"
}

# routed DESC SEED: the oracle over the split with the routes in place;
# every outcome occurs, some frames but not all are handed over, none lost.
routed() {
	local desc=$1 out rc h0 e0 h e pass drop redir
	h0=$(stat "$NF" host_handovers) e0=$(stat "$NF" host_errors)
	out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$OBJ" "$IN" "$NF" "$OUT" \
		"$CAP" "$2" "$FRAMES" 2>&1)
	rc=$?
	grep '^# [0-9]* frames\|^# frame\|^# map' <<< "$out" | head -n 12
	oracle_equal "$desc" "$out" "$rc"
	read -r pass drop redir < <(verdicts "$out")
	check "$desc: routed, dropped and passed frames ($redir, $drop, $pass)" \
		test "${redir:-0}" -gt 0 -a "${drop:-0}" -gt 0 -a "${pass:-0}" -gt 0
	h=$(($(stat "$NF" host_handovers) - h0))
	e=$(($(stat "$NF" host_errors) - e0))
	check "$desc: some frames, not all, handed over ($h)" \
		test "$h" -gt 0 -a "$h" -lt "$FRAMES"
	expect_eq "$desc: no handover was lost" 0 "$e"
	REDIRECTS=$redir
}

tap_begin
oracle_nic rt nicsim-nfp
routes || { tap_fail "cannot set up routes in $NS"; tap_end; }

out=$(ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$OBJ" sec xdp 2>&1)
rc=$?
insn=$(sed -n 's/.*\[nicprog\] insn \([0-9]*\): helper bpf_fib_lookup (69) is not supported on the NIC (plan_partial lets the host run it and what follows it)$/\1/p' <<< "$out")
check "without plan_partial: refused" test $rc -ne 0
check "without plan_partial: the verifier log names the helper, where, and what to do" \
	test -n "$insn"
if [ -x "$PLAN" ]; then
	expect_eq "the offline planner refuses it at the same instruction" \
		"nicprog-plan: $OBJ: insn $insn: helper bpf_fib_lookup (69) is not supported on the NIC (--partial lets the host run it and what follows it)" \
		"$("$PLAN" --profile nicsim-nfp "$OBJ" 2>&1)"
fi

plan_set "$NF" partial on
out=$(ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$OBJ" sec xdp 2>&1)
rc=$?
expect_eq "with plan_partial: attached" 0 "$rc"
check "ip warns that the offload is partial" \
	grep -q "Warning: nicprog: partially offloaded" <<< "$out"
cat "/sys/kernel/debug/nicprog/$NF/plan" > "$TMP/plan"
sed 's/^/# /' "$TMP/plan" | grep "^# host"
check "the plan says the host runs it and why" \
	grep -q "^host: [0-9]* nodes, [0-9]* insns (the NIC holds [0-9]* of [0-9]*): bpf_fib_lookup, which only the host has$" "$TMP/plan"
first=$(sed -n 's/^host: .* at insns \([0-9]*\).*/\1/p' "$TMP/plan")
check "the NIC hands over no later than the first call (insn $first, the call $insn)" \
	test -n "$first" -a "${first:-0}" -le "${insn:-0}"
split_like_kernel "the offline planner splits it as the kernel does" \
	"$TMP/plan" nicsim-nfp "$OBJ"
check "the kernel log says it too" \
	sh -c "dmesg | grep -q '$NF: nicprog: partial offload (bpf_fib_lookup, which only the host has)'"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off

routed "nicsim-nfp router" 11
before=$REDIRECTS
# A route goes: the host part reads the FIB as it is now, as the host does.
ip -n "$NS" route del 10.1.0.0/16
routed "nicsim-nfp router, 10.1.0.0/16 removed" 11
check "fewer frames routed without the route ($REDIRECTS, were $before)" \
	test "$REDIRECTS" -lt "$before"

for prof in nicsim-soc nicsim-pipeline nicsim-fpga; do
	oracle_nic "rt${prof#nicsim-}" "$prof"
	routes || { tap_fail "cannot set up routes in $NS"; continue; }
	plan_set "$NF" partial on
	routed "$prof router" 12
done

# Predicted and measured: the NIC hands over exactly the frames the
# offline predictor says it does, at the predicted rate and latency.
if [ -x "$PLAN" ]; then
	split_bench "$OBJ" nicsim-nfp syn routes
	check "router on nicsim-nfp, syn: 2000 frames through the split" test $? = 0
	ph=$(awk '/^host: [0-9]* of/ { print $2 }' "$TMP/pred")
	read -r pt pl < <(predicted_rates "$TMP/pred")
	mh=$(stat_delta host_handovers)
	check "router on nicsim-nfp, syn: handovers as predicted ($mh)" \
		test -n "$ph" -a "$ph" = "$mh" -a "$mh" -gt 0
	# offline, the FIB is unknown: the verdicts are the host's, and the
	# host's instructions counted only up to the lookup
	check "router offline: the verdicts are left to the host" \
		grep -q "^host: $ph verdicts the host's helpers decide (not predicted offline)" "$TMP/pred"
	pi=$(sed -n 's/.*; \([0-9]*\) insns on the host up to them$/\1/p' "$TMP/pred")
	mi=$(stat_delta host_insns)
	check "router: the host ran the predicted instructions up to the lookup, then more ($pi, $mi)" \
		test -n "$pi" -a "$mi" -gt "${pi:-0}"
	rates_within "router on nicsim-nfp, syn, the NIC's part" "$pt" "$pl" \
		"$TMP/before" "$TMP/after"
else
	tap_skip "predicted and measured" "nicprog-plan not built"
fi

# Loaded under plan_partial, attached after the operator cleared it: the
# attach is refused with the reason in the extack, nothing attached.
if command -v bpftool > /dev/null; then
	ID=$(nicsim_new_id)
	P=nicsim${ID}p0
	PIN=/sys/fs/bpf/nicprog-hostcall-$ID
	nicsim_new "$ID" 1
	plan_set "$P" partial on
	check "loaded for the port under plan_partial" \
		bpftool prog load "$OBJ" "$PIN" type xdp dev "$P"
	plan_set "$P" partial off
	out=$(ip link set dev "$P" xdpoffload pinned "$PIN" 2>&1)
	rc=$?
	check "attached after plan_partial was cleared: refused" test $rc -ne 0
	check "the extack says why and what to do" grep -q \
		"Error: nicprog: program calls a helper only the host has (plan_partial lets the host run it)" <<< "$out"
	check "nothing attached" sh -c "! ip link show dev $P | grep -q xdpoffload"
	rm -f "$PIN"
else
	tap_skip "attach after plan_partial was cleared" "bpftool not installed"
fi
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
