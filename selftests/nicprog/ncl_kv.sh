#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The in-network key-value cache (bpf/ncl/kvcache.o, tools/apps/nclkv) on
# the testbed: two clients run seeded mixed GET/PUT traces (Zipf 0.99 over
# 512 keys, 20% PUTs) against a storage server behind the switch, whose
# cache holds 256 values. No GET returns a value older than the client's
# last acknowledged PUT of its key, and every value is whole; GETs the
# switch answered never reached the server: the server served exactly the
# misses, and the switch counted exactly the hits.
. "$(dirname "$0")/ncl_lib.sh"
KOBJ=${NCL_KV_OBJ:-$NICPROG_SRC/bpf/ncl/kvcache.o}
OPS=${NCL_KV_OPS:-600}

# field NAME FILE: the number after NAME on FILE's last line
field() { tail -n 1 "$2" | sed -n "s/.* $1 \([0-9]*\).*/\1/p"; }
kv_hits() { pinned_u64 "$TOPO_PINS/kv_stats" 0; }

tap_begin
check "two clients and a server (h3) behind a switch" topo_up "npk$$-" 3
topo_and > "$TMP/and"
check "ncl deploy puts the cache on the switch" \
	"$NCL" deploy "$TMP/and" "$TOPO_MAP" "$KOBJ" >/dev/null
ip netns exec "${TOPO_NS[3]}" timeout 600 "$KV" server 512 256 "$TOPO_SW_IP" 5 5 > "$TMP/srv" 2>&1 &
spid=$!
wait_for 20 grep -q ready "$TMP/srv"
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
hits=$(($(field hits "$TMP/c1") + $(field hits "$TMP/c2")))
misses=$(($(field misses "$TMP/c1") + $(field misses "$TMP/c2")))
retries=$(($(field retries "$TMP/c1") + $(field retries "$TMP/c2")))
gets=$(field gets "$TMP/srv")
check "the switch answered GETs ($hits hits of $((hits + misses)))" test "$hits" -gt 0
expect_eq "the switch counted exactly the hits the clients saw" "$hits" "$(kv_hits)"
if [ "$retries" = 0 ]; then
	expect_eq "hits never reached the server: it served exactly the misses" "$misses" "$gets"
else
	check "hits never reached the server: it served the misses and no more than the $retries resent requests" \
		test "$gets" -ge "$misses" -a "$gets" -le $((misses + retries))
fi
tap_end
