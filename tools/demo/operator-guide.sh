#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every command of Documentation/nicprog/operator-guide.rst, with its
# output, as the guide shows it. Run inside the guest:
#   tools/testing/vm-run --timeout 400 -- bash tools/demo/operator-guide.sh
# Exits non-zero if a command fails.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
export PATH=$top/tools/nicprog:$top/tools/iproute2:$PATH
BUS=/sys/bus/nicsim
EX=$top/bpf/examples
P0=nicsim1p0 P1=nicsim1p1

run() { echo "\$ $*"; "$@"; echo; }

insmod "$top/kernel/nicprog.ko"
insmod "$top/kernel/nicprog_exec.ko"
insmod "$top/kernel/nicprog_ring.ko"
insmod "$top/drivers/nicsim/nicsim.ko"
echo "1 2" > $BUS/new_device
echo "1:0 1:1" > $BUS/link_device
ip netns add peer
ip link set $P1 netns peer
ip -n peer addr add 192.0.2.2/24 dev $P1
ip -n peer link set $P1 up
sysctl -qw net.ipv6.conf.$P0.disable_ipv6=1
ip addr add 192.0.2.1/24 dev $P0
ip link set $P0 up

run nicprog dev show dev $P0
run nicprog dev set dev $P0 profile nicsim-nfp
run cat /sys/class/nicprog/$P0/profile /sys/class/nicprog/$P0/cores
run nicprog dev set dev $P0 profile nicsim-generic shape auto cores 8
run nicprog predict dev $P0 obj "$EX/count.o" rate 20000000

nicprog -j monitor > /tmp/monitor.out 2>&1 &
mon=$!
sleep 0.5
run ip link set dev $P0 nicprog obj "$EX/count.o"
run ip link show dev $P0
run nicprog prog show dev $P0
ip netns exec peer ping -q -c 20 -i 0.05 192.0.2.1 > /dev/null
sleep 0.5
run nicprog stats dev $P0
ip netns exec peer ping -q -c 40 -i 0.05 192.0.2.1 > /dev/null &
ping=$!
run nicprog stats dev $P0 -w 1 count 1
wait $ping
run nicprog -j stats dev $P0
for f in profile prog_id cores statistics/utilisation statistics/nic_drops; do
	run cat /sys/class/nicprog/$P0/$f
done
run ip link set dev $P0 nicprog off
sleep 0.5
kill $mon
wait $mon 2>/dev/null || true
echo "\$ nicprog -j monitor      # while the program was attached and removed"
cat /tmp/monitor.out
echo

run nicprog plan obj "$EX/router.o" profile nicsim-nfp shape pipelined
run nicprog predict obj "$EX/router.o" profile nicsim-soc \
	workload "$top/tools/workloads/flows.wl"
