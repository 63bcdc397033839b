#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netlink spec, the uapi header and the kernel's policy tables agree
# (tools/ynl/ynl-gen.py --check), the check catches a drift in either
# direction, and every attribute the spec names is used by the kernel
# family and by the CLI.
set -uo pipefail
top=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$top"
GEN=tools/ynl/ynl-gen.py
SPEC=Documentation/netlink/specs/nicprog.yaml
UAPI=include/uapi/linux/nicprog.h
PY=/usr/bin/python3
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fail=1; echo "not ok $n $*"; }
echo "TAP version 13"
if ! $PY -c 'import yaml' 2>/dev/null; then
	echo "1..0 # SKIP python3-yaml not installed"
	exit 4
fi
if out=$($PY $GEN $SPEC --uapi $UAPI --kernel kernel --check 2>&1); then
	ok "spec, uapi header and kernel/genl_gen.[ch] agree"
else
	echo "$out" | sed 's/^/# /'
	nok "spec, uapi header and kernel/genl_gen.[ch] agree (run $GEN $SPEC --uapi $UAPI --kernel kernel)"
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/kernel"
cp kernel/genl_gen.c kernel/genl_gen.h "$T/kernel/"
# drifted DESC WHAT SPEC HEADER KDIR: the check fails on these files and
# says WHAT (a pattern) differs
drifted() {
	if $PY $GEN "$3" --uapi "$4" --kernel "$5" --check > "$T/out" 2>&1; then
		nok "$1"
	elif grep -q "$2" "$T/out"; then
		ok "$1"
	else
		sed 's/^/# /' "$T/out"
		nok "$1"
	fi
}
sed '/NICPROG_A_DEV_CORES_FREE,/d' $UAPI > "$T/uapi.h"
drifted "a header that lost an attribute fails the check" \
	"differs from the spec" $SPEC "$T/uapi.h" "$T/kernel"
sed 's/NICPROG_STEER_KEY,/NICPROG_STEER_KEY,\n\tNICPROG_STEER_RANDOM,/' $UAPI > "$T/uapi.h"
drifted "an enum the spec mirrors, changed in the header, fails the check" \
	"enum nicprog_steer" $SPEC "$T/uapi.h" "$T/kernel"
sed 's/NLA_POLICY_MAX(NLA_U8, 4)/{ .type = NLA_U8, }/' kernel/genl_gen.c \
	> "$T/kernel/genl_gen.c"
drifted "a policy edited by hand fails the check" \
	"genl_gen.c differs from the spec" $SPEC $UAPI "$T/kernel"
cp kernel/genl_gen.c "$T/kernel/"
awk '{ print } /^        name: prog-id$/ && !d {
	getline; print; print "      -\n        name: new-one\n        type: u32"; d = 1 }' \
	$SPEC > "$T/spec.yaml"
drifted "a spec that grew an attribute fails the check until regenerated" \
	"NICPROG_A_DEV_NEW_ONE" "$T/spec.yaml" $UAPI "$T/kernel"

# every attribute: the kernel puts or reads it, the CLI shows or sends it
for a in $(sed -n '/begin generated/,/end generated/p' $UAPI |
	   grep -oE '\bNICPROG_A_[A-Z_]+' | grep -vE '_(MAX|PAD)$' | sort -u); do
	k=$(grep -c "\b$a\b" kernel/genl.c)
	c=$(cat tools/nicprog/*.c tools/lib/nicprog/*.c | grep -c "\b$a\b")
	if [ "$k" -gt 0 ] && [ "$c" -gt 0 ]; then
		ok "$a is used by the kernel and by the CLI"
	else
		nok "$a is used by the kernel ($k) and by the CLI ($c)"
	fi
done
echo "1..$n"
exit $fail
