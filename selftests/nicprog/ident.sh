#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Algorithm identification: a checksum or CRC written in plain BPF becomes
# an engine job when its instructions are a reference body's
# (bpf/ident/, tools/ident/gen), a longest-prefix match written as hash
# probes becomes one MAT lookup, a near miss is left alone -- seeded ones
# from tools/ident/near-miss included (IDENT_SEED replays them) -- each
# said in the verifier log and the plan, and each giving the same results
# as the host.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/vlog" ] || skip_all "vlog not built"
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

P_DIR=$SELFDIR/progs
EX=$NICPROG_SRC/bpf/examples
FRAMES=${IDENT_FRAMES:-1000}
ID=$(nicsim_new_id)
NS=idt-$ID
IN=nicsim${ID}p0 NF=nicsim${ID}p1 OUT=nicsim${ID}p2 CAP=nicsim${ID}p3
nicsim_new "$ID" 4
echo "$ID:0 $ID:1" > $BUS/link_device
echo "$ID:2 $ID:3" > $BUS/link_device
. "$SELFDIR/nf_entries.sh"

# verifier_log OBJ: load OBJ for $NF, print the verifier's log (level 1).
verifier_log() {
	"$SELFDIR/vlog" "$1" "$NF" 2>&1
}
# attach OBJ: offload OBJ to $NF (initial netns) and plan it.
attach() {
	ip -force link set dev "$NF" xdpoffload obj "$1" sec xdp >/dev/null 2>&1 ||
		tap_info "cannot offload $1"
}
plan() { cat "/sys/kernel/debug/nicprog/$NF/plan"; }
# sum of the NIC's per-core or per-engine counters matching PATTERN
nic_sum() {
	ip netns exec "$NS" ethtool -S "$NF" |
		awk -v pat="$1" '$1 ~ pat { s += $2 } END { print s + 0 }'
}

tap_begin
log=$(verifier_log "$P_DIR/ident_csum.o")
attach "$P_DIR/ident_csum.o"
check "plain-BPF checksum: the verifier log names it" \
	grep -qE "\[nicprog\] insn [0-9]+: function at insn [0-9]+ identified as csum \(conventions 0xa0\)" <<< "$log"
check "plain-BPF checksum: the plan makes it an engine job" \
	grep -qE "^ident: insn [0-9]+ calls a function identified as csum \(conventions 0xa0\), an engine runs it$" <<< "$(plan)"
check "plain-BPF checksum: the plan counts its call on the csum engine" \
	grep -q "^accel csum: 1 calls on 1 engines" <<< "$(plan)"

log=$(verifier_log "$P_DIR/ident_near.o")
attach "$P_DIR/ident_near.o"
check "near miss (CRC of the first 1000 bytes): not identified, and why" \
	grep -qE "\[nicprog\] insn [0-9]+: function at insn [0-9]+ is not an engine function: its instructions are no reference body's \(nearest [a-z0-9_]+ of [^ ]+: [0-9]+ of [0-9]+ instructions alike\)" <<< "$log"
check "near miss: the plan says why it stays code, in one line" \
	grep -qE "^ident: the function at insn [0-9]+ stays code: its instructions are no reference body's \(nearest [a-z0-9_]+ of [^ ]+: [0-9]+ of [0-9]+ instructions alike\)$" <<< "$(plan)"
check "near miss: no engine job in the plan" \
	test -z "$(plan | grep -E '^accel|^ident: insn')"

log=$(verifier_log "$P_DIR/afn_near.o")
attach "$P_DIR/afn_near.o"
check "explicit near miss: an accelerator id passed to a static function stays a call" \
	grep -qE "\[nicprog\] insn [0-9]+: call passes accelerator id crc32c but its target is not a global function; it runs on a core" <<< "$log"
check "explicit near miss: an id that differs between paths is named, though the verifier pruned a path" \
	grep -qE "\[nicprog\] insn [0-9]+: the accelerator id this call passes is not the same constant on every path; it runs on a core" <<< "$log"
check "explicit near miss: neither call is an engine job" \
	test -z "$(plan | grep -E '^accel|^ident: insn')"

log=$(verifier_log "$EX/digest.o")
attach "$EX/digest.o"
check "digest: its standard CRC32C identified (inverted seed and result, 0 on error)" \
	grep -qE "identified as crc32c \(conventions 0x70\)" <<< "$log"
check "digest: the CRC engine takes the identified call and the explicit one" \
	grep -q "^accel crc: 2 calls on 16 engines" <<< "$(plan)"

# The reference bodies themselves, and seeded near misses of them.
SEED=${IDENT_SEED:-$(($(date +%s) % 1000000))}
tap_info "near-miss seed $SEED (IDENT_SEED=$SEED replays it)"
NEAR=$(mktemp -d /tmp/nicprog-ident.XXXXXX)
for afn in crc32c csum; do
	bodies=$(grep -c '^/\* nicprog-ident: ' "$NICPROG_SRC/bpf/ident/$afn.c")
	log=$(verifier_log "$NICPROG_SRC/bpf/ident/$afn.o")
	check "bpf/ident/$afn.o: its $bodies reference bodies identified by the kernel" \
		test "$(grep -c "identified as $afn (conventions 0x[0-9a-f]*): [a-z0-9_]* of bpf/ident/$afn.c" <<< "$log")" -eq "$bodies"
	"$NICPROG_SRC/tools/ident/near-miss" "$SEED" 4 "$NEAR" \
		"$NICPROG_SRC/bpf/ident/$afn.c" > "$NEAR/$afn.list"
	tried=0
	while read -r var what; do
		what=${what#"$NICPROG_SRC/"}
		clang -O2 -g -target bpf -mcpu=v3 \
			-I/usr/include/"$(cc -print-multiarch)" -c "$var" \
			-o "${var%.c}.o" 2>/dev/null || continue
		log=$(verifier_log "${var%.c}.o")
		grep -q "identified as\|not an engine function" <<< "$log" ||
			continue
		tried=$((tried + 1))
		check "near miss ($what): the kernel identifies only the untouched bodies" \
			test "$(grep -c ' identified as ' <<< "$log")" -eq $((bodies - 1))
	done < "$NEAR/$afn.list"
	check "$afn: at least two near misses judged by the kernel ($tried)" \
		test "$tried" -ge 2
done
rm -rf "$NEAR"

attach "$EX/router.o"
check "router: its probe loop is a longest-prefix match for a MAT stage" \
	grep -qE "^mat: insns [0-9]+-[0-9]+ are a longest-prefix match, served as one lookup$" <<< "$(plan)"
ip link set dev "$NF" xdpoffload off

netns_new "$NS"
silent_ports_to_ns "$NS" $IN $NF $OUT $CAP ||
	{ echo "not ok: cannot move the ports into $NS" >&2; exit 1; }
NF_IDX=$(ip netns exec "$NS" cat /sys/class/net/$NF/ifindex)
OUT_IDX=$(ip netns exec "$NS" cat /sys/class/net/$OUT/ifindex)

# oracle NAME OBJ ENTRIES...: the host and the NIC agree on OBJ.
oracle() {
	local name=$1 obj=$2 out rc
	shift 2
	out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$obj" "$IN" "$NF" "$OUT" \
	      "$CAP" 3 "$FRAMES" "$@" 2>&1)
	rc=$?
	expect_eq "$name: oracle exit status" 0 "$rc"
	check "$name: verdicts and bytes equal over $FRAMES frames" \
		grep -q "^ok 1 .*verdicts and output bytes equal .* for $FRAMES frames (0 differ)" <<< "$out"
	check "$name: final map contents equal" grep -q "^ok 2 " <<< "$out"
}

for shape in single auto; do
	plan_set "$NF" shape "$shape"
	jobs=$(nic_sum '^accel_csum_jobs:')
	oracle "$shape ident_csum" "$P_DIR/ident_csum.o"
	check "$shape ident_csum: the csum engine ran the plain-BPF checksum" \
		test "$(nic_sum '^accel_csum_jobs:')" -gt "$jobs"
	jobs=$(nic_sum '^accel_.*_jobs:')
	oracle "$shape ident_near" "$P_DIR/ident_near.o"
	expect_eq "$shape ident_near: no engine ran" "$jobs" \
		"$(nic_sum '^accel_.*_jobs:')"
	jobs=$(nic_sum '^accel_.*_jobs:')
	oracle "$shape afn_near" "$P_DIR/afn_near.o"
	expect_eq "$shape afn_near: no engine ran" "$jobs" \
		"$(nic_sum '^accel_.*_jobs:')"
	for afn in crc32c csum; do
		jobs=$(nic_sum "^accel_${afn%32c}_jobs:")
		oracle "$shape bpf/ident/$afn" "$NICPROG_SRC/bpf/ident/$afn.o"
		check "$shape bpf/ident/$afn: the engine ran the reference bodies" \
			test "$(nic_sum "^accel_${afn%32c}_jobs:")" -gt "$jobs"
	done
	nf_entries router
	mat=$(nic_sum '^core[0-9]+_mat_lookups:')
	oracle "$shape router" "$EX/router.o" "${ENTRIES[@]}"
	mat=$(( $(nic_sum '^core[0-9]+_mat_lookups:') - mat ))
	# one lookup per routed frame, not one per probed prefix length
	check "$shape router: MAT lookups ($mat) at most one per frame" \
		test "$mat" -gt 0 -a "$mat" -le "$FRAMES"
done
# the engines' queues: at most NICSIM_ACCEL_QUEUE_LEN (8) jobs ever wait
qmax=$(ip netns exec "$NS" ethtool -S "$NF" |
	awk '$1 ~ /^accel_.*_queue_max:/ { if ($2 > m) m = $2; n++ }
	     END { print n + 0, m + 0 }')
check "engine queues: counted per type, at most 8 waiting ($qmax)" \
	test "${qmax% *}" -ge 4 -a "${qmax#* }" -le 8
tap_end
