#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink spec, the uapi headers and the kernel's policy tables agree
# as Linux's own generator makes them (tools/ynl/ynl-gen --check), the
# check catches a drift in either direction, and every attribute the spec
# names is used by the kernel family and by the CLI.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
GEN=tools/ynl/ynl-gen
SPEC=Documentation/netlink/specs/nicprog.yaml
UAPI=include/uapi/linux/nicprog_nl.h
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n $*"; }
echo "TAP version 13"
if ! /usr/bin/python3 -c 'import yaml, jsonschema' 2>/dev/null; then
	echo "1..0 # SKIP python3-yaml or python3-jsonschema not installed"
	exit 4
fi
if ! YNL=$(tools/testing/deps --print-ynl 2>/dev/null) ||
   [ ! -f "$YNL/tools/net/ynl/ynl-gen-c.py" ]; then
	echo "1..0 # SKIP Linux's YNL generator not unpacked (tools/testing/deps)"
	exit 4
fi
export NICPROG_YNL=$YNL
if out=$($GEN --check 2>&1); then
	ok "spec, uapi headers and kernel/genl_gen.[ch] agree (Linux's ynl-gen-c.py)"
else
	echo "$out" | sed 's/^/# /'
	nok "spec, uapi headers and kernel/genl_gen.[ch] agree (regenerate: $GEN)"
fi
if head -4 kernel/genl_gen.c | grep -q "YNL-GEN kernel source" &&
   head -4 $UAPI | grep -q "YNL-GEN uapi header"; then
	ok "the generated files are ynl-gen-c.py's own"
else
	nok "the generated files are ynl-gen-c.py's own"
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/kernel" "$T/linux"
cp kernel/genl_gen.c kernel/genl_gen.h "$T/kernel/"
cp $UAPI include/uapi/linux/nicprog.h "$T/linux/"
# drifted DESC WHAT SPEC: the check fails on $T's files and says WHAT
# (a pattern) differs
drifted() {
	if $GEN --check "$3" "$T/linux/nicprog_nl.h" "$T/kernel" > "$T/out" 2>&1; then
		nok "$1"
	elif grep -q "$2" "$T/out"; then
		ok "$1"
	else
		sed 's/^/# /' "$T/out"
		nok "$1"
	fi
	cp kernel/genl_gen.c kernel/genl_gen.h "$T/kernel/"
	cp $UAPI include/uapi/linux/nicprog.h "$T/linux/"
}
sed -i '/NICPROG_A_DEV_CORES_FREE,/d' "$T/linux/nicprog_nl.h"
drifted "a header that lost an attribute fails the check" \
	"nicprog_nl.h differs from the spec" $SPEC
sed -i 's/NICPROG_STEER_KEY,/NICPROG_STEER_KEY,\n\tNICPROG_STEER_RANDOM,/' "$T/linux/nicprog.h"
drifted "an enum the spec mirrors, changed in the header, fails the check" \
	"enum nicprog_steer" $SPEC
sed -i 's/NLA_POLICY_MAX(NLA_U8, 4)/{ .type = NLA_U8, }/' "$T/kernel/genl_gen.c"
drifted "a policy edited by hand fails the check" \
	"genl_gen.c differs from the spec" $SPEC
awk '{ print } /^        name: prog-id$/ && !d {
	getline; print; print "      -\n        name: new-one\n        type: u32"; d = 1 }' \
	$SPEC > "$T/spec.yaml"
drifted "a spec that grew an attribute fails the check until regenerated" \
	"NICPROG_A_DEV_NEW_ONE" "$T/spec.yaml"

# every attribute: the kernel puts or reads it, the CLI shows or sends it
# -- by its NICPROG_A_ name through libmnl, or through the generated
# library (tools/lib/ynl) as the member or setter of its name
# (nicprog_stats_get_rsp's wire_rx_packets, ..._req_set_ifname())
ynl_files=$(grep -l '"nicprog-user.h"' tools/nicprog/*.c)
/usr/bin/python3 - "$SPEC" > "$T/fields" <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
for s in spec['attribute-sets']:
    pfx = 'NICPROG_A_' + s['name'].upper().replace('-', '_') + '_'
    for a in s['attributes']:
        print(pfx + a['name'].upper().replace('-', '_'),
              a['name'].replace('-', '_'))
PY
for a in $(grep -oE '\bNICPROG_A_[A-Z_]+' $UAPI | grep -vE '_(MAX|PAD)$' |
	   sort -u); do
	k=$(cat kernel/genl*.c | grep -c "\b$a\b")
	c=$(cat tools/nicprog/*.c tools/lib/nicprog/*.c | grep -c "\b$a\b")
	f=$(awk -v a="$a" '$1 == a { print $2 }' "$T/fields")
	if [ "$c" = 0 ] && [ -n "$f" ] && [ -n "$ynl_files" ]; then
		c=$(cat $ynl_files |
		    grep -cE "(->|\.|COUNTER\()$f\b|_set_$f\(|_present\.${f}(_len)?\b")
	fi
	if [ "$k" -gt 0 ] && [ "$c" -gt 0 ]; then
		ok "$a is used by the kernel and by the CLI"
	else
		nok "$a is used by the kernel ($k) and by the CLI ($c)"
	fi
done
echo "1..$n"
exit $fail
