#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Public XDP programs nobody here wrote (tools/testing/corpus/build: what
# Debian ships -- libxdp1's objects, linux-source's samples/bpf and
# selftests/bpf XDP programs -- compiled unchanged), each XDP program of
# each object through ip link ... nicprog by name and the object as typed:
# - ip and the offline planner give the same verdict, and a refusal's
#   first line is nicprog's sentence, the planner's word for word (a way
#   out through the host, --partial / partial on, is then taken: both
#   again with it);
# - what loads runs under the oracle, verdicts, bytes and maps equal to
#   the same object's on the host (BPF_PROG_TEST_RUN), with the entries
#   the program's own tool would make (tools/testing/corpus/entries);
# - as typed, ip and the planner take the same program, or refuse alike.
# The summary lines are the table in Documentation/nicprog/offload.rst.
# CORPUS_ONLY (an extended regular expression) picks objects by path;
# CORPUS_FRAMES (2000) the frames the oracle sends each program.
. "$(dirname "$0")/lib.sh"
require_root_tools
. "$(dirname "$0")/adapt_lib.sh"

CORPUS=${CORPUS:-$NICPROG_SRC/build/corpus}
ENTRIES=$NICPROG_SRC/tools/testing/corpus/entries
[ -s "$CORPUS/index" ] || skip_all "no corpus in $CORPUS: run tools/testing/corpus/build"
FRAMES=${CORPUS_FRAMES:-2000}

tap_begin
# a file that no longer builds (a Debian update) would shrink the corpus
# unseen
check "every corpus file builds ($(wc -l < "$CORPUS/index") objects)" \
	test ! -s "$CORPUS/failed"
[ -s "$CORPUS/failed" ] && sed 's/^/#   /' "$CORPUS/failed"
oracle_nic corp nicsim-generic
named=0 accepted=0 partial=0 refused=0 differ=0 unrun=0 typed=0 typed_ok=0
# per origin: "named accepted refused differ unrun typed typed_ok"
declare -A by
count() {
	local -a c
	read -r -a c <<< "${by[$1]:-0 0 0 0 0 0 0}"
	c[$2]=$((c[$2] + 1))
	by[$1]="${c[*]}"
}

# first PREFIX FILE: the first line of FILE without PREFIX, as a cause:
# the way out through the host named alike (ip's partial on, the
# planner's --partial), no full stop
first() {
	head -n1 "$2" | sed -e "s|^$1||" -e 's/(--partial lets/(partial lets/' \
		-e 's/(partial on lets/(partial lets/' -e 's/\.$//'
}

# entries OBJ PROG: the table entries the program's own tool would make
# (tools/testing/corpus/entries), as the oracle takes them: a per-CPU
# value given to every possible CPU, @OUT the output port's ifindex
entries() {
	local e v list=() i
	for e in $(awk -v o="$1" -v p="$2" '$1 == o && $2 == p { $1 = $2 = ""; print }' "$ENTRIES"); do
		v=${e##*:}
		if [[ $v == *"*" ]]; then
			v=${v%"*"}
			e=${e%:*}:
			for ((i = 0; i < POSSIBLE_CPUS; i++)); do e+=$v; done
		fi
		list+=("$(out_entry "$e")")
	done
	echo "${list[*]}"
}

# try OBJ PROG [partial]: ip and the planner on PROG of OBJ; sets rc_ip,
# rc_plan, why_ip, why_plan
try() {
	local obj=$1 prog=$2 part=$3 popt=() iopt=()
	[ -n "$part" ] && popt=(--partial) iopt=(partial on)
	"$PLAN" "${popt[@]}" ${prog:+--prog "$prog"} "$CORPUS/$obj" \
		> "$TMP/plan" 2> "$TMP/plan.err"
	rc_plan=$?
	why_plan=$(first "nicprog-plan: \($CORPUS/$obj: \)\?" "$TMP/plan.err")
	# a BPF file system of its own: maps pinned by name (xdp-filter's)
	# are not the ones an earlier object pinned, with its counts
	ip netns exec "$NS" sh -c 'mount -t bpf bpf /sys/fs/bpf && exec "$@"' \
		sh "$IP" link set dev "$NF" nicprog obj "$CORPUS/$obj" \
		${prog:+program "$prog"} "${iopt[@]}" > "$TMP/ip" 2>&1
	rc_ip=$?
	why_ip=$(first "Error: \(nicprog: \)\?\($CORPUS/$obj: \)\?" "$TMP/ip")
}

# same_verdict WHAT: both accept, or both refuse and say the same first
same_verdict() {
	if [ $rc_ip -eq 0 ] && [ $rc_plan -eq 0 ]; then
		tap_ok "$1: ip and the planner both accept it"
	elif [ $rc_ip -ne 0 ] && [ $rc_plan -ne 0 ] &&
	     [ "$why_ip" = "$why_plan" ] && [ -n "$why_ip" ]; then
		tap_ok "$1: refused alike: $why_ip"
	elif [ $rc_ip -ne 0 ] && [ $rc_plan -ne 0 ] &&
	     [[ $why_ip == "the verifier refused program "* ]] &&
	     [[ $why_plan == *"(the kernel's verifier refuses the program)" ]]; then
		# the verifier's words and the planner's checker's differ
		tap_ok "$1: refused alike by the verifier: $why_ip; $why_plan"
	else
		tap_info "ip (rc $rc_ip): $(head -n3 "$TMP/ip" | tr '\n' '|')"
		tap_info "planner (rc $rc_plan): $(head -n1 "$TMP/plan.err")"
		tap_fail "$1: ip and the planner give the same verdict"
	fi
}

while read -r origin obj; do
	[[ $obj =~ ${CORPUS_ONLY:-.} ]] || continue
	"$PLAN" --programs "$CORPUS/$obj" > "$TMP/progs" 2>&1 ||
		{ tap_fail "$obj: the planner lists its programs"; continue; }
	while read -r prog _ kind; do
		[ "$kind" = xdp ] || continue
		named=$((named + 1))
		count "$origin" 0
		what="$origin $obj $prog"
		try "$obj" "$prog"
		if [ $rc_ip -ne 0 ] && [ $rc_plan -ne 0 ] &&
		   grep -q -- '(partial lets the host' <<< "$why_plan"; then
			try "$obj" "$prog" partial
			what="$what (partial)"
			[ $rc_ip -eq 0 ] && partial=$((partial + 1))
		fi
		same_verdict "$what"
		if [ $rc_ip -ne 0 ]; then
			refused=$((refused + 1))
			count "$origin" 2
			continue
		fi
		accepted=$((accepted + 1))
		count "$origin" 1
		# maps pinned by name (xdp-filter's) want a BPF file system
		# where the host copy is loaded: one of this namespace's own
		read -r -a ent <<< "$(entries "$obj" "$prog")"
		out=$(ORACLE_ATTACHED=1 ORACLE_PROG=$prog ip netns exec "$NS" \
		      sh -c 'mount -t bpf bpf /sys/fs/bpf && exec "$@"' sh \
		      "$SELFDIR/oracle" "$CORPUS/$obj" "$IN" "$NF" "$OUT" \
		      "$CAP" "$named" "$FRAMES" "${ent[@]}" 2>&1)
		rc=$?
		# with the tool's entries: which verdicts the frames met
		[ ${#ent[@]} -eq 0 ] ||
			print_matching "^# $FRAMES frames: " "$out"
		[ $rc -ne 0 ] &&
			grep -E '^(# map|# insn|oracle:|not ok)' <<< "$out" |
			head -n 6 | sed 's/^/#   /'
		[ $rc -eq 1 ] && differ=$((differ + 1)) && count "$origin" 3
		host=$(sed -n "s|^oracle: cannot load [^ ]* on the host: $CORPUS/$obj: ||p" <<< "$out")
		if [ $rc -eq 2 ] && [ -n "$host" ]; then
			# only the NIC creates only the maps the program uses:
			# the host (libbpf) creates them all, and refuses
			unrun=$((unrun + 1))
			count "$origin" 4
			tap_info "$what: no oracle: the host refuses the object itself ($host)"
		else
			oracle_equal "$what" "$out" "$rc"
		fi
		nip link set dev "$NF" nicprog off
	done < "$TMP/progs"
	# as typed: the same program taken, or the same refusal
	typed=$((typed + 1))
	count "$origin" 5
	try "$obj" ""
	same_verdict "$origin $obj as typed"
	if [ $rc_ip -eq 0 ]; then
		typed_ok=$((typed_ok + 1))
		count "$origin" 6
		# (the kernel keeps 15 characters of a program's name)
		chosen=$(sed -n 's/^object: .*, program \([^,]*\),.*/\1/p' "$TMP/plan")
		check "$origin $obj as typed: ip runs the program the planner chose" \
			grep -q "nicprog/${chosen:0:15} " <<< "$(nip link show dev "$NF")"
		nip link set dev "$NF" nicprog off
	fi
done < "$CORPUS/index"
cleanup
tap_info "corpus: $named programs named: $accepted accepted ($partial of them with partial on), $refused refused with nicprog's sentence, $differ with oracle differences, $unrun the host itself refuses (no reference)"
tap_info "corpus: $typed objects as typed: $typed_ok accepted"
for o in "${!by[@]}"; do
	read -r n a r d u t k <<< "${by[$o]}"
	tap_info "corpus: $o: $n programs named: $a accepted, $r refused, $d with oracle differences, $u without a host reference; $t objects as typed: $k accepted"
done
tap_end
