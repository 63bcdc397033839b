#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The NIC's RoCEv2 engine against Linux's own soft-RoCE: a peer whose
# nicsim port carries rdma_rxe (in the initial namespace: rxe opens its
# UDP socket and routes there only) and rdma-core's unmodified
# ibv_rc_pingpong, in both roles, against nicrdma pingpong on the other
# port, whose QP is the engine's (its port in a namespace of its own, the
# engine's address that port's). 1 B to 1 MiB messages (1 MiB: a
# thousand packets each at MTU 1024), each side's own success output;
# perftest's ib_write_bw and ib_read_bw against nicrdma bw likewise;
# the byte-exact check (rdmapeer on rxe, a libibverbs program, against
# nicrdma check): WRITE with immediate, SEND and READ of seeded bytes,
# 1 B to 1 MiB, each way, in both TCP roles; the lookaside applications
# against the rxe peer: matmul (A and B READ into NIC memory, multiplied
# by a kernel, C equal to the host's) and colagg (records READ, filtered
# and aggregated by a kernel, the result equal to the host's); then with
# 1% seeded loss on the wire both ways, where only retransmission -- the
# engine's and rxe's -- completes the runs.
# Then the engine against itself on a second NIC (rdma_test): SEND,
# WRITE, READ, with and without immediate data, 1 B to 2 MiB both ways
# byte-exact, clean and at 1% loss; bad rkeys, ranges and access NAKed;
# RNR; every malformed command its errno; a seeded fuzzer of WRs that
# writes nothing outside a region; a lookaside kernel whose jobs post a
# WRITE_IMM of their result (sumwrite.o), its refusals and a bad rkey
# the peer refuses; EPERM without CAP_NET_ADMIN; the
# device deleted under traffic; slab objects back to the baseline.
. "$(dirname "$0")/lib.sh"
require_root_tools
APPS=$NICPROG_SRC/tools/apps
[ -x "$APPS/nicrdma" ] || skip_all "tools/apps/nicrdma not built"
command -v ibv_rc_pingpong > /dev/null ||
	skip_all "ibv_rc_pingpong not installed (ibverbs-utils)"
command -v rdma > /dev/null || skip_all "rdma (iproute2) not installed"
modprobe rdma_rxe 2> /dev/null || skip_all "the kernel has no rdma_rxe"
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

TMP=$(mktemp -d /tmp/nicprog-rdma.XXXXXX)
RXE=rxe$$
trap 'rdma link delete "$RXE" 2> /dev/null; cleanup; rm -rf "$TMP"' EXIT

slab0=$(slab_ours)
ID=$(nicsim_new_id)
P=nicsim${ID}p0 E=nicsim${ID}p1
nicsim_new "$ID" 2
echo "$ID:0 $ID:1" > "$BUS/link_device"
ip link set lo up
sysctl -qw "net.ipv6.conf.$P.disable_ipv6=1"
ip addr add 10.77.0.1/24 dev "$P"
ip link set "$P" up
netns_new eng
port_to_ns eng "$E" 10.77.0.2/24
rdma link add "$RXE" type rxe netdev "$P"
# the rxe device's IPv4 GID ("GID[  1]: ::ffff:10.77.0.1, RoCE v2"):
# its index for ibv_rc_pingpong's -g; rxe adds it as it learns the address
gidx() { ibv_devinfo -v -d "$RXE" | sed -n 's/.*GID\[ *\([0-9]*\)\]:.*::ffff:10\.77\.0\.1,.*/\1/p'; }
wait_for 10 sh -c "ibv_devinfo -v -d $RXE | grep -q '::ffff:10.77.0.1,'"
GIDX=$(gidx)
roce() { awk -v f="$1" '$1 == "p1" { for (i = 2; i < NF; i += 2) if ($i == f) print $(i + 1) }' \
	"/sys/kernel/debug/nicsim/nicsim$ID/mem"; }

# pp SIZE ITERS ROLE: ibv_rc_pingpong against nicrdma pingpong, the engine
# the server (ROLE engine-server) or the client (engine-client); both
# must exit 0 having printed their "iters in" line.
pp() {
	local s=$1 n=$2 erc rrc
	if [ "$3" = engine-server ]; then
		ip netns exec eng timeout 120 "$APPS/nicrdma" pingpong -d "$E" \
			-a 10.77.0.2 -s "$s" -n "$n" > "$TMP/eng" 2>&1 &
		wait_for 20 sh -c "ip netns exec eng ss -ltn | grep -q ':18515 '"
		timeout 120 stdbuf -oL ibv_rc_pingpong -d "$RXE" -g "$GIDX" \
			-s "$s" -n "$n" 10.77.0.2 > "$TMP/rxe" 2>&1
		rrc=$?
		wait $!
		erc=$?
	else
		timeout 120 stdbuf -oL ibv_rc_pingpong -d "$RXE" -g "$GIDX" \
			-s "$s" -n "$n" > "$TMP/rxe" 2>&1 &
		wait_for 20 sh -c "ss -ltn | grep -q ':18515 '"
		ip netns exec eng timeout 120 "$APPS/nicrdma" pingpong -d "$E" \
			-a 10.77.0.2 -s "$s" -n "$n" 10.77.0.1 > "$TMP/eng" 2>&1
		erc=$?
		wait $!
		rrc=$?
	fi
	sed 's/^/# rxe: /' "$TMP/rxe"
	sed 's/^/# engine: /' "$TMP/eng"
	[ "$rrc" = 0 ] && [ "$erc" = 0 ] &&
		grep -q "^$n iters in .* usec/iter" "$TMP/rxe" &&
		grep -q "^$n iters in .* usec/iter" "$TMP/eng"
}

# bwt TOOL SIZE ITERS ROLE: perftest's TOOL (ib_write_bw, ib_read_bw)
# against nicrdma bw, the engine the server or the client; both exit 0,
# perftest having printed its report line for SIZE and ITERS.
bwt() {
	local t=$1 s=$2 n=$3 f erc rrc
	f=-w
	[ "$t" = ib_read_bw ] && f=-r
	if [ "$4" = engine-server ]; then
		ip netns exec eng timeout 120 "$APPS/nicrdma" bw "$f" -d "$E" \
			-a 10.77.0.2 -s "$s" > "$TMP/eng" 2>&1 &
		wait_for 20 sh -c "ip netns exec eng ss -ltn | grep -q ':18515 '"
		timeout 120 "$t" -d "$RXE" -x "$GIDX" -s "$s" -n "$n" 10.77.0.2 \
			> "$TMP/rxe" 2>&1
		rrc=$?
		wait $!
		erc=$?
	else
		timeout 120 "$t" -d "$RXE" -x "$GIDX" -s "$s" -n "$n" \
			> "$TMP/rxe" 2>&1 &
		wait_for 20 sh -c "ss -ltn | grep -q ':18515 '"
		ip netns exec eng timeout 120 "$APPS/nicrdma" bw "$f" -d "$E" \
			-a 10.77.0.2 -s "$s" -n "$n" 10.77.0.1 > "$TMP/eng" 2>&1
		erc=$?
		wait $!
		rrc=$?
	fi
	if [ "$rrc" = 0 ] && [ "$erc" = 0 ] &&
		grep -Eq "^ $s +$n +[0-9.]+ +[0-9.]+" "$TMP/rxe"; then
		sed 's/^/# rxe: /' "$TMP/rxe" | grep -E "^# rxe: +[0-9]"
		return 0
	fi
	# all of both sides' output when it fails
	sed 's/^/# rxe: /' "$TMP/rxe"
	sed 's/^/# engine: /' "$TMP/eng"
	echo "# exit status: rxe $rrc, engine $erc"
	return 1
}

# chk ROLE SEED: rdmapeer on rxe against nicrdma check, the engine the
# TCP server (engine-server) or the client; both must exit 0, each having
# checked every step's bytes (tools/apps/rdma_check.h).
chk() {
	local erc rrc
	set -- "$1" -S "$2" -s 1,4097,65536,1048576
	if [ "$1" = engine-server ]; then
		ip netns exec eng timeout 120 "$APPS/nicrdma" check -d "$E" \
			-a 10.77.0.2 "${@:2}" > "$TMP/eng" 2>&1 &
		wait_for 20 sh -c "ip netns exec eng ss -ltn | grep -q ':18516 '"
		timeout 120 "$APPS/rdmapeer" -d "$RXE" -g "$GIDX" "${@:2}" \
			10.77.0.2 > "$TMP/rxe" 2>&1
		rrc=$?
		wait $!
		erc=$?
	else
		timeout 120 "$APPS/rdmapeer" -d "$RXE" -g "$GIDX" "${@:2}" \
			> "$TMP/rxe" 2>&1 &
		wait_for 20 sh -c "ss -ltn | grep -q ':18516 '"
		ip netns exec eng timeout 120 "$APPS/nicrdma" check -d "$E" \
			-a 10.77.0.2 "${@:2}" 10.77.0.1 > "$TMP/eng" 2>&1
		erc=$?
		wait $!
		rrc=$?
	fi
	sed 's/^/# rxe: /' "$TMP/rxe" | grep -v "^# rxe: ok "
	sed 's/^/# engine: /' "$TMP/eng" | grep -v "^# engine: ok "
	[ "$rrc" = 0 ] && [ "$erc" = 0 ] &&
		grep -q "^# all 24 steps byte-exact" "$TMP/rxe" &&
		grep -q "^# all 24 steps byte-exact" "$TMP/eng"
}

# chk_refused: ends given different seeds both stop at the exchange,
# each naming the other's seed, before any byte moves.
chk_refused() {
	local erc rrc
	ip netns exec eng timeout 30 "$APPS/nicrdma" check -d "$E" \
		-a 10.77.0.2 -S 1 > "$TMP/eng" 2>&1 &
	wait_for 20 sh -c "ip netns exec eng ss -ltn | grep -q ':18516 '"
	timeout 30 "$APPS/rdmapeer" -d "$RXE" -g "$GIDX" -S 2 10.77.0.2 \
		> "$TMP/rxe" 2>&1
	rrc=$?
	wait $!
	erc=$?
	sed 's/^/# rxe: /' "$TMP/rxe"
	sed 's/^/# engine: /' "$TMP/eng"
	[ "$rrc" = 1 ] && [ "$erc" = 1 ] &&
		grep -q "the peer checks seed 1 " "$TMP/rxe" &&
		grep -q "the peer checks seed 2 " "$TMP/eng"
}

# served OPT N SEED APP LINE [ARGS...]: rdmapeer on rxe serves (-x N:
# matrices, -y N: records) what APP on the engine READs into NIC memory
# and computes on with its lookaside kernel; both exit 0 and APP prints
# LINE (its result equal to the host's own)
served() {
	local opt=$1 n=$2 seed=$3 app=$4 line=$5 erc rrc
	shift 5
	timeout 120 "$APPS/rdmapeer" -d "$RXE" -g "$GIDX" "$opt" "$n" \
		-S "$seed" > "$TMP/rxe" 2>&1 &
	wait_for 20 sh -c "ss -ltn | grep -q ':18516 '"
	ip netns exec eng timeout 120 "$APPS/$app" -d "$E" -a 10.77.0.2 \
		-n "$n" -S "$seed" "$@" 10.77.0.1 > "$TMP/eng" 2>&1
	erc=$?
	# a failure before the exchange leaves the peer waiting for one
	[ "$erc" = 0 ] || kill $! 2> /dev/null
	wait $!
	rrc=$?
	sed 's/^/# rxe: /' "$TMP/rxe"
	sed 's/^/# engine: /' "$TMP/eng"
	[ "$rrc" = 0 ] && [ "$erc" = 0 ] && grep -q "$line" "$TMP/eng"
}
# mm N SEED: RecoNIC's networked matrix multiplication -- matmul READs A
# and B, multiplies them with bpf/lookaside/matmul.o, checks C
mm() { served -x "$1" "$2" matmul "C equals the host's product"; }
# ca NREC SEED MIN MASK: the reduction -- colagg READs NREC records,
# filters and aggregates them with bpf/lookaside/colagg.o, checks the
# 128-byte result
ca() {
	served -y "$1" "$2" colagg "the result equals the host's reduction" \
		-v "$3" -f "$4"
}

tap_begin
check "rxe's IPv4 GID found (index ${GIDX:-none})" test -n "$GIDX"
for role in engine-server engine-client; do
	check "$role: ibv_rc_pingpong, 1-byte messages x 100" pp 1 100 $role
	check "$role: ibv_rc_pingpong, 4 KiB messages (4 packets) x 200" \
		pp 4096 200 $role
	check "$role: ibv_rc_pingpong, 1 MiB messages (1024 packets) x 3" \
		pp $((1 << 20)) 3 $role
done
if command -v ib_write_bw > /dev/null; then
	for t in ib_write_bw ib_read_bw; do
		for role in engine-server engine-client; do
			check "$role: $t, 1 B x 100" bwt $t 1 100 $role
			check "$role: $t, 64 KiB x 100" bwt $t 65536 100 $role
			check "$role: $t, 1 MiB x 5" bwt $t $((1 << 20)) 5 $role
		done
	done
else
	tap_skip "perftest's ib_write_bw and ib_read_bw against the engine" \
		"perftest not installed"
fi
if [ -x "$APPS/rdmapeer" ]; then
	for role in engine-server engine-client; do
		check "$role: WRITE_IMM, SEND, READ each way byte-exact, 1 B - 1 MiB" \
			chk $role 11
	done
	check "a peer checking other bytes is refused at the exchange, both ends saying why" \
		chk_refused
	# built by make with the rest: missing, they fail, not skip
	check "matmul 64x64: A and B READ from the rxe peer into NIC memory, multiplied on the NIC, C equals the host's" \
		mm 64 21
	check "colagg: 65536 records READ from the rxe peer, filtered and aggregated on the NIC (64 jobs), 128 bytes to the host equal to the host's reduction" \
		ca 65536 23 -20000 1
else
	tap_skip "the byte-exact check against rxe" \
		"tools/apps/rdmapeer not built (libibverbs-dev)"
fi
expect_eq "the engine saw no bad ICRC, malformed frame or QP error" "0 0 0" \
	"$(roce icrc_errors) $(roce malformed) $(roce qp_errors)"

echo "$ID:0" > "$BUS/unlink_device"
echo "$ID:0 $ID:1 loss 10000 seed 3" > "$BUS/link_device"
retx0=$(roce retransmits)
# ibv_rc_pingpong with the engine the client only: rxe's client exits as
# soon as its last message is in, so an ACK of it the wire loses leaves
# the server's resend to a QP that is gone (rxe against rxe alike); our
# end lingers for the peer's resends (nicrdma pingpong -l)
check "1% loss, engine-client: ibv_rc_pingpong 4 KiB x 100 complete" \
	pp 4096 100 engine-client
if [ -x "$APPS/rdmapeer" ]; then
	for role in engine-server engine-client; do
		check "1% loss, $role: every step byte-exact, 1 B - 1 MiB" \
			chk $role 12
	done
	check "1% loss: matmul 128x128 over READs from the rxe peer, C equals the host's" \
		mm 128 22
fi
tap_info "the engine's retransmissions under loss: $(( $(roce retransmits) - retx0 )), frames the wire lost: $(ethtool -S "$P" | awk '$1 == "wire_lost:" { print $2 }') one way, $(ip netns exec eng ethtool -S "$E" | awk '$1 == "wire_lost:" { print $2 }') the other"
check "the engine retransmitted" test "$(roce retransmits)" -gt "$retx0"
rdma link delete "$RXE"

# The engine against itself: two ports of a second NIC, no IP needed.
if [ -x "$SELFDIR/rdma_test" ]; then
	ID2=$(nicsim_new_id)
	A=nicsim${ID2}p0 B=nicsim${ID2}p1
	nicsim_new "$ID2" 2
	echo "$ID2:0 $ID2:1" > "$BUS/link_device"
	for p in $A $B; do
		sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
		ip link set "$p" up
	done
	# a new seed each run, printed: RDMA_SEED=N replays one
	RSEED=${RDMA_SEED:-$(($(date +%s%N) % 1000000007))}
	tap_info "rdma_test seed $RSEED (RDMA_SEED=$RSEED replays it)"
	"$SELFDIR/rdma_test" "$A" "$B" cases "$RSEED" 3000 > "$TMP/out" 2>&1
	rc=$?
	sed 's/^/# /' "$TMP/out"
	expect_eq "rdma_test $A $B cases $RSEED 3000: exit status" 0 "$rc"
	check "rdma_test: all 5 cases pass" grep -q "^# Totals: pass:5 fail:0" "$TMP/out"
	# a lookaside kernel's jobs post RDMA work (NICPROG_JOB_BUF_POST)
	"$SELFDIR/rdma_test" "$A" "$B" kpost 7 \
		"$NICPROG_SRC/bpf/lookaside/sumwrite.o" > "$TMP/out" 2>&1
	rc=$?
	sed 's/^/# /' "$TMP/out"
	expect_eq "rdma_test $A $B kpost 7 sumwrite.o: exit status" 0 "$rc"
	check "rdma_test kpost: a kernel's WRITE_IMM, its refusals, an empty window, a bad rkey (4 cases)" \
		grep -q "^# Totals: pass:4 fail:0" "$TMP/out"
	# the engine's frames received (both ports) for the same transfers
	# clean and at 1% loss: go-back-N's cost, as rdma.rst reports it
	c2all() { awk -v f="$1" '$1 ~ /^p[01]$/ { for (i = 2; i < NF; i += 2) if ($i == f) n += $(i + 1) } END { print n + 0 }' \
		"/sys/kernel/debug/nicsim/nicsim$ID2/mem"; }
	r0=$(c2all roce_rx)
	"$SELFDIR/rdma_test" "$A" "$B" xfer 6 > /dev/null 2>&1
	r1=$(c2all roce_rx) d1=$(c2all rx_drops)
	echo "$ID2:0" > "$BUS/unlink_device"
	echo "$ID2:0 $ID2:1 loss 10000 seed 9" > "$BUS/link_device"
	"$SELFDIR/rdma_test" "$A" "$B" xfer 6 > "$TMP/out" 2>&1
	rc=$?
	tap_info "rdma_test xfer: $((r1 - r0)) frames received clean, $(( $(c2all roce_rx) - r1 )) at 1% loss ($(( $(c2all rx_drops) - d1 )) dropped at the engine's queue)"
	sed 's/^/# /' "$TMP/out"
	expect_eq "1% loss: every transfer byte-exact (rdma_test xfer)" "0 1" \
		"$rc $(grep -c '^ok 1 ' "$TMP/out")"
	if command -v setpriv > /dev/null; then
		check "without CAP_NET_ADMIN no QP is made (EPERM)" \
			setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
			"$SELFDIR/rdma_test" "$A" "$B" eperm 1
	else
		tap_skip "without CAP_NET_ADMIN no QP is made (EPERM)" "setpriv not installed"
	fi
	# a clean wire again: the crafted frames below are counted one by one
	echo "$ID2:0" > "$BUS/unlink_device"
	echo "$ID2:0 $ID2:1" > "$BUS/link_device"
	"$SELFDIR/rdma_test" "$A" "$B" hold 7 > "$TMP/hold" 2>&1 &
	hold=$!
	if wait_for 20 grep -q '^held ' "$TMP/hold"; then
		# frames crafted on A's side for B's QP: a bad ICRC, a frame
		# shorter than its IP length, two with PSNs half the space
		# apart (ICRC good, by roce_inject.py's own CRC): one ahead,
		# one behind what the QP expects
		c2() { awk -v f="$1" '$1 == "p1" { for (i = 2; i < NF; i += 2) if ($i == f) print $(i + 1) }' \
			"/sys/kernel/debug/nicsim/nicsim$ID2/mem"; }
		read -r _ _ qb < "$TMP/hold"
		i0=$(c2 icrc_errors) m0=$(c2 malformed)
		s0=$(( $(c2 seq_errors) + $(c2 duplicates) ))
		bmac=$(cat "/sys/class/net/$B/address")
		for k in "icrc 5" "short 3" "good 2"; do
			# shellcheck disable=SC2086 # kind and count
			"$SELFDIR/roce_inject.py" "$A" "$bmac" 10.88.0.1 10.88.0.2 "$qb" $k
		done
		expect_eq "crafted frames: 5 bad ICRCs and 3 short ones dropped and counted" \
			"5 3" "$(( $(c2 icrc_errors) - i0 )) $(( $(c2 malformed) - m0 ))"
		check "  2 good-ICRC frames out of sequence taken as such (the ICRC agrees with zlib's CRC)" \
			test "$(( $(c2 seq_errors) + $(c2 duplicates) - s0 ))" -ge 2
		sleep 1
		check "the device is deleted under WRITEs both ways" nicsim_del "$ID2"
		check "the holder sees ENODEV and exits 0" \
			wait_for 20 grep -q '^gone$' "$TMP/hold"
		wait "$hold"
		expect_eq "  its exit status" 0 $?
	else
		sed 's/^/# /' "$TMP/hold"
		tap_fail "the device is deleted under WRITEs both ways"
		kill -9 "$hold"
	fi
else
	tap_skip "rdma_test: the engine against itself" "rdma_test not built"
fi
nicsim_del "$ID"
slab_back "after QPs, regions, transfers and device removal" "$slab0"
tap_end
