#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The nicprog demo, run inside the guest by 'make demo':
#   1. load nicprog.ko, nicprog_exec.ko, nicprog_ring.ko and nicsim.ko
#      (built in this checkout)
#   2. create a simulated SmartNIC with two ports and wire them together
#   3. put each port in its own network namespace (two test hosts)
#   4. send traffic across: ping and a byte-exact UDP stream
#   5. show what the NIC reports: its LNIC summary and per-port counters
#   6. offload an L3 router (bpf/examples/router.o) with
#      "ip link set dev X nicprog obj router.o" onto a second simulated NIC and ping between two subnets through it, with
#      IP forwarding off in the NIC's namespace; show the NIC, the plan
#      and the counters with the nicprog CLI (generic netlink), the
#      plan and a prediction offline, and live rates
# Exits non-zero if any step fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
BUS=/sys/bus/nicsim
IP=$top/tools/iproute2/ip	# ip(8) with the nicprog series (tools/iproute2)
ID=1
A=nicsim${ID}p0
B=nicsim${ID}p1

step() { printf '\n== %s\n' "$*"; }
run() { echo "\$ $*"; "$@"; }

step "load the modules (guest kernel $(uname -r))"
run insmod "$top/kernel/nicprog.ko"
run insmod "$top/kernel/nicprog_exec.ko"
run insmod "$top/kernel/nicprog_ring.ko"
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

# /sys/class/nicprog/<port> is seen in the port's namespace, as
# /sys/class/net/<port> is
nps() { ip netns exec "$1" cat "/sys/class/nicprog/$2/$3"; }

step "what the NIC is: /sys/class/nicprog/$A (in hosta)"
for f in profile cores core_threads parsers mat_stages dma_engines \
	 mem_regions mem_bytes insn_store; do
	printf '  %-22s %s\n' "$f" "$(nps hosta "$A" "$f")"
done
for t in $(ip netns exec hosta ls "/sys/class/nicprog/$A/accelerators"); do
	printf '  %-22s %s\n' "accelerators/$t" "$(nps hosta "$A" "accelerators/$t")"
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
		"$(nps hosta "$A" "statistics/$c")" \
		"$(nps hostb "$B" "statistics/$c")"
done
tx=$(nps hosta "$A" statistics/wire_tx_packets)
rx=$(nps hostb "$B" statistics/wire_rx_packets)
echo "  every frame $A put on the wire reached $B: $tx sent, $rx received"

step "offload an L3 router onto a second NIC: hostA 10.1.0.2 <-> NIC <-> hostB 10.2.0.2"
# nicsim2: p0 (hostA) = p1 | p2 = p3 (hostB). p1 and p2 belong to the NIC's
# own namespace "nic", which has IP forwarding OFF: every forwarded frame
# is forwarded by the NF on the NIC.
run sh -c "echo '2 4' > $BUS/new_device"
run sh -c "echo '2:0 2:1' > $BUS/link_device; echo '2:2 2:3' > $BUS/link_device"
ip netns add nic
ip netns add hosta2
ip netns add hostb2
for h in "hosta2 nicsim2p0 10.1.0.2/24" "nic nicsim2p1 10.1.0.1/24" \
	 "nic nicsim2p2 10.2.0.1/24" "hostb2 nicsim2p3 10.2.0.2/24"; do
	set -- $h
	ip link set "$2" netns "$1"
	ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1"
	ip -n "$1" addr add "$3" dev "$2"
	ip -n "$1" link set lo up
	ip -n "$1" link set "$2" up
done
ip netns exec nic sysctl -qw net.ipv4.ip_forward=0
ip -n hosta2 route add default via 10.1.0.1
ip -n hostb2 route add default via 10.2.0.1
echo "  ip_forward in the NIC's namespace: $(ip netns exec nic sysctl -n net.ipv4.ip_forward)"

mac() { printf '0x%s ' $(ip netns exec "$1" cat "/sys/class/net/$2/address" | tr ':' ' '); }
le32() { printf '%d %d %d %d' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
# route PORT PREFIXLEN "A B C D" OUT-PORT NEXT-HOP-NS NEXT-HOP-PORT
route() {
	local prog map out_idx
	prog=$(ip -n nic link show dev "$1" | sed -n 's/.*prog\/xdp id \([0-9]*\).*/\1/p')
	for map in $(ip netns exec nic bpftool prog show id "$prog" | sed -n 's/.*map_ids //p' | tr ',' ' '); do
		ip netns exec nic bpftool map show id "$map" | grep -q "name routes" && break
	done
	out_idx=$(ip netns exec nic cat "/sys/class/net/$4/ifindex")
	ip netns exec nic bpftool map update id "$map" \
		key $(le32 "$2") $3 \
		value $(le32 "$out_idx") $(mac "$5" "$6") $(mac nic "$4")
}
# Programs on two ports of one NIC split its cores: give each eight.
NICPROG=$top/tools/nicprog/nicprog
# (libbpf first offers offloaded maps their BTF, is refused, and retries)
if [ -x "$IP" ]; then
	run "$IP" -n nic link set dev nicsim2p1 nicprog obj "$top/bpf/examples/router.o" cores 8
	run "$IP" -n nic link set dev nicsim2p2 nicprog obj "$top/bpf/examples/router.o" cores 8
	run "$IP" -n nic link show dev nicsim2p1
else
	echo "  ($IP not built: $(cat "$IP.missing" 2>/dev/null); Debian's ip and xdpoffload instead)"
	run ip netns exec nic "$NICPROG" dev set dev nicsim2p1 cores 8
	run ip netns exec nic "$NICPROG" dev set dev nicsim2p2 cores 8
	run ip -n nic link set dev nicsim2p1 xdpoffload obj "$top/bpf/examples/router.o" sec xdp
	run ip -n nic link set dev nicsim2p2 xdpoffload obj "$top/bpf/examples/router.o" sec xdp
	ip -n nic link show dev nicsim2p1 | sed 's/^/  /'
fi
ip netns exec nic bpftool prog show | grep -A1 offloaded_to | sed 's/^/  /'
echo "  the NIC and the offloader's plan, as the nicprog netlink family shows them:"
run ip netns exec nic "$NICPROG" dev show dev nicsim2p1
run ip netns exec nic "$NICPROG" prog show dev nicsim2p1
echo "  the same plan offline, before anything runs, and what it would do with a SYN flood:"
run "$NICPROG" plan obj "$top/bpf/examples/router.o" cores 8
run "$NICPROG" predict obj "$top/bpf/examples/router.o" cores 8 \
	workload "$top/tools/workloads/syn.wl" | sed -n '1,4p'
echo "  (no routes offline: the router passes every SYN up)"
echo "  routes: 10.2.0.0/24 via nicsim2p2 (on nicsim2p1), 10.1.0.0/24 via nicsim2p1 (on nicsim2p2)"
# ARP for the hosts' gateways is answered by the NIC's host stack (the NF
# passes ARP up); learn the hosts' MACs for the next-hop entries.
ip netns exec hosta2 ping -c 1 -W 2 10.1.0.1 >/dev/null
ip netns exec hostb2 ping -c 1 -W 2 10.2.0.1 >/dev/null
route nicsim2p1 24 "10 2 0 0" nicsim2p2 hostb2 nicsim2p3
route nicsim2p2 24 "10 1 0 0" nicsim2p1 hosta2 nicsim2p0

step "traffic: hostA pings hostB through the router on the NIC"
run ip netns exec hosta2 ping -c 5 -i 0.2 10.2.0.2
echo "  (ttl=63: one router hop, taken on the NIC)"

step "counters: what the NIC's router did (ethtool -S, per port)"
for p in nicsim2p1 nicsim2p2; do
	printf '  %s: ' "$p"
	ip netns exec nic ethtool -S "$p" | awk '/xdp_/ { printf "%s %s  ", $1, $2 } END { print "" }'
done
# One number per fact: coreN_cycles counts the NIC cycles a core had a
# run on some thread, coreN_busy those it issued instructions in, which
# is the busy that nicprog stats shows (of the NIC clock's cycles).
echo "  NIC cores that ran frames (ethtool -S: packets; NIC cycles with a run, coreN_cycles; of them issuing instructions, coreN_busy = nicprog stats' busy):"
ip netns exec nic ethtool -S nicsim2p1 | awk '
	/core[0-9]+_packets:/ { c = $1; sub("_packets:", "", c); p[c] = $2 }
	/core[0-9]+_cycles:/ { c = $1; sub("_cycles:", "", c); y[c] = $2 }
	/core[0-9]+_busy:/ { c = $1; sub("_busy:", "", c); b[c] = $2 }
	END { for (c in p) if (p[c]) printf "    %s: %d packets, %d cycles with a run, %d issuing (busy)\n", c, p[c], y[c], b[c] }'
run ip netns exec nic "$NICPROG" stats dev nicsim2p1
echo "  live: the port's rates per second while hostA pings hostB five times a second"
ip netns exec hosta2 ping -q -c 15 -i 0.2 10.2.0.2 > /dev/null &
ppid=$!
run ip netns exec nic "$NICPROG" stats dev nicsim2p1 -w 1 count 2
wait $ppid
fwd=$(ip netns exec nic ethtool -S nicsim2p1 | awk '$1 == "xdp_redirect:" { print $2 }')
echo "  frames forwarded by nicsim2p1's router: $fwd; by the NIC's host stack: 0 (ip_forward=0)"
[ "$fwd" -ge 5 ] || { echo "demo: the router did not forward"; exit 1; }

step "tear down"
if [ -x "$IP" ]; then
	run "$IP" -n nic link set dev nicsim2p1 nicprog off
else
	run ip -n nic link set dev nicsim2p1 xdpoffload off
fi
run sh -c "echo 2 > $BUS/del_device"
ip netns del nic; ip netns del hosta2; ip netns del hostb2
run sh -c "echo $ID > $BUS/del_device"
ip netns del hosta
ip netns del hostb
run rmmod nicsim
run rmmod nicprog_ring
run rmmod nicprog_exec
run rmmod nicprog
echo
echo "demo: OK"
