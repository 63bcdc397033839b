#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The streaming-ring device of a port, /dev/nicprog/port<N>: ring_test
# drives it through io_uring (pipes created, mapped, isolated, bounded and
# destroyed; hostile commands and mappings refused with nothing changed; a
# seeded fuzzer); an offloaded NF (progs/topipe.c) steers frames to outputs
# and they arrive in the pipes bound to them (records and streams, in
# order, full pipes dropping and counting, a bogus head ignored, unbound
# outputs invalid redirects; a backpressure pipe holding the NIC); then a
# file with a pipe mapped outlives its port: once
# the device is deleted its commands fail with ENODEV, the mapping still
# reads back and nothing breaks.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/ring_test" ] || skip_all "ring_test not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

SEED=${RING_SEED:-7}
ROUNDS=${RING_ROUNDS:-20000}
TMP=$(mktemp -d /tmp/nicprog-ring.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# finishes PID: the process ends within 20 s (it is killed otherwise).
finishes() {
	local ok=0
	wait_for 20 sh -c "! kill -0 $1 2>/dev/null" || ok=1
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return $ok
}

tap_begin
ID=$(nicsim_new_id)
P=nicsim${ID}p0
nicsim_new "$ID" 1
NODE=$(ring_node "$P")
check "the port's device node appears" wait_for 10 test -c "$NODE"
# A refused argument goes to the tracepoint, not to the kernel log.
bad_args on && traced=1 || traced=0
kmsg=$(kmsg_mark)
"$SELFDIR/ring_test" "$P" "$SEED" "$ROUNDS" > "$TMP/out" 2>&1
rc=$?
klog=$(kmsg_ours "$kmsg")
sed 's/^/# /' "$TMP/out"
expect_eq "ring_test $P $SEED $ROUNDS: exit status" 0 "$rc"
check "ring_test: all 10 cases pass" \
	grep -q "^# Totals: pass:10 fail:0" "$TMP/out"
quiet_log "ring_test's thousands of refused commands left nothing of nicprog's in the kernel log" \
	"$klog"
if [ $traced = 1 ]; then
	bad_args off
	check "the tracepoint nicprog:nicprog_bad_arg named their causes" \
		bad_args_seen "nicprog_bad_arg: $P: ring: pipe create: direction 1 or framing 3 unknown"
	check "  an unknown opcode's among them" \
		bad_args_seen "nicprog_bad_arg: $P: ring: command 0x1 unknown"
else
	tap_skip "the tracepoint nicprog:nicprog_bad_arg named their causes" "no tracefs in the guest"
	tap_skip "  an unknown opcode's among them" "no tracefs in the guest"
fi
expect_eq "no pipe left once the files are closed" 0 \
	"$(cat "/sys/class/nicprog/$P/statistics/ring_pipes")"

# An NF steers frames to its outputs: they arrive in the bound pipes.
topipe_nic || { echo "not ok: cannot set up a topipe NIC" >&2; exit 1; }
ab0=$(ethtool -S "$NF" | awk '$1 == "xdp_aborted:" { print $2 }')
CLI=$NICPROG_SRC/tools/nicprog/nicprog
if [ -x "$CLI" ]; then
	timeout 60 "$CLI" -j monitor > "$TMP/mon" 2>&1 &
	MON=$!
	_bg_pids+=($MON)
	sleep 0.3
fi
"$SELFDIR/ring_test" --pipe "$IN" "$NF" > "$TMP/pipe" 2>&1
rc=$?
sed 's/^/# /' "$TMP/pipe"
expect_eq "ring_test --pipe: exit status" 0 "$rc"
check "ring_test --pipe: all 24 cases pass" \
	grep -q "^# Totals: pass:24 fail:0" "$TMP/pipe"
if [ -x "$CLI" ]; then
	# its full pipes dropped 200-byte frames: 81, 5 and more. Events
	# come at most once a second, each with the drops since the last,
	# and later on a busy machine: read them until they add up to that,
	# for at most 20 s.
	ring_drops() {
		/usr/bin/python3 -c "
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.endswith('\\n')]
ev = [e for e in ev if e['event'] == 'ring-drops' and e['ifname'] == '$NF']
outs = sorted(set(o for e in ev for o in e['outputs']))
print(len(ev), sum(e['drops'] for e in ev), sum(e['drop_bytes'] for e in ev), ','.join(map(str, outs)) or '-')" "$TMP/mon"
	}
	end=$((SECONDS + 20))
	while read -r n_ev drops bytes outs < <(ring_drops) &&
	      [ "${drops:-0}" -lt 86 ] && [ $SECONDS -lt $end ]; do
		sleep 0.5
	done
	kill "$MON"
	wait "$MON" 2>/dev/null
	read -r n_ev drops bytes outs < <(ring_drops)
	tap_info "ring-drops: $n_ev events, $drops records, $bytes bytes, outputs $outs"
	check "monitor: ring-drops events for the pipes that dropped" \
		test "${n_ev:-0}" -ge 1 -a "${drops:-0}" -ge 86
	expect_eq "monitor: their bytes are the 200-byte frames'" \
		"$((${drops:-0} * 200))" "${bytes:-x}"
	check "monitor: naming the outputs bound to them" test "$outs" != -
else
	tap_skip "ring-drops events" "tools/nicprog/nicprog not built"
fi
ab=$(($(ethtool -S "$NF" | awk '$1 == "xdp_aborted:" { print $2 }') - ab0))
check "frames to unbound outputs are invalid redirects ($ab, at least 10)" \
	test "$ab" -ge 10
if command -v setpriv > /dev/null; then
	expect_eq "binding without CAP_NET_ADMIN: EPERM" "bind: -1" \
		"$(setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
			"$SELFDIR/ring_test" --bind "$NF" 2>&1 | grep '^bind:')"
else
	tap_skip "binding without CAP_NET_ADMIN" "setpriv not installed"
fi
# kill -9 with a wait in flight: io_uring's teardown waits for it (6.1
# cannot cancel a uring_cmd), which its timeout bounds; then the file and
# its pipe go.
"$SELFDIR/ring_test" --park "$NF" > "$TMP/park" 2>&1 &
PPID2=$!
parked() { grep -q "^parked" "$TMP/park"; }
check "a process parks a wait" wait_for 10 parked
CLI=$NICPROG_SRC/tools/nicprog/nicprog
# rings: the bound outputs stats-get shows, "none" for none (nothing at
# all if the CLI or its JSON failed)
rings() { "$CLI" -j stats dev "$NF" | /usr/bin/python3 -c "
import json, sys
rs = json.load(sys.stdin)[0]['rings']
for r in rs:
    print(r['output'], r['size'], r['backpressure'], r['bytes'], r['consumed'], r['drops'], r['drop_bytes'], r['coalesce_usecs'], r['coalesce_bytes'])
if not rs:
    print('none')"; }
expect_eq "stats-get: its pipe on output 5, 64 KiB, backpressure, moderation, nothing yet" \
	"5 65536 True 0 0 0 0 5000 4096" "$(rings)"
check "stats in words: the moderation it was bound with" \
	grep -q "^    output 5: pipe of 65536 bytes, backpressure on, moderation 5000 us or 4096 bytes, 0 bytes appended" <<< "$("$CLI" stats dev "$NF")"
kill -9 "$PPID2"
wait "$PPID2" 2>/dev/null
nopipe() { [ "$(cat "/sys/class/nicprog/$NF/statistics/ring_pipes")" = 0 ]; }
check "kill -9 with a wait in flight: its pipe goes within the wait's bound" \
	wait_for 20 nopipe
expect_eq "stats-get: no output has a pipe then" none "$(rings)"
# a pipe that filled up, dropped and was partly released: stats-get says
# what its control page says
"$SELFDIR/ring_test" --fill "$IN" "$NF" > "$TMP/fill" 2>&1 &
FPID=$!
filled() { grep -q "^filled" "$TMP/fill"; }
check "a 4 KiB pipe on output 1 fills up" wait_for 10 filled
sed 's/^/# /' "$TMP/fill"
expect_eq "its control page: 19 records of 200 bytes kept, 5 released, 81 dropped" \
	"# tail $((19 * 208)) head $((5 * 208)) drops 81 drop_bytes $((81 * 200))" \
	"$(grep '^# tail' "$TMP/fill")"
expect_eq "stats-get: output 1, 4 KiB, bytes, consumed and drops as the pipe's" \
	"1 4096 False $((19 * 208)) $((5 * 208)) 81 $((81 * 200)) 0 0" "$(rings)"
out=$("$CLI" stats dev "$NF")
check "stats in words: the pipe's bytes and drops" \
	grep -q "^    output 1: pipe of 4096 bytes, backpressure off, $((19 * 208)) bytes appended, $((5 * 208)) consumed, drops 81 ($((81 * 200)) bytes)$" <<< "$out"
kill "$FPID"
wait "$FPID" 2>/dev/null
check "and it goes with its process" wait_for 20 nopipe
# libnicring's echo (tools/apps/ringecho): frames steered to output 0 come
# back, rewritten in place and sent from a TX pipe over the same memory.
ECHO=$NICPROG_SRC/tools/apps/ringecho
if [ -x "$ECHO" ]; then
	"$ECHO" -n 2000 -i 10000 "$NF" > "$TMP/echo" 2>&1 &
	EPID=$!
	started() { grep -q "^ringecho: $NF output 0" "$TMP/echo"; }
	check "ringecho starts on $NF" wait_for 10 started
	"$SELFDIR/ring_test" --echo-peer "$IN" 2000 > "$TMP/peer" 2>&1
	sed 's/^/# /' "$TMP/peer"
	check "ringecho: 2000 frames back in order, addresses swapped" \
		grep -q "^ok 1 2000 of 2000 frames echoed" "$TMP/peer"
	check "ringecho ends after 2000 frames" finishes "$EPID"
	sed 's/^/# /' "$TMP/echo"
	check "ringecho counted 2000 frames and no drop" \
		grep -q "^ringecho: 2000 frames, .* 0 dropped$" "$TMP/echo"
	"$ECHO" "$NF" extra > "$TMP/echo" 2>&1
	expect_eq "ringecho with two operands: the usage, status 2" \
		"2 usage: ringecho IFNAME [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]" \
		"$? $(cat "$TMP/echo")"
	"$ECHO" -o 99 -i 100 "$NF" > "$TMP/echo" 2>&1
	expect_eq "ringecho on an output the port lacks: why, status 1" \
		"1 ringecho: pipes on output 99: Invalid argument" \
		"$? $(cat "$TMP/echo")"
else
	tap_skip "libnicring echo" "tools/apps/ringecho not built"
fi
"$SELFDIR/ring_test" --backpressure "$IN" "$NF" > "$TMP/bp" 2>&1
sed 's/^/# /' "$TMP/bp"
check "ring_test --backpressure: a full pipe holds the NIC, losses counted" \
	grep -q "^# Totals: pass:4 fail:0" "$TMP/bp"
# the frames a core gave up on are stalls, which devlink's reporter hears of
stalled() {
	devlink -j health diagnose "nicsim/nicsim$NF_ID" reporter cores 2>/dev/null |
		/usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
s = d["last_stall"]
sys.exit(not (d["stall_frames"] >= 1 and s["port"] == sys.argv[1] and s["frames"] >= 1))' "$NF"
}
if command -v devlink > /dev/null; then
	check "devlink health: the stalled core's drops, on $NF" wait_for 5 stalled
else
	tap_skip "devlink health: the stalled core's drops" "devlink (iproute2) not installed"
fi
ip link set dev "$NF" xdpoffload off
"$SELFDIR/ring_test" --replace "$IN" "$NF" "$SELFDIR/progs/topipe.o" \
	> "$TMP/replace" 2>&1
sed 's/^/# /' "$TMP/replace"
check "ring_test --replace: bound pipes across program replacement and removal" \
	grep -q "^# Totals: pass:3 fail:0" "$TMP/replace"
ip link set dev "$NF" xdpoffload off
expect_eq "no pipe left" 0 "$(cat "/sys/class/nicprog/$NF/statistics/ring_pipes")"

# The port goes while a file is open and a pipe mapped.
mkfifo "$TMP/in"
"$SELFDIR/ring_test" --hold "$P" < "$TMP/in" > "$TMP/hold" 2>&1 &
HPID=$!
exec 3> "$TMP/in"
holding() { grep -q "^# holding" "$TMP/hold"; }
check "a file holds a mapped pipe" wait_for 10 holding
check "the device is deleted under it" nicsim_del "$ID"
echo go >&3
exec 3>&-
check "the holder finishes" finishes "$HPID"
sed 's/^/# /' "$TMP/hold"
check "its commands failed with ENODEV, its mapping read back" \
	grep -q "^ok 1 after the port went" "$TMP/hold"
check "the device node is gone" test ! -e "$NODE"
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
