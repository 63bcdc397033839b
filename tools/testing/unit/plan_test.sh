#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicprog-plan on ELF objects, no kernel: every example NF plans offline;
# what the kernel refuses is refused offline with the same cause, exit 1;
# a facts file's crafted fields are refused by name, and a program that
# faults costs only its workload run (a child process); and a seeded
# fuzzer of corrupted objects finds no bad memory access
# (AddressSanitizer, UndefinedBehaviorSanitizer) and no hang.
# The kernel as oracle for the facts and plans: selftests/nicprog/offline.sh.
#
#   plan_test.sh [FUZZ_RUNS [SEED]]
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
PLAN=$top/tools/nicprog-plan/nicprog-plan
ASAN=$top/tools/nicprog-plan/nicprog-plan-asan
PROGS=$top/selftests/nicprog/progs
RUNS=${1:-300}
SEED=${2:-$(($(date +%s) % 1000000))}
RANDOM=$SEED
# shellcheck source=tools/testing/unit/tap.sh
. "$top/tools/testing/unit/tap.sh"
TMP=$(mktemp -d /tmp/nicprog-plan-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

echo "TAP version 13"
echo "# seed $SEED (plan_test.sh $RUNS $SEED replays its fuzzer)"
for nf in count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest; do
	obj=$top/bpf/examples/$nf.o
	if timeout 60 "$PLAN" "$obj" > "$TMP/a" 2>&1 &&
	   grep -q '^shape .* stages [0-9]*$' "$TMP/a" &&
	   timeout 60 "$PLAN" "$obj" > "$TMP/b" 2>&1 &&
	   cmp -s <(grep -v '^offloader time' "$TMP/a") <(grep -v '^offloader time' "$TMP/b"); then
		ok "$nf plans offline, the same plan twice"
	else
		sed 's/^/# /' "$TMP/a"
		nok "$nf plans offline, the same plan twice"
	fi
done

# a program that reads the NIC's clock (firewall's idle aging) is said to
# vary with it, in words and JSON, as the kernel's plan file and prog-get
# say; one that reads neither (count) is not
"$PLAN" "$top/bpf/examples/firewall.o" > "$TMP/a" 2>&1
"$PLAN" -j "$top/bpf/examples/firewall.o" > "$TMP/aj" 2>&1
"$PLAN" "$top/bpf/examples/count.o" > "$TMP/b" 2>&1
"$PLAN" -j "$top/bpf/examples/count.o" > "$TMP/bj" 2>&1
if grep -qx "varies: its verdicts may depend on the NIC's clock, which this prediction does not know" "$TMP/a" &&
   [ "$(jq -c '[.reads_clock, .reads_random]' "$TMP/aj")" = "[true,false]" ] &&
   ! grep -q '^varies' "$TMP/b" &&
   [ "$(jq -c '[.reads_clock, .reads_random]' "$TMP/bj")" = "[false,false]" ]; then
	ok "a plan says when the program's verdicts vary with the NIC's clock"
else
	sed 's/^/# /' "$TMP/a" "$TMP/aj" | head -20
	nok "a plan says when the program's verdicts vary with the NIC's clock"
fi

# one UDP connection, both directions (one.wl): firewall's connection
# table, keyed by a flow and its reverse, is steered by a symmetric hash,
# so the predictor runs all its frames on one core of sixteen; lb's,
# keyed by the flow one way, by a plain hash of it, puts the two
# directions of this connection on two (the control: the data is fixed,
# and so is whether they meet)
printf 'workload one\nseed 1\nframes 40\nflows 1 uniform\nmix udp 100\nsizes 64 100\nreplies 50\n' > "$TMP/one.wl"
busy() {
	"$PLAN" --workload "$TMP/one.wl" "$top/bpf/examples/$1.o" 2> /dev/null |
		awk '$1 ~ /^core[0-9]+$/ && $2 > 0 { n++ } END { print n + 0 }'
}
fw=$(busy firewall) lb=$(busy lb)
"$PLAN" "$top/bpf/examples/firewall.o" > "$TMP/fw" 2>&1
if [ "$fw" = 1 ] && [ "$lb" = 2 ] &&
   grep -q '^stage 0: cores 0-15, steer key-symmetric' "$TMP/fw" &&
   grep -q '^table 2: sharded, .*a flow and its reverse: a symmetric hash steers both to one core$' "$TMP/fw"; then
	ok "a flow and its reverse meet on one core (firewall: $fw core, lb: $lb)"
else
	sed 's/^/# /' "$TMP/fw" | head -20
	nok "a flow and its reverse meet on one core (firewall: $fw core, lb: $lb)"
fi

# a shared-mutable table's stage bounds heavy_hitter: the plan says so, in
# words and JSON; firewall, sharded, has no such bound; nor has
# heavy_hitter on one core, where nothing is left to add
"$PLAN" "$top/bpf/examples/heavy_hitter.o" > "$TMP/hh" 2>&1
"$PLAN" -j "$top/bpf/examples/heavy_hitter.o" > "$TMP/hhj" 2>&1
"$PLAN" --cores 1 "$top/bpf/examples/heavy_hitter.o" > "$TMP/hh1" 2>&1
# and a workload's prediction, where that stage's core is its bottleneck
"$PLAN" --workload "$top/tools/workloads/flows.wl" "$top/bpf/examples/heavy_hitter.o" > "$TMP/hhw" 2>&1
"$PLAN" --workload "$top/tools/workloads/flows.wl" "$top/bpf/examples/firewall.o" > "$TMP/fww" 2>&1
if grep -qx 'bound: table 0 is shared-mutable and keeps stage 1 on one core: at most [0-9]* packets per million cycles, however many cores' "$TMP/hh" &&
   grep -q '^predicted throughput .*, bottleneck core1$' "$TMP/hhw" &&
   grep -qx 'bound: table 0 is shared-mutable and keeps stage 1 on one core: at most [0-9.]* frames per million cycles on this workload, however many cores' "$TMP/hhw" &&
   ! grep -q '^bound' "$TMP/fww" &&
   [ "$(jq -c '[.bound.table, .bound.stage, .bound.tput == .tput]' "$TMP/hhj")" = "[0,1,true]" ] &&
   ! grep -q '^bound' "$TMP/fw" "$TMP/hh1"; then
	ok "a shared table's stage bounds the plan, and the plan says so"
else
	sed 's/^/# /' "$TMP/hh" | head -20
	nok "a shared table's stage bounds the plan, and the plan says so"
fi

# --workload: every example NF, its table entries, a workload; the offline
# run checks engines against the BPF bodies on every frame (exit 1 if not);
# a row per class in the class table and in the class brackets'.
. "$top/selftests/nicprog/nf_entries.sh"
NF_IDX=2 OUT_IDX=3
printf '%s\n' "workload small" "frames 600" "flows 200 zipf 1.0" \
	"mix tcp_syn 20 tcp 30 udp 40 icmp 5 arp 5" "sizes 64 2 600 1 1500 1" \
	> "$TMP/small.wl"
for nf in count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest; do
	nf_entries "$nf"
	args=()
	for e in "${ENTRIES[@]}"; do args+=(--entry "$e"); done
	for prof in nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga; do
		if timeout 60 "$PLAN" --profile $prof --workload "$TMP/small.wl" \
			"${args[@]}" "$top/bpf/examples/$nf.o" > "$TMP/w" 2>&1 &&
		   grep -qE '^predicted throughput [0-9.]+ frames per million cycles .* bottleneck ' "$TMP/w" &&
		   [ "$(grep -cE '^(tcp_syn|tcp|udp|icmp|arp)	[0-9]+	' "$TMP/w")" = 5 ] &&
		   awk -F'\t' '$1 ~ /^(tcp_syn|tcp|udp|icmp|arp)$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { exit n != 600 }' "$TMP/w" &&
		   [ "$(grep -cE '^(tcp_syn|tcp|udp|icmp|arp)	[0-9]+\.\.[0-9]+	' "$TMP/w")" = 5 ]; then
			ok "$nf on $prof: predicted per class, engines agree with the BPF bodies"
		else
			sed 's/^/# /' "$TMP/w"
			nok "$nf on $prof: predicted per class, engines agree with the BPF bodies"
		fi
	done
done
# --exec translated: nicsim's translated form of every stage gives the
# offline run the same verdicts, bytes, tables (the run compares the NIC's
# world with the host's interpreter on every frame) and the same cycles
# and trace (the prediction is made of them): byte-identical output, for
# the example NFs with their entries on every profile and shape, and for
# the test programs written in the styles public XDP code uses.
# The translated runs use another malloc (no thread cache): a prediction
# must not depend on which freed memory the allocator hands back.
tunables() { [ "$1" = translated ] && echo glibc.malloc.tcache_count=0; }
# exits_2 DESC MSG CMD...: CMD refuses, exit 2, MSG on its standard error
exits_2() {
	local desc=$1 msg=$2 rc

	shift 2
	"$@" > /dev/null 2> "$TMP/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q -- "$msg" "$TMP/err"; then
		ok "$desc: exit 2, saying why"
	else
		echo "# rc=$rc: $(cat "$TMP/err")"
		nok "$desc: exit 2, saying why"
	fi
}
for nf in count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest; do
	nf_entries "$nf"
	args=()
	for e in "${ENTRIES[@]}"; do args+=(--entry "$e"); done
	bad=""
	for prof in nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga; do
		for shape in auto single pipelined; do
			for mode in interp translated; do
				GLIBC_TUNABLES=$(tunables $mode) \
				timeout 60 "$PLAN" --json --profile $prof --shape $shape \
					--exec $mode --workload "$TMP/small.wl" "${args[@]}" \
					"$top/bpf/examples/$nf.o" > "$TMP/x.$mode" 2>&1
				echo "exit $?" >> "$TMP/x.$mode"
			done
			cmp -s "$TMP/x.interp" "$TMP/x.translated" || bad="$bad $prof/$shape"
		done
	done
	if [ -z "$bad" ] && grep -q '"tput"' "$TMP/x.interp"; then
		ok "$nf: translated and interpreted runs agree on every profile and shape"
	else
		echo "# differ:$bad"
		diff "$TMP/x.interp" "$TMP/x.translated" | head -5 | sed 's/^/# /'
		nok "$nf: translated and interpreted runs agree on every profile and shape"
	fi
done
n=0 bad=""
for obj in "$PROGS"/*.o; do
	for shape in auto pipelined; do
		for mode in interp translated; do
			GLIBC_TUNABLES=$(tunables $mode) \
			timeout 60 "$PLAN" --json --profile nicsim-pipeline --shape $shape \
				--exec $mode --workload "$TMP/small.wl" "$obj" \
				> "$TMP/x.$mode" 2>&1
			echo "exit $?" >> "$TMP/x.$mode"
		done
		grep -q '"tput"' "$TMP/x.interp" && n=$((n + 1))
		cmp -s "$TMP/x.interp" "$TMP/x.translated" ||
			bad="$bad $(basename "$obj" .o)/$shape"
	done
done
if [ -z "$bad" ] && [ "$n" -ge 20 ]; then
	ok "test programs: translated and interpreted runs agree ($n runs that plan)"
else
	nok "test programs: translated and interpreted runs agree ($n runs that plan; differ:$bad)"
fi
# what the tables hold shows in the verdicts: nat translates (tx) with its
# external address configured, passes without
nf_entries nat
timeout 60 "$PLAN" --workload "$TMP/small.wl" --entry "${ENTRIES[0]}" \
	"$top/bpf/examples/nat.o" > "$TMP/w1" 2>&1
timeout 60 "$PLAN" --workload "$TMP/small.wl" "$top/bpf/examples/nat.o" > "$TMP/w0" 2>&1
if grep -qP '^udp\t\d+\ttx\t' "$TMP/w1" && grep -qP '^udp\t\d+\tpass\t' "$TMP/w0"; then
	ok "--entry fills tables: nat's UDP frames go out translated only with its address"
else
	sed 's/^/# /' "$TMP/w1" "$TMP/w0"
	nok "--entry fills tables: nat's UDP frames go out translated only with its address"
fi
# engine or core: nat's checksums as BPF bodies (csum:0) give the same
# verdicts (the run compares engines and bodies too) at a lower prediction
# than half of them (csum:8); the plan and the prediction show the split
timeout 60 "$PLAN" --workload "$TMP/small.wl" --entry "${ENTRIES[0]}" \
	--engine-share csum:0 "$top/bpf/examples/nat.o" > "$TMP/ws0" 2>&1
if grep -q "^engine share: csum 0/16 engine jobs, 16/16 the function's body on the cores$" "$TMP/ws0" &&
   [ "$(grep '^verdicts:' "$TMP/ws0")" = "$(grep '^verdicts:' "$TMP/w1")" ] &&
   grep -q '^verdicts: .*tx [1-9]' "$TMP/ws0"; then
	ok "--engine-share csum:0: every checksum a body on the cores, the same verdicts"
else
	sed 's/^/# /' "$TMP/ws0" | head -20
	nok "--engine-share csum:0: every checksum a body on the cores, the same verdicts"
fi
s16=$("$PLAN" "$top/bpf/examples/nat.o" | awk '/^predicted/ { print $2 }')
"$PLAN" --engine-share csum:8,hash:16 "$top/bpf/examples/nat.o" > "$TMP/s8" 2>&1
s8=$(awk '/^predicted/ { print $2 }' "$TMP/s8")
if grep -q "^engine share: csum 8/16 engine jobs, 8/16 the function's body on the cores$" "$TMP/s8" &&
   ! grep -q "^engine share: hash" "$TMP/s8" && [ -n "$s8" ] && [ "$s8" != "$s16" ]; then
	ok "--engine-share csum:8: the static plan shows the split and is priced for it ($s16 -> $s8)"
else
	sed 's/^/# /' "$TMP/s8" | head -20
	nok "--engine-share csum:8: the static plan shows the split and is priced for it ($s16 -> $s8)"
fi
timeout 120 "$PLAN" --workload "$TMP/small.wl" --entry "${ENTRIES[0]}" \
	--engine-share auto "$top/bpf/examples/nat.o" > "$TMP/wsa" 2>&1
if grep -q "^engine share auto: with every call an engine job, [0-9.]* frames per million cycles$" "$TMP/wsa" &&
   [ "$(grep '^verdicts:' "$TMP/wsa")" = "$(grep '^verdicts:' "$TMP/w1")" ]; then
	ok "--engine-share auto: the workload's choice, beside all on the engines"
else
	sed 's/^/# /' "$TMP/wsa" | head -20
	nok "--engine-share auto: the workload's choice, beside all on the engines"
fi
# optimum: every combination of nat's two types' shares (17 x 17); auto's
# greedy choice is one of them, so at most the optimum, and within its 1%
# a type of it; the plan is the optimum's, its split shown
timeout 120 "$PLAN" --workload "$TMP/small.wl" --entry "${ENTRIES[0]}" \
	--engine-share optimum "$top/bpf/examples/nat.o" > "$TMP/wso" 2>&1
opt=$(sed -n 's/^engine share optimum: the best of 289 combinations, csum \([0-9]*\)\/16, hash [0-9]*\/16, [0-9.]* frames per million cycles; auto chooses csum [0-9]*\/16, hash [0-9]*\/16, [0-9.]* frames per million cycles, \([0-9.]*\) of the optimum$/\1 \2/p' "$TMP/wso")
if [ -n "$opt" ] && awk -v q="${opt#* }" 'BEGIN { exit !(q <= 1 && q >= 0.98) }' &&
   grep -q "^engine share: csum ${opt%% *}/16 engine jobs" "$TMP/wso" &&
   [ "$(grep '^verdicts:' "$TMP/wso")" = "$(grep '^verdicts:' "$TMP/w1")" ]; then
	ok "--engine-share optimum: the best of every combination, auto's choice at ${opt#* } of it"
else
	sed 's/^/# /' "$TMP/wso" | tail -5
	nok "--engine-share optimum: the best of every combination, auto's choice within 2% of it"
fi
# the bench's own mix as a capture (oracle --pcap-out: what
# tools/bench/scaling's SHARE=auto chooses for): the frames asked for,
# each mix its own, the same seed the same frames; bad arguments exit 2
ORACLE=$top/selftests/nicprog/oracle
if [ -x "$ORACLE" ]; then
	for mix in flows biflows dests; do
		ORACLE_BENCH=$mix "$ORACLE" --pcap-out "$TMP/$mix.pcap" 1007 400 > "$TMP/po" 2>&1
	done
	ORACLE_BENCH=flows "$ORACLE" --pcap-out "$TMP/again.pcap" 1007 400 > /dev/null 2>&1
	timeout 60 "$PLAN" --workload "$TMP/biflows.pcap" --entry "${ENTRIES[0]}" \
		"$top/bpf/examples/nat.o" > "$TMP/wpc" 2>&1
	n=$(sed -n 's/^verdicts: //p' "$TMP/wpc" | tr ' ' '\n' | awk '/^[0-9]+$/ { n += $1 } END { print n + 0 }')
	if [ "$n" = 400 ] && cmp -s "$TMP/flows.pcap" "$TMP/again.pcap" &&
	   ! cmp -s "$TMP/flows.pcap" "$TMP/biflows.pcap" &&
	   ! cmp -s "$TMP/flows.pcap" "$TMP/dests.pcap"; then
		ok "oracle --pcap-out: the bench's mixes as captures nicprog-plan predicts from"
	else
		sed 's/^/# /' "$TMP/po" "$TMP/wpc" | head -20
		nok "oracle --pcap-out: the bench's mixes as captures nicprog-plan predicts from ($n frames)"
	fi
	for bad in "$TMP/x.pcap 7 0|FRAMES must be a number from 1 to" \
		   "$TMP/x.pcap 7 12x|FRAMES must be a number from 1 to" \
		   "$TMP/x.pcap 7 -1|FRAMES must be a number from 1 to" \
		   "$TMP/x.pcap 7x 10|SEED must be a number" \
		   "$TMP/no/such/x.pcap 7 10|--pcap-out $TMP/no/such/x.pcap: "; do
		what=${bad%%|*}
		# shellcheck disable=SC2086 # the arguments, split
		exits_2 "oracle --pcap-out ${what#"$TMP/"}" "${bad#*|}" \
			"$ORACLE" --pcap-out ${bad%%|*}
	done
else
	for _ in 1 2 3 4 5 6; do
		k=$((k + 1)); echo "ok $k oracle --pcap-out # SKIP selftests/nicprog/oracle not built"
	done
fi
for bad in "foo:3|unknown accelerator type foo" "csum:17|takes auto, optimum or TYPE:N" \
	   "csum|takes auto, optimum or TYPE:N" "auto|chooses for a workload: give one with --workload" \
	   "optimum|chooses for a workload: give one with --workload" \
	   "csum:4 --quality|--quality compares the planner's shapes, which do not depend on an engine share"; do
	# shellcheck disable=SC2086 # the case's own extra option
	exits_2 "--engine-share ${bad%%|*}" "${bad#*|}" \
		timeout 60 "$PLAN" --engine-share ${bad%%|*} "$top/bpf/examples/nat.o"
done
timeout 60 "$PLAN" --workload "$TMP/small.wl" --entry "0:${ENTRIES[0]#nat_cfg:}" \
	"$top/bpf/examples/nat.o" > "$TMP/w2" 2>&1
cmp -s "$TMP/w1" "$TMP/w2" &&
	ok "--entry names a table by its number too" ||
	nok "--entry names a table by its number too"
# a name is its table's and a number the kernel's, instruction order
# (verdict_drop's lookup comes first), though 6.1's verifier walks the
# global function that uses verdict_tx first
for e in verdict_tx:tx verdict_drop:drop 0:drop 1:tx; do
	timeout 60 "$PLAN" --workload "$TMP/small.wl" \
		--entry "${e%:*}:00000000:01000000" "$PROGS/map_order.o" \
		> "$TMP/mo" 2>&1
	v=$(awk -F '\t' '$1 == "class" { on = 1; next } on && NF == 10 { print $3 }' \
		"$TMP/mo" | sort -u)
	if [ "$v" = "${e#*:}" ]; then
		ok "--entry ${e%:*}:...: every frame ${e#*:}, as map_order does with that table set"
	else
		sed 's/^/# /' "$TMP/mo"
		nok "--entry ${e%:*}:...: every frame ${e#*:}, as map_order does with that table set (got: $v)"
	fi
done
# a pcap file is a workload too, and the same frames predict the same
timeout 60 "$PLAN" --workload "$TMP/small.wl" --pcap-out "$TMP/small.pcap" &&
timeout 60 "$PLAN" --workload "$TMP/small.pcap" "$top/bpf/examples/firewall.o" > "$TMP/p1" 2>&1 &&
timeout 60 "$PLAN" --workload "$TMP/small.wl" "$top/bpf/examples/firewall.o" > "$TMP/p2" 2>&1 &&
cmp -s <(grep -v '^workload' "$TMP/p1") <(grep -v '^workload' "$TMP/p2") &&
	ok "a pcap of the workload's frames predicts what the workload does" ||
	nok "a pcap of the workload's frames predicts what the workload does"
# and so is a pcapng file of them, as Wireshark writes one (section,
# interface, enhanced packet blocks; no converter is installed here)
python3 - "$TMP/small.pcap" "$TMP/small.pcapng" <<'PY'
import struct, sys
raw = open(sys.argv[1], 'rb').read()
out = open(sys.argv[2], 'wb')
def block(t, body):
    body += bytes(-len(body) % 4)
    n = 12 + len(body)
    out.write(struct.pack('<II', t, n) + body + struct.pack('<I', n))
block(0x0a0d0d0a, struct.pack('<IHHq', 0x1a2b3c4d, 1, 0, -1))
block(1, struct.pack('<HHI', 1, 0, 0))
off = 24
while off < len(raw):
    sec, usec, cap, length = struct.unpack_from('<IIII', raw, off)
    ts = sec * 1000000 + usec
    block(6, struct.pack('<IIIII', 0, ts >> 32, ts & 0xffffffff, cap, length) +
          raw[off + 16:off + 16 + cap])
    off += 16 + cap
PY
timeout 60 "$PLAN" --workload "$TMP/small.pcapng" "$top/bpf/examples/firewall.o" > "$TMP/p3" 2>&1 &&
cmp -s "$TMP/p1" "$TMP/p3" &&
	ok "a pcapng of the same frames predicts what the pcap does" ||
	nok "a pcapng of the same frames predicts what the pcap does"
# more threads per core hide more of the memory latency: the prediction
# for the same plan on a one-thread-per-core variant is much slower
"$PLAN" --lnic | sed 's/threads 4 /threads 1 /' > "$TMP/t1.lnic"
t4=$("$PLAN" --workload "$TMP/small.wl" "$top/bpf/examples/router.o" | awk '/^predicted/ { print $3 }')
t1=$("$PLAN" --profile "$TMP/t1.lnic" --workload "$TMP/small.wl" "$top/bpf/examples/router.o" | awk '/^predicted/ { print $3 }')
awk -v a="$t4" -v b="$t1" 'BEGIN { exit !(a > 2 * b) }' &&
	ok "router: 4 threads per core predicted over twice 1 thread ($t4 vs $t1)" ||
	nok "router: 4 threads per core predicted over twice 1 thread ($t4 vs $t1)"

# an offered rate: none dropped below the core's rate; at twice it, half
# of the frames less the hub's 1024 and one core's 4 threads
mpps=$("$PLAN" --cores 1 --workload "$TMP/small.wl" "$top/bpf/examples/count.o" |
	awk '/^predicted/ { m = $8; sub(/\(/, "", m); print m }')
# (not k: the TAP counter)
for times in 0.5 2; do
	{ cat "$TMP/small.wl"; awk -v m="$mpps" -v k="$times" 'BEGIN { printf "rate %d\n", m * 1e3 * k }'; } > "$TMP/rate.wl"
	"$PLAN" --cores 1 --workload "$TMP/rate.wl" "$top/bpf/examples/count.o" |
		awk '/^offered/ { d = $0; sub(/.*, /, "", d); sub(/ dropped.*/, "", d); print d }' > "$TMP/drops$times"
done
[ "$(cat "$TMP/drops0.5")" = 0 ] &&
	ok "count.o, one core, half its rate offered: none dropped" ||
	nok "count.o, one core, half its rate offered: none dropped ($(cat "$TMP/drops0.5"))"
printf '%s\n' "workload big" "frames 6000" "flows 200 zipf 1.0" "mix udp 1" "sizes 64 1" > "$TMP/big.wl"
mpps=$("$PLAN" --cores 1 --workload "$TMP/big.wl" "$top/bpf/examples/count.o" |
	awk '/^predicted/ { m = $8; sub(/\(/, "", m); print m }')
{ cat "$TMP/big.wl"; awk -v m="$mpps" 'BEGIN { printf "rate %d\n", m * 2e3 }'; } > "$TMP/rate.wl"
d=$("$PLAN" --cores 1 --workload "$TMP/rate.wl" "$top/bpf/examples/count.o" |
	awk '/^offered/ { d = $0; sub(/.*, /, "", d); sub(/ dropped.*/, "", d); print d }')
# (the rate from a rounded Mpps: a frame or two either way)
[ "${d:-0}" -ge $((3000 - 1024 - 4 - 2)) ] && [ "$d" -le $((3000 - 1024 - 4 + 2)) ] &&
	ok "count.o, one core, twice its rate offered: half less what the NIC holds dropped" ||
	nok "count.o, one core, twice its rate offered: half less what the NIC holds dropped ($d)"

# refused DESC PATTERN ARGS...: exit status 1, PATTERN on stderr.
refused() {
	local desc=$1 pat=$2 rc
	shift 2
	timeout 60 "$PLAN" "$@" > /dev/null 2> "$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qE -e "$pat" "$TMP/err"; then
		ok "$desc"
	else
		echo "# rc=$rc, expected '$pat' in:"
		sed 's/^/# /' "$TMP/err"
		nok "$desc"
	fi
}
refused "unsupported helper: named, with the way out" "insn 0: helper bpf_get_smp_processor_id \(8\) is not supported on the NIC; attach the program to the host \(xdpdrv\)" "$PROGS/bad_helper.o"
refused "kfunc call: named, with the way out" "calls a kernel function \(kfunc\) bpf_xdp_ct_lookup; Linux 6.1 cannot offload kfunc calls, nor run one on the host for a partial plan; attach the program to the host \(xdpdrv\)" "$PROGS/kfunc.o"
refused "tc program: not chosen by itself; the programs there are named" "no XDP program: neither an XDP section .* nor a struct xdp_md argument in classify \(tc\); name one with program NAME" "$PROGS/tc.o"
refused "a packet read one byte past the bounds check: what the verifier says" "insn 5: invalid access to packet, off=34 size=1, R2\(id=0,off=34,r=34\) \(the kernel's verifier refuses the program\)" --prog bounds_past "$PROGS/pkt_bounds.o"
refused "a pointer moved by a variable, not checked again" "invalid access to packet, off=14 size=1, R2\(id=1,off=14,r=0\)" --prog bounds_var "$PROGS/pkt_bounds.o"
refused "bpf_for_each_map_elem() callback: named with its helper and the way out" "insn 6 gives bpf_for_each_map_elem a function's address \(a callback\): the NIC calls no callbacks from helpers but bpf_loop\(\)'s; write the loop as a bounded for loop" "$PROGS/foreach_cb.o"
refused "bpf_loop() with flags from the frame: the flags named" "insn 12: bpf_loop\(\)'s flags are not a constant in the code before the call" "$PROGS/loop_flags.o"
refused "extern map: link it first, with the command" "the object declares 'rx_cnt' extern, defined in another object .*link them first: bpftool gen object linked.o $PROGS/extern_map.o OTHER.o" "$PROGS/extern_map.o"
refused "a map its tool sizes: no max_entries, said so" "map cpus_available: the object gives it no max_entries; its own tool sets them before loading" "$PROGS/unsized_map.o"
refused "larger than the instruction store" "program has 12507 instructions; the NIC's cores hold at most 8192" "$PROGS/big.o"
for p in xsk_queue xsk_count_miss xsk_other_key xsk_drop_flags xsk_in_sub; do
	refused "XSKMAP looked up, not only to gate a redirect ($p): named, its sockets the host's, and the way out" "map xsks_map \(xskmap\) is used other than by bpf_redirect_map\(\): its entries are the host's AF_XDP sockets, which the NIC cannot look up \(it takes a lookup only as the gate of bpf_redirect_map\(\) on the same key, flags 0\); call bpf_redirect_map\(&xsks_map, key, XDP_PASS\), which passes the frame when the key has no entry, or attach the program to the host \(xdpdrv\)$" --prog $p "$PROGS/xsk_near.o"
done
refused "bpf_map_update_elem() on a per-CPU map: named" "insn 31: bpf_map_update_elem\(\) on per-CPU map src_count" "$PROGS/pcpu_update.o"
refused "no such program" "no program nope \(a function in a section other than .text\)" --prog nope "$top/bpf/examples/count.o"
# a 64-bit load of a map no relocation gave (found by the fuzzer below:
# it read past the offline run's table numbering)
python3 - "$top/bpf/examples/digest.o" "$TMP/badmap.o" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
k = bytes.fromhex('180500006a42b73b')	# r5 = ... ll, a constant
assert k in b
open(sys.argv[2], 'wb').write(b.replace(k, bytes.fromhex('181500006a42b73b'), 1))
PY
refused "a map load no relocation gave: refused, not read past" "insn [0-9]+: loads map 1001865834, which the object does not define \(it has [0-9]+\)" "$TMP/badmap.o"
refused "no such section" "no program in section nope" --sec nope "$top/bpf/examples/count.o"

# the map types Linux 6.1 binds to no device, as NIC tables of a kind: an
# LPM_TRIE read by the datapath is an LPM table a MAT serves, one it
# writes is shared (a prefix is reached from many keys)
# planned DESC PATTERN OBJ: planned (exit 0), PATTERN in the report
planned() {
	local out
	out=$(timeout 60 "$PLAN" "$3" 2>&1)
	if [ $? -eq 0 ] && grep -q -e "$2" <<< "$out"; then
		ok "$1"
	else
		sed 's/^/# /' <<< "$out"
		nok "$1"
	fi
}
planned "an XSKMAP lookup gating the redirect to its socket (xdp-tutorial's AF_XDP program)" \
	"program xdp_sock_prog" "$PROGS/af_xdp_lookup.o"
planned "the same gate, a constant verdict kept in a register (pre-5.3 AF_XDP programs)" \
	"program hostxdp" "$PROGS/hostxdp_gate.o"
planned "bpf_loop() with flags 0: inlined, the callback a subprogram" \
	"program loop_nr, 2 subprograms" "$PROGS/loop_cb.o"
planned "no XDP section: the program BTF types as XDP, as typed (SEC(\"xdp1\"))" \
	"section xdp1, program xdp_prog1" "$PROGS/xdp1_kern.o"
planned "read-only data indexed by a variable: .rodata a read-only table" \
	"table 0: read-only.*the datapath only reads it" "$PROGS/rodata_idx.o"
# the near miss: .rodata that folds stays constants, no table for it
for t in xdp_cfg.o:1 rodata_key.o:2; do
	n=$(timeout 60 "$PLAN" "$PROGS/${t%:*}" 2>&1 | grep -c '^table ')
	if [ "$n" = "${t#*:}" ]; then
		ok "${t%:*}: ${t#*:} table(s), .rodata a table only where it does not fold"
	else
		nok "${t%:*}: ${t#*:} table(s), .rodata a table only where it does not fold (got $n)"
	fi
done
planned "a packet read at the last byte a check proved" \
	"program bounds_exact" "$PROGS/pkt_bounds.o"
out=$(timeout 60 "$PLAN" --prog bounds_open "$PROGS/pkt_bounds.o" 2>&1)
if [ $? -eq 0 ]; then ok "data_end > data + 34 proves byte 34 too"; else echo "# $out"; nok "data_end > data + 34 proves byte 34 too"; fi
planned "a lone function in .text is the program, as libbpf makes it" \
	"section .text, program func" "$PROGS/text_ret0.o"
planned "LPM_TRIE map: planned as a table the datapath reads" \
	"table 0: read-only" "$PROGS/lpm.o"
planned "LPM_TRIE map written by the datapath: shared, and why" \
	"table 0: shared-mutable.*a longest-prefix match reaches one element from many keys" \
	"$PROGS/xdp_lpm_route.o"
# writable globals: the section a one-element table, the address loads
# lookups of it (the facts say the program reaches it through a helper)
planned "global variables (.bss): planned as a table of counters" \
	"^table 0: counters" "$PROGS/global.o"
planned "LRU_HASH map: planned as a table" "^table 0: " \
	"$PROGS/xdp_conntrack.o"
# XSKMAP and CPUMAP: the host's, a read-only table of targets on the NIC
planned "XSKMAP (libxdp's default program): its stand-in read-only" \
	"^table 0: read-only" "$PROGS/xsk_def.o"
planned "XSKMAP and a devmap-less redirect: planned" "^table 0: read-only" \
	"$PROGS/hostxdp.o"
planned "CPUMAP (xdp_redirect_cpu's spreading): planned" "^table 0: " \
	"$PROGS/xdp_cpu_lb.o"
# PROG_ARRAY: the host's, a read-only table of tail call targets on the NIC
out=$(timeout 60 "$PLAN" --prog xdp_tail_entry "$PROGS/xdp_tail.o" 2>&1)
if [ $? -eq 0 ] && grep -q "^table 0: read-only" <<< "$out"; then
	ok "PROG_ARRAY (tail-call dispatch): its stand-in read-only"
else
	sed 's/^/# /' <<< "$out"
	nok "PROG_ARRAY (tail-call dispatch): its stand-in read-only"
fi
refused "bpf_tail_call() in a subprogram: named, with the way out" "insn 8: bpf_tail_call\(\) in function dispatch: the NIC makes tail calls from a program's main function only; call it there, or attach the program to the host \(xdpdrv\)" "$PROGS/tail_sub.o"

# chosen as ip link chooses: by name, in a section of its own, as XDP;
# per-CPU maps laid out for --cpus CPUs
out=$(timeout 60 "$PLAN" --facts --prog xdp_prog1 --cpus 3 \
      "$PROGS/xdp1_kern.o" 2>&1)
if [ $? -eq 0 ] && timeout 60 "$PLAN" --prog xdp_prog1 "$PROGS/xdp1_kern.o" |
   grep -q "^object: .*, section xdp1, program xdp_prog1,"; then
	ok "a program in section xdp1 chosen by name plans as XDP"
else
	echo "$out" | sed 's/^/# /'
	nok "a program in section xdp1 chosen by name plans as XDP"
fi
if grep -q "^table 0: type 2 key 4 value 24 entries 256 " <<< "$out"; then
	ok "its PERCPU_ARRAY is an array of 3 CPUs' 8-byte slots on the NIC"
else
	grep "^table" <<< "$out" | sed 's/^/# /'
	nok "its PERCPU_ARRAY is an array of 3 CPUs' 8-byte slots on the NIC"
fi
# what the loader now takes, planned offline as the kernel takes it
for o in legacy_maps rss_queue xdp_stats; do
	if timeout 60 "$PLAN" "$PROGS/$o.o" > "$TMP/out" 2>&1; then
		ok "$o.o plans offline (legacy maps, ctx->rx_queue_index, per-CPU)"
	else
		sed 's/^/# /' "$TMP/out"
		nok "$o.o plans offline (legacy maps, ctx->rx_queue_index, per-CPU)"
	fi
done
if timeout 60 "$PLAN" --prog xdp_sample_prog "$PROGS/xdp_sample.o" > "$TMP/out" 2>&1; then
	ok "xdp_sample.o plans offline: its perf event array stays the host's"
else
	sed 's/^/# /' "$TMP/out"
	nok "xdp_sample.o plans offline: its perf event array stays the host's"
fi
# "const volatile" configuration: its loads become the object's constants
out=$(timeout 60 "$PLAN" --facts "$PROGS/xdp_cfg.o" 2>&1)
if grep -q "^[0-9]*: b4 3 0 0 53 " <<< "$out" &&
   ! grep -q "^[0-9]*: 18 [0-9]* 2 " <<< "$out"; then
	ok ".rodata loads folded: cfg.port is the constant 53, no map value load left"
else
	echo "$out" | head -n 30 | sed 's/^/# /'
	nok ".rodata loads folded: cfg.port is the constant 53, no map value load left"
fi
refused "an x86 executable is not a BPF object" "not a BPF object \(ELF machine 62\)" /bin/true
refused "a text file is neither an object nor facts" "not a BPF ELF object, and not a facts file" "$top/README.md"
refused "a missing file" "No such file" "$TMP/missing.o"
printf 'mix tcp 1\nsizes 64 1\nflows 10 zipf 9\n' > "$TMP/bad.wl"
refused "workload with an error: the line and cause named" "bad.wl: line 3: zipf takes an exponent above 0, at most 4" \
	--workload "$TMP/bad.wl" "$top/bpf/examples/count.o"
refused "--entry of a table the object has not" "--entry nosuch:00:00: want MAP:KEYHEX:VALHEX with MAP a table of the object \(its name or number\)" \
	--workload "$TMP/small.wl" --entry nosuch:00:00 "$top/bpf/examples/count.o"
refused "--entry of the wrong size" "--entry nat_cfg:00:01: table nat_cfg has 4-byte keys and 4-byte values, in hex" \
	--workload "$TMP/small.wl" --entry nat_cfg:00:01 "$top/bpf/examples/nat.o"
refused "--entry of a table number the object has not" "--entry 7:00:00: want MAP:KEYHEX:VALHEX with MAP a table of the object \(its name or number\)" \
	--workload "$TMP/small.wl" --entry 7:00:00 "$top/bpf/examples/nat.o"
printf 'garbage' > "$TMP/bad.pcap"
refused "a workload that is neither" "bad.pcap: line 1: cannot read \"garbage\"" \
	--workload "$TMP/bad.pcap" "$top/bpf/examples/count.o"
timeout 10 "$PLAN" --profile bogus "$top/bpf/examples/count.o" 2> "$TMP/err" > /dev/null
[ $? -eq 2 ] && grep -q "unknown profile bogus (nicsim-generic, nicsim-soc, nicsim-nfp, nicsim-pipeline, nicsim-fpga; or a .lnic file)" "$TMP/err" &&
	ok "unknown profile: usage error 2, the profiles named" ||
	nok "unknown profile: usage error 2, the profiles named"
"$PLAN" --profile nicsim-soc "$top/bpf/examples/router.o" > "$TMP/soc" 2>&1
grep -q "^shape .*, cores 8 of 8, stages 1$" "$TMP/soc" &&
	ok "nicsim-soc: planned for its 8 cores" || nok "nicsim-soc: planned for its 8 cores"

# A profile read from a file: nicsim-generic's text with four cores plans
# for four; a profile with an error is refused with its line.
"$PLAN" --lnic | sed 's/^unit core type core count 16 /unit core type core count 4 /' \
	> "$TMP/four.lnic"
"$PLAN" --profile "$TMP/four.lnic" "$top/bpf/examples/count.o" > "$TMP/four" 2>&1
grep -q "^shape .*, cores 4 of 4, stages 1$" "$TMP/four" &&
	ok "profile file: planned for its 4 cores" || nok "profile file: planned for its 4 cores"
sed 's/ clock 800 service 150$/ service 150/' "$TMP/four.lnic" > "$TMP/bad.lnic"
timeout 10 "$PLAN" --profile "$TMP/bad.lnic" "$top/bpf/examples/count.o" 2> "$TMP/err" > /dev/null
[ $? -eq 2 ] && grep -q "bad.lnic: line 6: key \"clock\" missing" "$TMP/err" &&
	ok "profile file with an error: refused, line and cause named" ||
	nok "profile file with an error: refused, line and cause named"

# A facts file is anyone's: crafted fields are refused with exit 1, the
# instruction or table and the cause named, before the offloader reads
# them (the sanitized build: no bad access on the way).
"$PLAN" --facts-out "$TMP/c.facts" "$top/bpf/examples/count.o"
# craft NAME {WHAT INDEX FIELD=VALUE...}...: count's facts with fields of
# instructions, their facts or tables replaced ("file 0 cut=N" cuts N
# bytes off)
craft() {
	/usr/bin/python3 - "$TMP/c.facts" "$TMP/$1.facts" "${@:2}" <<'PY'
import struct, sys
src, dst = sys.argv[1:3]
b = bytearray(open(src, 'rb').read())
hdr, insn, meta, table = struct.unpack_from('<4I', b, 4)
n = struct.unpack_from('<I', b, 28)[0]
fields = {'code': (0, '<B'), 'regs': (1, '<B'), 'off': (2, '<h'),
          'imm': (4, '<i'), 'ptr': (0, '<B'), 'map': (3, '<B'),
          'stack_off': (12, '<h'), 'value_size': (8, '<I'), 'cut': (0, None)}
args = sys.argv[3:]
while args:
    what, i, args = args[0], int(args[1]), args[2:]
    base = {'insn': hdr + insn * i, 'meta': hdr + insn * n + meta * i,
            'table': hdr + (insn + meta) * n + table * i}.get(what, 0)
    while args and '=' in args[0]:
        f, v = args.pop(0).split('=')
        off, fmt = fields[f]
        if fmt:
            struct.pack_into(fmt, b, base + off, int(v, 0))
        else:
            b = b[:-int(v)]
open(dst, 'wb').write(b)
PY
}
# facts_refused DESC NAME MESSAGE: exit 1, MESSAGE on stderr, no
# sanitizer report, no leak
facts_refused() {
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
		timeout 30 "$ASAN" "$TMP/$2.facts" > /dev/null 2> "$TMP/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -qF "$3" "$TMP/err" &&
	   ! grep -qE 'AddressSanitizer|runtime error' "$TMP/err"; then
		ok "crafted facts: $1"
	else
		sed 's/^/# /' "$TMP/err" | head -5
		nok "crafted facts: $1 (exit $rc)"
	fi
}
if [ -x "$ASAN" ]; then
	craft bswap insn 0 code=0xdc regs=0 off=0 imm=65537
	facts_refused "a byte swap of width 65537" bswap \
		"insn 0: byte swap of an invalid width"
	craft reg insn 3 regs=0xff
	facts_refused "register 15" reg "insn 3: register out of range"
	craft fp insn 0 regs=0x0a
	facts_refused "a write to the frame pointer" fp \
		"the frame pointer is read only"
	craft map meta 0 map=200
	facts_refused "a table index past the tables" map \
		"insn 0: facts: table index out of range"
	craft stk meta 1 stack_off=4096
	facts_refused "a stack offset past the frame" stk \
		"insn 1: facts: stack offset out of the frame"
	craft val table 0 value_size=0
	facts_refused "a table of 0-byte values" val \
		"table 0: a type, size or capacity"
	craft cut file 0 cut=10
	facts_refused "a file cut short" cut "its header says"
	# well formed, but it loads from address 16: the workload's run
	# faults, in a child process
	craft wild insn 0 code=0xb7 regs=0x01 off=0 imm=16 \
		insn 1 code=0x79 regs=0x10 off=0 imm=0 meta 1 ptr=3
	timeout 60 "$PLAN" --workload "$top/tools/workloads/syn.wl" \
		"$TMP/wild.facts" > /dev/null 2> "$TMP/err"
	rc=$?
	[ $rc -eq 1 ] && grep -q "the program faulted running the workload (signal 11)" "$TMP/err" &&
		ok "a facts file's program that faults: its workload run says so, exit 1" ||
		{ sed 's/^/# /' "$TMP/err" | head -3; nok "a facts file's program that faults (exit $rc)"; }
else
	k=$((k + 1)); echo "ok $k crafted facts # SKIP nicprog-plan-asan not built"
fi

# LeakSanitizer: whatever it is asked and however it ends, nicprog-plan
# frees what it allocated (a leak report exits 23)
if [ -x "$ASAN" ]; then
	EX=$top/bpf/examples
	leaky=0 runs=0
	while read -r line; do
		# shellcheck disable=SC2086  # a command line
		ASAN_OPTIONS=detect_leaks=1:exitcode=23 UBSAN_OPTIONS=halt_on_error=1 \
			timeout 120 "$ASAN" $line > /dev/null 2> "$TMP/err"
		rc=$?
		runs=$((runs + 1))
		if [ $rc -eq 23 ] || grep -q 'LeakSanitizer' "$TMP/err"; then
			leaky=$((leaky + 1))
			echo "# leaks: nicprog-plan $line"
			grep -A3 '^Direct' "$TMP/err" | head -8 | sed 's/^/#   /'
		fi
	done <<-EOF
	--profile nicsim-soc $EX/count.o
	--json --shape pipelined --cores 4 $EX/count.o
	--quality $EX/count.o
	--partial $EX/count.o
	--blocks $EX/count.o
	--facts $EX/count.o
	--dot $EX/count.o
	--lnic
	--workload $top/tools/workloads/flows.wl $EX/count.o
	--workload $top/tools/workloads/syn.wl --engine-share auto $top/bpf/heldout/csum_tx.o
	--workload $top/tools/workloads/flows.wl --pcap-out $TMP/leak.pcap
	--facts-out $TMP/leak.facts $EX/count.o
	$TMP/leak.facts
	--bufs 2048,16 --args 0xff $PROGS/kern_wordstat.o
	--bufs 16 $EX/count.o
	--workload $TMP/no-such.wl $EX/count.o
	$TMP/no-such.o
	--shape round $EX/count.o
	EOF
	[ $leaky -eq 0 ] && ok "LeakSanitizer: $runs nicprog-plan runs (plans, workloads, facts, jobs, refusals), no leak" ||
		nok "LeakSanitizer: $leaky of $runs nicprog-plan runs leaked"
else
	k=$((k + 1)); echo "ok $k LeakSanitizer # SKIP nicprog-plan-asan not built"
fi

# Seeded fuzzer: objects with 1-8 bytes overwritten, each run with the
# sanitizers; exit 0 or 1 with a message, never a signal, a sanitizer
# report or a hang.
if [ -x "$ASAN" ]; then
	objs=("$top"/bpf/examples/*.o "$PROGS"/ident_csum.o)
	bad=0 planned=0 refusals=0
	export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=99
	export UBSAN_OPTIONS=halt_on_error=1:exitcode=99
	for ((r = 0; r < RUNS; r++)); do
		src=${objs[RANDOM % ${#objs[@]}]}
		cp "$src" "$TMP/f.o"
		size=$(stat -c %s "$TMP/f.o")
		for ((b = RANDOM % 8; b >= 0; b--)); do
			printf "\\x$(printf %02x $((RANDOM % 256)))" |
				dd of="$TMP/f.o" bs=1 seek=$(((RANDOM * 32768 + RANDOM) % size)) \
				   conv=notrunc status=none
		done
		timeout 30 "$ASAN" "$TMP/f.o" > /dev/null 2> "$TMP/err"
		rc=$?
		case $rc in
		0) planned=$((planned + 1)) ;;
		1) refusals=$((refusals + 1))
		   grep -q '^nicprog-plan: ' "$TMP/err" || { bad=$((bad + 1)); echo "# run $r: exit 1 without a message"; } ;;
		*) bad=$((bad + 1))
		   cp "$TMP/f.o" "$top/build/plan-fuzz-$r.o" 2>/dev/null
		   echo "# run $r ($(basename "$src")): exit $rc"; head -5 "$TMP/err" | sed 's/^/#   /' ;;
		esac
	done
	echo "# fuzz: $RUNS runs, $planned planned, $refusals refused with a message"
	[ $bad -eq 0 ] && ok "fuzz: $RUNS corrupted objects, no crash, sanitizer report or hang" ||
		nok "fuzz: $bad of $RUNS corrupted objects crashed, hung or tripped a sanitizer"
else
	k=$((k + 1)); echo "ok $k fuzz # SKIP nicprog-plan-asan not built"
fi
echo "1..$k"
exit $fail
