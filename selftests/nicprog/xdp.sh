#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A BPF object from bpf/ runs as host XDP on a nicsim port, generic and
# native (in the driver's receive path), loaded with iproute2 and read back
# with bpftool: its table accounts for exactly the frames the port
# received, and detaching leaves the port working. Native XDP bounds the
# MTU to what one page holds while attached.
. "$(dirname "$0")/lib.sh"
require_root_tools
command -v bpftool >/dev/null || skip_all "bpftool not installed"
OBJ=$NICPROG_SRC/bpf/examples/count.o
[ -f "$OBJ" ] || skip_all "bpf/examples/count.o not built (run make)"
nicprog_load || skip_all "cannot load nicprog/nicsim"

ID=$(nicsim_new_id)
A=nicsim${ID}p0
B=nicsim${ID}p1
NSA=xa-$ID
NSB=xb-$ID
tap_begin
nicsim_new "$ID" 2
echo "$ID:0 $ID:1" > $BUS/link_device
netns_new "$NSA"
netns_new "$NSB"
port_to_ns "$NSA" "$A" 10.79.0.1/24
port_to_ns "$NSB" "$B" 10.79.0.2/24

# Sum of packets over all classes, and IPv4 packets, from the NF's table:
# the "counts" map of the program attached to $B now, found by id. By name
# it may be a detached program's too, which lives on until its deferred
# free runs.
table() {
	local prog map
	prog=$(ip -n "$NSB" -d link show dev "$B" |
	       grep -o 'prog/xdp id [0-9]*' | grep -o '[0-9]*$') || return 1
	for map in $(bpftool -j prog show id "$prog" |
		     grep -o '"map_ids":\[[0-9,]*' | grep -o '[0-9]\+'); do
		bpftool -j map show id "$map" | grep -q '"name":"counts"' &&
			bpftool -j map dump id "$map" && return
	done
	return 1
}
sum_packets() { table | grep -o '"packets":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'; }
ipv4_packets() { table | grep -o '"key":0,"value":{"packets":[0-9]*' | grep -o '[0-9]*$'; }
rx_delta() { echo $(($(nstat "$NSB" "$B" rx_packets) - rx0)); }
# Where both counts start: the NF counts a frame before the stack does,
# and a frame the test did not send (an ARP refresh) may arrive between
# two reads, so take them when no frame arrived for a while.
quiet() {
	local t r
	t=$(sum_packets) r=$(nstat "$NSB" "$B" rx_packets)
	sleep 0.3
	[ "$t" = "$(sum_packets)" ] && [ "$r" = "$(nstat "$NSB" "$B" rx_packets)" ] &&
		t0=$t rx0=$r
}
# The NF's count since the quiet point matches the port's.
agree() {
	if wait_for 5 eval '[ $(($(sum_packets) - t0)) = "$(rx_delta)" ]'; then
		tap_ok "$1"
	else
		expect_eq "$1" "$(rx_delta)" "$(($(sum_packets) - t0))"
	fi
}

check "attach with ip link ... xdpgeneric obj" \
	ip -n "$NSB" link set dev "$B" xdpgeneric obj "$OBJ" sec xdp
out=$(ip -n "$NSB" link show dev "$B")
check "ip link shows the program" grep -q "prog/xdp id" <<< "$out"

check "the counts settle" wait_for 5 quiet
out=$(ip netns exec "$NSA" ping -c 5 -i 0.2 -W 2 10.79.0.2 2>&1)
check "traffic passes through the NF" grep -q " 0% packet loss" <<< "$out"
agree "the NF saw every frame the port received"

check "the NF classified the pings as IPv4" test "$(ipv4_packets)" -ge 5

check "detach with ip link ... xdpgeneric off" ip -n "$NSB" link set dev "$B" xdpgeneric off
out=$(ip netns exec "$NSA" ping -c 2 -i 0.2 -W 2 10.79.0.2 2>&1)
check "the port works after detach" grep -q " 0% packet loss" <<< "$out"

# native: the same object in the driver's receive path
xs() { ip netns exec "$NSB" ethtool -S "$B" | awk -v n="$1:" '$1 == n { print $2 }'; }
maxmtu() { ip -n "$NSB" -d link show dev "$B" | grep -o 'maxmtu [0-9]*' | cut -d' ' -f2; }
check "attach with ip link ... xdpdrv obj" \
	ip -n "$NSB" link set dev "$B" xdpdrv obj "$OBJ" sec xdp
out=$(ip -n "$NSB" link show dev "$B")
check "ip link shows it in driver mode" grep -qE "mtu [0-9]+ xdp " <<< "$out"
expect_eq "the MTU is bounded by one page" 3502 "$(maxmtu)"
expect_refused() {
	local err
	err=$("${@:3}" 2>&1) && { tap_fail "$1 (succeeded)"; return; }
	expect_eq "$1" "$2" "$err"
}
expect_refused "a larger MTU is refused" \
	"Error: mtu greater than device maximum." \
	ip -n "$NSB" link set dev "$B" mtu 4000
# and the driver's rx_xdp_pass, from the same quiet point
quiet_native() {
	local p
	p=$(xs rx_xdp_pass)
	quiet && [ "$p" = "$(xs rx_xdp_pass)" ] && p0=$p
}
check "the counts settle" wait_for 5 quiet_native
out=$(ip netns exec "$NSA" ping -c 5 -i 0.2 -W 2 10.79.0.2 2>&1)
check "traffic passes through the native NF" grep -q " 0% packet loss" <<< "$out"
agree "the native NF saw every frame the port received"
# the NF's verdict is counted before the stack counts the frame: settle
agree_pass() { [ "$(rx_delta)" = "$(($(xs rx_xdp_pass) - p0))" ]; }
if wait_for 5 agree_pass; then
	tap_ok "rx_xdp_pass counts them"
else
	expect_eq "rx_xdp_pass counts them" "$(rx_delta)" "$(($(xs rx_xdp_pass) - p0))"
fi
check "detach with ip link ... xdpdrv off" ip -n "$NSB" link set dev "$B" xdpdrv off
expect_eq "the MTU bound is lifted" 9000 "$(maxmtu)"
out=$(ip netns exec "$NSA" ping -c 2 -i 0.2 -W 2 10.79.0.2 2>&1)
check "the port works after detach" grep -q " 0% packet loss" <<< "$out"

# From 6.3 a port states its XDP features, which netdev netlink reports
# (read with the kernel's own ynl client from its linux-source).
if kernel_at_least 6 3; then
	ser=$(uname -r | cut -d. -f1,2 | cut -d- -f1)
	ynl=${NICPROG_CACHE:-/var/cache/nicprog}/linux-source-$ser
	if [ -f "$ynl/tools/net/ynl/cli.py" ]; then
		idx=$(ip netns exec "$NSB" cat "/sys/class/net/$B/ifindex")
		feat=$(ip netns exec "$NSB" python3 "$ynl/tools/net/ynl/cli.py" \
			--spec "$ynl/Documentation/netlink/specs/netdev.yaml" \
			--do dev-get --json "{\"ifindex\": $idx}" 2>&1 |
			python3 -c 'import ast, sys; print(" ".join(sorted(ast.literal_eval(sys.stdin.read())["xdp-features"])))' 2>&1)
		expect_eq "netdev netlink: the port offers XDP, redirect, ndo_xdp_xmit and offload" \
			"basic hw-offload ndo-xmit redirect" "$feat"
	else
		tap_skip "netdev netlink: the port's XDP features" \
			"no ynl client in $ynl (make deps KVER=$ser)"
	fi
fi
tap_end
