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
ID=$(nicsim_new_id)
NS=orc-$ID
IN=nicsim${ID}p0 NF=nicsim${ID}p1 OUT=nicsim${ID}p2 CAP=nicsim${ID}p3

nicsim_new "$ID" 4
echo "$ID:0 $ID:1" > $BUS/link_device
echo "$ID:2 $ID:3" > $BUS/link_device
netns_new "$NS"
for p in $IN $NF $OUT $CAP; do
	ip link set "$p" netns "$NS"
	# No address and no IPv6: the host side stays silent on every port.
	ip netns exec "$NS" sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
	ip -n "$NS" link set "$p" up
done

# u32 in little-endian hex
le32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }
NF_IDX=$(ip netns exec "$NS" cat /sys/class/net/$NF/ifindex)
OUT_IDX=$(ip netns exec "$NS" cat /sys/class/net/$OUT/ifindex)
MACS=02aabbccdd0102aabbccdd02
# route KEYHEX: prefix length (u32 LE) and network (big endian)
route() { echo "routes:$(le32 "$1")$2:$(le32 "$3")$MACS"; }

run_oracle() {
	local name=$1
	shift
	ip netns exec "$NS" "$SELFDIR/oracle" "$EX/$name.o" "$IN" "$NF" \
		"$OUT" "$CAP" "$SEED" "$FRAMES" "$@"
}

tap_begin
for shape in $SHAPES; do
echo "$shape" > /sys/class/nicprog/$NF/plan_shape
# esp: security association of a destination, SPI and a 256-bit key
esp_sa() {
	local key=
	for i in $(seq 0 31); do key=$key$(printf '%02x' $((($2 * 37 + i * 11) & 255))); done
	echo "sas:$1:$(le32 "$2")00000000${key}$(printf "%032d" 0)"
}

for nf in $NFS; do
	case $nf in
	port_filter)
		set -- blocked:3500:0000000000000000 blocked:901f:0000000000000000 \
		       blocked:1600:0000000000000000 ;;
	firewall)
		# allow ports 80 and 53; frame clock, idle timeout 300 frames
		set -- allow:5000:00 allow:3500:00 \
		       config:01000000:0100000000000000 \
		       config:00000000:2c01000000000000 ;;
	router)
		set -- "$(route 8 0a000000 "$OUT_IDX")" \
		       "$(route 16 0a010000 "$NF_IDX")" \
		       "$(route 24 0a010200 "$OUT_IDX")" \
		       "$(route 16 c0a80000 "$NF_IDX")" \
		       "$(route 32 08080808 "$OUT_IDX")" ;;
	lb)
		# 251 ring slots over 4 backends 02:00:00:00:00:0b, 10.9.0.b
		set --
		for slot in $(seq 0 250); do
			set -- "$@" "ring:$(le32 "$slot"):$(le32 $((slot % 4)))"
		done
		for b in 0 1 2 3; do
			set -- "$@" "backends:$(le32 "$b"):02000000000${b}00000a09000${b}"
		done ;;
	heavy_hitter)
		set -- config:00000000:$(le32 20) ;;
	nat)
		set -- nat_cfg:00000000:c6336401 ;;
	esp)
		set -- "$(esp_sa 0a000001 4097)" "$(esp_sa 0a020304 8193)" \
		       seqs:0a000001:00000000 seqs:0a020304:00000000 ;;
	*)
		set -- ;;
	esac
	out=$(ORACLE_HOOK="$SELFDIR/plan_check.sh $NF $shape" \
	      run_oracle "$nf" "$@" 2>&1)
	rc=$?
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
