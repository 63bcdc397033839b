#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicprog predict ... bufs: a lookaside kernel's job priced offline on
# every shipped profile, no kernel. The price is what the same bytes cost
# (the same twice, more for more work, a range over samples of seeded
# data), JSON says what the words say, and every refusal exits 1 (the
# kernel would refuse) or 2 (bad usage) naming its cause: maps, a helper
# only the host has, a program the verifier refuses, a profile whose
# cores do not hold the kernel, malformed windows, scalars and data. A
# seeded fuzzer of the job's arguments runs the sanitized build. That the
# price is what the NIC then counts is selftests/nicprog/job.sh's.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
CLI=$top/tools/nicprog/nicprog
PLAN=$top/tools/nicprog-plan/nicprog-plan
ASAN=$top/tools/nicprog-plan/nicprog-plan-asan
LA=$top/bpf/lookaside
PROGS=$top/selftests/nicprog/progs
RUNS=${1:-60}
SEED=${2:-$(($(date +%s) % 1000000))}
RANDOM=$SEED
# shellcheck source=tools/testing/unit/tap.sh
. "$top/tools/testing/unit/tap.sh"
TMP=$(mktemp -d /tmp/nicprog-job-predict.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

echo "TAP version 13"
echo "# seed $SEED (job_predict_test.sh $RUNS $SEED replays its fuzzer)"
for t in "$CLI" "$PLAN" "$ASAN" "$LA/matmul.o" "$LA/colagg.o" \
	 "$PROGS/kern_wordstat.o"; do
	[ -e "$t" ] || { echo "1..0 # SKIP $t not built (make all)"; exit 0; }
done

# matmul: every shipped profile, the same price twice, its cycles at the
# core's clock
"$CLI" predict obj "$LA/matmul.o" bufs 1024,1024,1024 > "$TMP/a" 2>&1
rc=$?
"$CLI" predict obj "$LA/matmul.o" bufs 1024,1024,1024 > "$TMP/b" 2>&1
"$CLI" -j predict obj "$LA/matmul.o" bufs 1024,1024,1024 > "$TMP/aj" 2> /dev/null
profiles=$(jpy '" ".join(p["profile"] for p in d["profiles"])' < "$TMP/aj")
expect_eq "matmul is priced (exit 0)" 0 "$rc"
expect_eq "  on the five shipped profiles" \
	"nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga" "$profiles"
check "  the same price twice" cmp -s "$TMP/a" "$TMP/b"
expect_eq "  JSON: every row's job time is its cycles at its core's clock, and it returns 0" \
	"True" "$(jpy 'all(p["cycles"] > 0 and abs(p["job_us"] - p["cycles"] / p["clock_mhz"]) < 1e-6 and p["returns"] == 0 for p in d["profiles"])' < "$TMP/aj")"
expect_eq "  the words print the JSON's cycles" \
	"$(jpy '" ".join(str(p["cycles"]) for p in d["profiles"])' < "$TMP/aj")" \
	"$(awk '$1 ~ /^nicsim-/ { printf "%s%s", n++ ? " " : "", $6 } END { print "" }' "$TMP/a")"

# colagg: its price depends on its data and on its filter
"$CLI" -j predict obj "$LA/colagg.o" bufs 16384,128 samples 6 profile nicsim-soc > "$TMP/c" 2> "$TMP/c.err"
expect_eq "colagg over 6 samples of seeded records: min < mean < max cycles" \
	"True" "$(jpy 'd["profiles"][0]["cycles_min"] < d["profiles"][0]["cycles"] < d["profiles"][0]["cycles_max"]' < "$TMP/c")"
check "  its walk gave up where the verifier does not, and it says so" \
	grep -q "not checked offline (.*); the kernel's verifier, which prunes finer, decides at load" "$TMP/c.err"
all=$("$CLI" -j predict obj "$LA/colagg.o" bufs 16384,128 args 0 profile nicsim-soc 2> /dev/null |
      jpy 'd["profiles"][0]["cycles"]')
none=$("$CLI" -j predict obj "$LA/colagg.o" bufs 16384,128 args 0x7fffffff profile nicsim-soc 2> /dev/null |
       jpy 'd["profiles"][0]["cycles"]')
check "  a filter no record passes costs less than one half of them pass ($none < $all)" \
	test "${none:-0}" -gt 0 -a "${none:-0}" -lt "${all:-0}"

# data given: the same bytes, the same price; a scan that stops sooner
# costs less (kern_wordstat stops at the first word w with w & args[0] == 0)
head -c 2064 /dev/zero | tr '\0' '\377' > "$TMP/ones"
cp "$TMP/ones" "$TMP/early"
printf '\0\0\0\0' | dd of="$TMP/early" bs=1 seek=400 conv=notrunc 2> /dev/null
w() { "$CLI" -j predict obj "$PROGS/kern_wordstat.o" bufs 2048,16 args 0xff data "$1" profile nicsim-generic | jpy "d['profiles'][0]['$2']"; }
expect_eq "kern_wordstat (direct access) on given bytes: it returns where it stopped" \
	"512 100" "$(w "$TMP/ones" returns) $(w "$TMP/early" returns)"
check "  the same bytes, the same price; stopping at word 100 costs less than 512" \
	test "$(w "$TMP/early" cycles)" = "$(w "$TMP/early" cycles)" -a \
	"$(w "$TMP/early" cycles)" -lt "$(w "$TMP/ones" cycles)"

# refusals: exit 1 (the kernel would refuse) or 2 (usage), the cause named
refused() { # DESC STATUS TEXT ARGS...
	local d=$1 want=$2 text=$3 rc
	shift 3
	"$CLI" predict "$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = "$want" ] && { [ -z "$text" ] || grep -qF -- "$text" "$TMP/err"; }; then
		ok "$d"
	else
		echo "# exit $rc, stdout:"; sed 's/^/#   /' "$TMP/out"
		echo "# stderr:"; sed 's/^/#   /' "$TMP/err"
		nok "$d"
	fi
}
refused "a program with maps (exit 1)" 1 "uses 4 maps: a kernel's state is its buffers" \
	obj "$top/bpf/examples/firewall.o" bufs 64
refused "a helper only the host has" 1 "helper bpf_fib_lookup (69) is one only the host has: a kernel runs on the NIC alone" \
	obj "$PROGS/router.o" bufs 64
refused "a program the verifier refuses" 1 "pointer arithmetic on pkt_end prohibited (the kernel's verifier refuses the program)" \
	obj "$PROGS/pkt_end_math.o" bufs 64
"$PLAN" --profile nicsim-fpga --lnic | sed "s/^lnic .*/lnic tiny/; s/ insns 64K/ insns 64/" > "$TMP/tiny.lnic"
refused "a profile whose cores do not hold it: its row says so (exit 1)" 1 "" \
	obj "$LA/matmul.o" bufs 1024,1024,1024 profile "$TMP/tiny.lnic"
check "  does not fit: its instructions, what the cores hold" \
	grep -Eq "^tiny .* does not fit: [0-9]+ instructions, its cores hold 64$" "$TMP/out"
refused "no windows (exit 2)" 2 "--bufs: empty" obj "$LA/matmul.o" bufs ""
refused "an empty window" 2 "window 1: 0 bytes; a window holds 1 to 4194304" obj "$LA/matmul.o" bufs 8,0
refused "nine windows" 2 "at most 8" obj "$LA/matmul.o" bufs 1,1,1,1,1,1,1,1,1
refused "a window that is not a number" 2 "not a list of numbers" obj "$LA/matmul.o" bufs 8,x
refused "a negative window" 2 "not a list of numbers" obj "$LA/matmul.o" bufs -8
refused "windows past the frame" 2 "a job's frame holds 4194304" obj "$LA/matmul.o" bufs 4194304,8
refused "nine scalars" 2 "--args \"1,2,3,4,5,6,7,8,9\": at most 8" obj "$LA/matmul.o" bufs 8 args 1,2,3,4,5,6,7,8,9
refused "data that is not the windows' size" 2 "holds 2064 bytes; the windows take 2048" \
	obj "$PROGS/kern_wordstat.o" bufs 2032,16 data "$TMP/ones"
refused "data that is not there" 2 "/nonexistent: No such file or directory" \
	obj "$PROGS/kern_wordstat.o" bufs 2048,16 data /nonexistent
refused "data and samples at once" 2 "one or the other" \
	obj "$PROGS/kern_wordstat.o" bufs 2048,16 data "$TMP/ones" samples 2
refused "a workload and bufs at once" 2 "workload prices an NF, bufs a lookaside kernel's job: one or the other" \
	obj "$LA/matmul.o" bufs 8 workload "$top/tools/workloads/syn.wl"
refused "neither a workload nor bufs" 2 "or a lookaside kernel's job: bufs LEN,LEN,..." \
	obj "$LA/matmul.o"

# a seeded fuzzer of the job's arguments, sanitized: any bad read aborts
tokens=(0 1 7 8 16 144 1024 4096 65536 4194303 4194304 -1 x ',' 0x10 99999999999999999999)
bad=0
for ((i = 0; i < RUNS; i++)); do
	b="" a=""
	for ((j = 0; j < RANDOM % 10; j++)); do b+="${b:+,}${tokens[RANDOM % ${#tokens[@]}]}"; done
	for ((j = 0; j < RANDOM % 10; j++)); do a+="${a:+,}${tokens[RANDOM % ${#tokens[@]}]}"; done
	timeout 60 "$ASAN" --profile nicsim-generic --bufs "$b" ${a:+--args "$a"} \
		"$PROGS/kern_wordstat.o" > "$TMP/f" 2>&1
	rc=$?
	if [ $rc -gt 2 ]; then
		echo "# --bufs '$b' --args '$a': exit $rc"
		sed 's/^/#   /' "$TMP/f" | head -20
		bad=$((bad + 1))
	fi
done
expect_eq "fuzz: $RUNS seeded --bufs/--args, each priced or refused (exit 0, 1, 2), no sanitizer report" 0 "$bad"

echo "1..$k"
exit $fail
