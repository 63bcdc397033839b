#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The translate contract (stage_translate) and nicsim's translated
# execution mode. Two NICs that see the same history, one interpreting and
# one translating, run every example NF with its entries under the
# one-core and pipelined shapes -- in the pipelined shape the translating
# NIC is one whose tables are in memory the host does not address
# (new_device's TABLES "nic": its translated stages serve lookups from the
# NIC's own storage, nicprog_plan_table_store(); otherwise the same
# translated code) --: both equal to the host (the
# oracle, BPF_PROG_TEST_RUN; oracle.sh leaves these two shapes to this
# file, which checks the plan has the shape asked for) and the NIC's own
# counts -- per core the
# runs and the cycles the executor charged them (busy), memory accesses
# per region, MAT lookups, engine jobs, verdicts -- equal between the
# modes. (Not the cores' total cycles nor cache hits: the timing model
# hashes the tables' addresses into cache sets, and two NICs' tables are
# at different addresses.) Then the edges: exec_mode is
# refused with a plan installed and for a mode that is none; a driver's
# refusal to translate fails the attach with its extack on ip's stderr,
# the kernel log naming the instruction, and leaves the port as it was;
# on a NIC with such tables, code the core's interpreter would run (an
# interpreted stage, the host part of a partial plan, tail calls' targets)
# is refused, naming which.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

FRAMES=${TRANSLATE_FRAMES:-1200}
SHAPES=${TRANSLATE_SHAPES:-single pipelined}
NICMEM_SHAPES=${TRANSLATE_NICMEM_SHAPES:-pipelined}
NFS=${TRANSLATE_NFS:-count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest}
SEED=${TRANSLATE_SEED:-7}
EX=$NICPROG_SRC/bpf/examples
. "$SELFDIR/nf_entries.sh"
oracle_keep_host

declare -A D
# the three NICs: oracle_nic's variables saved per mode
for mode in interp translated nicmem; do
	if [ $mode = nicmem ]; then
		oracle_nic trn "" "" nic
	else
		oracle_nic "tr${mode:0:1}" "" "" host
	fi
	echo ${mode/nicmem/translated} > "$BUS/devices/nicsim$ID/exec_mode" ||
		{ echo "not ok: cannot set nicsim$ID's exec_mode" >&2; exit 1; }
	for v in ID NS IN NF OUT CAP NF_IDX OUT_IDX; do D[$mode.$v]=${!v}; done
done
use() { for v in ID NS IN NF OUT CAP NF_IDX OUT_IDX; do printf -v $v %s "${D[$1.$v]}"; done; }

# (The loop matches and compares in the shell: lib.sh's slurp, has_line.)
# snap FILE: the NF port's ethtool counters now. deltas BEFORE AFTER
# COUNTS STATS: of the counters that moved, "name by" per line, into
# COUNTS the ones a mode must not change, into STATS the ones that depend
# on where the tables are; prints for the log the busy cycles of COUNTS,
# the cycles and cache hits of STATS.
snap() { ip netns exec "$NS" ethtool -S "$NF" > "$1"; }
deltas() {
	awk -v counts="$3" -v stats="$4" '
		BEGIN { printf "" > counts; printf "" > stats }
		NR == FNR { if ($1 ~ /:$/) b[$1] = $2; next }
		!($1 in b) || $2 == b[$1] { next }
		$1 ~ /^(core[0-9]+_(packets|busy|runs|errors|passes|mat_lookups)|mem_.*_accesses|accel_.*_jobs|xdp_(drop|pass|tx|redirect|aborted)):$/ {
			printf "%s %.0f\n", $1, $2 - b[$1] > counts
			if ($1 ~ /_busy:$/) busy += $2 - b[$1]
		}
		$1 ~ /^(core[0-9]+_cycles|mem_.*_hits):$/ {
			printf "%s %.0f\n", $1, $2 - b[$1] > stats
			if ($1 ~ /_cycles:$/) cyc += $2 - b[$1]
			else hits += $2 - b[$1]
		}
		END { printf "%.0f busy cycles; %.0f cycles, %.0f cache hits\n", busy, cyc, hits }' "$1" "$2"
}
# the timing model has timed every run (it replays after an idle tick)
timed() {
	local c
	snap "$TMP/after"
	slurp c "$TMP/after"
	has_line "*timing_pending: 0" "$c"
}

TMP=$(mktemp -d /tmp/nicprog-translate.XXXXXX)
trap 'umount "$TMP/bpf" 2> /dev/null; rm -rf "$TMP"; cleanup' EXIT

declare -A sums
tap_begin
use translated
expect_eq "exec_mode shows the device's mode" translated \
	"$(cat "$BUS/devices/nicsim$ID/exec_mode")"
k=0
for shape in $SHAPES; do
	k=$((k + 1))
	modes="interp translated"
	[[ " $NICMEM_SHAPES " = *" $shape "* ]] && modes="interp nicmem"
	other=${modes#* }
	for nf in $NFS; do
		for mode in $modes; do
			use $mode
			plan_set "$NF" shape "$shape"
			nf_entries "$nf"
			snap "$TMP/before"
			# the plan's shape does not depend on the mode:
			# checked on the interpreting NIC's
			out=$([ $mode != interp ] ||
			      export ORACLE_HOOK="$SELFDIR/plan_check.sh $NF $shape"
			      ip netns exec "$NS" "$SELFDIR/oracle" "$EX/$nf.o" \
			      "$IN" "$NF" "$OUT" "$CAP" $((SEED + k)) "$FRAMES" \
			      "${ENTRIES[@]}" 2>&1)
			rc=$?
			[ $mode = interp ] &&
				check "$shape $nf: the plan has the shape asked for" \
					has_line "# plan: ok*" "$out"
			wait_for 5 timed || tap_info "$nf $mode: runs still untimed"
			sums[$mode]=$(deltas "$TMP/before" "$TMP/after" "$TMP/$mode" "$TMP/s$mode")
			if [ $rc -ne 0 ] ||
			   ! has_line "ok 1 *verdicts and output bytes equal * for $FRAMES frames (0 differ)*" "$out" ||
			   ! has_line "ok 2 *" "$out"; then
				grep -v '^ok' <<< "$out" | head -5 | sed 's/^/# /'
				tap_fail "$shape $nf $mode: verdicts, bytes and tables equal the host's over $FRAMES frames"
			else
				tap_ok "$shape $nf $mode: verdicts, bytes and tables equal the host's over $FRAMES frames"
			fi
		done
		for mode in $modes; do
			tap_info "$shape $nf $mode: ${sums[$mode]}"
		done
		a='' b=''
		slurp a "$TMP/interp"
		slurp b "$TMP/$other"
		if [[ $a == *_busy:\ * ]] && [ "$a" = "$b" ]; then
			tap_ok "$shape $nf: runs, executor cycles, memory accesses, MAT and engine counts equal between interp and $other"
		else
			diff "$TMP/interp" "$TMP/$other" | head -6 | sed 's/^/# /'
			tap_fail "$shape $nf: runs, executor cycles, memory accesses, MAT and engine counts equal between interp and $other"
		fi
	done
done

# exec_mode: not with a plan installed (its stages were translated, or
# not, when it was), and only a mode that is
use translated
plan_set "$NF" shape single
ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp ||
	tap_info "attach of count.o failed"
check "exec_mode refused with a plan installed (EBUSY)" \
	bash -c "! echo interp > $BUS/devices/nicsim$ID/exec_mode 2> $TMP/err && grep -q 'Device or resource busy' $TMP/err"
expect_eq "the mode is unchanged" translated \
	"$(cat "$BUS/devices/nicsim$ID/exec_mode")"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
check "exec_mode refuses a mode that is none (EINVAL)" \
	bash -c "! echo jit > $BUS/devices/nicsim$ID/exec_mode 2> $TMP/err && grep -q 'Invalid argument' $TMP/err"

# A driver's refusal: nicsim's debugfs knob names an instruction of the
# program (count.o's second), as a NIC lacking something for it would.
DBG=/sys/kernel/debug/nicsim/nicsim$ID
if [ -w "$DBG/translate_refuse" ]; then
	echo 1 > "$DBG/translate_refuse"
	bad_args on && traced=1 || traced=0
	mark=$(kmsg_mark)
	check "a refused translation fails the attach" \
		bash -c "! ip netns exec $NS ip link set dev $NF xdpoffload obj $EX/count.o sec xdp 2> $TMP/err"
	check "ip's stderr carries the driver's extack" \
		grep -q "cannot translate an instruction of the program" "$TMP/err"
	# the extack carries the refusal; the details go to the tracepoint
	kmsg_since "$mark" > "$TMP/klog"
	check "the kernel log says nothing of the user's refused attach" \
		not_in "$TMP/klog" "cannot translate"
	if [ $traced = 1 ]; then
		bad_args off
		check "the tracepoint names the instruction and its stage" \
			grep -q "nicprog_bad_arg: $NF: the NIC cannot translate insn 1 (code 0x[0-9a-f]*) of stage 0" \
			"$BAD_ARGS_TR/trace"
	else
		tap_skip "the tracepoint names the instruction and its stage" "no tracefs in the guest"
	fi
	check "the port has no program after the refusal" \
		bash -c "! ip netns exec $NS ip -d link show $NF | grep -q xdpoffload"
	echo 4294967295 > "$DBG/translate_refuse"
	check "the same attach succeeds once the NIC translates again" \
		ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
	# in interpreting mode the driver translates nothing: no refusal
	use interp
	echo 1 > "/sys/kernel/debug/nicsim/nicsim$ID/translate_refuse"
	check "an interpreting NIC does not translate, so does not refuse" \
		ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
	echo 4294967295 > "/sys/kernel/debug/nicsim/nicsim$ID/translate_refuse"
else
	tap_skip "translation refusals" "no debugfs at /sys/kernel/debug"
fi
# A NIC whose tables are in memory the host does not address: only its
# translated stages reach them, so code the core's interpreter would run
# is refused, naming which; the port is left without a program.
use nicmem
expect_eq "table_memory shows where the tables are: nic" nic \
	"$(cat "$BUS/devices/nicsim$ID/table_memory")"
expect_eq "and host on a device made without TABLES" host \
	"$(cat "$BUS/devices/nicsim${D[interp.ID]}/table_memory")"
X=$(nicsim_new_id)
check "new_device refuses a TABLES that is none (EINVAL)" \
	bash -c "! echo '$X 1 nicsim-generic flash' > $BUS/new_device 2> $TMP/err && grep -q 'Invalid argument' $TMP/err && test ! -e $BUS/devices/nicsim$X"
# refused ATTACH MESSAGE: the attach (a command) fails with MESSAGE on
# its stderr and leaves the port without a program
refused() {
	local mark
	mark=$(kmsg_mark)
	ip netns exec "$NS" bash -c "$1" > "$TMP/err" 2>&1
	check "$3: refused" test $? -ne 0
	kmsg_since "$mark" > "$TMP/klog"
	check "$3: not in the kernel log (the extack carries it)" \
		not_in "$TMP/klog" "$2"
	if grep -q "$2" "$TMP/err"; then
		tap_ok "$3: ip's stderr says why"
	else
		sed 's/^/#   /' "$TMP/err" | head -n 6
		tap_fail "$3: ip's stderr says why"
	fi
	check "$3: the port has no program" \
		bash -c "! ip netns exec $NS ip -d link show $NF | grep -q xdpoffload"
}
echo interp > "$BUS/devices/nicsim$ID/exec_mode"
refused "ip link set dev $NF xdpoffload obj $EX/count.o sec xdp" \
	"a stage is left to the core's interpreter, but a table of the plan is in NIC memory the host does not address" \
	"an interpreting NIC whose tables the host does not address, count.o"
echo translated > "$BUS/devices/nicsim$ID/exec_mode"
check "translating, the same NIC takes count.o" \
	ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
plan_set "$NF" partial on
refused "ip link set dev $NF xdpoffload obj $SELFDIR/progs/partial.o sec xdp" \
	"the host runs part of the plan (plan_partial), but a table of the plan is in NIC memory the host does not address" \
	"partial.o split with the host"
plan_set "$NF" partial off
# xdp_tail.o's PROG_ARRAY is pinned where ip pins: a BPF file system of
# the test's own, which ip netns exec keeps (adapt.sh)
IP=$NICPROG_SRC/tools/iproute2/ip
mkdir -p "$TMP/bpf"
if [ ! -x "$IP" ]; then
	tap_skip "xdp_tail.o's tail calls refused" "tools/iproute2/ip not built: $(cat "$IP.missing" 2> /dev/null || echo "run make tools")"
elif mount -t bpf bpf "$TMP/bpf"; then
	# from 6.3 no offloaded program goes in a PROG_ARRAY (kernels.rst)
	why="tail calls run on the core's interpreter, but the NIC's tables are in memory the host does not address"
	kernel_at_least 6 3 &&
		why="makes tail calls, and this kernel puts no offloaded program in a PROG_ARRAY"
	refused "TC_BPF_MNT=$TMP/bpf $IP link set dev $NF nicprog obj $SELFDIR/progs/xdp_tail.o program xdp_tail_entry" \
		"$why" "xdp_tail.o's tail calls"
	umount "$TMP/bpf"
else
	tap_fail "a BPF file system for xdp_tail.o's PROG_ARRAY"
fi
tap_end
