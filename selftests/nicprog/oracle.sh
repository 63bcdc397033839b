#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host equivalence: every example NF, offloaded to a nicsim port, gives the
# same verdicts, output bytes and final map contents as the same object run
# with BPF_PROG_TEST_RUN on the host, over a seeded corpus of frames -- under
# every plan shape the offloader can produce (plan_shape), each checked to
# have the shape asked for where the program allows it.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

FRAMES=${ORACLE_FRAMES:-10000}
SHAPES=${ORACLE_SHAPES:-single replicated pipelined pipelined+replicated auto}
NFS=${ORACLE_NFS:-count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest}
SEED=${ORACLE_SEED:-1}
EX=$NICPROG_SRC/bpf/examples
oracle_nic orc
. "$SELFDIR/nf_entries.sh"

# Jobs the NIC's accelerator engines ran so far (all types).
accel_jobs() {
	ip netns exec "$NS" ethtool -S "$NF" |
		awk '/accel_.*_jobs:/ { s += $2 } END { print s + 0 }'
}

run_oracle() {
	local name=$1
	shift
	ip netns exec "$NS" "$SELFDIR/oracle" "$EX/$name.o" "$IN" "$NF" \
		"$OUT" "$CAP" "$SEED" "$FRAMES" "$@"
}

tap_begin
for shape in $SHAPES; do
echo "$shape" > /sys/class/nicprog/$NF/plan_shape
for nf in $NFS; do
	nf_entries "$nf"
	set -- "${ENTRIES[@]}"
	jobs=$(accel_jobs)
	out=$(ORACLE_HOOK="$SELFDIR/plan_check.sh $NF $shape" \
	      run_oracle "$nf" "$@" 2>&1)
	rc=$?
	# NFs calling accelerators compare the engines with the BPF bodies
	case $nf in
	lb|heavy_hitter|nat|esp|digest)
		check "$shape $nf: accelerator engines ran" \
			test "$(accel_jobs)" -gt "$jobs" ;;
	esac
	grep '^#' <<< "$out"
	expect_eq "$shape $nf: oracle exit status" 0 "$rc"
	check "$shape $nf: verdicts and bytes equal over $FRAMES frames" \
		grep -q "^ok 1 .*verdicts and output bytes equal .* for $FRAMES frames (0 differ)" <<< "$out"
	check "$shape $nf: final map contents equal" grep -q "^ok 2 " <<< "$out"
	check "$shape $nf: plan has the shape asked for" \
		grep -q "^# plan: ok" <<< "$out"
done
done
tap_end
