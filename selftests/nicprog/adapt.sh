#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The XDP programs people already have offload unchanged through
# ip link ... nicprog (ip built with libnicprog; helpers in adapt_lib.sh,
# what needs a second CPU in adapt_cpus.sh): per-CPU statistics as
# xdp-tutorial keeps them, a kernel-sample program in a section of its own
# name chosen by its name, each on every profile with the oracle on the
# attached program -- verdicts, bytes and per-CPU sums equal to the host's
# -- and read by bpftool and by a libbpf per-CPU reader with the same sums;
# packet samples (samples/bpf's xdp_sample_pkts) sent from the NIC with
# bpf_perf_event_output() reach the host's perf buffer as the host's do;
# maps in the legacy SEC("maps") section load too; a program writing
# ctx->rx_queue_index (Netronome's programmable RSS) steers each frame to
# that host queue; XDP metadata for tc reaches the host with the frame;
# frames read and written through bpf_xdp_load_bytes()/store_bytes();
# bpf_redirect_map() through a DEVMAP to a sibling port; a redirect to an
# ifindex the NIC lacks is REDIRECT, dropped, as on the host; frames an
# encapsulation grows past the MTU are dropped where they arrive;
# per-port counters in a PERCPU_HASH whose keys user space creates;
# connection tracking in an LRU_HASH and routing in an LPM_TRIE (nested
# prefixes, so only the longest match is right), the tables' kinds shown by
# nicprog prog show; a full LRU table evicts instead of refusing; bpf_loop()
# as the loop the loader writes for it, at each of the helper's edges; an
# XSKMAP lookup that only gates a redirect to its socket; bpf_check_mtu()
# of the receiving port on both sides of its MTU.
# What cannot offload is refused with nicprog's sentence naming the map or
# call, the offline planner saying the same; a successful load prints
# nothing alarming; only the maps the program uses reach the device.
. "$(dirname "$0")/lib.sh"
require_root_tools
. "$(dirname "$0")/adapt_lib.sh"

tap_begin
seed=1
# a zero per-CPU value of 16 bytes a slot: as many slots as possible CPUs
PCPU_ZERO=$(printf '%032d' 0)
PCPU_ZERO=$(printf "$PCPU_ZERO%.0s" $(seq "$POSSIBLE_CPUS"))
# one device per profile, every program in turn on its NF port
for prof in $PROFILES; do
	frames=$FRAMES_OTHER
	[ "$prof" = nicsim-generic ] && frames=$FRAMES_MAIN
	oracle_nic "ad${prof#nicsim-}" "$prof"
	ip netns exec "$NS" ethtool -L "$NF" rx 4
	expect_eq "$prof: ethtool -L gives the NF port 4 host RX queues" 4 \
		"$(ip netns exec "$NS" sh -c "ls -d /sys/class/net/$NF/queues/rx-*" |
		   wc -l)"
	# what the plan (so the profile) shapes: tables, helpers, the stack
	offload xdp_stats.o xdp_stats_func 16 1 "$prof" "$frames" "$seed"
	offload xdp_cfg.o xdp_cfg 24 1 "$prof" "$frames" "$((seed + 2))"
	events xdp_sample.o xdp_sample_prog "$prof" "$frames" "$((seed + 3))"
	meta "$prof" "$frames" "$((seed + 5))"
	attached xdp_bytes.o xdp_bytes auto "$prof" "$frames" "$((seed + 6))"
	# a PERCPU_HASH whose keys user space made: ports 53, 80, 9, 1234
	attached pcpu_flows.o pcpu_flows auto "$prof" "$frames" \
		"$((seed + 19))" port_stats:3500:$PCPU_ZERO \
		port_stats:5000:$PCPU_ZERO port_stats:0900:$PCPU_ZERO \
		port_stats:d204:$PCPU_ZERO
	attached xdp_redirect_map.o xdp_redirect_map_func auto "$prof" \
		"$frames" "$((seed + 7))" tx_port:00000000:@OUT \
		tx_port:03000000:@OUT tx_port:05000000:@OUT
	# tail calls through a PROG_ARRAY the host keeps
	if [ "$prof" = nicsim-generic ]; then
		tails "$prof" "$frames" "$((seed + 18))" update
	else
		tails "$prof" "$frames" "$((seed + 18))"
	fi
	globals "$prof" "$frames" "$((seed + 12))"
	attached xdp_frags.o xdp_frags_len auto "$prof" "$frames" \
		"$((seed + 13))"
	attached xdp_conntrack.o xdp_conntrack auto "$prof" "$frames" \
		"$((seed + 10))"
	# 10/8 pass, 10.1/16 drop, 10.1.2/24 pass, 192.168/16 tx, 8.8.8.8 drop
	attached xdp_lpm_route.o xdp_lpm_route auto "$prof" "$frames" \
		"$((seed + 11))" \
		routes:080000000a000000:${ZERO16}0200000000000000 \
		routes:100000000a010000:${ZERO16}0100000000000000 \
		routes:180000000a010200:${ZERO16}0200000000000000 \
		routes:10000000c0a80000:${ZERO16}0300000000000000 \
		routes:2000000008080808:${ZERO16}0100000000000000
	# what the loader, the executor or the wire decides, the same on
	# every profile
	if [ "$prof" = nicsim-generic ]; then
		rss "$prof" 400
		lru_full "$prof"
		table_set
		# (runts and truncated VLAN frames are dropped before it counts)
		offload xdp1_kern.o xdp_prog1 8 - "$prof" "$frames" "$((seed + 1))"
		legacy "$prof" "$frames" "$((seed + 4))"
		attached encap_tx.o encap_tx auto "$prof" "$frames" "$((seed + 9))"
		# .rodata indexed by a frame's byte, or given to helpers: a
		# read-only table
		attached rodata_idx.o rodata_idx auto "$prof" "$frames" \
			"$((seed + 20))"
		attached rodata_key.o rodata_key auto "$prof" "$frames" \
			"$((seed + 21))"
		# bpf_check_mtu() of the port itself, answered on the NIC
		attached check_mtu.o check_mtu auto "$prof" "$frames" \
			"$((seed + 25))"
		# bpf_loop(), inlined by the loader: every edge of the helper
		attached loop_cb.o loop_nr auto "$prof" "$frames" \
			"$((seed + 22))"
		attached loop_cb.o loop_cb auto "$prof" "$frames" \
			"$((seed + 23))"
		attached redirect_any.o redirect_any auto "$prof" "$frames" \
			"$((seed + 8))" out_cfg:00000000:@OUT
		# the program asks the devmap first: an empty slot has no
		# element (the loader's doing)
		attached xdp_fwd_check.o xdp_fwd_check auto "$prof" \
			"$frames" "$((seed + 17))" xdp_tx_ports:01000000:@OUT \
			xdp_tx_ports:03000000:@OUT
		# host maps: the oracle sees the host's action for a missing
		# entry on both sides (PASS, and ABORTED for flags 0)
		attached xsk_def.o xsk_def_prog auto "$prof" "$FRAMES_ONCE" \
			"$((seed + 15))"
		# xdp-tutorial's AF_XDP program: the lookup only gates the
		# redirect, which the NIC makes with the program's verdict
		# for a missing socket
		attached af_xdp_lookup.o xdp_sock_prog auto "$prof" \
			"$FRAMES_ONCE" "$((seed + 24))"
		attached xdp_cpu_lb.o xdp_cpu_lb auto "$prof" "$FRAMES_ONCE" \
			"$((seed + 16))" cpus_count:00000000:02000000 \
			cpus_available:00000000:00000000 \
			cpus_available:01000000:01000000
	fi
	seed=$((seed + 14))
	cleanup
done
# the helpers' stack buffers across stages: every shape
oracle_nic adshape nicsim-generic
for shape in single pipelined; do
	attached xdp_bytes.o xdp_bytes "$shape" nicsim-generic "$FRAMES_OTHER" "$seed"
	seed=$((seed + 1))
done
cleanup

# refused, with the sentence naming the cause; the planner says the same
oracle_nic adref
refused() {
	local desc=$1 obj=$2 pat=$3 rc why
	shift 3
	nip link set dev "$NF" nicprog obj "$P_DIR/$obj" "$@" > "$TMP/out" 2>&1
	rc=$?
	why=$(sed -n "1s|^Error: nicprog: $P_DIR/$obj: ||p" "$TMP/out")
	if [ $rc -ne 0 ] && grep -qF -- "$pat" <<< "$why"; then
		tap_ok "$desc: refused naming the cause"
	else
		tap_info "rc=$rc, expected '$pat' in:"
		sed 's/^/#   /' "$TMP/out" | tail -n 6
		tap_fail "$desc: refused naming the cause"
	fi
	"$PLAN" "$P_DIR/$obj" > "$TMP/plan" 2>&1
	check "$desc: the offline planner says the same sentence" \
		grep -qxF -- "nicprog-plan: $P_DIR/$obj: $why" "$TMP/plan"
}
refused "bpf_map_update_elem() on a per-CPU map" pcpu_update.o \
	"bpf_map_update_elem() on per-CPU map src_count"
refused "a helper the NIC lacks" bad_helper.o \
	"insn 0: helper bpf_get_smp_processor_id (8) is not supported on the NIC"
refused "a tc program, not chosen by itself" tc.o \
	"no XDP program: neither an XDP section"
refused "a bpf_for_each_map_elem() callback" foreach_cb.o \
	"gives bpf_for_each_map_elem a function's address (a callback)"
refused "bpf_loop() with flags from the frame" loop_flags.o \
	"bpf_loop()'s flags are not a constant in the code before the call"
refused "a map another object defines" extern_map.o \
	"link them first: bpftool gen object linked.o $P_DIR/extern_map.o OTHER.o"
refused "a map its own tool sizes" unsized_map.o \
	"map cpus_available: the object gives it no max_entries"
refused "a lookup of the host's AF_XDP sockets, its result read" xsk_near.o \
	"map xsks_map (xskmap) is used other than by bpf_redirect_map(): its entries are the host's AF_XDP sockets"
refused "a tail call from a subprogram" tail_sub.o \
	"bpf_tail_call() in function dispatch: the NIC makes tail calls from a program's main function only"
# a walk the verifier gives up on: its log runs out, ip names the cause
nip link set dev "$NF" nicprog obj "$P_DIR/loop_deep.o" > "$TMP/out" 2>&1
rc=$?
check "a program too complex to verify: refused ($rc), the first line says so" \
	grep -q "^Error: nicprog: $P_DIR/loop_deep.o: the verifier refused program loop_deep: too complex to verify" \
	<(head -n 1 "$TMP/out")
# packet bounds at the edge: the verifier and the offline planner agree
for pb in bounds_exact:0 bounds_open:0 bounds_past:1 bounds_var:1; do
	prog=${pb%:*}
	nip link set dev "$NF" nicprog obj "$P_DIR/pkt_bounds.o" \
		program "$prog" > "$TMP/out" 2>&1
	rc_ip=$?
	"$PLAN" --prog "$prog" "$P_DIR/pkt_bounds.o" > /dev/null 2>&1
	rc_plan=$?
	if [ "${pb#*:}" = 0 ]; then
		check "pkt_bounds.o $prog: ip ($rc_ip) and the planner ($rc_plan) accept it" \
			test "$rc_ip$rc_plan" = 00
	else
		check "pkt_bounds.o $prog: ip ($rc_ip) and the planner ($rc_plan) refuse it" \
			test "$rc_ip" -ne 0 -a "$rc_plan" -ne 0
		check "pkt_bounds.o $prog: ip's first line is the verifier's cause" \
			grep -q "^Error: nicprog: $P_DIR/pkt_bounds.o: the verifier refused program $prog: .*packet" \
			<<< "$(head -n1 "$TMP/out")"
	fi
	nip link set dev "$NF" nicprog off 2>/dev/null
done
# chosen as typed, as libbpf-based loaders find them: a section of the
# program's own name (BTF types it XDP), a lone function in .text
typed() {
	local obj=$1 prog=$2
	shift 2
	nip link set dev "$NF" nicprog obj "$P_DIR/$obj" "$@" > "$TMP/out" 2>&1
	expect_eq "$obj ${*:-as typed}: ip link ... nicprog attaches it" 0 "$?"
	check "$obj ${*:-as typed}: the port runs $prog" \
		grep -q "nicprog/$prog " <<< "$(nip link show dev "$NF")"
	nip link set dev "$NF" nicprog off
}
typed xdp1_kern.o xdp_prog1
typed text_ret0.o func
typed text_ret0.o func sec .text
typed text_ret0.o func program func
check "nothing is attached after the refusals" \
	test -z "$(nip link show dev "$NF" | grep prog/xdp)"
cleanup
tap_end
