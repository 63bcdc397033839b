#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# An incoming network kernel (bpf/ncl/ar_dedup.o, NCL_IN) on the
# receiving hosts: offloaded to each worker's NIC, and on each worker's
# CPU (native XDP), it gives the same results: the AllReduce sums are
# exact, every result window reaches the application exactly once (the
# worker saw no duplicate answer, and the kernel passed as many windows
# as the job has, dropping every further copy that loss and resends
# made). Offloaded, it also delivers through a pipe of the NIC to a
# worker using libncl's nicprog-ring backend, exactly; on the CPU that
# backend is refused, naming why.
. "$(dirname "$0")/ncl_lib.sh"

tap_begin
for mode in nic cpu; do
	cpu=
	[ "$mode" = cpu ] && cpu=1
	check "$mode: two workers, 3% loss on every link" \
		topo_up "npi$$$mode-" 2 loss 30000 seed 5
	topo_and > "$TMP/and"
	check "$mode: deploy allreduce.o on the switch, ar_dedup.o on the hosts" \
		"$NCL" deploy ${cpu:+--cpu} "$TMP/and" "$TOPO_MAP" \
		"$NICPROG_SRC/bpf/ncl/allreduce.o" "$NICPROG_SRC/bpf/ncl/ar_dedup.o"
	if [ "$mode" = cpu ]; then
		# XDP_ATTACHED_DRV (1), where offload is XDP_ATTACHED_HW (3)
		check "cpu: the hosts run it as native XDP, not offloaded" sh -c \
			"ip -n ${TOPO_NS[1]} -j link show dev ${TOPO_IF[1]} | jq -e '.[0].xdp.mode == 1' >/dev/null"
	else
		check "nic: the hosts run it offloaded" sh -c \
			"ip -n ${TOPO_NS[1]} -j link show dev ${TOPO_IF[1]} | jq -e '.[0].xdp.mode == 3' >/dev/null"
	fi
	"$AR" setup "$TOPO_PINS" 2
	for i in 1 2; do
		ip netns exec "${TOPO_NS[$i]}" timeout 300 "$AR" run -r 300 \
			"$i" 2 20000 9 "$TOPO_SW_IP" > "$TMP/w$i" 2>&1 &
		pids[i]=$!
	done
	exact=0 appdups=0 passed=
	for i in 1 2; do
		wait "${pids[$i]}" && grep -q ': exact$' "$TMP/w$i" && exact=$((exact + 1))
		tap_info "$mode: $(tail -n 1 "$TMP/w$i")"
		d=$(sed -n 's/.* dups \([0-9]*\) .*/\1/p' "$TMP/w$i")
		appdups=$((appdups + ${d:-1}))
		g=/run/ncl/npi$$$mode--h$i/globals
		# ip's libbpf loader (xdpdrv) pins under tc/
		[ -d "$g" ] || g=/run/ncl/npi$$$mode--h$i/tc/globals
		seen=$(pinned_u64 "$g/ncl_stats" 0) dropped=$(pinned_u64 "$g/ncl_stats" 6)
		tap_info "$mode: h$i's kernel saw $seen result windows, dropped $dropped copies"
		passed+="${passed:+ }$((seen - dropped))"
	done
	expect_eq "$mode: both workers' sums are exact" 2 "$exact"
	expect_eq "$mode: no result reached an application twice" 0 "$appdups"
	expect_eq "$mode: each host's kernel passed each of the 79 windows once" "79 79" "$passed"
	# libncl's nicprog-ring backend: the kernel on the NIC delivers to an
	# RX pipe of NF output 3, the worker reads it there, not at its socket
	for i in 1 2; do
		g=/run/ncl/npi$$$mode--h$i/globals
		[ -d "$g" ] || g=/run/ncl/npi$$$mode--h$i/tc/globals
		pins[i]=$g
		# a new job: ar_dedup's record of the windows seen (79: words
		# 0 to 2) starts empty, as after a deploy
		for w in 0 1 2; do
			bpftool map update pinned "$g/ar_seen" key $w 0 0 0 value 0 0 0 0
		done
	done
	"$AR" setup "$TOPO_PINS" 2
	for i in 1 2; do
		ip netns exec "${TOPO_NS[$i]}" timeout 300 "$AR" run -r 300 \
			-p "${TOPO_IF[$i]},3,${pins[$i]}/ncl_pipe" \
			"$i" 2 20000 9 "$TOPO_SW_IP" > "$TMP/p$i" 2>&1 &
		pids[i]=$!
	done
	exact=0 piped=0
	for i in 1 2; do
		wait "${pids[$i]}" && grep -q ': exact$' "$TMP/p$i" && exact=$((exact + 1))
		tap_info "$mode, pipe: $(head -n 1 "$TMP/p$i")"
		p=$(sed -n 's/.* piped \([0-9]*\) .*/\1/p' "$TMP/p$i")
		piped=$((piped + ${p:-0}))
	done
	if [ "$mode" = nic ]; then
		expect_eq "nic, pipe: both workers' sums are exact, every answer read from the NIC's pipe" \
			"2 yes" "$exact $([ "$piped" -ge 158 ] && echo yes)"
		expect_eq "nic, pipe: after the job the kernel delivers to the stack again" \
			"00 00 00 00" "$(bpftool -j map lookup pinned "${pins[1]}/ncl_pipe" key 0 0 0 0 |
				jq -r '.value | join(" ")' | sed 's/0x//g')"
	else
		expect_eq "cpu, pipe: refused, naming the cause" "0 1" \
			"$exact $(grep -c 'not offloaded to the NIC' "$TMP/p1")"
	fi
	topo_down
done
tap_end
