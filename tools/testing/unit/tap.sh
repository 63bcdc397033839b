# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# TAP for the unit suites' shell scripts (sourced): ok/nok number the
# points, check runs a command as one, expect_eq compares, jpy evaluates a
# Python expression of the JSON on stdin as d. $fail is the exit status.
# shellcheck disable=SC2034 # $fail is the sourcing script's
k=0 fail=0
ok() { k=$((k + 1)); echo "ok $k $*"; }
# shellcheck disable=SC2034
nok() { k=$((k + 1)); fail=1; echo "not ok $k $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else echo "# $1: expected '$2', got '$3'"; nok "$1"; fi
}
jpy() { /usr/bin/python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
