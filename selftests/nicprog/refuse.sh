#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the NIC cannot run is refused with an errno and a message naming the
# cause, in the tool the operator used (ip, bpftool, tc), and nothing is
# left attached or allocated afterwards.
. "$(dirname "$0")/lib.sh"
require_root_tools
command -v bpftool >/dev/null || skip_all "bpftool not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"

P_DIR=$SELFDIR/progs
COUNT=$NICPROG_SRC/bpf/examples/count.o
ID=$(nicsim_new_id)
P=nicsim${ID}p0
Q=nicsim${ID}p1
PIN=/sys/fs/bpf/nicprog-refuse-$ID
nicsim_new "$ID" 2

# expect_refused DESC OUTPUT-PATTERN CMD...: CMD fails, output has PATTERN.
expect_refused() {
	local desc=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && grep -qF -- "$pat" <<< "$out"; then
		tap_ok "$desc"
	else
		tap_info "$desc: rc=$rc, expected '$pat' in:"
		sed 's/^/#   /' <<< "$out" | tail -n 8
		tap_fail "$desc"
	fi
}

maps_before=$(bpftool map show | grep -c '^[0-9]')
progs_before=$(bpftool prog show | grep -c '^[0-9]')

tap_begin
expect_refused "unsupported helper: named in ip's verifier log" \
	"[nicprog] insn 0: helper bpf_get_smp_processor_id (8) is not supported on the NIC" \
	ip link set dev "$P" xdpoffload obj "$P_DIR/bad_helper.o" sec xdp
expect_refused "unsupported helper: same in bpftool's output" \
	"[nicprog] insn 0: helper bpf_get_smp_processor_id (8) is not supported on the NIC" \
	bpftool prog load "$P_DIR/bad_helper.o" "$PIN" type xdp dev "$P"
expect_refused "unsupported helper: errno EOPNOTSUPP" "failed to load: -95" \
	ip link set dev "$P" xdpoffload obj "$P_DIR/bad_helper.o" sec xdp

if modprobe nf_conntrack 2>/dev/null; then
	expect_refused "kfunc call: named in the verifier log" \
		"calls a kernel function (kfunc); Linux 6.1 cannot offload kfunc calls" \
		ip link set dev "$P" xdpoffload obj "$P_DIR/kfunc.o" sec xdp
else
	tap_skip "kfunc call: named in the verifier log" "nf_conntrack (the kfunc's module) not available"
fi

expect_refused "program type: a tc classifier is refused by bpftool" \
	"[nicprog] only XDP programs run on the NIC, not program type 3" \
	bpftool prog load "$P_DIR/tc.o" "$PIN" type classifier dev "$P"
tc qdisc add dev "$P" clsact
expect_refused "program type: and by tc with skip_sw" \
	"[nicprog] only XDP programs run on the NIC, not program type 3" \
	tc filter add dev "$P" ingress bpf skip_sw obj "$P_DIR/tc.o" sec tc
tc qdisc del dev "$P" clsact

expect_refused "program larger than the instruction store" \
	"[nicprog] program has 12507 instructions; the NIC's cores hold at most 8192" \
	ip link set dev "$P" xdpoffload obj "$P_DIR/big.o" sec xdp

expect_refused "map type: LPM_TRIE cannot be offloaded (EINVAL from the kernel)" \
	"map 'routes': failed to create: Invalid argument(-22)" \
	ip link set dev "$P" xdpoffload obj "$P_DIR/lpm.o" sec xdp

mark=$(kmsg_mark)
expect_refused "global variables: their map is refused (EOPNOTSUPP)" \
	"map 'global.bss': failed to create: Operation not supported(-95)" \
	ip link set dev "$P" xdpoffload obj "$P_DIR/global.o" sec xdp
check "global variables: the kernel log says why" grep -q \
	"nicprog: map (type 2, key 4, value 8, 1 entries): flags 0x400 not supported on the NIC" \
	<<< "$(kmsg_since "$mark")"

mark=$(kmsg_mark)
expect_refused "map larger than NIC memory: ENOSPC" \
	"Error: map create failed: No space left on device" \
	bpftool map create "$PIN-map" type array key 4 value 4096 entries 300000 name big dev "$P"
check "map larger than NIC memory: the kernel log gives the sizes" grep -q \
	"needs 1228800000 bytes of NIC memory, 1073807360 of 1073807360 are free" \
	<<< "$(kmsg_since "$mark")"

ip link add "nv0-$ID" type veth peer name "nv1-$ID"
expect_refused "device without nicprog: its map cannot be offloaded (EINVAL)" \
	"failed to create: Invalid argument(-22)" \
	ip link set dev "nv0-$ID" xdpoffload obj "$COUNT" sec xdp
ip link del "nv0-$ID"

ip link set dev "$P" mtu 4000
expect_refused "native XDP with an MTU one page cannot hold: refused with the limit" \
	"Error: nicsim: MTU too large for native XDP: a frame must fit one page (MTU 3502 at most with 4 KiB pages)." \
	ip link set dev "$P" xdpdrv obj "$COUNT" sec xdp
ip link set dev "$P" mtu 1500

ID2=$(nicsim_new_id)
nicsim_new "$ID2" 1
bpftool prog load "$COUNT" "$PIN" type xdp dev "nicsim${ID2}p0" >/dev/null 2>&1
# From 6.3 the core refuses it before asking the driver (dev_xdp_attach).
why="Error: nicprog: program is offloaded to another device."
kernel_at_least 6 3 && why="Error: Program bound to different device."
expect_refused "program offloaded to another NIC's port: refused at attach" \
	"$why" \
	ip link set dev "$Q" xdpoffload pinned "$PIN"
rm -f "$PIN"

check "nothing is attached to either port" \
	sh -c "! ip link show dev $P | grep -q prog/xdp && ! ip link show dev $Q | grep -q prog/xdp"
drained() {
	[ "$(bpftool map show | grep -c '^[0-9]')" = "$maps_before" ] &&
	[ "$(bpftool prog show | grep -c '^[0-9]')" = "$progs_before" ]
}
check "no program or map outlives the refusals" wait_for 5 drained
tap_end
