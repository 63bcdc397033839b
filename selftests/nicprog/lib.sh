#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Shared helpers of the nicprog shell selftests: TAP output, module loading,
# simulated devices and namespaces with cleanup, bounded waits.

ksft_skip=4
NICPROG_SRC=${NICPROG_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
SELFDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUS=/sys/bus/nicsim

_tap_n=0
_tap_fail=0
_created_devs=()
_created_ns=()
_bg_pids=()

tap_begin() { echo "TAP version 13"; }
tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); _tap_fail=$((_tap_fail + 1)); echo "not ok $_tap_n $*"; }
tap_skip() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n $1 # SKIP $2"; }
tap_info() { echo "# $*"; }
tap_end() {
	echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ] || exit 1
	exit 0
}

# check DESC CMD...: one test point, passing when CMD succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}

# expect_eq DESC EXPECTED ACTUAL
expect_eq() {
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_info "$1: expected '$2', got '$3'"
		tap_fail "$1"
	fi
}

# expect_fail DESC TEXT CMD...: CMD fails, and its output says TEXT
expect_fail() {
	local desc=$1 text=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		tap_fail "$desc (succeeded)"
	elif grep -qF -- "$text" <<< "$out"; then
		tap_ok "$desc"
	else
		tap_info "$desc: expected '$text', got: $out"
		tap_fail "$desc"
	fi
}

# Each process a test starts costs about a tenth of a second in the TCG
# guest: in loops, match and compare in the shell.
# slurp VAR FILE: FILE's text into VAR
slurp() { IFS= read -r -d '' "$1" < "$2"; }
# has_line PATTERN TEXT: a line of TEXT matches the glob PATTERN
has_line() {
	local l
	while IFS= read -r l; do
		# shellcheck disable=SC2053 # a glob
		[[ $l == $1 ]] && return 0
	done <<< "$2"
	return 1
}
# print_matching ERE TEXT: the lines of TEXT that match ERE (bash's =~)
print_matching() {
	local l
	while IFS= read -r l; do
		[[ $l =~ $1 ]] && printf '%s\n' "$l"
	done <<< "$2"
	return 0
}

# port_ns IFNAME: the named namespace the interface is in, nothing for
# this one (where it is looked for first).
port_ns() {
	local ns
	[ -e "/sys/class/net/$1" ] && return 0
	for ns in $(ip netns list | awk '{ print $1 }'); do
		ip netns exec "$ns" test -e "/sys/class/net/$1" &&
			{ echo "$ns"; return 0; }
	done
}

# in_port_ns IFNAME CMD...: run CMD in the interface's namespace, where
# netlink finds it and sysfs shows /sys/class/nicprog/IFNAME (the class
# is tagged with namespaces, as the net class is).
in_port_ns() {
	local ns
	ns=$(port_ns "$1")
	shift
	${ns:+ip netns exec "$ns"} "$@"
}

# plan_set IFNAME [shape SHAPE] [cores N] [partial on|off]: the plan
# policy of the port's next attach, through netlink (sysfs only shows it).
plan_set() {
	local dev=$1
	shift
	in_port_ns "$dev" "$NICPROG_SRC/tools/nicprog/nicprog" \
		dev set dev "$dev" "$@"
}

# kmsg_mark: the kernel log's length now; kmsg_since MARK: its lines since.
kmsg_mark() { dmesg | wc -l; }
kmsg_since() { dmesg | tail -n +$(($1 + 1)); }
# not_in FILE TEXT: FILE does not contain TEXT (for check)
not_in() { ! grep -qF -- "$2" "$1"; }
# kmsg_ours MARK: the lines since that nicprog or nicsim wrote (their
# devices' and their pr_*() lines name them), not the rest of the kernel's
# (a busy host's clocksource watchdog, say).
kmsg_ours() { kmsg_since "$1" | grep -E 'nicprog|nicsim'; }
# quiet_log DESC LINES: LINES, kernel log lines, are none (shown if not).
quiet_log() {
	[ -z "$2" ] || tap_info "kernel log: $2"
	check "$1" test -z "$2"
}

# bad_args on|off: record the tracepoint nicprog:nicprog_bad_arg, where
# nicprog puts the cause of a user's refused argument instead of the
# kernel log (a full buffer keeps its first events); fails without
# tracefs. bad_args_seen TEXT: a recorded cause contains TEXT.
BAD_ARGS_TR=/sys/kernel/tracing
bad_args() {
	local tp=events/nicprog/nicprog_bad_arg
	[ -d "$BAD_ARGS_TR/$tp" ] || BAD_ARGS_TR=/sys/kernel/debug/tracing
	[ -d "$BAD_ARGS_TR/$tp" ] || return 1
	if [ "$1" = on ]; then
		echo > "$BAD_ARGS_TR/trace"
		echo 0 > "$BAD_ARGS_TR/options/overwrite"
		echo 1 > "$BAD_ARGS_TR/$tp/enable"
	else
		echo 0 > "$BAD_ARGS_TR/$tp/enable"
		echo 1 > "$BAD_ARGS_TR/options/overwrite"
	fi
}
bad_args_seen() { grep -qF -- "$1" "$BAD_ARGS_TR/trace"; }

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds; fails
# after SECONDS times NICPROG_WAIT_SLACK (4). The seconds a test names are
# what a quiet machine needs; the slack lets a busy one or the sanitizer
# kernel finish later (traffic.sh's receiver took over 5 s to start on the
# latter beside three other guests), and costs nothing when CMD succeeds.
wait_for() {
	local end=$((SECONDS + $1 * ${NICPROG_WAIT_SLACK:-4}))
	shift
	while ! "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.1
	done
}

skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $ksft_skip
}

require_root_tools() {
	[ "$(id -u)" -eq 0 ] || skip_all "must run as root"
	for t in ip ethtool ping ss; do
		command -v $t >/dev/null || skip_all "$t not installed"
	done
}

# require_cpus N: the file checks what happens on more than one CPU. The
# harness (tools/testing/run-checks, check-debug) runs a file that calls it
# at the top level, as "require_cpus 2", in a guest with two CPUs, the
# others in guests with one: on TCG a second vCPU costs time (a guest's
# spinning vCPU waits for the other's host thread), 2026-11-27.
require_cpus() {
	[ "$(nproc --all)" -ge "$1" ] ||
		skip_all "needs $1 CPUs, the guest has $(nproc --all)"
}

module_loaded() { [ -d "/sys/module/$1" ]; }
# kernel_at_least MAJOR MINOR: the guest runs that release or a later one
# (where the kernel, not nicprog, decides what a user sees).
kernel_at_least() {
	local v
	v=$(uname -r | cut -d. -f1,2 | cut -d- -f1)
	[ "${v%%.*}" -gt "$1" ] ||
		{ [ "${v%%.*}" -eq "$1" ] && [ "${v#*.}" -ge "$2" ]; }
}

# Load nicprog, its interpreter, its rings and nicsim: installed modules if modprobe
# knows them, else the ones built in this checkout, in dependency order.
NICPROG_KOS="kernel/nicprog.ko kernel/nicprog_exec.ko kernel/nicprog_ring.ko drivers/nicsim/nicsim.ko"
nicprog_load() {
	local ko m
	module_loaded nicsim && return 0
	if modinfo nicsim >/dev/null 2>&1; then
		modprobe nicsim || return 1
		return 0
	fi
	for ko in $NICPROG_KOS; do
		[ -f "$NICPROG_SRC/$ko" ] || skip_all "$ko not built (run make)"
	done
	for ko in $NICPROG_KOS; do
		m=$(basename "$ko" .ko)
		module_loaded "$m" || insmod "$NICPROG_SRC/$ko" || return 1
	done
}

# Unload nicsim, the rings, the interpreter and the core: the reverse of
# nicprog_load.
nicprog_unload() {
	rmmod nicsim && rmmod nicprog_ring && rmmod nicprog_exec &&
		rmmod nicprog
}

# A device ID nobody else uses in this run; new_id BUS NAME for another
# driver's bus (its devices BUS/devices/NAME<ID>).
new_id() {
	local id
	while :; do
		id=$((RANDOM % 60000 + 1000))
		[ -e "$1/devices/$2$id" ] || break
	done
	echo "$id"
}
nicsim_new_id() { new_id "$BUS" nicsim; }

# nicsim_new ID PORTS [PROFILE [TABLES]]: create a device, remembered for
# cleanup; NICSIM_EXEC (interp or translated), if set, is its execution
# mode, so that a test runs under either (drivers/nicsim/translate.c), and
# NICSIM_TABLES (host or nic) where its tables are, unless TABLES is given.
nicsim_new() {
	local w=("$@")
	[ -z "${NICSIM_TABLES:-}" ] || [ ${#w[@]} -ge 4 ] ||
		w=("$1" "${2:-1}" "${3:-nicsim-generic}" "$NICSIM_TABLES")
	echo "${w[*]}" > "$BUS/new_device" || return 1
	_created_devs+=("$1")
	[ -z "${NICSIM_EXEC:-}" ] ||
		echo "$NICSIM_EXEC" > "$BUS/devices/nicsim$1/exec_mode"
}

# topipe_nic: a new device of two wired ports, IN and NF, up and without
# IPv6, NF running progs/topipe.o (UDP to port 9000 + N goes to NF's
# output N); sets NF_ID, IN and NF.
topipe_nic() {
	NF_ID=$(nicsim_new_id)
	IN=nicsim${NF_ID}p0 NF=nicsim${NF_ID}p1
	nicsim_new "$NF_ID" 2 &&
	echo "$NF_ID:0 $NF_ID:1" > "$BUS/link_device" || return 1
	for p in "$IN" "$NF"; do
		sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
		ip link set "$p" up
	done
	ip link set dev "$NF" xdpoffload obj "$SELFDIR/progs/topipe.o" sec xdp
}

# oracle_nic PREFIX [PROFILE [PORTS [TABLES]]]: a device for the oracle,
# IN wired to NF and OUT to CAP, those four ports in a new namespace
# PREFIX-ID (any more of PORTS stay where they are). Sets ID, NS, IN, NF,
# OUT, CAP, NF_IDX and OUT_IDX; fails the test if it cannot.
oracle_nic() {
	ID=$(nicsim_new_id)
	NS=$1-$ID
	IN=nicsim${ID}p0 NF=nicsim${ID}p1 OUT=nicsim${ID}p2 CAP=nicsim${ID}p3
	if [ -n "${4:-}" ]; then
		nicsim_new "$ID" "${3:-4}" "${2:-nicsim-generic}" "$4"
	else
		nicsim_new "$ID" "${3:-4}" ${2:+"$2"}
	fi &&
	echo "$ID:0 $ID:1" > "$BUS/link_device" &&
	echo "$ID:2 $ID:3" > "$BUS/link_device" &&
	netns_new "$NS" &&
	silent_ports_to_ns "$NS" "$IN" "$NF" "$OUT" "$CAP" ||
		{ echo "not ok: cannot set up nicsim$ID's ports in $NS" >&2; exit 1; }
	NF_IDX=$(ip netns exec "$NS" cat "/sys/class/net/$NF/ifindex")
	OUT_IDX=$(ip netns exec "$NS" cat "/sys/class/net/$OUT/ifindex")
}

# oracle_equal DESC OUTPUT RC: the oracle's three verdicts on a run whose
# output and exit status are given: it ran, verdicts and bytes were equal
# for all $FRAMES frames, and so were the final tables.
oracle_equal() {
	expect_eq "$1: oracle exit status" 0 "$3"
	check "$1: verdicts and bytes equal over $FRAMES frames" \
		has_line "ok 1 *verdicts and output bytes equal * for $FRAMES frames (0 differ)*" "$2"
	check "$1: final map contents equal" has_line "ok 2 *" "$2"
}

# split_bench OBJ PROFILE WL [SETUP]: the workload tools/workloads/WL.wl
# cut to 2000 frames, predicted for OBJ split on PROFILE by nicprog-plan
# --partial into $TMP/pred, then sent (bench mode) through OBJ on a new
# nicsim device of PROFILE with plan_partial set; `ethtool -S` of the NF
# port before and after in $TMP/before and $TMP/after. SETUP, a command,
# runs once the device is made. Returns the oracle's exit status.
split_bench() {
	local obj=$1 prof=$2 wl=$3 setup=$4 rc
	workload "$wl" 2000
	"$PLAN" --partial --profile "$prof" --workload "$WL" "$obj" \
		> "$TMP/pred" 2>&1
	grep '^host: [0-9]* \(of\|insns\|verdicts\)' "$TMP/pred" | sed 's/^/# predicted: /'
	oracle_nic "sb${prof#nicsim-}" "$prof"
	[ -z "$setup" ] || $setup
	plan_set "$NF" partial on
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/before"
	ip netns exec "$NS" env ORACLE_BENCH=1 ORACLE_PCAP="$TMP/$wl.pcap" \
		"$SELFDIR/oracle" "$obj" "$IN" "$NF" "$OUT" "$CAP" 7 2000 \
		> "$TMP/oracle" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$TMP/oracle"
	timing_settled "$NS" "$NF"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/after"
	return $rc
}

# stat_delta NAME: growth of an `ethtool -S` counter from $TMP/before to
# $TMP/after.
stat_delta() {
	echo $(($(awk -v n="$1:" '$1 == n { print $2 }' "$TMP/after") -
		$(awk -v n="$1:" '$1 == n { print $2 }' "$TMP/before")))
}

# split_like_kernel DESC PLANFILE PROFILE OBJ: the host: lines of the
# kernel's plan equal those nicprog-plan --partial prints.
split_like_kernel() {
	if [ -x "$PLAN" ]; then
		expect_eq "$1" "$(grep '^host:' "$2")" \
			"$("$PLAN" --partial --profile "$3" "$4" 2>&1 | grep '^host:')"
	else
		tap_skip "$1" "nicprog-plan not built"
	fi
}

# predicted_rates FILE: the throughput and mean latency nicprog-plan
# --workload printed into FILE, as "T L".
predicted_rates() {
	awk '/^predicted/ { l = $0; sub(/.*latency /, "", l); sub(/ cycles.*/, "", l); print $3, l }' "$1"
}

# rates_held DESC PT PL MT ML: measured throughput MT and mean latency ML
# held to the prediction PT PL: within 8% and 12%.
rates_held() {
	local te le
	te=$(pct_err "$2" "$4")
	le=$(pct_err "$3" "$5")
	tap_info "$1: throughput $4 measured, $2 predicted ($te%);" \
		"latency $5 measured, $3 predicted ($le%)"
	check "$1: throughput predicted within 8%" within "$te" 8
	check "$1: mean latency predicted within 12%" within "$le" 12
}

# in_bracket "T1..T2 L1..L2" T L: throughput T and latency L inside
in_bracket() {
	awk -v b="$1" -v t="$2" -v l="$3" '
		BEGIN { n = split(b, f, /[ .]+/)
			exit !(n == 4 && t >= f[1] && t <= f[2] && l >= f[3] && l <= f[4]) }'
}

# bracket_holds DESC PLAN MT ML: measured throughput MT and mean latency
# ML inside the static bracket the plan file PLAN (the kernel's, or
# nicprog-plan's) states.
bracket_holds() {
	local b
	b=$(awk '/^static bracket:/ { print $4, $10 }' "$2")
	tap_info "$1: throughput $3, latency $4 measured; static bracket ${b:-none}"
	check "$1: measured inside the static bracket" in_bracket "$b" "$3" "$4"
}

# class_bracket_holds DESC PRED MT ML: the same inside the bracket over the
# workload's packet classes that nicprog-plan's prediction PRED states
# (the blocks and branches frames of those classes can take).
class_bracket_holds() {
	local b
	b=$(awk '/^static bracket for these classes:/ { print $7, $13 }' "$2")
	tap_info "$1: static bracket for the workload's classes ${b:-none}"
	check "$1: measured inside the bracket for the workload's classes" \
		in_bracket "$b" "$3" "$4"
}

# plan_class_bracket PLAN PRED: the least and most of the kernel plan
# file PLAN's static brackets per packet class ("static bracket for X
# frames") over the classes nicprog-plan's prediction PRED counts frames
# of, the bracket over any traffic too if some frames are of none, as
# "T1..T2 L1..L2"; nothing if PRED counts none.
plan_class_bracket() {
	awk '
	function upd(t, l) {
		split(t, a, /\.\./); split(l, c, /\.\./)
		if (!n++ || a[1] + 0 < t1) t1 = a[1] + 0
		if (a[2] + 0 > t2) t2 = a[2] + 0
		if (n == 1 || c[1] + 0 < l1) l1 = c[1] + 0
		if (c[2] + 0 > l2) l2 = c[2] + 0
	}
	FNR == NR {
		if (/^packet classes/) {
			sub(/^[^:]*: /, "")
			k = split($0, p, /, /)
			for (i = 1; i <= k; i++) {
				split(p[i], q, " ")
				if (q[2] + 0 > 0)
					want[q[1]] = 1
			}
		}
		next
	}
	/^static bracket:/ && ("none" in want) { upd($4, $10) }
	/^static bracket for / && ($4 in want) { upd($7, $13) }
	END { if (n) print t1 ".." t2, l1 ".." l2 }' "$2" "$1"
}

# plan_class_bracket_holds DESC PLAN PRED MT ML: measured throughput MT
# and mean latency ML inside the kernel plan's per-class brackets for the
# classes of the workload's frames (plan_class_bracket).
plan_class_bracket_holds() {
	local b
	b=$(plan_class_bracket "$2" "$3")
	tap_info "$1: the plan's static bracket for the frames' packet classes ${b:-none}"
	check "$1: measured inside the plan's bracket for the frames' packet classes" \
		in_bracket "$b" "$4" "$5"
}

# rates_within DESC PT PL BEFORE AFTER: the NIC's throughput and mean
# latency between two `ethtool -S` snapshots held to the prediction PT PL
# (rates_held).
rates_within() {
	local mt ml
	read -r mt ml < <(nic_rates "$4" "$5")
	rates_held "$1" "$2" "$3" "$mt" "$ml"
}

# timing_settled NS PORT: wait (5 s at most) until nicsim's timing model
# has timed every run, so that its counters cover every frame. An empty NS
# is the initial namespace.
timing_settled() {
	_pending() {
		${1:+ip netns exec "$1"} ethtool -S "$2" |
			awk '$1 == "timing_pending:" { exit $2 != 0 }'
	}
	wait_for 5 _pending "$1" "$2"
}

# workload NAME [FRAMES]: the workload tools/workloads/NAME.wl, of FRAMES
# frames if given (the file's count otherwise), as frames in
# $TMP/NAME.pcap, for the oracle to send; sets WL (the workload file) and
# FRAMES.
workload() {
	WL=$NICPROG_SRC/tools/workloads/$1.wl
	if [ -n "${2:-}" ]; then
		sed "s/^frames .*/frames $2/" "$WL" > "$TMP/$1.wl"
		WL=$TMP/$1.wl
	fi
	"$PLAN" --workload "$WL" --pcap-out "$TMP/$1.pcap" ||
		{ echo "not ok: cannot write the frames of $WL" >&2; exit 1; }
	FRAMES=$(awk '$1 == "frames" { print $2 }' "$WL")
}

# nic_rates BEFORE AFTER [LO HI]: from two `ethtool -S` snapshots of a
# port, as tools/bench/prediction measures: frames with a verdict per
# million cycles of the busiest core, and the cores' run latency per
# frame; of cores LO to HI only if given (the port's plan's, beside
# other ports' programs).
nic_rates() {
	awk -v lo="${3:-0}" -v hi="${4:-1000000}" '
		FNR == 1 { f++ }
		{ n = $1; sub(":", "", n); v[f, n] = $2; names[n] = 1 }
		END {
			for (n in names) {
				d = v[2, n] - v[1, n]
				c = n; gsub(/[^0-9]/, "", c)
				mine = c + 0 >= lo && c + 0 <= hi
				if (n ~ /^xdp_(drop|pass|tx|redirect|aborted)$/) pk += d
				else if (n ~ /^core[0-9]+_cycles$/ && mine && d > busy) busy = d
				else if (n ~ /^core[0-9]+_latency$/ && mine) lat += d
			}
			printf "%.1f %.1f\n", busy ? pk * 1e6 / busy : 0, pk ? lat / pk : 0
		}' "$1" "$2"
}

# pct_err PRED MEASURED: |PRED - MEASURED| / MEASURED, in percent
pct_err() { awk -v p="$1" -v m="$2" 'BEGIN { e = (p - m) / m; printf "%.1f", 100 * (e < 0 ? -e : e) }'; }
# within E LIMIT: E <= LIMIT
within() { awk -v e="$1" -v lim="$2" 'BEGIN { exit !(e <= lim) }'; }

nicsim_del() {
	echo "$1" > "$BUS/del_device"
}

# netns_new NAME: create a namespace, remembered for cleanup.
netns_new() {
	ip netns add "$1" || return 1
	_created_ns+=("$1")
	ip -n "$1" link set lo up
}

# port_to_ns NS DEV ADDR/LEN: move a port into a namespace as a test host's
# interface: IPv4 only (no IPv6 autoconfiguration traffic), address, up.
port_to_ns() {
	ip link set "$2" netns "$1" &&
	ip netns exec "$1" sysctl -qw "net.ipv6.conf.$2.disable_ipv6=1" &&
	ip -n "$1" addr add "$3" dev "$2" &&
	ip -n "$1" link set "$2" up
}

# silent_ports_to_ns NS DEV...: move ports into a namespace, up, with no
# address and no IPv6: the host side sends nothing on them.
silent_ports_to_ns() {
	local ns=$1 p
	shift
	for p in "$@"; do
		ip link set "$p" netns "$ns" &&
		ip netns exec "$ns" sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1" &&
		ip -n "$ns" link set "$p" up || return 1
	done
}

bg() {
	"$@" &
	_bg_pids+=($!)
}

cleanup() {
	local p id ns
	for p in "${_bg_pids[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${_bg_pids[@]}"; do wait "$p" 2>/dev/null; done
	for id in "${_created_devs[@]}"; do
		[ -e "$BUS/devices/nicsim$id" ] && echo "$id" > "$BUS/del_device" 2>/dev/null
	done
	for ns in "${_created_ns[@]}"; do ip netns del "$ns" 2>/dev/null; done
	if [ -n "${_oracle_host_mnt:-}" ]; then
		umount "$_oracle_host_mnt" 2>/dev/null
		rmdir "$_oracle_host_mnt" 2>/dev/null
	fi
}
trap cleanup EXIT

# oracle_keep_host: the oracle keeps the host's copy of each object it
# runs, verified once per test file rather than once per run, in a BPF
# file system of the file's own (oracle.c's host_prog(); ip netns exec
# keeps it); cleanup removes it. Without one the oracle loads every time.
oracle_keep_host() {
	local d
	d=$(mktemp -d /tmp/nicprog-oracle-host.XXXXXX) || return 1
	if mount -t bpf bpf "$d"; then
		_oracle_host_mnt=$d
		export ORACLE_HOST_CACHE=$d
	else
		rmdir "$d"
		tap_info "no BPF file system for the oracle's host copies: each run loads its own"
	fi
}

PLAN=$NICPROG_SRC/tools/nicprog-plan/nicprog-plan
require_plan() {
	[ -x "$PLAN" ] || skip_all "nicprog-plan not built (make tools)"
}

# prediction_setup NAME: what a test of the examples' predictions needs
# (root's tools, nicprog-plan, the oracle, the modules), $EX, a fresh $TMP
# removed at exit, and nf_entries.sh's functions.
prediction_setup() {
	require_root_tools
	require_plan
	[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
	nicprog_load || skip_all "cannot load nicprog/nicsim"
	EX=$NICPROG_SRC/bpf/examples
	TMP=$(mktemp -d "/tmp/nicprog-$1.XXXXXX")
	trap 'cleanup; rm -rf "$TMP"' EXIT
	# shellcheck source=selftests/nicprog/nf_entries.sh
	. "$SELFDIR/nf_entries.sh"
}

# fw_profiles NAME: nicsim reads profiles (firmware files nicsim/<x>.lnic)
# from a fresh directory, $TMP/nicsim; at exit the search path is restored
# and the directory removed. Skips the test without firmware_class.path.
FWPATH=/sys/module/firmware_class/parameters/path
fw_profiles() {
	[ -w "$FWPATH" ] ||
		skip_all "the kernel has no firmware_class.path parameter"
	TMP=$(mktemp -d "/tmp/nicprog-$1.XXXXXX")
	_oldfw=$(cat "$FWPATH")
	trap 'cleanup; echo -n "$_oldfw" > "$FWPATH"; rm -rf "$TMP"' EXIT
	mkdir -p "$TMP/nicsim"
	echo -n "$TMP" > "$FWPATH"
}

# Read a counter of a netdev, optionally inside a namespace.
# nstat [NS] DEV COUNTER
nstat() {
	if [ $# -eq 3 ]; then
		ip netns exec "$1" cat "/sys/class/net/$2/statistics/$3"
	else
		cat "/sys/class/net/$1/statistics/$2"
	fi
}

# Counters of /sys/class/nicprog/DEV/statistics, in DEV's namespace.
npstat() { in_port_ns "$1" cat "/sys/class/nicprog/$1/statistics/$2"; }
# npsys DEV FILE: /sys/class/nicprog/DEV/FILE, in DEV's namespace.
npsys() { in_port_ns "$1" cat "/sys/class/nicprog/$1/$2"; }

# slab_ours: live slab objects that nicprog or nicsim allocated -- the
# first function on the allocation's stack that is not an allocator
# (kmalloc, kvmalloc, kstrdup, ...) is theirs; what they make another
# subsystem allocate (a dentry a firmware read caches) is not -- from the
# allocation traces SLUB keeps with slub_debug=U (as run-checks boots
# the guest of the files that call slab_back); 0 if it keeps none
# (slab_traced).
slab_traced() { local t=(/sys/kernel/debug/slab/*/alloc_traces); [ -r "${t[0]}" ]; }
# slab_drain: empty what KASAN's quarantine holds of the kmalloc caches
# (kmem_cache_shrink does): it keeps freed objects aside, and SLUB counts
# them as allocated still (the sanitizer kernel, make check-debug).
# Elsewhere it only frees empty slabs.
slab_drain() {
	local c
	for c in /sys/kernel/slab/kmalloc-*/shrink; do
		echo 1 > "$c" 2> /dev/null
	done
}
slab_ours() {
	slab_traced || { echo 0; return; }
	slab_drain
	cat /sys/kernel/debug/slab/*/alloc_traces 2> /dev/null | awk '
		function frame(f) {
			if (decided || f ~ /^_*(k[vz]?[mc]alloc|kmem_cache|slab_|kmemdup|kstrn?dup|kv?asprintf|krealloc)/)
				return
			decided = 1
			if ($0 ~ /\[(nicprog|nicsim|nicrisc)\]/)
				n += cnt
		}
		/^ *[0-9]+ .* age=/ { cnt = $1; decided = 0; frame($2); next }
		{ frame($1) }
		END { print n + 0 }'
}

# slab_back DESC BASE: one test point: slab_ours is back to BASE (within
# 10 s: RCU frees late), or a skip if the kernel keeps no traces.
slab_back() {
	_back() { [ "$(slab_ours)" -le "$1" ]; }
	if ! slab_traced; then
		tap_skip "$1: slab objects back to the baseline" \
			"the kernel keeps no allocation traces (boot with slub_debug=U)"
		return
	fi
	wait_for 10 _back "$2"
	expect_eq "$1: slab objects nicprog and its drivers allocated back to the baseline" \
		"$2" "$(slab_ours)"
}

# The path of port DEV's streaming-ring device node (its DEVNAME).
ring_node() { echo "/dev/$(npsys "$1" uevent | sed -n 's/^DEVNAME=//p')"; }
