#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-network key-value cache (bpf/ncl/kvcache.o, tools/apps/nclkv) on
# the testbed: two clients run seeded mixed GET/PUT traces (Zipf 0.99 over
# 512 keys, 20% PUTs) against a storage server behind the switch, whose
# cache holds 256 values. No GET returns a value older than the client's
# last acknowledged PUT of its key, and every value is whole; GETs the
# switch answered never reached the server: the server served exactly the
# misses, and the switch counted exactly the hits.
# Before the traces, a client forges the server's kinds (FILL with a
# newer version, EVICT, REPLY and PUT_ACK to the other client, as itself
# and as the server): each is dropped and counted by kind, and the other
# client's GETs of the key get the server's value, then the switch's.
. "$(dirname "$0")/ncl_lib.sh"
KOBJ=${NCL_KV_OBJ:-$NICPROG_SRC/bpf/ncl/kvcache.o}
OPS=${NCL_KV_OPS:-600}

# field NAME FILE: the number after NAME on FILE's last line
field() { local v; v=$(tail -n 1 "$2" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"); echo "${v:-0}"; }
kv_stat() { pinned_u64 "$TOPO_PINS/kv_stats" "$1"; }	# NCL_KV_ST_*
forged() { pinned_u64 "$TOPO_PINS/ncl_stats" 8; }	# NCL_ST_FORGED

# forge SENDER OP DST: h1 sends kind OP for key 7 at a version newer than
# any, as label SENDER, to DST (a host number, or 0 the switch)
forge() {
	local dmac=$TOPO_SW_MAC dip=$TOPO_SW_IP
	[ "$3" = 0 ] || { dmac=${TOPO_MAC[$3]} dip=${TOPO_IP[$3]}; }
	ip netns exec "${TOPO_NS[1]}" python3 "$SELFDIR/ncl_forge.py" kv \
		"${TOPO_IF[1]}" "${TOPO_MAC[1]}" "${TOPO_IP[1]}" "$1" "$2" 7 \
		2147483647 "$dmac" "$dip"
}

tap_begin
check "two clients and a server (h3) behind a switch" topo_up "npk$$-" 3
{ topo_and; echo "serve 2 h3"; } > "$TMP/and"
check "ncl deploy puts the cache on the switch, h3 its server" \
	"$NCL" deploy "$TMP/and" "$TOPO_MAP" "$KOBJ" >/dev/null

# -- a client speaks as the server --
mkfifo "$TMP/go"
ip netns exec "${TOPO_NS[2]}" timeout 60 python3 "$SELFDIR/ncl_forge.py" get \
	"${TOPO_IP[3]}" 2 7 2 < "$TMP/go" > "$TMP/probe" 2>&1 &
ppid=$!
exec 9> "$TMP/go"
wait_for 20 grep -q ready "$TMP/probe"
before=()
for k in 3 4 5 6; do before[k]=$(kv_stat $k); done
fbefore=$(forged)
forge 1 3 0	# FILL key 7, version 2^31 - 1
forge 1 4 0	# EVICT
forge 1 5 2	# REPLY to h2
forge 1 6 2	# PUT_ACK to h2: key 7 never cached again, if taken
forge 3 3 0	# a FILL as the server, from h1's address
names=([3]=FILL [4]=EVICT [5]=REPLY [6]=PUT_ACK)
counted() {
	local k
	for k in 3 4 5 6; do
		[ "$(kv_stat $k)" = $((before[k] + 1)) ] || return 1
	done
	[ "$(forged)" = $((fbefore + 5)) ]
}
wait_for 10 counted
for k in 3 4 5 6; do
	expect_eq "a client's ${names[$k]} is dropped, counted as a forged ${names[$k]}" \
		1 $(($(kv_stat $k) - before[k]))
done
expect_eq "... and the one it sent as the server too: ncl_stats' forged counts all five" \
	5 $(($(forged) - fbefore))
# nicprog stats (netlink) of a switch port shows both counter tables
nl() {
	ip netns exec "$TOPO_SW_NS" "$TOPO_NICPROG" -j stats dev "${TOPO_SW_IF[1]}" |
		python3 -c "import json, sys; d = json.load(sys.stdin)
print(*[t['counters'] for t in d[0]['tables'] if t['name'] == '$1'][0])"
}
expect_eq "nicprog stats shows kv_stats, the forgeries by kind among them, as the table holds them" \
	"$(for k in 0 1 2 3 4 5 6; do kv_stat $k; done | xargs)" "$(nl kv_stats)"
# the server starts now: it ends 5 s after its last request
ip netns exec "${TOPO_NS[3]}" timeout 600 "$KV" server 3 512 256 "$TOPO_SW_IP" 5 5 > "$TMP/srv" 2>&1 &
spid=$!
wait_for 20 grep -q ready "$TMP/srv"
echo go >&9
exec 9>&-
wait "$ppid"
# 5 REPLY (the server's, version 1: a miss), then 7 HIT at version 1
expect_eq "the other client saw none of them: its GETs of the key got the server's value, then the switch's" \
	"ready|5 1|7 1" "$(paste -sd'|' "$TMP/probe")"
for i in 1 2; do
	ip netns exec "${TOPO_NS[$i]}" timeout 600 "$KV" client -z 0.99 "$i" \
		"${TOPO_IP[3]}" 512 "$OPS" 20 $((40 + i)) > "$TMP/c$i" 2>&1 &
	pids[i]=$!
done
ok=0
for i in 1 2; do
	wait "${pids[$i]}" && ok=$((ok + 1))
	tap_info "$(tail -n 1 "$TMP/c$i")"
done
expect_eq "no GET saw a value older than its client's acknowledged PUT, or a torn one" 2 "$ok"
wait "$spid"
tap_info "$(tail -n 1 "$TMP/srv")"
# the probe's GETs above: one miss, one hit
hits=$(($(field hits "$TMP/c1") + $(field hits "$TMP/c2") + 1))
misses=$(($(field misses "$TMP/c1") + $(field misses "$TMP/c2") + 1))
retries=$(($(field retries "$TMP/c1") + $(field retries "$TMP/c2")))
gets=$(field gets "$TMP/srv")
check "the switch answered GETs ($hits hits of $((hits + misses)))" test "$hits" -gt 1
expect_eq "the switch counted exactly the hits the clients saw" "$hits" "$(kv_stat 0)"
if [ "$retries" = 0 ]; then
	expect_eq "hits never reached the server: it served exactly the misses" "$misses" "$gets"
else
	check "hits never reached the server: it served the misses and no more than the $retries resent requests" \
		test "$gets" -ge "$misses" -a "$gets" -le $((misses + retries))
fi
tap_end
