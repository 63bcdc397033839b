#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bpf_printk() in an offloaded program (progs/printk.c: libbpf's macro,
# the format on the stack, a %s string and four values, a verdict that
# depends on what bpf_trace_printk() returns, a call of a global function
# before it). Only the host has the trace buffer, so without partial on
# ip link ... nicprog refuses the program naming the helper, where it is
# called and the way out -- on its first line, also when the offloader
# logged lines about the program's calls before the refusal -- and the
# offline planner says the same; with it, the NIC runs the program up to
# the call and the host part calls the kernel's bpf_trace_printk() or
# bpf_trace_vprintk(). The oracle compares, frame by frame, the lines the
# NIC's run and the host's BPF_PROG_TEST_RUN write to the trace buffer,
# besides verdicts, bytes and tables; frames that print nothing stay on
# the NIC.
. "$(dirname "$0")/lib.sh"
require_root_tools
. "$(dirname "$0")/adapt_lib.sh"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

OBJ=$P_DIR/printk.o
FRAMES=${PRINTK_FRAMES:-2000}

stat() {
	ip netns exec "$NS" ethtool -S "$NF" | awk -v n="$1:" '$1 == n { print $2 }'
}

# printed PROFILE PROG SEED: PROG offloaded with partial on, judged by the
# oracle; it printed on both sides alike, some frames but not all went to
# the host, and none was lost on the way.
printed() {
	local prof=$1 prog=$2 what="$1 printk.o ($2)" out rc h0 e0 h n m
	nip link set dev "$NF" nicprog obj "$OBJ" program "$prog" partial on \
		> "$TMP/out" 2>&1
	rc=$?
	expect_eq "$what: attached with partial on" 0 "$rc"
	check "$what: ip says the offload is partial" \
		grep -q "^Warning: nicprog: partially offloaded" "$TMP/out"
	h0=$(stat host_handovers) e0=$(stat host_errors)
	out=$(ORACLE_ATTACHED=1 ORACLE_PROG=$prog ip netns exec "$NS" \
	      "$SELFDIR/oracle" "$OBJ" "$IN" "$NF" "$OUT" "$CAP" "$3" \
	      "$FRAMES" 2>&1)
	rc=$?
	grep '^# bpf_printk\|^# frame\|^# [0-9]* frames\|^#   ' <<< "$out" | head -n 12
	oracle_equal "$what" "$out" "$rc"
	n=$(sed -n 's/^# bpf_printk: \([0-9]*\) trace lines from the NIC, \([0-9]*\) from the host$/\1 \2/p' <<< "$out")
	read -r n m <<< "$n"
	check "$what: the NIC's run printed the host's lines (${n:-none}, ${m:-none})" \
		test -n "$n" -a "${n:-0}" -gt 0 -a "${n:-0}" = "${m:-}"
	h=$(($(stat host_handovers) - h0))
	check "$what: some frames, not all, handed over ($h of $FRAMES)" \
		test "$h" -gt 0 -a "$h" -lt "$FRAMES"
	expect_eq "$what: no handover lost" 0 "$(($(stat host_errors) - e0))"
	nip link set dev "$NF" nicprog off
}

# refused PROG: without partial on, ip refuses PROG, its first line naming
# the call and the way out, and the offline planner says the same
refused() {
	local why insn
	nip link set dev "$NF" nicprog obj "$OBJ" program "$1" > "$TMP/out" 2>&1
	check "$1 without partial on: refused" test $? -ne 0
	sed 's/^/#   /' "$TMP/out" | head -n 2
	why=$(sed -n "1s|^Error: nicprog: $OBJ: ||p" "$TMP/out")
	check "$1: the first line names the helper, where, and the way out" \
		grep -q "^insn [0-9]*: helper bpf_trace_printk (6) is not supported on the NIC (partial on lets the host run it and what follows it)$" <<< "$why"
	insn=$(sed -n 's/^insn \([0-9]*\):.*/\1/p' <<< "$why")
	expect_eq "$1: the offline planner refuses it at the same instruction" \
		"nicprog-plan: $OBJ: insn $insn: helper bpf_trace_printk (6) is not supported on the NIC (--partial lets the host run it and what follows it)" \
		"$("$PLAN" --profile nicsim-nfp --prog "$1" "$OBJ" 2>&1)"
	check "$1: nothing attached" \
		test -z "$(nip -j link show dev "$NF" | jq -r '.[0].xdp // empty')"
}

tap_begin
oracle_nic pk nicsim-nfp
refused printk_rodata
# the offloader's lines about the global function come first in the log
refused printk_global
check "printk_global: the verifier log has nicprog's lines before the refusal" \
	grep -q "^\[nicprog\] insn [0-9]*: function at insn [0-9]* is not an engine function" "$TMP/out"

printed nicsim-nfp printk_rodata 31
printed nicsim-nfp printk_stack 32
printed nicsim-nfp printk_vargs 33
printed nicsim-nfp printk_ret 34
printed nicsim-nfp printk_global 36

for prof in nicsim-pipeline nicsim-fpga; do
	oracle_nic "pk${prof#nicsim-}" "$prof"
	printed "$prof" printk_vargs 35
done
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
