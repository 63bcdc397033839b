#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The NCL testbed (tools/testing/topo): hosts in namespaces, each with a
# one-port nicsim NIC, wired to an N-port nicsim NIC that plays the switch
# with bpf/ncl/switch.o offloaded to every port. Every host reaches every
# other through the switch's program (its redirect counters prove the NIC
# forwarded, not a host stack); a frame for a MAC the switch does not know
# is dropped on the NIC; with seeded loss on every link each datagram is
# received or counted lost by exactly one wire; a bad topology is refused
# with its cause and leaves nothing behind.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"
for t in python3 bpftool jq; do
	command -v $t >/dev/null || skip_all "$t not installed"
done
[ -f "$NICPROG_SRC/bpf/ncl/switch.o" ] || skip_all "bpf/ncl/switch.o not built (make bpf)"
# shellcheck source=../../tools/testing/topo
. "$NICPROG_SRC/tools/testing/topo"
IO=$SELFDIR/wire_io.py
TMP=$(mktemp -d)
trap 'topo_down; rm -rf "$TMP"; cleanup' EXIT
P=npt$$-

swstat() { ip netns exec "$TOPO_SW_NS" ethtool -S "$1" | awk -v k="$2:" '$1 == k { print $2 }'; }
hstat() { ip netns exec "${TOPO_NS[$1]}" ethtool -S "${TOPO_IF[$1]}" | awk -v k="$2:" '$1 == k { print $2 }'; }
swnet() { ip netns exec "$TOPO_SW_NS" cat "/sys/class/net/$1/statistics/$2"; }
sw_sum() {	# [-n] COUNTER: its sum over the switch's ports (-n: netdev's)
	local i s=0 get=swstat
	[ "$1" = -n ] && { get=swnet; shift; }
	for ((i = 1; i <= TOPO_N; i++)); do
		s=$((s + $($get "${TOPO_SW_IF[$i]}" "$1")))
	done
	echo $s
}

tap_begin

# -- refusals --
topo_up "${P}x" 1 2> "$TMP/err"
rc=$?
topo_down
check "one host is refused, with the reason" \
	test $rc -ne 0 -a "$(cat "$TMP/err")" = "topo: N is 2 to 16, not 1"
topo_up "${P}x" 2 loss 2000000 2> "$TMP/err"
rc=$?
topo_down
check "a loss out of range is refused, naming the link" \
	test $rc -ne 0 -a -n "$(grep 'topo: cannot link' "$TMP/err")"
check "... and leaves no namespace behind" \
	test -z "$(ip netns list | grep "^${P}x")"

# -- four hosts --
check "four hosts through a switch" topo_up "${P}a" 4
all_ok=0 pairs=0
for ((i = 1; i <= 4; i++)); do
	for ((j = 1; j <= 4; j++)); do
		[ $i = $j ] && continue
		pairs=$((pairs + 1))
		ip netns exec "${TOPO_NS[$i]}" ping -c 1 -W 5 "${TOPO_IP[$j]}" \
			>/dev/null && all_ok=$((all_ok + 1))
	done
done
expect_eq "every host pings every other" "$pairs" "$all_ok"
# each ping and its reply cross the switch once each
redir=$(sw_sum xdp_redirect)
check "the switch's NIC program forwarded them (xdp_redirect $redir >= $((2 * pairs)))" \
	test "$redir" -ge $((2 * pairs))
expect_eq "the switch's host stack saw none of them" 0 "$(sw_sum xdp_pass)"

drop0=$(swstat "${TOPO_SW_IF[1]}" xdp_drop)
ip -n "${TOPO_NS[1]}" neigh replace 10.250.0.99 dev "${TOPO_IF[1]}" \
	lladdr 02:6e:63:6c:00:99 nud permanent
echo x | ip netns exec "${TOPO_NS[1]}" timeout 10 \
	python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("10.250.0.99", 9))'
expect_eq "a frame for an unknown MAC is dropped on the switch" \
	$((drop0 + 1)) "$(swstat "${TOPO_SW_IF[1]}" xdp_drop)"
topo_down

# -- loss on every link --
# 5 Mb/s: the sender is paced, so that only the wires lose frames
check "three hosts, 2% seeded loss and 5 Mb/s on every link" \
	topo_up "${P}b" 3 loss 20000 seed 11 rate 5000000
ip netns exec "${TOPO_NS[2]}" python3 "$IO" recv 9200 3000 3 > "$TMP/r" &
rpid=$!
wait_for 20 grep -q ready "$TMP/r"
ip netns exec "${TOPO_NS[1]}" timeout 120 python3 "$IO" send "${TOPO_IP[2]}" 9200 3000 200 >/dev/null
wait $rpid
read -r got _ < <(tail -n 1 "$TMP/r")
l1=$(hstat 1 wire_lost)
l2=$(swstat "${TOPO_SW_IF[2]}" wire_lost)
tap_info "3000 datagrams h1 -> h2: $got received, $l1 lost on h1's link, $l2 on h2's"
expect_eq "every datagram is received or lost on one of its two links" \
	3000 $((got + l1 + l2))
expect_eq "the switch dropped none for a full queue" \
	"0 0" "$(sw_sum -n rx_fifo_errors) $(sw_sum wire_queue_drops)"
check "both links lost some (2%)" test "$l1" -gt 0 -a "$l2" -gt 0
topo_down

tap_end
