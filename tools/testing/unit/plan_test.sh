#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# nicprog-plan on ELF objects, no kernel: every example NF plans offline;
# what the kernel refuses is refused offline with the same cause, exit 1;
# and a seeded fuzzer of corrupted objects finds no bad memory access
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
RANDOM=${2:-20261122}
k=0 fail=0
ok() { k=$((k + 1)); echo "ok $k $*"; }
nok() { k=$((k + 1)); fail=1; echo "not ok $k $*"; }
TMP=$(mktemp -d /tmp/nicprog-plan-test.XXXXXX)
trap 'rm -rf "$TMP"' EXIT

echo "TAP version 13"
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

# refused DESC PATTERN ARGS...: exit status 1, PATTERN on stderr.
refused() {
	local desc=$1 pat=$2 rc
	shift 2
	timeout 60 "$PLAN" "$@" > /dev/null 2> "$TMP/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qE "$pat" "$TMP/err"; then
		ok "$desc"
	else
		echo "# rc=$rc, expected '$pat' in:"
		sed 's/^/# /' "$TMP/err"
		nok "$desc"
	fi
}
refused "unsupported helper: named" "insn [0-9]+: helper 8 is not supported on the NIC" "$PROGS/bad_helper.o"
refused "kfunc call: named" "calls a kernel function \(kfunc\) bpf_xdp_ct_lookup; Linux 6.1 cannot offload kfunc calls" "$PROGS/kfunc.o"
refused "tc program: only XDP runs on the NIC" "classify in section tc is not an XDP program" "$PROGS/tc.o"
refused "larger than the instruction store" "program has 12507 instructions; the NIC's cores hold at most 8192" "$PROGS/big.o"
refused "global variables: not supported" "loads the address of seen, which is not a map in .maps: global data is not supported" "$PROGS/global.o"
refused "LPM_TRIE map: cannot be offloaded" "map routes: type 11 cannot be offloaded" "$PROGS/lpm.o"
refused "no such section" "no program in section nope" --sec nope "$top/bpf/examples/count.o"
refused "an x86 executable is not a BPF object" "not a BPF object \(ELF machine 62\)" /bin/true
refused "a text file is neither an object nor facts" "not a BPF ELF object, and not a facts file" "$top/README.md"
refused "a missing file" "No such file" "$TMP/missing.o"
timeout 10 "$PLAN" --profile bogus "$top/bpf/examples/count.o" 2> "$TMP/err" > /dev/null
[ $? -eq 2 ] && grep -q "unknown profile bogus (nicsim-generic, nicsim-soc; or a .lnic file)" "$TMP/err" &&
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
