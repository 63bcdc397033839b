#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ip link set dev DEV nicprog obj FILE: ip(8) with the nicprog series
# (tools/iproute2) offloads an NF that then does exactly what the same
# object does on the host (the oracle on the attached program); its plan
# keywords shape the plan for that program only, the port's own settings
# put back after, also when the attach fails; ip link show names the
# program with the plan and prediction the family reports, in words and
# JSON; bad requests -- a port that is not nicprog's, a shape or core
# count it lacks, a missing object, a syntax error later on the line, a
# kernel without nicprog -- are refused with the cause and change nothing.
. "$(dirname "$0")/lib.sh"
require_root_tools
IP=$NICPROG_SRC/tools/iproute2/ip
CLI=$NICPROG_SRC/tools/nicprog/nicprog
if [ ! -x "$IP" ]; then
	skip_all "tools/iproute2/ip not built: $(cat "$IP.missing" 2>/dev/null || echo "run make tools")"
fi
[ -x "$CLI" ] || skip_all "tools/nicprog/nicprog not built (make tools)"
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
/usr/bin/python3 -c 'import json' 2>/dev/null || skip_all "python3 not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"
EX=$NICPROG_SRC/bpf/examples
FRAMES=${IPLINK_FRAMES:-1000}
TMP=$(mktemp -d /tmp/nicprog-iplink.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# in NS: our ip, the CLI, the plan in debugfs
nip() { ip netns exec "$NS" "$IP" "$@"; }
ncli() { ip netns exec "$NS" "$CLI" "$@"; }
jpy() { /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
settings() { echo "$(npsys "$NF" plan_shape) $(npsys "$NF" plan_cores) $(npsys "$NF" plan_partial)"; }
hw_id() { nip -j link show dev "$NF" | jpy "d[0].get('xdp', {}).get('prog', {}).get('id', 0)"; }
loaded() { bpftool prog show | grep -c " name $1 "; }

tap_begin
oracle_nic ipl nicsim-generic
. "$SELFDIR/nf_entries.sh"
# the port's own settings, which every command below must leave alone
plan_set "$NF" shape single
plan_set "$NF" cores 3
OWN="single 3 0"

out=$(nip link set dev "$NF" nicprog obj "$EX/router.o" plan pipelined \
	cores 2 verbose 2>"$TMP/err")
rc=$?
expect_eq "nicprog obj router.o plan pipelined cores 2: attached" 0 "$rc"
tap_info "$out"
check "verbose: libbpf's account of the load" \
	grep -q "libbpf: loading object from $EX/router.o" "$TMP/err"
check "verbose: the plan made" \
	grep -Eq "^nicprog prog router id [0-9]+ plan pipelined cores 2 predicted [0-9]+ pkt/Mcycle latency [0-9]+ cycles static bracket [0-9]+\.\.[0-9]+ pkt/Mcycle [0-9]+\.\.[0-9]+ cycles$" <<< "$out"
expect_eq "the port's own settings are back" "$OWN" "$(settings)"
check "the plan installed is pipelined (debugfs)" \
	ip netns exec "$NS" "$SELFDIR/plan_check.sh" "$NF" pipelined

ID=$(hw_id)
ncli -j prog show dev "$NF" > "$TMP/prog.json"
nip -j link show dev "$NF" > "$TMP/link.json"
expect_eq "ip -j link show: the nicprog object is the family's prog-get" \
	"$(jpy "d[0]['id'], d[0]['name'], d[0]['shape'], d[0]['cores'], d[0]['tput'], d[0]['latency'], *(d[0]['bracket_' + k] for k in ('tput_min', 'tput_max', 'latency_min', 'latency_max'))" < "$TMP/prog.json")" \
	"$(jpy "*(d[0]['nicprog'][k] for k in ('id', 'name', 'plan', 'cores', 'tput', 'latency', 'bracket_tput_min', 'bracket_tput_max', 'bracket_latency_min', 'bracket_latency_max'))" < "$TMP/link.json")"
# the static bracket per packet class: the kernel's plan file, prog-get's
# words and its JSON say the same, one per class
ncli prog show dev "$NF" > "$TMP/prog.txt"
nsenter --mount=/proc/1/ns/mnt bash -c '
	[ -e /sys/kernel/debug/nicprog ] || mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug
	cat "/sys/kernel/debug/nicprog/$1/plan"' sh "$NF" > "$TMP/plan"
expect_eq "the plan has a static bracket for each of the 7 packet classes" 7 \
	"$(grep -c '^static bracket for [a-z0-9-]* frames: ' "$TMP/plan")"
expect_eq "nicprog prog show: the brackets per packet class, as the kernel's plan" \
	"$(grep '^static bracket for ' "$TMP/plan")" \
	"$(sed -n 's/^    \(static bracket for \)/\1/p' "$TMP/prog.txt")"
expect_eq "nicprog prog show -j: the brackets per packet class, as the words" \
	"$(awk '/^static bracket for / { print $4, $7, $13, $15 }' "$TMP/plan")" \
	"$(jpy "'\\n'.join('%s %d..%d %d..%d %d' % (c['class'], c['tput_min'], c['tput_max'], c['latency_min'], c['latency_max'], c['blocks']) for c in d[0]['pkt_class_brackets'])" < "$TMP/prog.json")"
expect_eq "ip -d link show: the brackets per packet class, as the kernel's plan" \
	"$(awk '/^static bracket for / { print $1, $2, $3, $4, $5, $7, $13 }' "$TMP/plan" | tr -d :,)" \
	"$(nip -d link show dev "$NF" | sed -n 's/^        \(static bracket for .*\) pkt\/Mcycle \(.*\) cycles$/\1 \2/p')"
expect_eq "ip -j link show: the brackets per packet class, as prog-get's" \
	"$(jpy "[(c['class'], c['tput_min'], c['tput_max'], c['latency_min'], c['latency_max']) for c in d[0]['pkt_class_brackets']]" < "$TMP/prog.json")" \
	"$(jpy "[(c['class'], c['tput_min'], c['tput_max'], c['latency_min'], c['latency_max']) for c in d[0]['nicprog']['pkt_class_brackets']]" < "$TMP/link.json")"
expect_eq "ip -j link show: the program is the one offloaded" "$ID" \
	"$(jpy "d[0]['nicprog']['id']" < "$TMP/link.json")"
expect_eq "ip -j link show: not partial" False \
	"$(jpy "d[0]['nicprog']['partial']" < "$TMP/link.json")"
out=$(nip link show dev "$NF")
tap_info "$(head -n 1 <<< "$out")"
check "ip link show: xdpoffload nicprog/router" \
	grep -q " xdpoffload nicprog/router " <<< "$out"
check "ip link show: the plan, prediction and static bracket on a line of their own" \
	grep -Eq "^    nicprog prog router id $ID plan pipelined cores 2 predicted $(jpy "d[0]['tput']" < "$TMP/prog.json") pkt/Mcycle latency $(jpy "d[0]['latency']" < "$TMP/prog.json") cycles static bracket $(jpy "'%d..%d pkt/Mcycle %d..%d' % (d[0]['bracket_tput_min'], d[0]['bracket_tput_max'], d[0]['bracket_latency_min'], d[0]['bracket_latency_max'])" < "$TMP/prog.json") cycles$" <<< "$out"
check "ip addr show names it too" \
	grep -q "xdpoffload/id:$ID nicprog/router " <<< "$(nip addr show dev "$NF")"

nf_entries router
out=$(ip netns exec "$NS" env ORACLE_ATTACHED=1 "$SELFDIR/oracle" \
	"$EX/router.o" "$IN" "$NF" "$OUT" "$CAP" 7 "$FRAMES" "${ENTRIES[@]}" 2>&1)
rc=$?
grep '^# [0-9]* frames' <<< "$out"
oracle_equal "the program ip attached" "$out" "$rc"
expect_eq "the oracle left it attached" "$ID" "$(hw_id)"

# refusals that change nothing
# refused DESC MESSAGE CMD...: CMD fails, its output says MESSAGE
refused() {
	local desc=$1 msg=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	check "$desc: refused" test $rc -ne 0
	check "$desc: says \"$msg\"" grep -qF -- "$msg" <<< "$out"
}
n=$(loaded count)
refused "without -force, an attached program" "XDP program already attached" \
	nip link set dev "$NF" nicprog obj "$EX/count.o"
expect_eq "  the program is unchanged" "$ID" "$(hw_id)"
refused "an unknown plan shape" \
	'unknown plan "diagonal"; use auto, single, replicated, pipelined or pipelined+replicated' \
	nip -force link set dev "$NF" nicprog obj "$EX/count.o" plan diagonal
refused "a core count that is not a number" 'cores "many" is not a count' \
	nip -force link set dev "$NF" nicprog obj "$EX/count.o" cores many
refused "more cores than the NIC has" "more cores than the NIC has" \
	nip -force link set dev "$NF" nicprog obj "$EX/count.o" cores 99
refused "a syntax error after nicprog" 'Invalid "mtu" value' \
	nip -force link set dev "$NF" nicprog obj "$EX/count.o" plan single mtu bogus
expect_eq "  nothing was loaded for any of them" "$n" "$(loaded count)"
refused "a missing object" "nonexistent.o: No such file" \
	nip -force link set dev "$NF" nicprog obj "$TMP/nonexistent.o" plan single
expect_eq "the program is unchanged by all of them" "$ID" "$(hw_id)"
expect_eq "and so are the port's settings" "$OWN" "$(settings)"
refused "a program the verifier refuses: its log says why" \
	"[nicprog] program has 12507 instructions; the NIC's cores hold at most 8192" \
	nip -force link set dev "$NF" nicprog obj "$SELFDIR/progs/big.o" plan single
expect_eq "  the settings it asked for are put back" "$OWN" "$(settings)"
refused "a helper the NIC lacks: the loader names it before loading" \
	"Error: nicprog: $SELFDIR/progs/bad_helper.o: insn 0: helper bpf_get_smp_processor_id (8) is not supported on the NIC; attach the program to the host (xdpdrv)" \
	nip -force link set dev "$NF" nicprog obj "$SELFDIR/progs/bad_helper.o" plan single
expect_eq "  and the settings are put back" "$OWN" "$(settings)"

# the stock path: xdpoffload names the map the core refused and the way out
# stock DESC OBJ CAUSE WAY: refused, CAUSE and WAY on lines of their own
stock() {
	local out
	out=$(nip -force link set dev "$NF" xdpoffload obj "$SELFDIR/progs/$2" sec xdp 2>&1)
	check "xdpoffload of $1: refused" test $? -ne 0
	check "xdpoffload of $1: says \"$3\"" grep -qxF -- "$3" <<< "$out"
	check "xdpoffload of $1: offers \"$4\"" grep -qxF -- "$4" <<< "$out"
}
stock "a per-CPU map" xdp_stats.o \
	"Error: map 'xdp_stats_map' is a percpu_array map: the kernel offloads array and hash maps only." \
	"On a nicprog port, \"ip link set dev DEV nicprog obj $SELFDIR/progs/xdp_stats.o\" offloads it as a NIC table."
stock "global variables" xdp_globals.o \
	"Error: map 'xdp_glob.data' holds the program's global variables, which the kernel gives an offloaded program no access to (an mmapable array)." \
	"On a nicprog port, \"ip link set dev DEV nicprog obj $SELFDIR/progs/xdp_globals.o\" offloads it as a NIC table."
stock "a map larger than the NIC" huge_table.o \
	"Error: map 'flow_states' does not fit in the device's memory (300000 entries of 4100 bytes)." \
	"On a nicprog port, \"ip link set dev DEV nicprog obj $SELFDIR/progs/huge_table.o partial on\" keeps it in host memory."
expect_eq "  the program is unchanged by them" "$ID" "$(hw_id)"
refused "a port that is not nicprog's" "not a nicprog port" \
	nip link set dev lo nicprog obj "$EX/count.o"
refused "no device named first" "name the device first" \
	nip link set nicprog obj "$EX/count.o"

# replacing, and the partial keyword
check "-force replaces it: count, plan single" sh -c \
	"ip netns exec $NS $IP -force link set dev $NF nicprog obj $EX/count.o plan single 2>/dev/null"
check "  the plan installed is single" \
	ip netns exec "$NS" "$SELFDIR/plan_check.sh" "$NF" single
check "  ip link show names it" \
	grep -q " nicprog/count " <<< "$(nip link show dev "$NF")"
refused "a program larger than the NIC without partial" \
	"partial on lets the host run them" \
	nip -force link set dev "$NF" nicprog obj "$SELFDIR/progs/partial.o"
out=$(nip -force link set dev "$NF" nicprog obj "$SELFDIR/progs/partial.o" partial 2>&1)
rc=$?
expect_eq "with partial: attached" 0 "$rc"
check "  ip warns that the offload is partial" grep -q "partially offloaded" <<< "$out"
expect_eq "  plan_partial is back off" "$OWN" "$(settings)"
expect_eq "  ip -j link show: partial" True \
	"$(nip -j link show dev "$NF" | jpy "d[0]['nicprog']['partial']")"
check "  ip link show says what the host runs and why" \
	grep -q "partial (the NIC's instruction store)" <<< "$(nip link show dev "$NF")"

# a program whose verdicts the NIC's clock decides (a token bucket): the
# prediction says so; router's above ended at "cycles"
check "-force replaces it: ratelimit.o, which reads the NIC's clock" \
	nip -force link set dev "$NF" nicprog obj "$SELFDIR/progs/ratelimit.o"
check "  ip link show: the prediction varies with the clock" \
	grep -Eq "^    nicprog prog ratelimit id [0-9]+ plan .* cycles varies with clock$" \
	<<< "$(nip link show dev "$NF")"
expect_eq "  ip -j link show: reads_clock, not reads_random" "True False" \
	"$(nip -j link show dev "$NF" | jpy "d[0]['nicprog']['reads_clock'], d[0]['nicprog']['reads_random']")"

check "nicprog off detaches" nip link set dev "$NF" nicprog off
expect_eq "  nothing offloaded" 0 "$(hw_id)"
check "  ip link show names no program" \
	sh -c "! ip netns exec $NS $IP link show dev $NF | grep -q nicprog"
refused "nicprog off on a port that is not nicprog's" "not a nicprog port" \
	nip link set dev lo nicprog off

# without the module: the family is absent, and ip says so
cleanup
trap 'rm -rf "$TMP"' EXIT
if nicprog_unload; then
	refused "a kernel without nicprog" \
		"the kernel has no nicprog family; load the nicprog module" \
		"$IP" link set dev lo nicprog obj "$EX/count.o"
	check "ip link show still works" sh -c "'$IP' link show dev lo > /dev/null"
else
	tap_fail "nicprog and nicsim unload for the absent-family case"
fi
nicprog_load || tap_fail "nicprog and nicsim load again"
tap_end
