#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Native host XDP and AF_XDP in copy mode on nicsim ports, the baselines an
# offloaded NF is measured against on the same port: xsk_test attaches
# progs/hostxdp.o natively and sends a seeded mix of frames, one verdict
# per UDP port; frames to the AF_XDP socket, sent back and redirected out
# of another port (ndo_xdp_xmit) arrive where they should, byte for byte,
# and nowhere else; the port's counters agree frame for frame. The same
# object is then offloaded unchanged (ip link ... nicprog): the NIC's
# program hands the socket's frames to the host XSKMAP the loader made,
# which the table standing for it names, and a key without a socket
# passes its frames on the host, as bpf_redirect_map(..., XDP_PASS) does;
# the same with the socket looked up before the redirect (hostxdp_gate.o),
# which the loader turns into that redirect. Then a port with a program attached and a socket bound is deleted under
# them.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/xsk_test" ] || skip_all "xsk_test not built"
OBJ=$SELFDIR/progs/hostxdp.o
[ -f "$OBJ" ] || skip_all "progs/hostxdp.o not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

SEED=${AFXDP_SEED:-11}
COUNT=${AFXDP_COUNT:-3000}
TMP=$(mktemp -d /tmp/nicprog-afxdp.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# xs PORT NAME: one of the port's ethtool counters
xs() { ethtool -S "$1" | awk -v n="$2:" '$1 == n { print $2 }'; }
# verdict NAME: what xsk_test says that many frames got
verdict() { awk -v n="$1" '$1 == "verdicts" { for (i = 2; i < NF; i += 2) if ($i == n) print $(i + 1) }' "$TMP/out"; }

tap_begin
ID=$(nicsim_new_id)
OUT=nicsim${ID}p0 IN=nicsim${ID}p1 RDR=nicsim${ID}p2 PEER=nicsim${ID}p3
nicsim_new "$ID" 4
echo "$ID:0 $ID:1" > "$BUS/link_device"
echo "$ID:2 $ID:3" > "$BUS/link_device"
for p in $OUT $IN $RDR $PEER; do
	sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
	ip link set "$p" up
done

for c in rx_xdp_drop rx_xdp_pass rx_xdp_tx rx_xdp_redirect rx_xdp_aborted; do
	eval "b_$c=$(xs "$IN" $c)"
done
b_xmit=$(xs "$RDR" xdp_xmit)
"$SELFDIR/xsk_test" "$IN" "$OUT" "$OBJ" "$COUNT" "$SEED" "$RDR" "$PEER" \
	> "$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
expect_eq "xsk_test $COUNT frames, seed $SEED: exit status" 0 "$rc"
check "xsk_test: all 7 cases pass" grep -q "^# Totals: pass:7 fail:0" "$TMP/out"
d() { echo $(($(xs "$IN" "$1") - $(eval echo "\$b_$1"))); }
expect_eq "rx_xdp_drop counts the dropped frames" "$(verdict drop)" "$(d rx_xdp_drop)"
expect_eq "rx_xdp_pass counts the passed frames" "$(verdict pass)" "$(d rx_xdp_pass)"
expect_eq "rx_xdp_tx counts the frames sent back" "$(verdict tx)" "$(d rx_xdp_tx)"
expect_eq "rx_xdp_redirect counts the socket's and the redirected" \
	"$(($(verdict xsk) + $(verdict redirect)))" "$(d rx_xdp_redirect)"
expect_eq "rx_xdp_aborted counts the aborted" "$(verdict aborted)" "$(d rx_xdp_aborted)"
expect_eq "xdp_xmit of $RDR counts what was redirected to it" \
	"$(verdict redirect)" "$(($(xs "$RDR" xdp_xmit) - b_xmit))"
expect_eq "and it sent them all" 0 "$(xs "$RDR" xdp_xmit_errors)"
check "nothing stays attached" sh -c "! ip link show dev $IN | grep -q prog/xdp"

# offloaded OBJ SEED: the object on the NIC, the XSKMAP the host's.
offloaded() {
	local obj=$1 seed=$2 name
	name=$(basename "$obj")
	check "$name offloads unchanged (ip link ... nicprog)" \
		"$IP" link set dev "$IN" nicprog obj "$obj"
	"$NICPROG" -j prog show dev "$IN" > "$TMP/show"
	XSKS=$(/usr/bin/python3 -c 'import json, sys
show = json.load(open(sys.argv[1]))
for t in (show[0] if isinstance(show, list) else show)["tables"]:
    if t["name"] == "xsks": print(t.get("host_map_id", 0))' "$TMP/show")
	PROG=$(bpftool -j prog show | /usr/bin/python3 -c 'import json, sys
print([p["id"] for p in json.load(sys.stdin) if p.get("name") == "hostxdp"][0])')
	CFG=$(for m in $(bpftool -j prog show id "$PROG" | /usr/bin/python3 -c \
		'import json, sys; print(" ".join(map(str, json.load(sys.stdin)["map_ids"])))'); do
		bpftool map show id "$m" | grep -q " name cfg " && echo "$m"; done)
	check "$name: the xsks table stands for a host XSKMAP (host map $XSKS)" \
		sh -c "bpftool map show id '$XSKS' | grep -q 'xskmap  name xsks'"
	check "$name: nicprog prog show names it" \
		sh -c "'$NICPROG' prog show dev '$IN' | grep -q 'xsks (host of host map $XSKS)'"
	for c in xdp_drop xdp_pass xdp_tx xdp_redirect xdp_aborted rx_xdp_pass \
		 rx_xdp_redirect; do
		eval "b_$c=$(xs "$IN" $c)"
	done
	b_xmit=$(xs "$RDR" xdp_xmit)
	"$SELFDIR/xsk_test" --maps "$XSKS" "$CFG" "$IN" "$OUT" "$obj" "$COUNT" \
		"$seed" "$RDR" "$PEER" > "$TMP/out" 2>&1
	rc=$?
	sed 's/^/# /' "$TMP/out"
	expect_eq "$name offloaded: xsk_test exit status" 0 "$rc"
	check "$name offloaded: all 7 cases pass" grep -q "^# Totals: pass:7 fail:0" "$TMP/out"
	expect_eq "$name: the NIC dropped the dropped" "$(verdict drop)" "$(d xdp_drop)"
	expect_eq "$name: the NIC sent back the sent back" "$(verdict tx)" "$(d xdp_tx)"
	expect_eq "$name: the NIC aborted the aborted" "$(verdict aborted)" "$(d xdp_aborted)"
	expect_eq "$name: the NIC redirected the socket's, the empty key's and the redirected" \
		"$(($(verdict xsk) + $(verdict empty) + $(verdict redirect)))" \
		"$(d xdp_redirect)"
	expect_eq "$name: the NIC passed the rest" "$(($(verdict pass) - $(verdict empty)))" \
		"$(d xdp_pass)"
	expect_eq "$name: the host handed the socket's to it" "$(verdict xsk)" \
		"$(d rx_xdp_redirect)"
	expect_eq "$name: the host passed the empty key's (XDP_PASS on a miss)" \
		"$(verdict empty)" "$(d rx_xdp_pass)"
	expect_eq "$name: xdp_xmit of $RDR: nothing (the NIC sends out of its port)" \
		0 "$(($(xs "$RDR" xdp_xmit) - b_xmit))"
	check "$name: the host XSKMAP goes with the program" \
		wait_for 10 sh -c "! bpftool map show id '$XSKS' >/dev/null 2>&1"
}

IP=$NICPROG_SRC/tools/iproute2/ip
NICPROG=$NICPROG_SRC/tools/nicprog/nicprog
if [ -x "$IP" ] && [ -x "$NICPROG" ]; then
	offloaded "$OBJ" "$((SEED + 1))"
	# the socket looked up first, as AF_XDP programs before 5.3 do
	offloaded "$SELFDIR/progs/hostxdp_gate.o" "$((SEED + 2))"
else
	tap_skip "hostxdp.o offloaded" "tools/iproute2/ip or tools/nicprog/nicprog not built"
fi

# The device goes while a program is attached and a socket bound.
mkfifo "$TMP/in"
"$SELFDIR/xsk_test" --hold "$IN" "$OBJ" < "$TMP/in" > "$TMP/hold" 2>&1 &
HPID=$!
exec 3> "$TMP/in"
check "a socket is bound to a port with a native program" \
	wait_for 10 grep -q "^ready" "$TMP/hold"
progs=$(bpftool prog show | grep -c "name hostxdp")
expect_eq "the program is loaded" 1 "$progs"
check "the device is deleted under them" nicsim_del "$ID"
echo go >&3
exec 3>&-
check "the holder finishes" wait_for 20 sh -c "! kill -0 $HPID 2>/dev/null"
kill "$HPID" 2>/dev/null
wait "$HPID"
expect_eq "and exits 0" 0 "$?"
sed 's/^/# /' "$TMP/hold"
check "the program is released" \
	wait_for 10 sh -c "! bpftool prog show | grep -q 'name hostxdp'"
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
