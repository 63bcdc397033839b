#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Applications on the streaming rings, against clients on the host stack of
# a wired port: kvserver answers get/set/delete over UDP with the requests
# steered to it by its NF (tools/apps/nf/kv.c) -- the server port's stack
# never sees one -- exactly as a key-value store must; logmon counts the
# lines of a syslog stream the NIC builds from datagram payloads
# (tools/apps/nf/syslog.c strips the headers and ends each message with a
# newline), line for line and byte for byte; sketch finds the heavy
# flows among the headers a mirror port's NF (tools/apps/nf/mirror.c)
# slices off every frame; lbfront sends each flow to the VIP to one
# backend of a Maglev table, rewritten with valid checksums, zero-copy.
. "$(dirname "$0")/lib.sh"
require_root_tools
APPS=$NICPROG_SRC/tools/apps
for f in kvserver logmon sketch lbfront nf/kv.o nf/syslog.o nf/mirror.o nf/vip.o; do
	[ -e "$APPS/$f" ] || skip_all "tools/apps/$f not built (make tools)"
done
for f in udp_req pkt_cap; do
	[ -x "$SELFDIR/$f" ] || skip_all "$f not built"
done
nicprog_load || skip_all "cannot load nicprog/nicsim"
TMP=$(mktemp -d /tmp/nicprog-apps.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# finishes PID: the process ends within 30 s (it is killed otherwise)
finishes() {
	wait_for 30 sh -c "! kill -0 $1 2>/dev/null" || { kill "$1"; return 1; }
}
xs() { ethtool -S "$SRV" | awk -v n="$1:" '$1 == n { print $2 }'; }

tap_begin
ID=$(nicsim_new_id)
CLI=nicsim${ID}p0 SRV=nicsim${ID}p1 NS=apps-$ID
nicsim_new "$ID" 2
echo "$ID:0 $ID:1" > "$BUS/link_device"
netns_new "$NS"
port_to_ns "$NS" "$CLI" 10.91.0.1/24
sysctl -qw "net.ipv6.conf.$SRV.disable_ipv6=1"
ip link set "$SRV" up
ip -n "$NS" neigh replace 10.91.0.2 lladdr "$(cat "/sys/class/net/$SRV/address")" dev "$CLI"

# kvserver
check "kvserver's NF offloads" \
	ip link set dev "$SRV" xdpoffload obj "$APPS/nf/kv.o" sec xdp
BIG=$(head -c 1024 /dev/zero | tr '\0' 'v')
cat > "$TMP/req" <<EOR
set alpha 1
get alpha
set beta hello world
get beta
get gamma
delete alpha
get alpha
delete alpha
set big $BIG
get big
bogus request
get
EOR
cat > "$TMP/want" <<EOR
STORED
VALUE alpha 1
STORED
VALUE beta hello world
END
DELETED
END
NOT_FOUND
STORED
VALUE big $BIG
ERROR expected get KEY, set KEY DATA or delete KEY
ERROR expected get KEY, set KEY DATA or delete KEY
EOR
rx0=$(nstat "$SRV" rx_packets) r0=$(xs xdp_redirect)
"$APPS/kvserver" "$SRV" -n 12 -i 20000 > "$TMP/kv" 2>&1 &
KV=$!
check "kvserver binds its pipe" wait_for 10 grep -q "^kvserver: $SRV output 0" "$TMP/kv"
ip netns exec "$NS" "$SELFDIR/udp_req" 10.91.0.2 11211 < "$TMP/req" > "$TMP/got"
check "every reply is what a key-value store must answer" diff -u "$TMP/want" "$TMP/got"
check "kvserver ends after its 12 requests" finishes "$KV"
wait "$KV"
expect_eq "and exits 0" 0 "$?"
sed 's/^/# /' "$TMP/kv"
check "it counted them: 5 get (3 hits), 3 set, 2 delete, 2 errors" \
	grep -q "12 requests: 5 get (3 hits), 3 set, 2 delete, 2 errors, 0 not UDP/IPv4" "$TMP/kv"
expect_eq "the NIC steered the 12 requests to the pipe" 12 $(($(xs xdp_redirect) - r0))
expect_eq "the server port's stack saw none of them" 0 $(($(nstat "$SRV" rx_packets) - rx0))

# logmon
check "logmon's NF replaces it" \
	ip -force link set dev "$SRV" xdpoffload obj "$APPS/nf/syslog.o" sec xdp
# 600 messages of 26 to 470 bytes: every 5th an error, every 50th a full disk
awk 'BEGIN {
	for (i = 1; i <= 600; i++) {
		m = "<14>host app[" i "]: message " i
		if (i % 5 == 0) m = m ": error code " i * 7
		if (i % 50 == 0) m = m ", disk full on /var"
		if (i % 3 == 0) { m = m " "; for (j = 0; j < i % 400; j++) m = m "x" }
		print m
	}
}' > "$TMP/lines"
"$APPS/logmon" "$SRV" -B -p error -p "disk full" -n 600 -i 20000 > "$TMP/log" 2>&1 &
LM=$!
check "logmon binds its stream pipe" wait_for 10 grep -q "^logmon: $SRV output 1" "$TMP/log"
bytes=$(wc -c < "$TMP/lines")
ip netns exec "$NS" "$SELFDIR/udp_req" -q 10.91.0.2 514 < "$TMP/lines"
check "logmon ends after its 600 lines" finishes "$LM"
wait "$LM"
expect_eq "and exits 0" 0 "$?"
sed 's/^/# /' "$TMP/log"
check "'error' in 120 lines" grep -qx "logmon: 'error' 120" "$TMP/log"
check "'disk full' in 12 lines" grep -qx "logmon: 'disk full' 12" "$TMP/log"
check "600 lines, $bytes bytes, none dropped" \
	grep -q "^logmon: 600 lines, $bytes bytes, 0 dropped" "$TMP/log"
p0=$(xs xdp_pass)
echo "<14>too short" | ip netns exec "$NS" "$SELFDIR/udp_req" -q 10.91.0.2 514
passed() { [ $(($(xs xdp_pass) - p0)) = 1 ]; }
check "a message too short to strip on the NIC passes to the host" wait_for 5 passed
# sketch: 5 heavy flows of 100 frames among 200 light ones of 2
check "sketch's NF replaces it" \
	ip -force link set dev "$SRV" xdpoffload obj "$APPS/nf/mirror.o" sec xdp
awk 'BEGIN {
	for (r = 0; r < 100; r++) {
		for (h = 5001; h <= 5005; h++) printf "%d %032d\n", h, r
		if (r < 2) for (l = 6000; l < 6200; l++) printf "%d %032d\n", l, r
	}
}' > "$TMP/flows"
"$APPS/sketch" "$SRV" -k 5 -n 900 -i 20000 > "$TMP/sk" 2>&1 &
SK=$!
check "sketch binds its pipe" wait_for 10 grep -q "^sketch: $SRV output 3" "$TMP/sk"
ip netns exec "$NS" "$SELFDIR/udp_req" -f 10.91.0.2 7777 < "$TMP/flows"
check "sketch ends after its 900 frames" finishes "$SK"
wait "$SK"
expect_eq "and exits 0" 0 "$?"
sed 's/^/# /' "$TMP/sk"
check "900 frames of 74 bytes, none dropped" \
	grep -q "^sketch: 900 frames, 66600 bytes, 0 not IPv4 TCP/UDP, 0 dropped" "$TMP/sk"
heavy() {
	awk '$2 == "udp" && $3 ~ /^10\.91\.0\.1:500[1-5]$/ && $6 == "frames" &&
	     $7 >= 100 && $7 <= 102 && $9 >= 7400 && $9 <= 7548 { n++ }
	     END { exit n != 5 }' "$TMP/sk"
}
check "its top 5 are the heavy flows, 100 frames each (count-min: never under, a little over at most)" heavy
# lbfront: 150 flows of 4 frames to the VIP, three backends
check "lbfront's NF replaces it" \
	ip -force link set dev "$SRV" xdpoffload obj "$APPS/nf/vip.o" sec xdp
ip -n "$NS" neigh replace 10.91.0.100 lladdr "$(cat "/sys/class/net/$SRV/address")" dev "$CLI"
awk 'BEGIN { for (r = 0; r < 4; r++) for (s = 7000; s < 7150; s++) printf "%d %032d\n", s, r }' > "$TMP/lbflows"
"$APPS/lbfront" "$SRV" -b 02:00:00:00:01:01,10.92.0.1 -b 02:00:00:00:01:02,10.92.0.2 \
	-b 02:00:00:00:01:03,10.92.0.3 -n 600 -i 20000 > "$TMP/lb" 2>&1 &
LB=$!
check "lbfront binds its pipes" wait_for 10 grep -q "^lbfront: $SRV output 2" "$TMP/lb"
# 15 s without a frame ends the capture: the burst is over (with 5 s
# and the default buffer, 589 of 600 beside six other guests)
ip netns exec "$NS" "$SELFDIR/pkt_cap" "$CLI" 600 15000 > "$TMP/cap" 2>&1 &
CAP=$!
check "a capture listens on the client's port" wait_for 10 grep -q "^capturing" "$TMP/cap"
ip netns exec "$NS" "$SELFDIR/udp_req" -f 10.91.0.100 8080 < "$TMP/lbflows"
check "lbfront ends after its 600 frames" finishes "$LB"
wait "$LB"
expect_eq "and exits 0" 0 "$?"
check "the capture ends" finishes "$CAP"
sed 's/^/# /' "$TMP/lb"
expect_eq "all 600 frames came back out of the port, rewritten" 600 \
	"$(grep -c ' 10\.92\.0\.[123]:8080 ip=ok l4=ok$' "$TMP/cap")"
# per flow (source port): one backend, whose MAC matches its address
awk '$1 != "capturing" {
	split($2, s, ":"); split($3, d, ":"); b = substr(d[1], 9)
	if ($1 != "02:00:00:00:01:0" b) bad++
	if ((s[2] in of) && of[s[2]] != b) bad++
	of[s[2]] = b; frames[b]++
}
END {
	for (f in of) { flows[of[f]]++; n++ }
	for (b = 1; b <= 3; b++)
		printf "backend 10.92.0.%d flows %d frames %d\n", b, flows[b], frames[b]
	printf "flows %d bad %d\n", n, bad
}' "$TMP/cap" > "$TMP/per"
sed 's/^/# capture: /' "$TMP/per"
expect_eq "150 flows, each to one backend, MAC and address agreeing" "flows 150 bad 0" \
	"$(tail -1 "$TMP/per")"
shares() {
	awk '$1 == "backend" { if ($4 < 30 || $4 > 70) bad++ } END { exit bad }' "$TMP/per"
}
check "every backend has a fair share of the flows (30..70 of 150)" shares
agree() {
	local b f
	for b in 1 2 3; do
		f=$(awk -v b="10.92.0.$b" '$1 == "backend" && $2 == b { print $4, $6 }' "$TMP/per")
		grep -q "^lbfront: backend 10.92.0.$b entries 2184[56] flows ${f% *} frames ${f#* }$" "$TMP/lb" || return 1
	done
}
check "lbfront's counts are the capture's, its table split 21845/21846" agree
out=$("$APPS/lbfront" --table 5)
sed 's/^/# /' <<< "$out"
check "Maglev: 5 backends get 13107 or 13108 entries each" \
	grep -q "entries per backend 13107..13108 of 65537" <<< "$out"
moved() { awk '/removing one moves/ { exit !($5 < 655) }' <<< "$out"; }
check "removing one moves under 1% of the others' entries" moved
ip link set dev "$SRV" xdpoffload off
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
