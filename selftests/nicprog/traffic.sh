#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Two ports of a simulated NIC wired together, one in each of two network
# namespaces: carrier follows link and admin state, ping and a byte-exact
# UDP stream cross the wire, counters agree between host and NIC views, MTU
# is enforced on receive, ethtool reports the driver.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"

ID=$(nicsim_new_id)
A=nicsim${ID}p0
B=nicsim${ID}p1
NSA=npa-$ID
NSB=npb-$ID
carrier() { cat "/sys/class/net/$1/carrier" 2>/dev/null; }

tap_begin
check "create a device with two ports" nicsim_new "$ID" 2
check "both ports are netdevs" test -d "/sys/class/net/$A" -a -d "/sys/class/net/$B"
ip link set "$A" up
ip link set "$B" up
expect_eq "no carrier while unlinked" 0 "$(carrier "$A")"

echo "$ID:0 $ID:1" > $BUS/link_device
expect_eq "carrier on both ends once linked" "1 1" "$(carrier "$A") $(carrier "$B")"
expect_eq "iflink names the peer" "$(cat /sys/class/net/$B/ifindex)" "$(cat /sys/class/net/$A/iflink)"
ip link set "$B" down
expect_eq "peer down takes carrier off" 0 "$(carrier "$A")"
ip link set "$B" up
echo "$ID:1" > $BUS/unlink_device
expect_eq "unlink takes carrier off both ends" "0 0" "$(carrier "$A") $(carrier "$B")"
echo "$ID:1 $ID:0" > $BUS/link_device
expect_eq "relink restores carrier" "1 1" "$(carrier "$A") $(carrier "$B")"

netns_new "$NSA"
netns_new "$NSB"
port_to_ns "$NSA" "$A" 10.77.0.1/24
port_to_ns "$NSB" "$B" 10.77.0.2/24
a_has_carrier() { [ "$(ip netns exec "$NSA" cat "/sys/class/net/$A/carrier")" = 1 ]; }
check "carrier across namespaces" wait_for 5 a_has_carrier

out=$(ip netns exec "$NSA" ping -c 5 -i 0.2 -W 2 10.77.0.2 2>&1)
check "ping crosses the wire with no loss" grep -q " 0% packet loss" <<< "$out"

# Byte-exact UDP stream, fragments included. (Drops are counted from here:
# B came up unlinked and in the init namespace, where its first IPv6
# frames may have been dropped for want of a link.)
drops0=$(npstat "$B" nic_drops)
PORT=$((20000 + ID % 10000))
COUNT=400
bg ip netns exec "$NSB" "$SELFDIR/udp_stream" recv $PORT $COUNT $ID
RECV=$!
# (datagrams sent before it listens are refused)
check "the receiver listens on UDP port $PORT" \
	wait_for 5 sh -c "ip netns exec $NSB ss -Huln | grep -q ':$PORT '"
ip netns exec "$NSA" "$SELFDIR/udp_stream" send 10.77.0.2 $PORT $COUNT $ID
SEND_RC=$?
wait $RECV
RECV_RC=$?
check "UDP stream of $COUNT datagrams (1-8000 B) sent" test $SEND_RC = 0
check "UDP stream received in order and byte-exact" test $RECV_RC = 0

# Host and NIC views agree once the wire is quiet.
counters_agree() {
	local a_tx b_rx b_wire np_tx
	a_tx=$(nstat "$NSA" "$A" tx_packets)
	b_rx=$(nstat "$NSB" "$B" rx_packets)
	b_wire=$(npstat "$B" wire_rx_packets)
	np_tx=$(npstat "$A" wire_tx_packets)
	[ "$a_tx" = "$b_rx" ] && [ "$b_rx" = "$b_wire" ] && [ "$a_tx" = "$np_tx" ]
}
check "every frame sent on A was received on B (netdev and NIC counters)" wait_for 5 counters_agree
check "more than $COUNT frames crossed" test "$(nstat "$NSB" "$B" rx_packets)" -gt $COUNT
expect_eq "no drops on the NIC during the stream" "$drops0" "$(npstat "$B" nic_drops)"
# (a frame may still arrive -- IPv6 neighbour discovery: bound ip's count)
before=$(nstat "$NSB" "$B" rx_packets)
out=$(ip -n "$NSB" -s link show "$B")
after=$(nstat "$NSB" "$B" rx_packets)
ip_rx=$(awk '$1 == "RX:" { getline; print $2; exit }' <<< "$out")
check "ip -s link reports the received packets" \
	test "$before" -le "${ip_rx:-0}" -a "${ip_rx:-0}" -le "$after"

# MTU: the receiver enforces its own MTU like hardware would.
check "MTU 9000 accepted" ip -n "$NSA" link set "$A" mtu 9000
check "MTU above 9000 refused" test "$(ip -n "$NSA" link set "$A" mtu 9001 2>&1 | grep -c 'mtu greater than device maximum')" = 1
len0=$(nstat "$NSB" "$B" rx_length_errors)
ip netns exec "$NSA" ping -c 3 -i 0.2 -W 1 -M do -s 4000 10.77.0.2 >/dev/null 2>&1
expect_eq "oversized frames dropped and counted on the receiver" $((len0 + 3)) "$(nstat "$NSB" "$B" rx_length_errors)"
ip -n "$NSB" link set "$B" mtu 9000
out=$(ip netns exec "$NSA" ping -c 3 -i 0.2 -W 2 -M do -s 8000 10.77.0.2 2>&1)
check "jumbo frames cross once both ends allow them" grep -q " 0% packet loss" <<< "$out"

out=$(ip netns exec "$NSA" ethtool -i "$A")
check "ethtool reports driver nicsim" grep -q "^driver: nicsim" <<< "$out"
check "ethtool reports the bus device" grep -q "^bus-info: nicsim$ID" <<< "$out"
out=$(ip netns exec "$NSA" ethtool "$A")
check "ethtool reports link and speed" grep -q "Speed: 100000Mb/s" <<< "$out"
tap_end
