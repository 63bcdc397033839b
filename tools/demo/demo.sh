#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The nicprog demo, run inside the guest by 'make demo':
#   1. load nicprog.ko and nicsim.ko (built in this checkout)
#   2. create a simulated SmartNIC with two ports and wire them together
#   3. put each port in its own network namespace (two test hosts)
#   4. send traffic across: ping and a byte-exact UDP stream
#   5. show what the NIC reports: its LNIC summary and per-port counters
# Exits non-zero if any step fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUS=/sys/bus/nicsim
ID=1
A=nicsim${ID}p0
B=nicsim${ID}p1

step() { printf '\n== %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

step "load the modules (guest kernel $(uname -r))"
run insmod "$top/kernel/nicprog.ko"
run insmod "$top/drivers/nicsim/nicsim.ko"

step "create simulated SmartNIC $ID with two ports, wire port 0 to port 1"
run sh -c "echo '$ID 2' > $BUS/new_device"
run sh -c "echo '$ID:0 $ID:1' > $BUS/link_device"

step "two test hosts: one port in each network namespace"
for h in "hosta $A 192.0.2.1" "hostb $B 192.0.2.2"; do
	set -- $h
	ip netns add "$1"
	ip link set "$2" netns "$1"
	ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	ip -n "$1" addr add "$3/24" dev "$2"
	ip -n "$1" link set lo up
	ip -n "$1" link set "$2" up
	echo "$1: $2 $3/24"
done
run ip -n hosta -br link show "$A"

step "what the NIC is: /sys/class/nicprog/$A"
for f in profile cores core_threads parsers mat_stages accelerators \
	 dma_engines mem_regions mem_bytes insn_store; do
	printf '  %-13s %s\n' "$f" "$(cat /sys/class/nicprog/$A/$f)"
done

step "traffic: ping hostb from hosta"
run ip netns exec hosta ping -c 5 -i 0.2 192.0.2.2

step "traffic: 1000 UDP datagrams of 1-8000 bytes, checked byte by byte"
ip netns exec hostb "$top/selftests/nicprog/udp_stream" recv 5001 1000 42 &
rpid=$!
for _ in $(seq 50); do
	ip netns exec hostb ss -Huln | grep -q ':5001 ' && break
	sleep 0.1
done
run ip netns exec hosta "$top/selftests/nicprog/udp_stream" send 192.0.2.2 5001 1000 42
wait $rpid

step "counters: host view (ip -s link)"
run ip -n hosta -s link show "$A"
run ip -n hostb -s link show "$B"

step "counters: NIC view (/sys/class/nicprog/<port>/statistics)"
printf '  %-16s %14s %14s\n' counter "$A" "$B"
for c in wire_tx_packets wire_tx_bytes wire_rx_packets wire_rx_bytes \
	 host_rx_packets host_rx_bytes nic_drops; do
	printf '  %-16s %14s %14s\n' "$c" \
		"$(cat /sys/class/nicprog/$A/statistics/$c)" \
		"$(cat /sys/class/nicprog/$B/statistics/$c)"
done
tx=$(cat /sys/class/nicprog/$A/statistics/wire_tx_packets)
rx=$(cat /sys/class/nicprog/$B/statistics/wire_rx_packets)
echo "  every frame $A put on the wire reached $B: $tx sent, $rx received"

step "tear down"
run sh -c "echo $ID > $BUS/del_device"
ip netns del hosta
ip netns del hostb
run rmmod nicsim
run rmmod nicprog
echo
echo "demo: OK"
