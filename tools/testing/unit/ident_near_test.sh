#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Algorithm identification from source, offline: the table of reference
# bodies is what the project's clang emits for the marked bodies
# (tools/ident/gen), every marked body is identified in the object it is
# built in, and seeded near misses of the reference bodies -- one number,
# table entry or comparison of the C source different (tools/ident/near-miss),
# compiled by clang for a random -mcpu -- are never identified, at least
# PER of them per engine function that compile and plan. The seed is
# printed; ident_near_test.sh PER SEED replays a run.
set -u
top=$(cd "$(dirname "$0")/../../.." && pwd)
PLAN=$top/tools/nicprog-plan/nicprog-plan
PER=${1:-24}
SEED=${2:-$(($(date +%s) % 1000000))}
RANDOM=$SEED
# shellcheck source=tools/testing/unit/tap.sh
. "$top/tools/testing/unit/tap.sh"
TMP=$(mktemp -d /tmp/nicprog-ident-near.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
BPF_CFLAGS="-O2 -g -target bpf -I/usr/include/$(cc -print-multiarch)"

echo "TAP version 13"
echo "# seed $SEED (ident_near_test.sh $PER $SEED replays it)"

"$top/tools/ident/gen" > "$TMP/bodies.c" 2> "$TMP/gen.err"
check "tools/ident/gen runs" test -s "$TMP/bodies.c"
check "kernel/offload/ident_bodies.c is what the project's clang emits now" \
	diff -u "$top/kernel/offload/ident_bodies.c" "$TMP/bodies.c"

# identified OBJ: the functions OBJ's plan identifies, one "NAME AFN" a line
identified() {
	"$PLAN" --profile nicsim-generic "$1" 2>&1 |
		sed -n 's/.* identified as \([a-z0-9]*\) (conventions 0x[0-9a-f]*): \([a-z0-9_]*\) of .*/\2 \1/p' |
		sort -u
}

# Every marked body, in the object the tree builds it in.
for pair in bpf/ident/crc32c.c:bpf/ident/crc32c.o bpf/ident/csum.c:bpf/ident/csum.o \
	    bpf/examples/digest.c:bpf/examples/digest.o \
	    selftests/nicprog/progs/ident_csum.c:selftests/nicprog/progs/ident_csum.o; do
	src=$top/${pair%%:*} obj=$top/${pair#*:}
	want=$(awk '/^\/\* nicprog-ident: / { afn = $3; next }
		    afn && match($0, /[A-Za-z_][A-Za-z0-9_]*\(struct xdp_md/) {
			print substr($0, RSTART, RLENGTH - 14), afn; afn = "" }' "$src" | sort -u)
	expect_eq "${pair%%:*}: its reference bodies identified" "$want" "$(identified "$obj")"
done

# The explicit call's near misses: an accelerator id passed to a static
# function, or an id that differs between paths, is no engine job.
out=$("$PLAN" --profile nicsim-generic "$top/selftests/nicprog/progs/afn_near.o" 2>&1)
check "afn_near: an id passed to a static function stays a call, and the log says so" \
	grep -q "call passes accelerator id crc32c but its target is not a global function; it runs on a core" <<< "$out"
check "afn_near: an id that differs between paths stays a call, and the log says so" \
	grep -q "the accelerator id this call passes is not the same constant on every path; it runs on a core" <<< "$out"
check "afn_near: no call identified" \
	test "$(grep -c ' identified as ' <<< "$out")" -eq 0
# the same report names the engines a program loads (digest: its CRC calls)
out=$("$PLAN" --profile nicsim-generic --workload "$top/tools/workloads/flows.wl" \
	"$top/bpf/examples/digest.o" 2>&1)
check "digest: the prediction names the CRC engine it loads" \
	grep -qE '^crc engine' <<< "$out"
out=$("$PLAN" --profile nicsim-generic --workload "$top/tools/workloads/flows.wl" \
	"$top/selftests/nicprog/progs/afn_near.o" 2>&1)
check "afn_near: the prediction loads no engine" \
	test -z "$(grep -E '^[a-z]+ engine' <<< "$out")"

# Seeded near misses of the reference sources, per engine function: one
# body changed, so one function fewer identified than in the reference.
for afn in crc32c csum; do
	src=$top/bpf/ident/$afn.c
	bodies=$(grep -c '^/\* nicprog-ident: ' "$src")
	mkdir -p "$TMP/$afn"
	"$top/tools/ident/near-miss" "$RANDOM" $((PER * 2)) "$TMP/$afn" "$src" \
		> "$TMP/$afn.list"
	planned=0 wrong=0 tables=0
	while read -r var what; do
		cpu=v$((RANDOM % 3 + 1))
		# shellcheck disable=SC2086 # flags are words
		clang $BPF_CFLAGS -mcpu=$cpu -c "$var" -o "${var%.c}.o" 2>/dev/null ||
			continue
		"$PLAN" --profile nicsim-generic "${var%.c}.o" > "${var%.c}.plan" 2>&1 ||
			continue
		planned=$((planned + 1))
		[[ $what == *" table-entry "* ]] && tables=$((tables + 1))
		if [ "$(grep -c ' identified as ' "${var%.c}.plan")" -ge "$bodies" ]; then
			wrong=$((wrong + 1))
			echo "# identified: -mcpu=$cpu, ${what#"$top/"}"
		fi
	done < "$TMP/$afn.list"
	echo "# $afn: $planned near misses compiled and planned, $tables of them a table entry changed"
	check "$afn: at least $PER near misses compiled and planned ($planned)" \
		test "$planned" -ge "$PER"
	[ "$afn" = crc32c ] &&
		check "crc32c: some of them change one entry of crc32c_nibble's table ($tables)" \
			test "$tables" -gt 0
	expect_eq "$afn: no changed body identified" 0 "$wrong"
done
echo "1..$k"
exit $fail
