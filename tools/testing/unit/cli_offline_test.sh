#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicprog plan and nicprog predict, no kernel: the words are nicprog-plan's;
# -j and -p parse as JSON and say what the words say; the DOT graph has a
# node per handler, an edge per DAG edge and a cluster per stage (and the
# host's, split), bold edges where a plan crosses stages; svg renders it
# with Graphviz; predict over samples of a description gives their mean
# and range; bad requests exit 2 (usage) or 1 (refused) naming the
# cause, and write nothing.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
CLI=$top/tools/nicprog/nicprog
PLAN=$top/tools/nicprog-plan/nicprog-plan
EX=$top/bpf/examples
PROGS=$top/selftests/nicprog/progs
WL=$top/tools/workloads/syn.wl
# shellcheck source=tools/testing/unit/tap.sh
. "$top/tools/testing/unit/tap.sh"
TMP=$(mktemp -d /tmp/nicprog-cli-offline.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

echo "TAP version 13"
for t in "$CLI" "$PLAN"; do
	[ -x "$t" ] || { echo "1..0 # SKIP $t not built (make tools)"; exit 0; }
done

# the words: nicprog-plan's, the offloader's time apart
for a in "count nicsim-generic" "router nicsim-nfp" "lb nicsim-soc"; do
	set -- $a
	"$CLI" plan obj "$EX/$1.o" profile "$2" shape pipelined > "$TMP/cli" 2>&1
	rc=$?
	"$PLAN" --profile "$2" --shape pipelined "$EX/$1.o" > "$TMP/plan" 2>&1
	expect_eq "plan $1 on $2: exit 0" 0 "$rc"
	check "plan $1 on $2: nicprog-plan's words" \
		cmp -s <(grep -v '^offloader time' "$TMP/cli") <(grep -v '^offloader time' "$TMP/plan")
done

# -j: what the words say
"$CLI" plan obj "$EX/router.o" profile nicsim-nfp cores 4 > "$TMP/words"
"$CLI" -j plan obj "$EX/router.o" profile nicsim-nfp cores 4 > "$TMP/j"
check "plan -j: one JSON object" /usr/bin/python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$TMP/j"
expect_eq "plan -j: shape, cores, budget, stages as the words" \
	"$(sed -n 's/^shape \([^ ]*\) (asked auto), cores \([0-9]*\) of \([0-9]*\), stages \([0-9]*\)$/\1 \2 \3 \4/p' "$TMP/words")" \
	"$(jpy "d['shape'], d['cores'], d['budget'], d['n_stages']" < "$TMP/j")"
expect_eq "plan -j: prediction as the words" \
	"$(sed -n 's/^predicted \([0-9]*\) packets per million cycles, latency \([0-9]*\) cycles$/\1 \2/p' "$TMP/words")" \
	"$(jpy "d['tput'], d['latency']" < "$TMP/j")"
expect_eq "plan -j: a stage per stage line" "$(grep -c '^stage ' "$TMP/words")" \
	"$(jpy "len(d['stages'])" < "$TMP/j")"
expect_eq "plan -j: tables, class and region as the words" \
	"$(sed -n 's/^table \([0-9]*\): \([^,]*\), region \([^,]*\), .*/\1 \2 \3/p' "$TMP/words" | tr '\n' ' ')" \
	"$(jpy "' '.join('%d %s %s' % (t['index'], t['class'] + (' (mat)' if t['mat'] else ''), t['region']) for t in d['tables']) + ' '" < "$TMP/j")"
check "plan -p: pretty JSON parses" sh -c "'$CLI' -p plan obj '$EX/lb.o' | /usr/bin/python3 -m json.tool > /dev/null"
"$CLI" -j plan obj "$PROGS/partial.o" partial > "$TMP/pj"
expect_eq "plan -j partial: the host part and why" \
	"the NIC's instruction store True" \
	"$(jpy "d['host']['reason'], d['host']['nic_insns'] <= d['host']['insn_store']" < "$TMP/pj")"

"$CLI" predict obj "$EX/count.o" workload "$WL" profile nicsim-soc > "$TMP/pw"
rc=$?
"$CLI" -p predict obj "$EX/count.o" workload "$WL" profile nicsim-soc > "$TMP/pjs"
expect_eq "predict: exit 0" 0 "$rc"
check "predict: the prediction in words" \
	grep -qE '^predicted throughput [0-9.]+ frames per million cycles \([0-9.]+ Mpps at [0-9]+ MHz\), latency [0-9.]+ cycles, bottleneck ' "$TMP/pw"
expect_eq "predict -p: throughput, latency and bottleneck as the words" \
	"$(sed -n 's/^predicted throughput \([0-9.]*\) .*latency \([0-9.]*\) cycles, bottleneck \(.*\)$/\1 \2 \3/p' "$TMP/pw")" \
	"$(jpy "'%.1f %.1f %s' % (d['tput'], d['latency'], d['bottleneck'])" < "$TMP/pjs")"
expect_eq "predict -p: a class per class line, frames adding up" \
	"$(awk -F'\t' 'NF == 10 && $2 ~ /^[0-9]+$/ { n++; f += $2 } END { print n, f }' "$TMP/pw")" \
	"$(jpy "len(d['classes']), sum(c['frames'] for c in d['classes'])" < "$TMP/pjs")"
expect_eq "predict -p: a unit per unit line" \
	"$(awk -F'\t' 'u && NF == 2 { n++ } /^unit\tutilisation$/ { u = 1 } END { print n }' "$TMP/pw")" \
	"$(jpy "len(d['units'])" < "$TMP/pjs")"

# samples N: the mean of N one-sample predictions from seeds 7919 apart,
# and their range (flows.wl: 16 cores of lb.o share its flows unevenly)
FWL=$top/tools/workloads/flows.wl
"$CLI" predict obj "$EX/lb.o" workload "$FWL" > "$TMP/s0"
"$CLI" predict obj "$EX/lb.o" workload "$FWL" samples 1 > "$TMP/s1"
check "predict samples 1: the same words as without" cmp -s "$TMP/s0" "$TMP/s1"
for i in 0 1 2 3; do
	awk -v k="$i" '$1 == "seed" { $2 += k * 7919 } { print }' "$FWL" > "$TMP/f$i.wl"
	"$CLI" predict obj "$EX/lb.o" workload "$TMP/f$i.wl" |
		sed -n 's/^predicted throughput \([0-9.]*\) .*latency \([0-9.]*\) cycles.*/\1 \2/p'
done > "$TMP/each"
"$CLI" predict obj "$EX/lb.o" workload "$FWL" samples 4 > "$TMP/s4"
rc=$?
expect_eq "predict samples 4: exit 0" 0 "$rc"
expect_eq "predict samples 4: four samples, not all alike" "4 yes" \
	"$(awk '{ t[$1] = 1 } END { print NR, (length(t) > 1 ? "yes" : "no") }' "$TMP/each")"
check "predict samples 4: throughput and latency the samples' mean" awk '
	NR == FNR { t += $1; l += $2; next }
	/^predicted throughput/ {
		pt = $3; pl = $0; sub(/.*latency /, "", pl); sub(/ cycles.*/, "", pl)
		d1 = pt - t / 4; d2 = pl - l / 4
		ok = d1 * d1 < 0.01 && d2 * d2 < 0.01
	}
	END { exit !ok }' "$TMP/each" "$TMP/s4"
expect_eq "predict samples 4: their range" \
	"$(sort -n "$TMP/each" | awk 'NR == 1 { a = $1 } { b = $1 } END { print a, b }') $(sort -k2,2n "$TMP/each" | awk 'NR == 1 { a = $2 } { b = $2 } END { print a, b }')" \
	"$(sed -n 's/^over 4 samples of the description (seeds 2 + k \* 7919): throughput \([0-9.]*\) to \([0-9.]*\), latency \([0-9.]*\) to \([0-9.]*\);.*/\1 \2 \3 \4/p' "$TMP/s4")"
"$CLI" -j predict obj "$EX/lb.o" workload "$FWL" samples 4 > "$TMP/s4j"
expect_eq "predict -j samples 4: as the words" \
	"$(sed -n 's/^predicted throughput \([0-9.]*\) .*/\1/p' "$TMP/s4") $(sed -n 's/^over \([0-9]*\) samples.*throughput \([0-9.]*\) to \([0-9.]*\),.*/\1 \2 \3/p' "$TMP/s4")" \
	"$(jpy "'%.1f %d %.1f %.1f' % (d['tput'], d['samples'], d['tput_min'], d['tput_max'])" < "$TMP/s4j")"
"$PLAN" --workload "$FWL" --pcap-out "$TMP/flows.pcap"

# a program on the clock, traffic with no rate: the frames come as fast
# as the NIC takes them, so the clock runs at the throughput predicted --
# settled (within 1%) and the verdicts those of that rate given
printf 'workload rl\nseed 3\nframes 3000\nflows 16 uniform\nmix udp 100\nsizes 64 100\n' > "$TMP/rl.wl"
"$CLI" predict obj "$PROGS/ratelimit.o" workload "$TMP/rl.wl" > "$TMP/rl"
rate=$(sed -n 's/^clock: .*frames as fast as the NIC takes them.* (\([0-9]*\) frames per second)$/\1/p' "$TMP/rl")
check "predict, clock, no rate: the clock at the rate predicted, settled" awk -v r="${rate:-0}" '
	/^predicted throughput/ { m = $0; sub(/.*\(/, "", m); sub(/ Mpps.*/, "", m); e = (r - m * 1e6) / (m * 1e6) }
	END { exit !(r > 0 && e < 0.01 && e > -0.01) }' "$TMP/rl"
{ cat "$TMP/rl.wl"; echo "rate $((${rate:-0} / 1000))"; } > "$TMP/rl-rate.wl"
"$CLI" predict obj "$PROGS/ratelimit.o" workload "$TMP/rl-rate.wl" > "$TMP/rl-rate"
expect_eq "predict, clock, no rate: the verdicts of that rate given" \
	"$(grep '^verdicts:' "$TMP/rl-rate")" "$(grep '^verdicts:' "$TMP/rl")"
{ cat "$TMP/rl.wl"; echo "rate 1000"; } > "$TMP/rl-us.wl"
"$CLI" predict obj "$PROGS/ratelimit.o" workload "$TMP/rl-us.wl" > "$TMP/rl-us"
check "predict, clock, no rate: not those of a frame a microsecond" \
	test "$(grep '^verdicts:' "$TMP/rl-us")" != "$(grep '^verdicts:' "$TMP/rl")"

# DOT: the graph of the plan
"$CLI" plan obj "$EX/router.o" shape pipelined cores 4 > "$TMP/rw"
"$CLI" plan obj "$EX/router.o" shape pipelined cores 4 dot "$TMP/r.dot"
rc=$?
expect_eq "plan dot FILE: exit 0" 0 "$rc"
read -r nodes edges < <(sed -n 's/^program: [0-9]* insns, [0-9]* blocks, \([0-9]*\) nodes, \([0-9]*\) edges$/\1 \2/p' "$TMP/rw")
expect_eq "dot: a node per handler" "$nodes" "$(grep -cE '^		n[0-9]+ \[label="node ' "$TMP/r.dot")"
expect_eq "dot: an edge per DAG edge" "$edges" "$(grep -cE '^	n[0-9]+ -> n[0-9]+ ' "$TMP/r.dot")"
expect_eq "dot: a cluster per stage" "$(grep -c '^stage ' "$TMP/rw")" "$(grep -c 'subgraph cluster_s' "$TMP/r.dot")"
check "dot: bold edges where the pipeline crosses stages" grep -q 'style=bold' "$TMP/r.dot"
"$CLI" plan obj "$PROGS/partial.o" partial dot > "$TMP/p.dot"
check "dot: the host part in a cluster of its own, with why" \
	grep -q "label=\"host: the NIC's instruction store\"" "$TMP/p.dot"
if command -v dot > /dev/null; then
	check "dot: Graphviz reads it" sh -c "dot -Tcanon '$TMP/r.dot' > /dev/null"
	"$CLI" plan obj "$EX/router.o" shape pipelined cores 4 svg "$TMP/r.svg"
	rc=$?
	expect_eq "svg FILE: exit 0" 0 "$rc"
	check "svg: an SVG document with the stages" \
		sh -c "grep -q '<svg' '$TMP/r.svg' && grep -q 'stage 1: cores' '$TMP/r.svg'"
else
	echo "ok $((k + 1)) svg # SKIP Graphviz not installed (make deps installs it)"
	k=$((k + 1))
fi

# refusals: exit status, message, nothing written
refused() {
	local desc=$1 want_rc=$2 msg=$3 rc
	shift 3
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	expect_eq "$desc: exit $want_rc" "$want_rc" "$rc"
	check "$desc: says \"$msg\"" grep -qF -- "$msg" "$TMP/err"
	check "$desc: prints nothing else" test ! -s "$TMP/out"
}
refused "plan without obj" 2 "name the program: obj FILE" "$CLI" plan profile nicsim-soc
refused "predict without workload" 2 "name the traffic, workload FILE" "$CLI" predict obj "$EX/count.o"
refused "unknown shape" 2 'unknown shape "diagonal"' "$CLI" plan obj "$EX/count.o" shape diagonal
refused "cores not a number" 2 'cores "many" is not a count' "$CLI" plan obj "$EX/count.o" cores many
refused "cores out of range" 2 "--cores takes 1 to 16" "$CLI" plan obj "$EX/count.o" cores 0
refused "unknown profile" 2 "unknown profile nope" "$CLI" plan obj "$EX/count.o" profile nope
refused "unknown argument" 2 'unknown argument "colour"' "$CLI" plan obj "$EX/count.o" colour red
refused "svg for predict" 2 'unknown argument "svg"' "$CLI" predict obj "$EX/count.o" workload "$WL" svg "$TMP/x.svg"
refused "dot with -j" 2 "dot and svg are graphs, not JSON" "$CLI" -j plan obj "$EX/count.o" dot
refused "a missing object" 1 "$TMP/none.o: No such file" "$CLI" plan obj "$TMP/none.o"
refused "a program the NIC cannot run" 1 "is not supported on the NIC" "$CLI" plan obj "$PROGS/bad_helper.o"
# what the kernel's verifier refuses, refused offline too, as it words it
refused "arithmetic on the packet's end" 1 "insn 2: R1 pointer arithmetic on pkt_end prohibited (the kernel's verifier refuses the program)" "$CLI" plan obj "$PROGS/pkt_end_math.o"
refused "too large without partial" 1 "--partial lets the host run the rest" "$CLI" plan obj "$PROGS/partial.o"
refused "samples 0" 2 'samples "0" is not a count from 1 to 64' "$CLI" predict obj "$EX/lb.o" workload "$FWL" samples 0
refused "samples 65" 2 'samples "65" is not a count from 1 to 64' "$CLI" predict obj "$EX/lb.o" workload "$FWL" samples 65
refused "nicprog-plan --samples 0" 2 "--samples takes 1 to 64" "$PLAN" --workload "$FWL" --samples 0 "$EX/lb.o"
refused "samples of a pcap" 2 "a pcap file is one sample already" "$CLI" predict obj "$EX/lb.o" workload "$TMP/flows.pcap" samples 2
refused "a missing workload" 1 "$TMP/none.wl" "$CLI" predict obj "$EX/count.o" workload "$TMP/none.wl"
printf 'workload r\nmix udp 1\nsizes 64 1\nreplies 101\n' > "$TMP/r101.wl"
refused "replies 101" 1 "line 4: replies takes a percentage, 0 to 100" "$PLAN" --workload "$TMP/r101.wl" --pcap-out "$TMP/r101.pcap"

# replies: that share of a flow's TCP (not SYN) and UDP frames come back
# from its destination, addresses and ports swapped; replies 0 draws the
# frames a workload without the keyword does
printf 'workload bi\nseed 5\nframes 4000\nflows 40\nmix tcp_syn 10 tcp 40 udp 40 icmp 10\nsizes 64 1 1514 1\n' > "$TMP/bi0.wl"
{ cat "$TMP/bi0.wl"; echo "replies 0"; } > "$TMP/bi00.wl"
{ cat "$TMP/bi0.wl"; echo "replies 30"; } > "$TMP/bi30.wl"
for w in bi0 bi00 bi30; do
	"$PLAN" --workload "$TMP/$w.wl" --pcap-out "$TMP/$w.pcap"
done
check "replies 0: the frames of no replies" cmp -s "$TMP/bi0.pcap" "$TMP/bi00.pcap"
# per frame: fwd/rev, class, src, dst, sport, dport (sources are in 10.128/9)
pcap_tuples() {
	/usr/bin/python3 -c '
import struct, sys
d = open(sys.argv[1], "rb").read()
o = 24
while o < len(d):
    n = struct.unpack("<I", d[o + 8:o + 12])[0]
    f = d[o + 16:o + 16 + n]
    o += 16 + n
    if f[12:14] != b"\x08\x00":
        print("arp")
        continue
    p = f[23]
    c = "icmp" if p == 1 else "udp" if p == 17 else "syn" if f[47] == 2 else "tcp"
    # 10.200.0.1 is a destination of the workloads
    way = "fwd" if f[26] == 10 and f[27] >= 128 and f[26:30] != bytes([10, 200, 0, 1]) else "rev"
    print(way, c, f[26:30].hex(), f[30:34].hex(), f[34:36].hex(), f[36:38].hex())
' "$1"
}
pcap_tuples "$TMP/bi0.pcap" > "$TMP/t0"
pcap_tuples "$TMP/bi30.pcap" > "$TMP/t30"
expect_eq "replies 0: every frame from its flow's source" 0 "$(grep -c '^rev' "$TMP/t0")"
check "replies 30: about 30% of TCP (not SYN) and UDP frames come back" awk '
	$2 == "tcp" || $2 == "udp" { n++; r += $1 == "rev" }
	END { exit !(n > 2000 && r > 0.26 * n && r < 0.34 * n) }' "$TMP/t30"
expect_eq "replies 30: no SYN or ICMP comes back" 0 "$(awk '$1 == "rev" && ($2 == "syn" || $2 == "icmp")' "$TMP/t30" | wc -l)"
# each reply is its frame of no replies turned round: the same frame index
check "replies 30: a reply is the frame of no replies, turned round" awk '
	NR == FNR { a[FNR] = $0; next }
	{ split(a[FNR], o) }
	$1 == "fwd" && $0 != a[FNR] { bad++ }
	$1 == "rev" && !(o[1] == "fwd" && $2 == o[2] && $3 == o[4] && $4 == o[3] && $5 == o[6] && $6 == o[5]) { bad++ }
	END { exit bad > 0 }' "$TMP/t0" "$TMP/t30"
"$PLAN" --workload "$TMP/bi30.wl" "$EX/firewall.o" > "$TMP/bi30p"
check "replies 30: the prediction names them" grep -q "^workload bi: 4000 frames, 40 flows uniform, 30% replies;" "$TMP/bi30p"
"$PLAN" -j --workload "$TMP/bi30.wl" "$EX/firewall.o" > "$TMP/bi30j"
expect_eq "replies 30: -j replies_pct" 30 "$(jpy "d['replies_pct']" < "$TMP/bi30j")"
refused "no nicprog-plan" 1 "cannot run $TMP/none" env NICPROG_PLAN="$TMP/none" "$CLI" plan obj "$EX/count.o"
refused "svg without Graphviz" 1 "svg needs Graphviz's dot" env PATH=/nonexistent "$CLI" plan obj "$EX/count.o" svg "$TMP/x.svg"
check "  and no file written" test ! -e "$TMP/x.svg"

# the static bracket per packet class: inside the plan's (over any
# traffic), narrower where the classes rule paths out, and the prediction
# inside it -- also for a program that rewrites the EtherType it then
# branches on (a walk that kept the class's EtherType would rule out the
# drop every frame takes: predicted 69,352, class bracket 133..22,099)
HO=$top/bpf/heldout
for a in "$EX/port_filter.o nicsim-soc $WL" "$EX/firewall.o nicsim-nfp $FWL" \
	 "$EX/router.o nicsim-generic $WL" "$HO/conn_idle.o nicsim-pipeline $FWL" \
	 "$PROGS/rewrite_branch.o nicsim-soc $WL" "$PROGS/rewrite_branch.o nicsim-nfp $FWL"; do
	set -- $a
	d="class bracket, $(basename "$1" .o) on $2, $(basename "$3" .wl)"
	"$PLAN" --profile "$2" --workload "$3" "$1" > "$TMP/cb" 2>&1
	check "$d: inside the plan's, the prediction inside it" awk '
		/^predicted throughput/ { pt = $3; pl = $0; sub(/.*latency /, "", pl); sub(/ cycles.*/, "", pl) }
		/^static bracket:/ { split($4, a, /\.\./); split($10, b, /\.\./) }
		/^static bracket for these classes:/ { split($7, c, /\.\./); split($13, e, /\.\./); n++ }
		END { pl += 0
		      exit !(n == 1 && c[1] >= a[1] && c[2] <= a[2] && e[1] >= b[1] && e[2] <= b[2] &&
			     pt >= c[1] && pt <= c[2] && pl >= e[1] && pl <= e[2]) }' "$TMP/cb"
done
"$PLAN" --profile nicsim-soc --workload "$WL" "$EX/port_filter.o" > "$TMP/cb"
check "class bracket, port_filter on syn: narrower than over any traffic" awk '
	/^static bracket:/ { split($4, a, /\.\./); split($10, b, /\.\./) }
	/^static bracket for these classes:/ { split($7, c, /\.\./); split($13, e, /\.\./) }
	END { exit !(c[2] < a[2] && e[1] > b[1]) }' "$TMP/cb"
"$PLAN" -j --profile nicsim-soc --workload "$WL" "$EX/port_filter.o" > "$TMP/cbj"
expect_eq "class bracket -j: per class as the words" \
	"$(awk '/^class\tbracket/ { t = 1; next } t && /^unit/ { t = 0 } t { print $1, $2, $3, $4, $7 }' "$TMP/cb" | tr '\n' ' ')" \
	"$(jpy "' '.join('%s %d..%d %d..%d %d %d..%d' % (c['class'], c['tput_min'], c['tput_max'], c['latency_min'], c['latency_max'], c['blocks'], c['len_min'], c['len_max']) for c in (d[0] if isinstance(d, list) else d)['class_brackets']) + ' '" < "$TMP/cbj")"

# The plan's own static bracket per packet class (classwalk.c, what
# nicprog prog show and the kernel's plan print): every frame of a class
# runs only the blocks and branches its class's walk left in -- the host's
# run of each frame stopped at every block and checked -- for every example
# and held-out NF, each on a workload and profile of its own, and for the
# programs built to trap such a walk (class_traps: a spilled packet
# pointer, a rewritten protocol, a pulled header; rewrite_branch); a
# class's bracket lies inside the bracket over any traffic; and so does the
# prediction the bracket over the frames' classes holds.
wls=("$top"/tools/workloads/*.wl "$top"/tools/workloads/heldout/*.wl)
profs=(nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga)
i=0
for o in "$EX"/*.o "$HO"/*.o "$PROGS/class_traps.o" "$PROGS/rewrite_branch.o"; do
	w=${wls[i % ${#wls[@]}]} p=${profs[i % ${#profs[@]}]}
	i=$((i + 1))
	d="class walks, $(basename "$o" .o) on $p, $(basename "$w" .wl)"
	"$PLAN" --profile "$p" --workload "$w" "$o" > "$TMP/cw" 2>&1
	check "$d: every frame of a class inside its class's walk" awk '
		/^packet classes/ { sub(/^[^:]*: /, ""); k = split($0, q, /, /)
				    for (j = 1; j <= k; j++) { split(q[j], r, " "); if (r[1] != "none") n += r[2] } }
		/^class walks:/ { c = $3; e = $10 }
		END { exit !(n > 0 && c == n && e == 0) }' "$TMP/cw"
	check "$d: the prediction inside the plan's bracket for the frames' classes" awk '
		/^predicted throughput/ { pt = $3; pl = $0; sub(/.*latency /, "", pl); sub(/ cycles.*/, "", pl) }
		/^static bracket for the frames. packet classes:/ { split($9, c, /\.\./); split($15, e, /\.\./); n++ }
		END { pl += 0; exit !(n == 1 && pt >= c[1] && pt <= c[2] && pl >= e[1] && pl <= e[2]) }' "$TMP/cw"
done
for o in "$EX"/*.o "$PROGS/class_traps.o"; do
	"$PLAN" --profile nicsim-soc "$o" > "$TMP/pc"
	check "plan of $(basename "$o" .o): a bracket per packet class, inside the one over any traffic" awk '
		/^program:/ { nb = $4 }
		/^static bracket:/ { split($4, a, /\.\./); split($10, b, /\.\./) }
		/^static bracket for [a-z0-9-]+ frames:/ { n++; split($7, c, /\.\./); split($13, e, /\.\./)
			bad += c[1] < a[1] || c[2] > a[2] || e[1] < b[1] || e[2] > b[2] || $15 > nb + 0 || $17 != nb }
		END { exit !(n == 7 && !bad) }' "$TMP/pc"
done
"$PLAN" --profile nicsim-soc "$EX/port_filter.o" > "$TMP/pc"
check "port_filter: the arp and udp classes rule blocks out, arp the most" awk '
	/^static bracket for (arp|udp) frames:/ { b[$4] = $15; of = $17 }
	END { exit !(b["arp"] < b["udp"] && b["udp"] < of) }' "$TMP/pc"
"$PLAN" -j --profile nicsim-soc "$EX/port_filter.o" > "$TMP/pcj"
expect_eq "plan -j: the brackets per packet class as the words" \
	"$(awk '/^static bracket for [a-z0-9-]+ frames:/ { print $4, $7, $13, $15 }' "$TMP/pc" | tr '\n' ' ')" \
	"$(jpy "' '.join('%s %d..%d %d..%d %d' % (c['class'], c['tput_min'], c['tput_max'], c['latency_min'], c['latency_max'], c['blocks']) for c in (d[0] if isinstance(d, list) else d)['pkt_class_brackets']) + ' '" < "$TMP/pcj")"

# Bank interleaving: the shipped profiles give nicsim's (interleave hash),
# and the prediction prices each line's own bank, with no spread; the same
# profile without it gets the spread over random interleavings
"$PLAN" --profile nicsim-generic --workload "$WL" "$EX/router.o" > "$TMP/il" 2>&1
check "interleave hash: the NIC's banks, no spread" sh -c \
	"grep -q \"^bank interleaving: the NIC's, as its profile gives it (interleave hash), in every banked region the plan uses (1); no spread\$\" \"\$1\" &&
	 ! grep -q '^bank interleavings:' \"\$1\"" sh "$TMP/il"
"$PLAN" --profile nicsim-generic --lnic | sed 's/ interleave hash//' > "$TMP/unknown.lnic"
"$PLAN" --profile "$TMP/unknown.lnic" --workload "$WL" "$EX/router.o" > "$TMP/il2" 2>&1
check "interleave unknown: the spread over 64 random interleavings" \
	grep -Eq "^bank interleavings: throughput [0-9.]+ to [0-9.]+, latency [0-9.]+ to [0-9.]+ \(the least and the most loaded of 64; " "$TMP/il2"
check "interleave unknown: the profile as written back says nothing" sh -c \
	"! \"\$1\" --profile \"\$2\" --lnic | grep -q interleave" sh "$PLAN" "$TMP/unknown.lnic"

# engine-share reaches nicprog-plan: the plan priced and said with it
"$CLI" plan obj "$EX/nat.o" engine-share csum:4 > "$TMP/share"
check "plan engine-share csum:4: the split in words" \
	grep -q "^engine share: csum 4/16 engine jobs, 12/16 the function's body on the cores$" "$TMP/share"
refused "plan engine-share of an unknown type: nicprog-plan's reason" 2 \
	"unknown accelerator type zip" "$CLI" plan obj "$EX/nat.o" engine-share zip:4
# engine-share optimum reaches nicprog-plan: lb's one engine type, its 17
# shares, the best and auto's choice against it, in words and in JSON
printf 'workload small\nseed 3\nframes 300\nflows 50 uniform\nmix tcp 50 udp 50\nsizes 64 50 1024 50\n' \
	> "$TMP/small.wl"
"$CLI" predict obj "$EX/lb.o" workload "$TMP/small.wl" engine-share optimum > "$TMP/opt"
"$CLI" -j predict obj "$EX/lb.o" workload "$TMP/small.wl" engine-share optimum > "$TMP/optj"
expect_eq "predict engine-share optimum: 17 shares of hash, auto's choice at most the optimum" \
	"$(sed -n 's/^engine share optimum: the best of \([0-9]*\) combinations, hash [0-9]*\/16, \([0-9.]*\) frames per million cycles; auto chooses hash [0-9]*\/16, \([0-9.]*\) frames.*/\1 \2 \3/p' "$TMP/opt" |
	   awk '{ print $1, $3 <= $2 }')" "17 1"
expect_eq "predict -j engine-share optimum: the same in JSON" \
	"$(sed -n 's/^engine share optimum: the best of \([0-9]*\) combinations, \(.*\), \([0-9.]*\) frames per million cycles; auto chooses \(.*\), \([0-9.]*\) frames per million cycles, \([0-9.]*\) of the optimum$/\1|\2|\3|\4|\5|\6/p' "$TMP/opt")" \
	"$(jpy "'%d|%s|%.1f|%s|%.1f|%.3f' % (d['share_combinations'], d['optimum_share'], d['optimum_share_tput'], d['auto_share'], d['auto_share_tput'], d['auto_share_quality'])" < "$TMP/optj")"

echo "1..$k"
exit $fail
