#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicsim under an offered load (offered_rate): frames arrive on the NIC's
# clock, not the host's. count.o on one core of nicsim-generic, the syn
# workload's frames, offered at half and at twice the rate nicprog-plan
# predicts for it:
# - at half, no frame is dropped and every one has its verdict;
# - at twice, the queue into the cores fills (its hub holds 1024) and
#   the rest is dropped at the NIC's ingress, never run: every frame has
#   a verdict or is counted as dropped (rx_fifo_errors, the core's queue
#   drops, the model's overflow, alike), the drops are what nicprog-plan
#   predicts for the rate, and the core runs at the predicted rate;
# - the drops are decided in simulated time: two NICs given the same
#   frames at the same rate drop exactly the same number, their cores
#   busy and waiting for exactly as many cycles (count.o's table is in
#   lmem, which has no banks or cache, so its runs do not depend on where
#   the kernel put it); each stream ends where the sender says
#   (offered_end), not where the host paused it (timing_streams 1), and
#   a stream ended in the middle drops a hub's worth fewer;
# - the NIC's clock is the frames' arrival at the rate: a token bucket on
#   bpf_ktime_get_ns() drops what nicprog-plan replays at that rate, and a
#   random loss injector (bpf_get_prandom_u32(), seeded by that time) the
#   same number of frames;
# - a pipelined firewall under a light load equals the host (the oracle),
#   its later stages' runs arriving as the stage before ends;
# - a rate is refused while a port has a plan, and for nonsense; an end
#   for nonsense and on a backlogged NIC.
. "$(dirname "$0")/lib.sh"
prediction_setup overload
N=8000

workload syn "$N"

# predict KPPS: nicprog-plan's "T L Mpps drops" for count.o on one core
# at KPPS (0: no rate)
predict() {
	{ cat "$TMP/syn.wl"; [ "$1" = 0 ] || echo "rate $1"; } > "$TMP/rate.wl"
	"$PLAN" --profile nicsim-generic --cores 1 --workload "$TMP/rate.wl" \
		"$EX/count.o" > "$TMP/pred" 2>&1
	predicted_rates "$TMP/pred" | tr '\n' ' '
	awk '/^predicted/ { m = $8; sub(/\(/, "", m); printf "%s ", m }
	     /^offered/ { d = $0; sub(/.*, /, "", d); sub(/ dropped.*/, "", d) }
	     END { print d + 0 }' "$TMP/pred"
}

# offered_start DEV_PREFIX RATE: a new nicsim-generic NIC for count.o on
# one core under RATE frames per second; `ethtool -S` of its NF port in
# $TMP/DEV_PREFIX.before
offered_start() {
	oracle_nic "$1" nicsim-generic
	plan_set "$NF" cores 1
	echo "$2" > "/sys/bus/nicsim/devices/nicsim$ID/offered_rate"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/$1.before"
	FIFO0=$(ip netns exec "$NS" cat "/sys/class/net/$NF/statistics/rx_fifo_errors")
}

# offered_send LABEL FRAMES: the first FRAMES of the workload through the
# NIC in bench mode, as one stream the sender ends
offered_send() {
	ip netns exec "$NS" env ORACLE_BENCH=1 ORACLE_PCAP="$TMP/syn.pcap" 		"$SELFDIR/oracle" "$EX/count.o" "$IN" "$NF" "$OUT" "$CAP" 7 "$2" 		> "$TMP/$1.oracle" 2>&1
	check "$1: the oracle sent $2 frames, each with a verdict or dropped" 		test $? = 0
	sed 's/^/# /' "$TMP/$1.oracle"
	check "$1: the sender ends its stream" 		sh -c "echo 1 > /sys/bus/nicsim/devices/nicsim$ID/offered_end"
}

# offered_finish DEV_PREFIX: the NIC has timed every run; `ethtool -S` in
# $TMP/DEV_PREFIX.after, the port's queue drops in $FIFO
offered_finish() {
	check "$1: the NIC times every run" timing_settled "$NS" "$NF"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/$1.after"
	FIFO=$(($(ip netns exec "$NS" cat "/sys/class/net/$NF/statistics/rx_fifo_errors") - FIFO0))
}

# offered DEV_PREFIX RATE: the N frames as one stream at RATE
offered() {
	offered_start "$1" "$2"
	offered_send "$1" "$N"
	offered_finish "$1"
}

# d PREFIX NAME: growth of an ethtool counter over offered PREFIX's run
d() {
	echo $(($(awk -v n="$2:" '$1 == n { print $2 }' "$TMP/$1.after") -
		$(awk -v n="$2:" '$1 == n { print $2 }' "$TMP/$1.before")))
}
verdicts() {
	echo $(($(d "$1" xdp_drop) + $(d "$1" xdp_pass) + $(d "$1" xdp_tx) +
		$(d "$1" xdp_redirect) + $(d "$1" xdp_aborted)))
}

tap_begin
read -r PT PL MPPS _ < <(predict 0)
tap_info "count.o on one core: $PT frames/Mcycle predicted ($MPPS Mpps)"
HALF=$(awk -v m="$MPPS" 'BEGIN { printf "%d", m * 1e3 / 2 }')
TWICE=$(awk -v m="$MPPS" 'BEGIN { printf "%d", m * 1e3 * 2 }')
read -r _ _ _ WANT < <(predict "$TWICE")
tap_info "at $TWICE kpps nicprog-plan predicts $WANT of $N dropped"
# half of them, less those the hub into the core (1024) and its four
# threads hold when the last arrives (the rate is from a rounded Mpps: a
# frame or two either way)
check "nicprog-plan: at twice the rate, half dropped less what the NIC holds" \
	within "$(awk -v w="$WANT" -v x=$((N / 2 - 1024 - 4)) 'BEGIN { print w > x ? w - x : x - w }')" 2
read -r _ _ _ DROPH < <(predict "$HALF")
expect_eq "nicprog-plan predicts none dropped at half the rate" 0 "$DROPH"

# half the rate: nothing dropped, nothing lost
offered half $((HALF * 1000))
expect_eq "half: $N frames offered in simulated time" "$N" "$(d half timing_offered)"
expect_eq "half: none dropped" 0 "$(d half timing_overflow)"
expect_eq "half: no frame dropped at a queue" 0 "$FIFO"
expect_eq "half: every frame has its verdict" "$N" "$(verdicts half)"
expect_eq "half: one stream" 1 "$(d half timing_streams)"
WAIT=$(d half core0_queue_wait) LAT=$(d half core0_latency)
tap_info "half: runs waited $WAIT cycles in the queue, took $LAT"
check "half: a run waits in the queue less than it runs, on average" \
	test "$WAIT" -lt "$LAT"

# twice the rate, on two NICs: drops past the hub, the same on both
for dev in twice again; do
	offered $dev $((TWICE * 1000))
	expect_eq "$dev: $N frames offered in simulated time" "$N" \
		"$(d $dev timing_offered)"
	OVER=$(d $dev timing_overflow)
	expect_eq "$dev: drops counted at the port" "$OVER" "$FIFO"
	expect_eq "$dev: drops counted at core 0's queue" "$OVER" \
		"$(d $dev core0_queue_drops)"
	expect_eq "$dev: a verdict for every frame not dropped" \
		$((N - OVER)) "$(verdicts $dev)"
	expect_eq "$dev: a dropped frame never ran" $((N - OVER)) \
		"$(d $dev core0_packets)"
	expect_eq "$dev: one stream, ended by offered_end" 1 \
		"$(d $dev timing_streams)"
done
OVER=$(d twice timing_overflow)
tap_info "twice: $OVER of $N dropped; $WANT predicted"
check "twice: drops as predicted within 1% of the frames" within \
	"$(awk -v a="$OVER" -v b="$WANT" -v n="$N" 'BEGIN { e = (a - b) / n; print 100 * (e < 0 ? -e : e) }')" 1
read -r MT ML < <(nic_rates "$TMP/twice.before" "$TMP/twice.after" 0 0)
rates_held "twice: the core overloaded" "$PT" "$PL" "$MT" "$ML"
for k in timing_overflow core0_cycles core0_busy core0_queue_wait core0_latency; do
	expect_eq "two NICs, the same frames and rate: the same $k" \
		"$(d twice $k)" "$(d again $k)"
done

# a stream ended in the middle (offered_end here; a pause past the idle
# limit did the same): the model times what the hub holds at the cut, so
# about a hub's worth fewer frames are dropped (2,976 and 1,952 when a
# guest paused the sender for 2 s under the old 1 s limit)
offered_start split $((TWICE * 1000))
offered_send split-1 $((N / 2))
offered_send split-2 $((N / 2))
offered_finish split
expect_eq "split: two streams" 2 "$(d split timing_streams)"
SPLIT=$(d split timing_overflow)
tap_info "split: $SPLIT of $N dropped, $OVER in one stream"
check "split: a hub's worth (1024) fewer dropped, within 8" \
	within "$(awk -v a="$OVER" -v b="$SPLIT" 'BEGIN { e = a - b - 1024; print e < 0 ? -e : e }')" 8

# the NIC's clock: ratelimit.o, a per-source token bucket on
# bpf_ktime_get_ns(), drops as many frames on nicsim at R frames per
# second of the NIC's clock as nicprog-plan's replay at that rate says
# (frame n at n / R s on both): the counts depend on the rate, not on how
# fast the guest ran the frames
printf 'workload rl\nseed 3\nframes 3000\nflows 16 uniform\nmix udp 100\nsizes 64 100\n' > "$TMP/rl.wl"
"$PLAN" --workload "$TMP/rl.wl" --pcap-out "$TMP/rl.pcap"

# clock_run NAME PROG KPPS: nicprog-plan's report for PROG on the rl
# frames at KPPS in $TMP/NAME.pred, its drops in WANT; then the frames
# through PROG on a new nicsim-generic NIC offered KPPS, `ethtool -S`
# around them in $TMP/NAME.before and .after
clock_run() {
	{ cat "$TMP/rl.wl"; echo "rate $3"; } > "$TMP/$1.wl"
	"$PLAN" --profile nicsim-generic --workload "$TMP/$1.wl" "$2" \
		> "$TMP/$1.pred" 2>&1
	WANT=$(awk '/^verdicts:/ { for (i = 2; i < NF; i += 2) if ($i == "drop") print $(i + 1) }' "$TMP/$1.pred")
	oracle_nic "$1" nicsim-generic
	echo $(($3 * 1000)) > "/sys/bus/nicsim/devices/nicsim$ID/offered_rate"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/$1.before"
	ip netns exec "$NS" env ORACLE_BENCH=1 ORACLE_PCAP="$TMP/rl.pcap" \
		"$SELFDIR/oracle" "$2" "$IN" "$NF" "$OUT" "$CAP" 7 3000 \
		> "$TMP/$1.oracle" 2>&1
	check "$1 at $3 kpps: 3000 frames through the NIC" test $? = 0
	echo 1 > "/sys/bus/nicsim/devices/nicsim$ID/offered_end"
	timing_settled "$NS" "$NF"
	ip netns exec "$NS" ethtool -S "$NF" > "$TMP/$1.after"
	expect_eq "$1 at $3 kpps: none dropped at the NIC's ingress" \
		0 "$(d "$1" timing_overflow)"
	tap_info "$1 at $3 kpps: $(d "$1" xdp_drop) of 3000 dropped, $WANT predicted"
}

prev=
for kpps in 20 40; do
	clock_run "ratelimit$kpps" "$SELFDIR/progs/ratelimit.o" $kpps
	check "ratelimit at $kpps kpps: nicprog-plan says the verdicts follow the rate" \
		grep -q '^clock: .*frame n at n / rate s' "$TMP/ratelimit$kpps.pred"
	expect_eq "ratelimit at $kpps kpps: the bucket drops what nicprog-plan says" \
		"${WANT:-none}" "$(d "ratelimit$kpps" xdp_drop)"
	check "ratelimit at $kpps kpps: the rate decides the drops" \
		test "$WANT" != "$prev"
	prev=$WANT
done
# and its random stream: randdrop.o drops a random tenth (what
# bpf_get_prandom_u32() draws is seeded by the frame's time on the NIC)
clock_run randdrop "$SELFDIR/progs/randdrop.o" 30
check "randdrop: nicprog-plan says what it draws follows the NIC's clock" \
	grep -q '^random: the program reads bpf_get_prandom_u32()' "$TMP/randdrop.pred"
expect_eq "randdrop at 30 kpps: the frames drawn to drop are those nicprog-plan draws" \
	"${WANT:-none}" "$(d randdrop xdp_drop)"

# a pipelined firewall under a light load: its output is the host's
oracle_nic pipe nicsim-generic
plan_set "$NF" cores 4
plan_set "$NF" shape pipelined
echo 100000 > "/sys/bus/nicsim/devices/nicsim$ID/offered_rate"
FRAMES=600
nf_entries firewall
out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$EX/firewall.o" "$IN" "$NF" \
	"$OUT" "$CAP" 5 "$FRAMES" "${ENTRIES[@]}" 2>&1)
oracle_equal "pipelined under an offered load" "$out" $?
echo 1 > "/sys/bus/nicsim/devices/nicsim$ID/offered_end"
timing_settled "$NS" "$NF"
ip netns exec "$NS" ethtool -S "$NF" > "$TMP/pipe"
st() { awk -v n="$1:" '$1 == n { print $2 }' "$TMP/pipe"; }
expect_eq "pipelined: $FRAMES frames offered" "$FRAMES" "$(st timing_offered)"
expect_eq "pipelined: none dropped" 0 "$(st timing_overflow)"
expect_eq "pipelined: every run timed, none waiting" 0 "$(st timing_pending)"
expect_eq "pipelined: one stream" 1 "$(st timing_streams)"
check "pipelined: four stages ran" test "$(st core3_runs)" -gt 0

# refusals: nonsense, and a rate while a plan is installed
R=/sys/bus/nicsim/devices/nicsim$ID/offered_rate
for bad in abc -1 1000000000001 "1 2"; do
	check "offered_rate \"$bad\" refused" \
		bash -c "! echo '$bad' > $R 2> $TMP/err"
	expect_eq "offered_rate \"$bad\": unchanged" 100000 "$(cat "$R")"
done
check "an unparsable rate is refused with a reason in the log" \
	sh -c "dmesg | tail -n 20 | grep -q 'offered_rate: expected frames per second'"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload obj "$EX/count.o" sec xdp
check "a rate while a port has a plan: refused" \
	bash -c "! echo 5 > $R 2> $TMP/err"
check "... EBUSY" grep -q "busy" "$TMP/err"
check "... the log names the port" \
	sh -c "dmesg | tail -n 20 | grep -q 'offered_rate: $NF has a plan'"
expect_eq "... unchanged" 100000 "$(cat "$R")"
ip netns exec "$NS" ip link set dev "$NF" xdpoffload off
check "once the plan is gone, the NIC goes back to backlogged" \
	sh -c "echo 0 > $R"
expect_eq "... rate 0" 0 "$(cat "$R")"
E=/sys/bus/nicsim/devices/nicsim$ID/offered_end
check "offered_end on a backlogged NIC: refused" \
	bash -c "! echo 1 > $E 2> $TMP/err"
check "... EINVAL" grep -q "Invalid argument" "$TMP/err"
check "... the log says why" \
	sh -c "dmesg | tail -n 20 | grep -q 'offered_end: no offered load'"
echo 100000 > "$R"
for bad in 0 abc 2; do
	check "offered_end \"$bad\" refused" \
		bash -c "! echo '$bad' > $E 2> $TMP/err"
done
check "... with a reason in the log" \
	sh -c "dmesg | tail -n 20 | grep -q 'offered_end: expected 1'"
check "offered_end with nothing offered yet: accepted" sh -c "echo 1 > $E"
ip netns exec "$NS" ethtool -S "$NF" > "$TMP/idle"
expect_eq "... and no stream counted" 0 \
	"$(awk '$1 == "timing_streams:" { print $2 }' "$TMP/idle")"
tap_end
