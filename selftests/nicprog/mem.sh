#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# NIC memory for the host (NICPROG_OP_MEM_*): mem_test allocates buffers in
# the NIC's regions and copies through the NIC's DMA engines by io_uring
# (byte-exact round trips, every malformed command refused with its
# errno and its cause traced, a file's limit, a seeded fuzzer); buffers
# count with tables in the NIC's memory (devlink's region occupancy, a
# plan placing its table elsewhere when a buffer fills lmem); copies
# complete no sooner than the profile's DMA engines allow; and buffers go
# when their file closes, when its process is killed, and when the device
# is deleted under copies in flight.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/mem_test" ] || skip_all "mem_test not built"
command -v devlink > /dev/null || skip_all "devlink (iproute2) not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# a new seed each run, printed: MEM_SEED=N replays one
SEED=${MEM_SEED:-$(($(date +%s%N) % 1000000007))}
ROUNDS=${MEM_ROUNDS:-3000}
EX=$NICPROG_SRC/bpf/examples
TMP=$(mktemp -d /tmp/nicprog-mem.XXXXXX)
trap 'cleanup; echo "$dil0" > "$BUS/dilation"; rm -rf "$TMP"' EXIT
dil0=$(cat "$BUS/dilation")

# jpy EXPR: EXPR of the JSON on stdin, as d
jpy() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
# occ NAME: the devlink resource's occupancy (bytes of a region_*)
occ() {
	devlink -j resource show "$DL" | jpy "[r['occ'] for r in d['resources']['$DL'] if r['name'] == '$1'][0]"
}
# dmem FIELD: nicsim's count of buffers (bufs) or their bytes (buf_bytes)
dmem() { awk -v f="$1" '$1 == f { print $2 }' "/sys/kernel/debug/nicsim/nicsim$ID/mem"; }
# hold ARGS...: mem_test hold in the background, its output in $TMP/hold;
# sets HOLD to its pid once it says "held" (fails if it does not in 20 s)
hold() {
	: > "$TMP/hold"
	"$SELFDIR/mem_test" "$P" hold "$@" > "$TMP/hold" 2>&1 &
	HOLD=$!
	wait_for 20 grep -q '^held$' "$TMP/hold"
}
region() { awk '$1 == "table" && $2 == "0" { r = $0; sub(/.*region /, "", r); sub(/,.*/, "", r); print r }' \
	"/sys/kernel/debug/nicprog/$1/plan"; }

tap_begin
slab0=$(slab_ours)
ID=$(nicsim_new_id)
P=nicsim${ID}p0
DL=nicsim/nicsim$ID
nicsim_new "$ID" 1
ip link set "$P" up
check "the port's device node appears" wait_for 10 test -c "$(ring_node "$P")"
dram0=$(occ region_dram)

bad_args on && traced=1 || traced=0
kmsg=$(kmsg_mark)
tap_info "mem_test seed $SEED (MEM_SEED=$SEED replays it)"
"$SELFDIR/mem_test" "$P" cases "$SEED" "$ROUNDS" > "$TMP/out" 2>&1
rc=$?
klog=$(kmsg_ours "$kmsg")
sed 's/^/# /' "$TMP/out"
expect_eq "mem_test $P cases $SEED $ROUNDS: exit status" 0 "$rc"
check "mem_test: all 5 cases pass" grep -q "^# Totals: pass:5 fail:0" "$TMP/out"
quiet_log "the refused memory commands left nothing in the kernel log" "$klog"
if [ $traced = 1 ]; then
	bad_args off
	check "the tracepoint names a full region's room" \
		bad_args_seen "nicprog_bad_arg: $P: ring: mem alloc: region lmem has 65536 bytes free of tables and buffers, 65537 asked"
	check "  and a region no DMA engine reaches" \
		bad_args_seen "nicprog_bad_arg: $P: ring: mem copy: no DMA engine of the NIC reaches buffer"
	check "  and a copy past a buffer's end" \
		bad_args_seen "nicprog_bad_arg: $P: ring: mem copy: 8 bytes at 4090 pass the end of buffer"
else
	tap_skip "the tracepoint names a full region's room" "no tracefs in the guest"
	tap_skip "  and a region no DMA engine reaches" "no tracefs in the guest"
	tap_skip "  and a copy past a buffer's end" "no tracefs in the guest"
fi
expect_eq "the files closed: no buffer left, the driver's nor devlink's" \
	"0 0 $dram0" "$(dmem bufs) $(dmem buf_bytes) $(occ region_dram)"

if command -v setpriv > /dev/null; then
	check "without CAP_NET_ADMIN a file allocates nothing (EPERM)" \
		setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
		"$SELFDIR/mem_test" "$P" eperm
else
	tap_skip "without CAP_NET_ADMIN a file allocates nothing (EPERM)" "setpriv not installed"
fi

# Buffers count in the NIC's memory while held; kill -9 frees them.
if hold $((1 << 20)) 4; then
	expect_eq "4 buffers of 1 MiB held: dram's occupancy and the driver's count" \
		"$((dram0 + (4 << 20))) 4" "$(occ region_dram) $(dmem bufs)"
	kill -9 "$HOLD"
	wait "$HOLD" 2> /dev/null
	expect_eq "kill -9 under copies in flight: the buffers are freed" \
		"0 $dram0" "$(dmem bufs) $(occ region_dram)"
else
	tap_fail "4 buffers of 1 MiB held"
	kill -9 "$HOLD" 2> /dev/null
	tap_fail "kill -9 under copies in flight: the buffers are freed"
fi

# A buffer filling lmem leaves a plan's table no room there.
ip link set dev "$P" xdpoffload obj "$EX/count.o" sec xdp
expect_eq "no buffer: count.o's table in lmem" lmem "$(region "$P")"
ip link set dev "$P" xdpoffload off
if hold 65536 1 0; then
	expect_eq "a buffer fills lmem: devlink's lmem occupancy" 65536 \
		"$(occ region_lmem)"
	ip link set dev "$P" xdpoffload obj "$EX/count.o" sec xdp
	expect_eq "  the plan puts count.o's table in dram" dram "$(region "$P")"
	ip link set dev "$P" xdpoffload off
	kill "$HOLD"
	wait "$HOLD" 2> /dev/null
	ip link set dev "$P" xdpoffload obj "$EX/count.o" sec xdp
	expect_eq "the buffer gone, the next plan's table in lmem again" lmem \
		"$(region "$P")"
	ip link set dev "$P" xdpoffload off
else
	tap_fail "a buffer fills lmem"
	kill -9 "$HOLD" 2> /dev/null
fi

# Copies complete when the engines are done: nicsim-generic's two engines
# cost 800 cycles and 100 a KiB at 800 MHz, 4 MiB 513 us; at dilation 100,
# 51.3 ms. Eight at once take four turns on two engines: >= 205.2 ms.
echo 100 > "$BUS/dilation"
t1=$("$SELFDIR/mem_test" "$P" time $((4 << 20)) 1)
t8=$("$SELFDIR/mem_test" "$P" time $((4 << 20)) 8)
echo "$dil0" > "$BUS/dilation"
tap_info "4 MiB copies at dilation 100: one ${t1:-?} us, eight at once ${t8:-?} us"
check "one 4 MiB copy completes no sooner than its engine (>= 51300 us)" \
	test "${t1:-0}" -ge 51300
check "eight at once queue on the two engines (>= 205200 us)" \
	test "${t8:-0}" -ge 205200

# The device goes under copies in flight: the holder is told, the buffers
# go with the driver, nothing is left.
if hold $((1 << 20)) 2; then
	check "the device is deleted under copies in flight" nicsim_del "$ID"
	check "the holder sees ENODEV and exits 0" wait_for 20 grep -q '^gone$' "$TMP/hold"
	wait "$HOLD"
	expect_eq "  its exit status" 0 $?
else
	tap_fail "the device is deleted under copies in flight"
	kill -9 "$HOLD" 2> /dev/null
	nicsim_del "$ID"
fi
slab_back "after buffers, copies, kill -9 and device removal" "$slab0"
tap_end
