#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The streaming-ring device of a port, /dev/nicprog/<ifname>: ring_test
# drives it through io_uring (pipes created, mapped, isolated, bounded and
# destroyed; hostile commands and mappings refused with nothing changed; a
# seeded fuzzer), then a file with a pipe mapped outlives its port: once
# the device is deleted its commands fail with ENODEV, the mapping still
# reads back and nothing breaks.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/ring_test" ] || skip_all "ring_test not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

SEED=${RING_SEED:-7}
ROUNDS=${RING_ROUNDS:-20000}
TMP=$(mktemp -d /tmp/nicprog-ring.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

tap_begin
ID=$(nicsim_new_id)
P=nicsim${ID}p0
nicsim_new "$ID" 1
check "the port's device node appears" wait_for 10 test -c "/dev/nicprog/$P"
"$SELFDIR/ring_test" "$P" "$SEED" "$ROUNDS" > "$TMP/out" 2>&1
rc=$?
sed 's/^/# /' "$TMP/out"
expect_eq "ring_test $P $SEED $ROUNDS: exit status" 0 "$rc"
check "ring_test: all 9 cases pass" \
	grep -q "^# Totals: pass:9 fail:0" "$TMP/out"
expect_eq "no pipe left once the files are closed" 0 \
	"$(cat "/sys/class/nicprog/$P/statistics/ring_pipes")"

# The port goes while a file is open and a pipe mapped.
mkfifo "$TMP/in"
"$SELFDIR/ring_test" --hold "$P" < "$TMP/in" > "$TMP/hold" 2>&1 &
HPID=$!
exec 3> "$TMP/in"
holding() { grep -q "^# holding" "$TMP/hold"; }
check "a file holds a mapped pipe" wait_for 10 holding
check "the device is deleted under it" nicsim_del "$ID"
echo go >&3
exec 3>&-
gone() { ! kill -0 "$HPID" 2>/dev/null; }
check "the holder finishes" wait_for 20 gone
kill "$HPID" 2>/dev/null
wait "$HPID"
sed 's/^/# /' "$TMP/hold"
check "its commands failed with ENODEV, its mapping read back" \
	grep -q "^ok 1 after the port went" "$TMP/hold"
check "the device node is gone" test ! -e "/dev/nicprog/$P"
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
