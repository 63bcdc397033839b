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

rx0=$(nstat "$NSB" "$B" rx_packets)
check "attach with ip link ... xdpgeneric obj" \
	ip -n "$NSB" link set dev "$B" xdpgeneric obj "$OBJ" sec xdp
out=$(ip -n "$NSB" link show dev "$B")
check "ip link shows the program" grep -q "prog/xdp id" <<< "$out"

out=$(ip netns exec "$NSA" ping -c 5 -i 0.2 -W 2 10.79.0.2 2>&1)
check "traffic passes through the NF" grep -q " 0% packet loss" <<< "$out"

# Sum of packets over all classes, and IPv4 packets, from the NF's table.
table() { ip netns exec "$NSB" bpftool -j map dump name counts; }
sum_packets() { table | grep -o '"packets":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s + 0 }'; }
ipv4_packets() { table | grep -o '"key":0,"value":{"packets":[0-9]*' | grep -o '[0-9]*$'; }
rx_delta() { echo $(($(nstat "$NSB" "$B" rx_packets) - rx0)); }
agree() { [ "$(sum_packets)" = "$(rx_delta)" ]; }
check "the NF saw every frame the port received" wait_for 5 agree
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
rx0=$(nstat "$NSB" "$B" rx_packets) p0=$(xs rx_xdp_pass) t0=$(sum_packets)
out=$(ip netns exec "$NSA" ping -c 5 -i 0.2 -W 2 10.79.0.2 2>&1)
check "traffic passes through the native NF" grep -q " 0% packet loss" <<< "$out"
agree_native() { [ $(($(sum_packets) - t0)) = "$(rx_delta)" ]; }
check "the native NF saw every frame the port received" wait_for 5 agree_native
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
tap_end
