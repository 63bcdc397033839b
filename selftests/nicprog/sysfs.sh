#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# /sys/class/nicprog/<ifname>: the LNIC summary of nicsim's default profile,
# the entry following renames and namespace moves (seen in the port's own
# namespace, as /sys/class/net/<ifname> is), and going away with the port.
# Two ports named alike in two namespaces both work, each showing its own
# counters; moving them back and forth leaves nothing behind.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"

ID=$(nicsim_new_id)
P=nicsim${ID}p0
C=/sys/class/nicprog
tap_begin
nicsim_new "$ID" 1
check "class entry exists for the port" test -d "$C/$P"
expect_eq "profile" nicsim-generic "$(cat $C/$P/profile)"
expect_eq "cores" 16 "$(cat $C/$P/cores)"
expect_eq "core_threads" 64 "$(cat $C/$P/core_threads)"
expect_eq "parsers" 1 "$(cat $C/$P/parsers)"
expect_eq "mat_stages" 4 "$(cat $C/$P/mat_stages)"
accels() { for t in csum crc hash crypto compress regex; do echo -n "$t:$(cat "$C/$P/accelerators/$t") "; done; }
expect_eq "accelerators, one file per type" "csum:1 crc:16 hash:2 crypto:2 compress:0 regex:0 " "$(accels)"
expect_eq "dma_engines" 2 "$(cat $C/$P/dma_engines)"
expect_eq "mem_regions" 2 "$(cat $C/$P/mem_regions)"
expect_eq "mem_bytes" $((65536 + 1073741824)) "$(cat $C/$P/mem_bytes)"
expect_eq "insn_store" 8192 "$(cat $C/$P/insn_store)"
expect_eq "ifindex matches the netdev" "$(cat /sys/class/net/$P/ifindex)" "$(cat $C/$P/ifindex)"
check "device link points at the nicsim bus device" \
	test "$(basename "$(readlink -f $C/$P/device)")" = "nicsim$ID"
expect_eq "attributes are mode 0444" 444 "$(stat -c %a "$C/$P/profile")"
check "writing an attribute is refused, even for root" sh -c "! echo x > $C/$P/profile 2>/dev/null"
expect_eq "the attribute is unchanged" nicsim-generic "$(cat $C/$P/profile)"
# the plan policy is set through netlink, where the privilege is checked
expect_eq "plan_engine_share: every engine type all on the engines" \
	"csum 16 crc 16 hash 16 crypto 16" "$(xargs < "$C/$P/plan_engine_share")"
for f in plan_shape plan_cores plan_partial plan_engine_share accelerators/csum; do
	v=$(cat "$C/$P/$f")
	check "$f is read-only, even for root, and unchanged" \
		sh -c "! echo 1 > $C/$P/$f 2>/dev/null && test \"\$(cat $C/$P/$f)\" = '$v'"
done
expect_eq "every attribute is mode 0444" "" \
	"$(find "$C/$P/" -maxdepth 2 -type f ! -perm 0444 ! -name uevent ! -path '*/power/*' -printf '%P ')"

ip link set "$P" name "np-ren-$ID"
check "rename follows the netdev" test -d "$C/np-ren-$ID" -a ! -e "$C/$P"
netns_new "ns-sys-$ID"
ip link set "np-ren-$ID" netns "ns-sys-$ID"
check "entry moves with the port to its namespace" \
	ip netns exec "ns-sys-$ID" test -d "$C/np-ren-$ID"
check "... and is not seen from the one it left" test ! -e "$C/np-ren-$ID"
ip -n "ns-sys-$ID" link set "np-ren-$ID" name "$P"
check "rename inside the namespace follows" \
	ip netns exec "ns-sys-$ID" test -d "$C/$P"
nicsim_del "$ID"
_created_devs=()
check "entry goes away with the port" \
	ip netns exec "ns-sys-$ID" test ! -e "$C/$P"

# Two ports of a wired pair, both named np0, each in a namespace of its own.
ID=$(nicsim_new_id)
nicsim_new "$ID" 2
echo "$ID:0 $ID:1" > "$BUS/link_device"
A=nicsim${ID}p0 B=nicsim${ID}p1 NA=ns-a-$ID NB=ns-b-$ID
entries0=$(find /sys -xdev 2> /dev/null | wc -l)
netns_new "$NA"
netns_new "$NB"
ip link set "$A" netns "$NA" && ip -n "$NA" link set "$A" name np0
ip link set "$B" netns "$NB" && ip -n "$NB" link set "$B" name np0
check "two ports named np0 in two namespaces: each has its class entry" \
	sh -c "ip netns exec $NA test -d $C/np0 && ip netns exec $NB test -d $C/np0"
expect_eq "... each its own: their ifindexes are their netdevs'" \
	"$(ip netns exec "$NA" cat /sys/class/net/np0/ifindex) $(ip netns exec "$NB" cat /sys/class/net/np0/ifindex)" \
	"$(ip netns exec "$NA" cat $C/np0/ifindex) $(ip netns exec "$NB" cat $C/np0/ifindex)"
for n in "$NA" "$NB"; do
	ip netns exec "$n" sysctl -qw net.ipv6.conf.np0.disable_ipv6=1
done
ip -n "$NA" addr add 10.99.0.1/24 dev np0 && ip -n "$NA" link set np0 up
ip -n "$NB" addr add 10.99.0.2/24 dev np0 && ip -n "$NB" link set np0 up
# one way: B answers no echo request, so A sends more than it receives
ip netns exec "$NB" sysctl -qw net.ipv4.icmp_echo_ignore_all=1
ip netns exec "$NA" ping -c 5 -i 0.2 -W 1 10.99.0.2 > /dev/null
# the wire delivers on the NIC's own threads: B counts a frame after A
same_count() {
	tx_a=$(ip netns exec "$NA" cat $C/np0/statistics/wire_tx_packets)
	rx_a=$(ip netns exec "$NA" cat $C/np0/statistics/wire_rx_packets)
	rx_b=$(ip netns exec "$NB" cat $C/np0/statistics/wire_rx_packets)
	[ "$tx_a" -ge 5 ] && [ "$tx_a" = "$rx_b" ] && [ "$rx_a" -lt "$tx_a" ]
}
check "... and its own counters: what A sent, B received, and A received less" \
	wait_for 5 same_count
check "... and answers netlink in its namespace" sh -c \
	"ip netns exec $NA '$NICPROG_SRC/tools/nicprog/nicprog' dev show dev np0 | grep -q nicsim-generic"
check "debugfs, which has no namespaces, names the second by its node" \
	sh -c "ls /sys/kernel/debug/nicprog | grep -qx 'np0' && ls /sys/kernel/debug/nicprog | grep -qx 'np0\.[0-9]*'"
ok=1
for _ in 1 2 3 4 5; do
	ip -n "$NA" link set np0 netns 1 &&
		test -d "$C/np0" &&
		ip link set np0 netns "$NA" &&
		ip netns exec "$NA" test -d "$C/np0" &&
		test ! -e "$C/np0" || { ok=0; break; }
done
check "moved back and forth five times, the entry follows each move" test $ok = 1
ip -n "$NA" link set np0 netns 1 && ip link set np0 name "$A"
ip -n "$NB" link set np0 netns 1 && ip link set np0 name "$B"
ip netns del "$NA"
ip netns del "$NB"
_created_ns=()
expect_eq "... and, both back, nothing is left behind: not a sysfs entry" \
	"$entries0" "$(find /sys -xdev 2> /dev/null | wc -l)"
check "... and debugfs names both by their interfaces again" \
	sh -c "test -d /sys/kernel/debug/nicprog/$A -a -d /sys/kernel/debug/nicprog/$B"
tap_end
