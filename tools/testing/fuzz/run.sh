#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the offline fuzzers (libFuzzer, AddressSanitizer, UBSan; see the
# Makefile) from seed corpora made from this tree: facts files of every
# example and test program on three profiles, the shipped LNIC profiles,
# the BPF objects, and regress/: inputs that once made a fuzzer fail
# (facts with an accelerator function on an instruction that calls no
# function; an object with a register above R10). TAP, one point per
# fuzzer: no crash, no sanitizer report, no leak, no input slower than
# 20 s, no plan that breaks an invariant (plan.c), and at least its
# minimum of inputs past its seeds.
#
#   run.sh [SCALE]     (FUZZ_SEED=N: the seed; by default a new one)
#
# A fuzzer runs its seed corpus, then MIN x SCALE new inputs (MIN below,
# SCALE 1 by default): a count, not a time, so that a busy machine runs
# as many as an idle one, only slower. Each has SECS_MAX (300) seconds:
# a fuzzer that has not run its inputs by then fails, saying how many
# it ran.
#
# The seed is printed; a failure prints the input that caused it (kept in
# build/fuzz/) and the command that replays it.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
SCALE=${1:-1}
SECS_MAX=${SECS_MAX:-300}
declare -A MIN=([facts]=10000 [lnic]=100000 [object]=500)
SEED=${FUZZ_SEED:-$(($(date +%s%N) % 2147483647))}
PLAN=$top/tools/nicprog-plan/nicprog-plan
OUT=$top/build/fuzz
mkdir -p "$OUT"
TMP=$(mktemp -d /tmp/nicprog-fuzz.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
echo "TAP version 13"
echo "# seed $SEED (FUZZ_SEED=$SEED $0 $SCALE replays this run)"
for f in facts_fuzz lnic_fuzz object_fuzz; do
	if [ ! -x "$here/$f" ] || [ ! -x "$PLAN" ]; then
		echo "1..0 # SKIP $f or nicprog-plan not built (make tools)"
		exit 4
	fi
done

# Seed corpora. facts_fuzz takes a byte (shape, budget, partial) and a
# facts file; object_fuzz an object and a byte (the profile).
mkdir -p "$TMP/facts" "$TMP/lnic" "$TMP/object"
for o in "$top"/bpf/examples/*.o "$top"/selftests/nicprog/progs/*.o; do
	n=$(basename "$o" .o)
	for p in nicsim-generic nicsim-nfp nicsim-fpga; do
		"$PLAN" --profile $p --facts-out "$TMP/f" "$o" 2> /dev/null || continue
		{ printf '\x40'; cat "$TMP/f"; } > "$TMP/facts/$n-$p"
	done
	{ cat "$o"; printf '\x00'; } > "$TMP/object/$n"
done
cp "$top"/drivers/nicsim/profiles/*.lnic "$TMP/lnic/"
# inputs that once broke the code, kept as seeds (regress/NAME/)
for name in facts lnic object; do
	[ -d "$here/regress/$name" ] && cp "$here/regress/$name"/* "$TMP/$name/"
done
"$PLAN" --facts-out "$TMP/count.facts" "$top/bpf/examples/count.o"
export NICPROG_FUZZ_FACTS=$TMP/count.facts

k=0 fail=0
for name in facts lnic object; do
	k=$((k + 1))
	bin=$here/${name}_fuzz
	seeds=$(ls "$TMP/$name" | wc -l)
	want=$((seeds + MIN[$name] * SCALE))
	start=$SECONDS
	timeout $((SECS_MAX + 120)) "$bin" -seed="$SEED" -runs="$want" \
		-max_total_time="$SECS_MAX" \
		-timeout=20 -rss_limit_mb=2048 -max_len=1100000 \
		-print_final_stats=1 -artifact_prefix="$OUT/$name-" \
		"$TMP/$name" > "$TMP/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$TMP/$name.log")
	if [ $rc -eq 0 ] && [ "${runs:-0}" -ge "$want" ]; then
		echo "ok $k ${name}_fuzz: $runs inputs ($seeds seeds, $((runs - seeds)) new) in $((SECONDS - start)) s, no crash, sanitizer report, leak or broken plan"
		continue
	fi
	if [ $rc -eq 0 ]; then
		fail=1
		echo "not ok $k ${name}_fuzz: only ${runs:-0} of $want inputs in ${SECS_MAX} s"
		continue
	fi
	fail=1
	grep -E 'ERROR|SUMMARY|runtime error|plan invariant|#[0-9] 0x|Test unit written' "$TMP/$name.log" |
		head -20 | sed 's/^/# /'
	art=$(sed -n 's/.*Test unit written to //p' "$TMP/$name.log" | tail -n 1)
	[ -n "$art" ] && echo "# replay: ${bin#"$top"/} $art"
	echo "# or the run: ${bin#"$top"/} -seed=$SEED -runs=${runs:-N} (corpus as above)"
	echo "not ok $k ${name}_fuzz (exit $rc)"
done
echo "1..$k"
exit $fail
