#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lookaside kernels (NICPROG_OP_KERNEL_LOAD, _UNLOAD, _JOB): job_test
# loads bpf/lookaside/matmul.o for the NIC and multiplies seeded int32
# matrices tile by tile in NIC buffers, every job's frame run on the host
# too (BPF_PROG_TEST_RUN of the same object) and the product checked
# against a host computation; tiles read from and written to the
# opener's own memory (host windows) equal too; windows not marked
# written keep their bytes;
# every malformed job and kernel refused with its errno (the cause
# traced); a seeded fuzzer of jobs; EPERM without CAP_NET_ADMIN; the
# NIC's cores count the jobs they ran; nicprog predict's price of a job,
# from its bytes and before it runs, is the cycles the NIC's core then
# counts, for three kernels on three profiles (a kernel that reads its
# frame by direct access among them), each job's result the host's run
# of the same frame; a port with kernels holds a core for their jobs,
# on which they queue (two submitters no faster than one core), which
# plans then go without (a load refused with EBUSY when every core
# is in a plan); kernels and buffers go when
# their file closes, when its process is killed, and when the device is
# deleted under jobs.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/job_test" ] || skip_all "job_test not built"
BPF=$NICPROG_SRC/bpf
[ -f "$BPF/lookaside/matmul.o" ] || skip_all "bpf/lookaside/matmul.o not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# a new seed each run, printed: JOB_SEED=N replays one
SEED=${JOB_SEED:-$(($(date +%s%N) % 1000000007))}
ROUNDS=${JOB_ROUNDS:-2000}
TMP=$(mktemp -d /tmp/nicprog-job.XXXXXX)
dil0=$(cat "$BUS/dilation")
trap 'cleanup; echo "$dil0" > "$BUS/dilation"; rm -rf "$TMP"' EXIT

dmem() { awk -v f="$1" '$1 == f { print $2 }' "/sys/kernel/debug/nicsim/nicsim$ID/mem"; }
# the programs bpftool knows by name
progs() { bpftool prog show 2> /dev/null | grep -c " name matmul "; }
hold() {
	: > "$TMP/hold"
	"$SELFDIR/job_test" "$P" "$BPF" hold "$SEED" > "$TMP/hold" 2>&1 &
	HOLD=$!
	wait_for 20 grep -q '^held$' "$TMP/hold"
}

tap_begin
slab0=$(slab_ours)
progs0=$(progs)
ID=$(nicsim_new_id)
P=nicsim${ID}p0
nicsim_new "$ID" 1
ip link set "$P" up
check "the port's device node appears" wait_for 10 test -c "$(ring_node "$P")"

bad_args on && traced=1 || traced=0
kmsg=$(kmsg_mark)
tap_info "job_test seed $SEED (JOB_SEED=$SEED replays it)"
"$SELFDIR/job_test" "$P" "$BPF" cases "$SEED" "$ROUNDS" > "$TMP/out" 2>&1
rc=$?
klog=$(kmsg_ours "$kmsg")
sed 's/^/# /' "$TMP/out"
expect_eq "job_test $P cases $SEED $ROUNDS: exit status" 0 "$rc"
check "job_test: all 7 cases pass" grep -q "^# Totals: pass:7 fail:0" "$TMP/out"
quiet_log "the refused jobs left nothing in the kernel log" "$klog"
if [ $traced = 1 ]; then
	bad_args off
	check "the tracepoint names a kernel with maps" \
		bad_args_seen "uses maps: a kernel's state is its buffers, and it runs on the NIC alone"
	check "  and a window past its buffer" \
		bad_args_seen "nicprog_bad_arg: $P: ring: job: window 0: 1024 bytes at 8196 pass the end of buffer"
	check "  and a program not loaded for the NIC" \
		bad_args_seen "is not loaded for this NIC (prog_ifindex one of its ports)"
else
	tap_skip "the tracepoint names a kernel with maps" "no tracefs in the guest"
	tap_skip "  and a window past its buffer" "no tracefs in the guest"
	tap_skip "  and a program not loaded for the NIC" "no tracefs in the guest"
fi
expect_eq "the file closed: no buffer left, no program held" \
	"0 $progs0" "$(dmem bufs) $(progs)"
jobs=$(dmem kernel_jobs)
check "the NIC's cores ran the jobs (nicsim counts $jobs)" test "${jobs:-0}" -gt 27

if command -v setpriv > /dev/null; then
	check "without CAP_NET_ADMIN no kernel is loaded and no job runs (EPERM)" \
		setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
		"$SELFDIR/job_test" "$P" "$BPF" eperm 1
else
	tap_skip "without CAP_NET_ADMIN no kernel is loaded and no job runs (EPERM)" "setpriv not installed"
fi

# The predictor against the NIC: the job's bytes priced offline, then the
# same job on the port, whose NIC counts its core's cycles.
predicted() {
	"$NICPROG_SRC/tools/nicprog/nicprog" -j predict obj "$1" bufs "$2" \
		args "$3" data "$TMP/data" profile "$4" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["profiles"][0]["cycles"])'
}
# set_profile P: the NIC takes profile P; refused (EBUSY) while a program
# bound to it is still being released after the last job_test's file went
set_profile() { echo "$1" 2> /dev/null > "$BUS/devices/nicsim$ID/profile"; }
price_point() { # PROFILE DIR OBJ LENS ARGS SEED
	local c0 c1 rc pred
	check "$1: the NIC takes the profile" wait_for 10 set_profile "$1"
	c0=$(dmem kernel_cycles)
	"$SELFDIR/job_test" "$P" "$2" one "$6" "$3" "$4" "$5" "$TMP/data" \
		> "$TMP/one" 2>&1
	rc=$?
	c1=$(dmem kernel_cycles)
	sed 's/^/# /' "$TMP/one"
	expect_eq "$1: ${3##*/} over $4 (args $5): the NIC's result and written window are the host's" 0 "$rc"
	pred=$(predicted "$2/$3" "$4" "$5" "$1")
	expect_eq "  nicprog predict priced it at the cycles the NIC counted" \
		"$((c1 - c0))" "${pred:-none}"
}
# (a host run of a frame past a page splits it: direct access sees the
# first page only, so this frame stays under one)
price_point nicsim-generic "$SELFDIR" progs/kern_wordstat.o 2048,16 0xff 21
price_point nicsim-soc "$BPF" lookaside/colagg.o 16384,128 100,1,0 22
price_point nicsim-fpga "$BPF" lookaside/matmul.o 1024,1024,1024 1 23
echo nicsim-generic > "$BUS/devices/nicsim$ID/profile"

# Kernels and plans split the NIC's cores (nicsim-generic's 16): a port
# whose files hold kernels holds a core for their jobs, which no plan
# gets while they do; with every core in a plan, a kernel is refused.
DL=nicsim/nicsim$ID
cores_held() {
	devlink -j resource show "$DL" |
		python3 -c "import json, sys; d = json.load(sys.stdin); print([r['occ'] for r in d['resources']['$DL'] if r['name'] == 'cores'][0])"
}
plan_cores() { awk '$1 == "shape" { print $6 }' "/sys/kernel/debug/nicprog/$P/plan"; }
plan_set "$P" cores 16
check "an NF planned for all 16 cores" \
	ip link set dev "$P" xdpoffload obj "$NICPROG_SRC/bpf/examples/count.o" sec xdp
expect_eq "  its plan holds 16; devlink counts 16 cores held" "16 16" \
	"$(plan_cores) $(cores_held)"
[ $traced = 1 ] && bad_args on
"$SELFDIR/job_test" "$P" "$BPF" kload "$SEED" < /dev/null > "$TMP/kload" 2>&1
expect_eq "a kernel load with every core in a plan: EBUSY" "load -16" \
	"$(grep '^load' "$TMP/kload")"
if [ $traced = 1 ]; then
	bad_args off
	check "  the tracepoint says why and what to do" \
		bad_args_seen "kernel load: every core of the NIC runs a plan, none is free for jobs (lower a port's cores: nicprog dev set dev IFNAME cores N)"
else
	tap_skip "  the tracepoint says why and what to do" "no tracefs in the guest"
fi
ip link set dev "$P" xdpoffload off
rm -f "$TMP/kin"
mkfifo "$TMP/kin"
"$SELFDIR/job_test" "$P" "$BPF" kload "$SEED" < "$TMP/kin" > "$TMP/kload" 2>&1 &
KL=$!
exec 7> "$TMP/kin"
check "a kernel loads on the NIC with no plan" wait_for 20 grep -qx 'load 0' "$TMP/kload"
expect_eq "  devlink counts its core held" 1 "$(cores_held)"
check "an NF attached beside it" \
	ip link set dev "$P" xdpoffload obj "$NICPROG_SRC/bpf/examples/count.o" sec xdp
expect_eq "  is planned for the 15 cores the kernel left; 16 held" "15 16" \
	"$(plan_cores) $(cores_held)"
exec 7>&-
wait "$KL"
expect_eq "the kernel's file closed: its core is free, the plan keeps 15" \
	"0 15" "$? $(cores_held)"
ip link set dev "$P" xdpoffload off
expect_eq "  the NF detached: no core held" 0 "$(cores_held)"

# A port's jobs share the one core its kernels hold: two submitters at
# once complete no more jobs than that core's time allows (an upper
# bound: a slow machine only lowers the count). The NIC's time runs 1000
# times slower than the host's here, so that a job (60 ms) stands above
# the guest's cost of running one.
echo 1000 > "$BUS/dilation"
j0=$(dmem kernel_jobs) c0=$(dmem kernel_cycles) t0=$(date +%s%N)
for i in 1 2; do
	timeout 4 "$SELFDIR/job_test" "$P" "$BPF" hold "$i" > /dev/null 2>&1 &
done
wait
t1=$(date +%s%N)
echo "$dil0" > "$BUS/dilation"
jobs=$(($(dmem kernel_jobs) - j0))
# a job's core time: its cycles at nicsim-generic's 800 MHz, dilated
per=$(( ($(dmem kernel_cycles) - c0) * 1000 * 1000 / 800 / (jobs > 0 ? jobs : 1) ))
bound=$(( (t1 - t0) / (per > 0 ? per : 1) + 2 ))
check "two submitters at once: $jobs jobs in $(( (t1 - t0) / 1000000 )) ms of $(( per / 1000000 )) ms each, at most $bound: they queue on the port's one job core" \
	test "$jobs" -gt 2 -a "$jobs" -le "$bound"

# Held while jobs run; kill -9 frees kernel and buffers.
if hold; then
	expect_eq "a holder: its 3 buffers and its kernel's program" \
		"3 $((progs0 + 2))" "$(dmem bufs) $(progs)"
	kill -9 "$HOLD"
	wait "$HOLD" 2> /dev/null
	check "kill -9 under jobs: buffers and kernel go" \
		wait_for 10 sh -c "[ \"\$(awk '\$1 == \"bufs\" { print \$2 }' /sys/kernel/debug/nicsim/nicsim$ID/mem) \$(bpftool prog show | grep -c ' name matmul ')\" = '0 $progs0' ]"
	expect_eq "  and the core its kernel held" 0 "$(cores_held)"
else
	tap_fail "a holder"
	kill -9 "$HOLD" 2> /dev/null
	tap_fail "kill -9 under jobs: buffers and kernel go"
fi

# The device goes under jobs: the holder is told, nothing is left.
if hold; then
	check "the device is deleted under jobs" nicsim_del "$ID"
	check "the holder sees ENODEV and exits 0" wait_for 20 grep -q '^gone$' "$TMP/hold"
	wait "$HOLD"
	expect_eq "  its exit status" 0 $?
else
	tap_fail "the device is deleted under jobs"
	kill -9 "$HOLD" 2> /dev/null
	nicsim_del "$ID"
fi
check "no matmul program is left" wait_for 10 sh -c "[ \$(bpftool prog show | grep -c ' name matmul ') = $progs0 ]"
slab_back "after kernels, jobs, kill -9 and device removal" "$slab0"
tap_end
