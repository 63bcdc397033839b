#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# In-network computing (Documentation/nicprog/ncl.rst) on the testbed of
# tools/testing/topo: tools/ncl/ncl deploys the allreduce kernel
# (bpf/ncl/allreduce.o) to every port of the switch, with ar_dedup.o on
# the hosts' NICs, and kvcache.o, on every shipped profile, and refuses a
# description or object that does not fit, naming the label; the kernel sums int32 arrays of 2, 4 and 8 workers exactly,
# every element checked against the sum computed on the host, with 1%
# seeded loss on every link: windows and results are lost, resent windows
# are never added twice. Windows a worker sends as another are dropped as
# forged and change no element. NCL_AR_OBJ= runs it on another allreduce
# object (one without the sender check fails it).
. "$(dirname "$0")/ncl_lib.sh"
KOBJ=${NCL_AR_OBJ:-$NICPROG_SRC/bpf/ncl/allreduce.o}
P=npn$$-
ELEMS=${NCL_ELEMS:-20000}

ncl_stat() { pinned_u64 "$TOPO_PINS/ncl_stats" "$1"; }

# allreduce N ELEMS: N workers' job; sets EXACT (workers whose every
# element was right) and RESENT (windows resent in all)
allreduce() {
	local n=$1 i pids=() r
	"$AR" setup "$TOPO_PINS" "$n" || return 1
	[ -z "${FORGE:-}" ] || $FORGE
	for ((i = 1; i <= n; i++)); do
		ip netns exec "${TOPO_NS[$i]}" timeout 300 "$AR" run -r 300 \
			"$i" "$n" "$2" 7 "$TOPO_SW_IP" > "$TMP/w$i" 2>&1 &
		pids+=($!)
	done
	EXACT=0 RESENT=0
	for ((i = 1; i <= n; i++)); do
		wait "${pids[$((i - 1))]}" && grep -q ': exact$' "$TMP/w$i" &&
			EXACT=$((EXACT + 1))
		r=$(sed -n 's/.* resent \([0-9]*\) .*/\1/p' "$TMP/w$i")
		RESENT=$((RESENT + ${r:-0}))
	done
	for ((i = 1; i <= n; i++)); do
		grep -q ': exact$' "$TMP/w$i" && continue
		while read -r l; do tap_info "worker $i: $l"; done < <(head -5 "$TMP/w$i")
	done
	return 0
}
deploy() {	# OBJ...: the testbed's description and map; output in $TMP/out
	topo_and > "$TMP/and"
	"$NCL" deploy "$TMP/and" "$TOPO_MAP" "$@" > "$TMP/out" 2>&1 && return 0
	tap_info "$(cat "$TMP/out")"
	return 1
}
refused() {	# TEXT OBJ...: deploy fails, saying TEXT
	topo_and > "$TMP/and"
	! "$NCL" deploy "$TMP/and" "$TOPO_MAP" "${@:2}" > "$TMP/out" 2>&1 &&
		grep -qF -- "$1" "$TMP/out" ||
		{ tap_info "$(cat "$TMP/out")"; return 1; }
}

# bad_input: after a finished job of two workers, malformed windows
# (ncp_bad.py) are each dropped on the NIC under their cause, and the next
# job is still exact
bad_input() {
	local names=(windows truncated malformed unknown bad_mask stale dup no_route forged)
	local i before=() want=() after=() mark
	declare -A idx
	for i in "${!names[@]}"; do
		idx[${names[$i]}]=$i
		before[i]=$(ncl_stat "$i")
		want[i]=${before[$i]}
	done
	mark=$(kmsg_mark)
	while read -r name; do
		i=${idx[$name]}
		want[i]=$((want[i] + 1))
	# window 0's slot was reused by window 64 if the job had that many
	done < <(ip netns exec "${TOPO_NS[1]}" python3 "$SELFDIR/ncp_bad.py" "$TOPO_SW_IP" \
		$((ELEMS > 64 * 256 ? 0 : 1000000)))
	counted() {
		local j
		for j in 1 2 3 4 5 8; do
			[ "$(ncl_stat "$j")" = "${want[$j]}" ] || return 1
		done
	}
	wait_for 10 counted
	for i in 1 2 3 4 5 8; do
		after[i]=$(ncl_stat "$i")
		expect_eq "malformed windows: ${names[$i]} dropped and counted" \
			$((want[i] - before[i])) $((after[i] - before[i]))
	done
	# the same counts through netlink: nicprog stats shows ncl_stats, the
	# switch's (every port's program shares it), as a counter table
	local pin nl
	pin=$(for i in "${!names[@]}"; do ncl_stat "$i"; done | xargs)
	nl=$(ip netns exec "$TOPO_SW_NS" "$TOPO_NICPROG" -j stats dev "${TOPO_SW_IF[2]}" |
	     python3 -c "import json, sys; d = json.load(sys.stdin)
print(*[t['counters'] for t in d[0]['tables'] if t['name'] == 'ncl_stats'][0])")
	expect_eq "nicprog stats (netlink) shows the drops by cause, as the table holds them" \
		"$pin" "$nl"
	check "... and nothing in the kernel log" sh -c "! dmesg | tail -n +$((mark + 1)) | grep -E 'BUG|WARNING|Oops|nicprog|nicsim'"
	allreduce 2 3000
	expect_eq "the next job is exact" 2 "$EXACT"
}

# forge_as2: before the workers start, h1 sends the job's first 32
# windows (every slot) as worker 2, once from its own address and once
# from worker 2's MAC and IPv4 address: taken, they would claim worker
# 2's place in every slot with elements of 1000000
forge_as2() {
	local how
	for how in "${TOPO_MAC[1]} ${TOPO_IP[1]}" "${TOPO_MAC[2]} ${TOPO_IP[2]}"; do
		# shellcheck disable=SC2086  # MAC and address
		ip netns exec "${TOPO_NS[1]}" python3 "$SELFDIR/ncl_forge.py" ar \
			"${TOPO_IF[1]}" $how 2 32 1000000 "$TOPO_SW_MAC" "$TOPO_SW_IP"
	done
}

# forged: windows one worker sends as another are dropped, counted, and
# change no element of the sum
forged() {
	local before after
	before=$(ncl_stat 8)
	FORGE=forge_as2 allreduce 2 $((32 * 256))
	after=$(ncl_stat 8)
	expect_eq "a worker's windows sent as another worker, from its own address or the other's, are dropped as forged" \
		64 $((after - before))
	expect_eq "... and every element of the sum is exact" 2 "$EXACT"
}

tap_begin

# -- the description, the map and the objects must agree --
check "two hosts" topo_up "${P}r" 2
{ topo_and; echo "host h9"; } > "$TMP/and9"
out=$("$NCL" deploy "$TMP/and9" "$TOPO_MAP" "$KOBJ" 2>&1)
rc=$?
expect_eq "a label with no device is refused, named" \
	"1 ncl: label h9: no device in the map (a h9 line)" "$rc $out"
{ topo_and; echo "link h1 h2"; } > "$TMP/and9"
out=$("$NCL" deploy "$TMP/and9" "$TOPO_MAP" "$KOBJ" 2>&1)
expect_eq "a link the network lacks is refused, named" \
	"ncl: link h1 h2: links join a host and a switch" "$out"
{ topo_and; echo "serve 1 s1"; } > "$TMP/and9"
out=$("$NCL" deploy "$TMP/and9" "$TOPO_MAP" "$KOBJ" 2>&1)
expect_eq "a server that is no host is refused, named" \
	"ncl: serve 1 s1: s1 is not a host of the description" "$out"
{ topo_and; echo "serve 1 h1"; echo "serve 1 h2"; } > "$TMP/and9"
out=$("$NCL" deploy "$TMP/and9" "$TOPO_MAP" "$KOBJ" 2>&1)
expect_eq "a second server of a kernel is refused, named" \
	"ncl: $TMP/and9:$(($(topo_and | wc -l) + 2)): kernel 1 is served by h1 already; one server a kernel" "$out"
check "an object at a label the description lacks is refused, named" \
	refused "ncl: ncl_elsewhere.o at s9: label s9 is not in" "$SELFDIR/progs/ncl_elsewhere.o"
check "a kernel the switch's memory cannot hold is refused, with its label and the reason" \
	refused "ncl: ncl_big.o at s1: " "$SELFDIR/progs/ncl_big.o"
tap_info "$(cat "$TMP/out")"
check "... the reason is the NIC's memory" grep -q "No space left on device" "$TMP/out"
pong() { ip netns exec "${TOPO_NS[1]}" ping -c 1 -W 5 "${TOPO_IP[2]}" >/dev/null; }
check "a refused deploy leaves the switch forwarding" pong
# malformed windows, over lossless links: each must reach the switch
check "deploy allreduce.o on the lossless pair" deploy "$KOBJ"
allreduce 2 "$ELEMS"
expect_eq "a first job is exact" 2 "$EXACT"
bad_input
forged
topo_down

# -- every shipped profile --
for prof in nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga; do
	if topo_up "${P}p" 2 switch-profile "$prof" profile "$prof" &&
	   deploy "$KOBJ" "$NICPROG_SRC/bpf/ncl/ar_dedup.o" &&
	   allreduce 2 1000 && [ "$EXACT" = 2 ]; then
		tap_ok "allreduce.o (switch) and ar_dedup.o (hosts) deploy to $prof NICs and sum exactly"
	else
		tap_fail "allreduce.o (switch) and ar_dedup.o (hosts) deploy to $prof NICs and sum exactly"
	fi
	check "kvcache.o deploys to a $prof switch" deploy "$NICPROG_SRC/bpf/ncl/kvcache.o"
	topo_down
done

# -- 2, 4, 8 workers over lossy links --
for n in 2 4 8; do
	check "$n workers, 1% loss on every link" \
		topo_up "${P}$n" "$n" loss 10000 seed $((n * 100))
	check "ncl deploy puts the allreduce kernel on the switch" deploy "$KOBJ"
	allreduce "$n" "$ELEMS"
	tap_info "$(tail -n 1 "$TMP/w1")"
	expect_eq "$n workers: every worker's every element equals the host's sum" "$n" "$EXACT"
	dups=$(ncl_stat 6) stale=$(ncl_stat 5)
	tap_info "$n workers: $RESENT windows resent; the switch dropped $dups duplicates, $stale stale"
	lost=0
	for ((i = 1; i <= n; i++)); do
		lost=$((lost + $(ip netns exec "${TOPO_NS[$i]}" ethtool -S "${TOPO_IF[$i]}" |
				 awk '$1 == "wire_lost:" { print $2 }')))
	done
	check "$n workers: the hosts' links lost $lost frames" test "$lost" -gt 0
	topo_down
done
tap_end
