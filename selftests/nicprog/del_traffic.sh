#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lifetime under traffic: deleting a device, cutting a wire and unloading
# the driver while a UDP flood crosses the wire. The guest runs with
# oops=panic, so a crash fails the whole run; here we check that the flood
# ends on time, that everything is gone, and that the same IDs work again.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_cpus 2
nicprog_load || skip_all "cannot load nicprog/nicsim"

FLOOD_S=4
tap_begin

# setup_pair ID: two ports of device ID, wired, in two namespaces.
setup_pair() {
	local id=$1
	nicsim_new "$id" 2 && echo "$id:0 $id:1" > $BUS/link_device || return 1
	netns_new "fa-$id" && netns_new "fb-$id" || return 1
	port_to_ns "fa-$id" "nicsim${id}p0" 10.78.0.1/24 &&
	port_to_ns "fb-$id" "nicsim${id}p1" 10.78.0.2/24 || return 1
	ip -n "fa-$id" neigh replace 10.78.0.2 lladdr \
		"$(ip netns exec "fb-$id" cat /sys/class/net/nicsim${id}p1/address)" \
		dev "nicsim${id}p0"
}

flood() {
	timeout $((FLOOD_S + 10)) ip netns exec "fa-$1" "$SELFDIR/udp_stream" \
		flood 10.78.0.2 9 $FLOOD_S > /dev/null
}

# flood_ended DESC PID: one test point, the flood PID exited 0; how it
# ended otherwise as a comment
flood_ended() {
	local rc=0
	wait "$2" || rc=$?
	[ $rc = 0 ] ||
		tap_info "the flood exited $rc$([ $rc != 124 ] || echo ", still running $((FLOOD_S + 10)) s after its start")"
	expect_eq "$1" 0 "$rc"
}

wire_rx() { npstat "nicsim${1}p1" wire_rx_packets 2>/dev/null || echo 0; }
# a hundred frames show the flood flowing: the sanitizer kernel beside
# other guests got fewer than 1,000 across in 5 s
flowing() { [ "$(wire_rx "$1")" -gt 100 ]; }

ID=$(nicsim_new_id)
for round in 1 2 3; do
	setup_pair "$ID" || { tap_fail "round $round: set up wired pair"; continue; }
	flood "$ID" &
	FPID=$!
	check "round $round: flood reaches the far port" wait_for 5 flowing "$ID"
	check "round $round: delete the device while traffic flows" nicsim_del "$ID"
	flood_ended "round $round: flood ends on time" "$FPID"
	check "round $round: no port or class entry left" \
		test ! -e /sys/class/nicprog/nicsim${ID}p0 -a ! -e $BUS/devices/nicsim$ID
	ip netns del "fa-$ID"
	ip netns del "fb-$ID"
	_created_ns=()
done

# The NIC hands the flood to a host CPUMAP's CPUs (progs/xdp_cpu_lb.o,
# offloaded with ip link ... nicprog); the device goes under it, then the
# program goes under a second flood: frames queued for the host with a
# target meet a port or a plan that is gone.
IP=$NICPROG_SRC/tools/iproute2/ip
cpumap_flood() {
	local m id
	ip netns exec "fb-$ID" "$IP" link set dev "nicsim${ID}p1" nicprog \
		obj "$SELFDIR/progs/xdp_cpu_lb.o" || return 1
	id=$(ip netns exec "fb-$ID" "$IP" -j link show dev "nicsim${ID}p1" |
	     /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["xdp"]["prog"]["id"])')
	for m in $(bpftool -j prog show id "$id" | /usr/bin/python3 -c \
		   'import json, sys; print(" ".join(map(str, json.load(sys.stdin)["map_ids"])))'); do
		case $(bpftool map show id "$m") in
		*" name cpus_count "*) bpftool map update id "$m" key 0 0 0 0 value 2 0 0 0 ;;
		*" name cpus_available "*) bpftool map update id "$m" key 1 0 0 0 value 1 0 0 0 ;;
		esac
	done
	for m in $(bpftool -j map show | /usr/bin/python3 -c 'import json, sys
print(" ".join(str(m["id"]) for m in json.load(sys.stdin) if m.get("type") == "cpumap" and m.get("name") == "cpu_map"))'); do
		bpftool map update id "$m" key 0 0 0 0 value 64 0 0 0 0 0 0 0
		bpftool map update id "$m" key 1 0 0 0 value 64 0 0 0 0 0 0 0
	done
}
# A hundred frames handed over show the flood flowing through the map; the
# sanitizer kernel handed over fewer than 1,000 in the whole 4 s flood.
host_redirected() {
	[ "$(ip netns exec "fb-$ID" ethtool -S "nicsim${ID}p1" |
	     awk '$1 == "xdp_redirect_host:" { print $2 }')" -gt 100 ]
}
if [ -x "$IP" ] && [ -f "$SELFDIR/progs/xdp_cpu_lb.o" ]; then
	setup_pair "$ID"
	check "CPUMAP: the far port's NIC spreads to host CPUs" cpumap_flood
	flood "$ID" &
	FPID=$!
	check "CPUMAP: the flood reaches the host map" wait_for 5 host_redirected
	check "CPUMAP: delete the device while the NIC hands the flood over" \
		nicsim_del "$ID"
	flood_ended "CPUMAP: flood ends on time" "$FPID"
	ip netns del "fa-$ID"; ip netns del "fb-$ID"; _created_ns=()
	setup_pair "$ID"
	cpumap_flood
	flood "$ID" &
	FPID=$!
	wait_for 5 host_redirected
	check "CPUMAP: detach the program while the NIC hands the flood over" \
		ip netns exec "fb-$ID" "$IP" link set dev "nicsim${ID}p1" nicprog off
	flood_ended "CPUMAP: flood ends on time after the detach" "$FPID"
	check "CPUMAP: the host CPUMAP goes with the program" wait_for 10 \
		sh -c "! bpftool -j map show | grep -q '\"name\":\"cpu_map\"'"
	nicsim_del "$ID"
	ip netns del "fa-$ID"; ip netns del "fb-$ID"; _created_ns=()
else
	tap_skip "CPUMAP under traffic" "tools/iproute2/ip or progs/xdp_cpu_lb.o not built"
fi

# Cut the wire under traffic: the sender's port loses carrier, counts drops.
check "unlink: set up a wired pair" setup_pair "$ID"
flood "$ID" &
FPID=$!
check "unlink: flood reaches the far port" wait_for 5 flowing "$ID"
check "unlink while traffic flows" sh -c "echo $ID:0 > $BUS/unlink_device"
flood_ended "flood ends on time after unlink" "$FPID"
n1=$(wire_rx "$ID")
sleep 0.5
expect_eq "nothing arrives after unlink" "$n1" "$(wire_rx "$ID")"
nicsim_del "$ID"
ip netns del "fa-$ID"; ip netns del "fb-$ID"; _created_ns=()

# Unload the driver under traffic.
check "rmmod: set up a wired pair" setup_pair "$ID"
flood "$ID" &
FPID=$!
check "rmmod: flood reaches the far port" wait_for 5 flowing "$ID"
check "rmmod nicsim while traffic flows" rmmod nicsim
flood_ended "flood ends on time after rmmod" "$FPID"
check "no nicsim netdev survives the module" test -z "$(ls /sys/class/net | grep '^nicsim')"
_created_devs=()
check "nicsim loads again" nicprog_load
check "the same device ID can be created again" nicsim_new "$ID" 2
tap_end
