#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The devlink outputs of Documentation/nicprog/devlink.rst: a two-port
# nicsim NIC (ID 7), router and count on eight cores each, then slow.o on
# one core flooded with udp_stream; stock devlink shows it.
#
#   tools/testing/vm-run --timeout 300 -- tools/demo/devlink.sh
. "$(dirname "$0")/../../selftests/nicprog/lib.sh"
nicprog_load
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo "7 2" > "$BUS/new_device"
P=nicsim7p0 Q=nicsim7p1
echo "7:0 7:1" > "$BUS/link_device"
for p in $P $Q; do sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"; ip link set $p up; plan_set $p cores 8; done
echo '$ devlink dev info nicsim/nicsim7'; devlink dev info nicsim/nicsim7
echo '$ devlink port show'; devlink port show | grep nicsim7
ip link set dev $P xdpoffload obj $NICPROG_SRC/bpf/examples/router.o sec xdp 2>/dev/null
ip link set dev $Q xdpoffload obj $NICPROG_SRC/bpf/examples/count.o sec xdp 2>/dev/null
echo '$ devlink resource show nicsim/nicsim7'; devlink resource show nicsim/nicsim7
ip link set dev $P xdpoffload off; ip link set dev $Q xdpoffload off
plan_set $Q cores 1
ip link set dev $Q xdpoffload obj $SELFDIR/progs/slow.o sec xdp
ip addr add 10.78.0.1/24 dev $P
ip neigh replace 10.78.0.2 lladdr $(cat /sys/class/net/$Q/address) dev $P nud permanent
timeout 20 $SELFDIR/udp_stream flood 10.78.0.2 9 2 >/dev/null 2>&1
sleep 2
echo '$ devlink health show nicsim/nicsim7 reporter cores'; devlink health show nicsim/nicsim7 reporter cores
echo '$ devlink -j health dump show nicsim/nicsim7 reporter cores'; devlink -j health dump show nicsim/nicsim7 reporter cores
echo '$ devlink health diagnose nicsim/nicsim7 reporter cores'; devlink health diagnose nicsim/nicsim7 reporter cores | head -3
