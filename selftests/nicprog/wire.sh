#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a wire does (drivers/nicsim/wire.c): its rate and delay hold frames
# back at least as long as they say, in simulated time under a dilation
# too; a sender is paced rather than dropped; seeded loss loses the same
# frames for the same seed and other frames for another, every frame
# accounted for; cutting or deleting a shaped wire under traffic loses
# what was in flight and hangs nobody. Bounds are lower bounds only: a
# busy machine can make a transfer slower, never faster than its wire.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"
command -v python3 >/dev/null || skip_all "python3 not installed"

IO=$SELFDIR/wire_io.py
ID=$(nicsim_new_id)
A=nicsim${ID}p0
B=nicsim${ID}p1
NSA=npwa-$ID
NSB=npwb-$ID
OLD_DILATION=$(cat $BUS/dilation)

tap_begin
nicsim_new "$ID" 2 || { tap_fail "create a device"; tap_end; }
netns_new "$NSA"
netns_new "$NSB"
port_to_ns "$NSA" "$A" 10.78.0.1/24
port_to_ns "$NSB" "$B" 10.78.0.2/24
# no ARP: only the test's datagrams cross the wire (and draw its loss)
ip -n "$NSA" neigh replace 10.78.0.2 dev "$A" nud permanent \
	lladdr "$(ip netns exec "$NSB" cat /sys/class/net/$B/address)"
ip -n "$NSB" neigh replace 10.78.0.1 dev "$B" nud permanent \
	lladdr "$(ip netns exec "$NSA" cat /sys/class/net/$A/address)"

relink() {
	echo "$ID:0" > $BUS/unlink_device 2>/dev/null
	echo "$ID:0 $ID:1 $*" > $BUS/link_device
}
wire() { ip netns exec "$1" cat "/sys/class/net/$2/wire/$3"; }
ethstat() { ip netns exec "$1" ethtool -S "$2" | awk -v k="$3:" '$1 == k { print $2 }'; }
dev_stat() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"; }

# transfer COUNT SIZE [SEQ_FILE]: A sends, B receives; sets GOT and NS_TAKEN
# (from just before the first send to the last arrival)
transfer() {
	local out=$TMP/recv start
	rm -f "$out"
	ip netns exec "$NSB" python3 "$IO" recv 9100 "$1" 3 ${3:+"$3"} > "$out" &
	local rpid=$!
	wait_for 20 grep -q ready "$out" || { kill $rpid; return 1; }
	start=$(timeout 120 ip netns exec "$NSA" python3 "$IO" send 10.78.0.2 9100 "$1" "$2")
	wait $rpid
	read -r GOT last < <(tail -n 1 "$out")
	NS_TAKEN=$((last - start))
}
TMP=$(mktemp -d)
trap 'echo "$OLD_DILATION" > $BUS/dilation; rm -rf "$TMP"; cleanup' EXIT

# A frame of SIZE payload bytes on the wire: UDP, IP, Ethernet headers and
# the 20 bytes of preamble and gap.
bits() { echo $((($1 + 8 + 20 + 14 + 20) * 8)); }

# -- rate --
echo 1 > $BUS/dilation
check "link with a rate of 10 Mb/s" relink rate 10000000
expect_eq "the port shows its rate" 10000000 "$(wire "$NSA" "$A" rate)"
check "ethtool reports the rate as the speed" \
	sh -c "ip netns exec $NSA ethtool $A | grep -q 'Speed: 10Mb/s'"
transfer 200 1200
expect_eq "every datagram arrives: the sender is paced, not dropped" 200 "$GOT"
need=$((200 * $(bits 1200) * 1000000000 / 10000000))
tap_info "200 x 1200 B at 10 Mb/s: $NS_TAKEN ns, at least $need"
check "the wire takes at least 200 frames' bits over its rate" \
	test "$NS_TAKEN" -ge "$need"
expect_eq "nothing queued was dropped" 0 "$(ethstat "$NSA" "$A" wire_queue_drops)"

# -- dilation: 100 Mb/s of simulated time, ten times slower --
echo 10 > $BUS/dilation
check "link with 100 Mb/s under a dilation of 10" relink rate 100000000
expect_eq "the port shows the dilation" 10 "$(wire "$NSA" "$A" dilation)"
transfer 200 1200
expect_eq "every datagram arrives" 200 "$GOT"
tap_info "200 x 1200 B at 100 Mb/s, dilation 10: $NS_TAKEN ns, at least $need"
check "ten times slower in the host's time than its simulated rate" \
	test "$NS_TAKEN" -ge "$need"
echo 1 > $BUS/dilation

# -- delay --
check "link with a 50 ms delay" relink delay 50000000
rtt=$(ip netns exec "$NSA" ping -c 1 -W 10 10.78.0.2 |
	sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p')
tap_info "ping over a 50 ms wire: ${rtt:-none} ms"
check "a round trip takes both ways' delay" \
	awk -v r="${rtt:-0}" 'BEGIN { exit !(r >= 100) }'

# -- seeded loss --
lost_run() {	# SEED TAG: sets LOST (on A's wire) and SEQS (B's received)
	local before
	relink loss 10000 seed "$1" || return 1
	before=$(ethstat "$NSA" "$A" wire_lost)
	transfer 5000 100 "$TMP/seq.$1.$2"
	LOST=$(($(ethstat "$NSA" "$A" wire_lost) - before))
	SEQS=$TMP/seq.$1.$2
}
differ() { ! cmp -s "$1" "$2"; }
lost_run 7 a
L1=$LOST G1=$GOT
tap_info "5000 datagrams, loss 1%, seed 7: $L1 lost, $G1 received"
check "1% loss loses about 1% (20 to 80 of 5000)" test "$L1" -ge 20 -a "$L1" -le 80
expect_eq "every frame is received or lost by the wire" 5000 $((G1 + L1))
lost_run 7 b
expect_eq "the same seed loses as many frames" "$L1" "$LOST"
check "the same seed loses the same frames" cmp -s "$TMP/seq.7.a" "$SEQS"
lost_run 8 a
check "another seed loses other frames" differ "$TMP/seq.7.a" "$SEQS"
expect_eq "the loss is shown" 10000 "$(wire "$NSA" "$A" loss_ppm)"
echo "$ID:0" > $BUS/unlink_device
expect_eq "an unlinked port's wire does nothing" "0 0 0" \
	"$(wire "$NSA" "$A" rate) $(wire "$NSA" "$A" loss_ppm) $(wire "$NSA" "$A" delay_ns)"

# -- cut and deleted under traffic --
relink rate 1000000
ip netns exec "$NSA" timeout 60 python3 "$IO" send 10.78.0.2 9100 100000 1400 >/dev/null &
spid=$!
wait_for 10 sh -c "[ \$(ip netns exec $NSA cat /sys/class/net/$A/statistics/tx_packets) -gt 50 ]"
echo "$ID:0" > $BUS/unlink_device
check "a shaped wire cut under traffic: the port has no carrier" \
	test "$(ip netns exec "$NSA" cat /sys/class/net/$A/carrier)" = 0
relink rate 1000000
wait_for 10 sh -c "[ \$(ip netns exec $NSB cat /sys/class/net/$B/statistics/rx_packets) -gt 0 ]"
check "delete the device with frames in flight" nicsim_del "$ID"
# the sender's frames held by the wire are freed: it finishes or is
# refused, within its bound (timeout 60 would say 124)
wait $spid
rc=$?
check "the sender is not left hanging (exit $rc)" test "$rc" -ne 124
check "the device is gone" test ! -e "$BUS/devices/nicsim$ID"

tap_end
