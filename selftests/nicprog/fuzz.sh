#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Seeded fuzzers of every entry point a local user has into the kernel
# side: the nicprog netlink family (nl_fuzz: every operation, attributes
# of every type and size, malformed nests, profile text), the bus and
# sysfs files (random writes: device ids, port counts, links, profiles --
# shipped, missing, and firmware files with damaged text -- rates, plan
# settings), and the ring device (ring_test's fuzzer: sizes, offsets,
# indices, states). After each, and with every device it made deleted:
# no oops or warning, and the slab objects allocated through nicprog or
# nicsim are back to what they were (slub_debug=U, as make check boots
# the guest). The seed changes every run and is printed; FUZZ_SEED=N
# replays a run.
. "$(dirname "$0")/lib.sh"
require_root_tools
for t in nl_fuzz ring_test; do
	[ -x "$SELFDIR/$t" ] || skip_all "$t not built"
done
require_plan
nicprog_load || skip_all "cannot load nicprog/nicsim"
fw_profiles fuzz

SEED=${FUZZ_SEED:-$(($(date +%s%N) % 1000000007))}
NL_ROUNDS=${NL_ROUNDS:-30000}
SYSFS_ROUNDS=${SYSFS_ROUNDS:-200}
RING_ROUNDS=${RING_ROUNDS:-10000}
FIRST=61000		# the devices the sysfs fuzzer may make: 61000..61031

tap_begin
tap_info "seed $SEED (FUZZ_SEED=$SEED replays this run)"

no_oops() {
	check "$1: no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
}

# --- netlink: two NICs, one running a program, one free to reflash ---
base=$(slab_ours)
tap_info "slab objects through nicprog and nicsim: $base"
topipe_nic || { echo "not ok: cannot set up a topipe NIC" >&2; exit 1; }
B=$(nicsim_new_id)
nicsim_new "$B" 2
"$SELFDIR/nl_fuzz" "$SEED" "$NL_ROUNDS" \
	"$NICPROG_SRC/drivers/nicsim/profiles/nicsim-generic.lnic" \
	"$NF" "$IN" "nicsim${B}p0" "nicsim${B}p1" lo > "$TMP/nl" 2>&1
rc=$?
sed 's/^/# /' "$TMP/nl"
expect_eq "nl_fuzz: exit status" 0 "$rc"
check "nl_fuzz: every request answered, the family still right" \
	grep -q "^# Totals: pass:2 fail:0" "$TMP/nl"
ip link set dev "$NF" xdpoffload off
nicsim_del "$NF_ID"
nicsim_del "$B"
no_oops "netlink"
slab_back "netlink" "$base"

# --- the bus and sysfs, and profiles from damaged firmware files ---
/usr/bin/python3 - "$SEED" "$NICPROG_SRC/drivers/nicsim/profiles/nicsim-generic.lnic" \
	"$TMP/nicsim" <<'PY'
import random, sys
rng = random.Random(int(sys.argv[1]))
text = open(sys.argv[2]).read().replace('lnic nicsim-generic', 'lnic fz%d')
for i in range(8):
    t = bytearray((text % i).encode())
    for _ in range(rng.randrange(0, 4)):
        at = rng.randrange(len(t))
        t[at] = rng.choice(b'0123456789 #=,\nxyz') if rng.random() < .8 \
            else rng.randrange(256)
    open('%s/fz%d.lnic' % (sys.argv[3], i), 'wb').write(bytes(t))
PY
RANDOM=$SEED
profiles=(nicsim-generic nicsim-soc nicsim-nfp nicsim-fpga fz0 fz1 fz2 fz3
	  fz4 fz5 fz6 fz7 nosuch ../fz0 "")
id() { echo $((FIRST + RANDOM % 32)); }
# bytes: N seeded bytes, no capital letters (the log check looks for some)
bytes() {
	local i c s=
	for ((i = 0; i < $1; i++)); do
		c=$((RANDOM % 256))
		[ $c -ge 65 ] && [ $c -le 90 ] && c=$((c + 32))
		[ $c -eq 0 ] && c=1
		s+=$(printf "\\x$(printf %02x $c)")
	done
	printf '%s' "$s"
}
value() {
	case $((RANDOM % 12)) in
	0) echo "$(id) $((RANDOM % 5)) ${profiles[RANDOM % 15]}" ;;
	1) echo "$(id) $((RANDOM % 20))" ;;
	2) echo "$(id):$((RANDOM % 6)) $(id):$((RANDOM % 6))" ;;
	3) echo "$(id)" ;;
	4) echo "${profiles[RANDOM % 15]}" ;;
	5) echo $((RANDOM * RANDOM * RANDOM)) ;;
	6) echo "-$RANDOM" ;;
	7) printf '0x%x' $((RANDOM * RANDOM)) ;;
	8) echo "$(id) $(id) $(id) $(id)" ;;
	9) printf '%*s' $((RANDOM % 5000)) x | tr ' ' 9 ;;
	10) echo "${profiles[RANDOM % 4]} 1 2" ;;
	*) bytes $((RANDOM % 40)) ;;
	esac
}
# fitting FILE: a value of the kind FILE takes, in range or out
fitting() {
	case ${1##*/} in
	new_device) echo "$(id) $((RANDOM % 5)) ${profiles[RANDOM % 15]}" ;;
	del_device) echo "$(id)" ;;
	*link_device) echo "$(id):$((RANDOM % 6)) $(id):$((RANDOM % 6))" ;;
	profile) echo "${profiles[RANDOM % 15]}" ;;
	offered_rate) echo $((RANDOM % 3 ? RANDOM * 37 : RANDOM * RANDOM * RANDOM)) ;;
	offered_end) echo 1 ;;
	*) echo $((RANDOM % 3)) ;;
	esac
}
base=$(slab_ours)
writes=0 taken=0
for ((r = 0; r < SYSFS_ROUNDS; r++)); do
	files=("$BUS/new_device" "$BUS/del_device" "$BUS/link_device"
	       "$BUS/unlink_device")
	for d in "$BUS"/devices/nicsim610[0-3][0-9]; do
		[ -d "$d" ] || continue
		files+=("$d/profile" "$d/offered_rate" "$d/offered_end")
	done
	f=${files[RANDOM % ${#files[@]}]}
	if ((RANDOM % 3)); then v=$(fitting "$f"); else v=$(value); fi
	writes=$((writes + 1))
	timeout 20 sh -c 'printf "%s" "$1" > "$2"' sh "$v" "$f" 2> /dev/null
	rc=$?
	[ $rc -eq 0 ] && taken=$((taken + 1))
	[ $rc -eq 124 ] && { tap_info "round $r: a write to $f hung"; break; }
done
tap_info "sysfs: $writes writes, $taken taken, $(ls -d "$BUS"/devices/nicsim610[0-3][0-9] 2> /dev/null | wc -l) devices left"
check "sysfs: every write returned" test "$r" -eq "$SYSFS_ROUNDS"
for d in "$BUS"/devices/nicsim610[0-3][0-9]; do
	[ -d "$d" ] && echo "${d##*nicsim}" > "$BUS/del_device"
done
no_oops "sysfs"
slab_back "sysfs" "$base"

# --- the ring device: ring_test's fuzzer, with this run's seed ---
base=$(slab_ours)
ID=$(nicsim_new_id)
nicsim_new "$ID" 1
"$SELFDIR/ring_test" "nicsim${ID}p0" "$SEED" "$RING_ROUNDS" > "$TMP/ring" 2>&1
rc=$?
grep "fuzz" "$TMP/ring" | sed 's/^/# /'
# what failed, beside the verdict (a CI log keeps the lines near it)
[ "$rc" -eq 0 ] || grep -v "^ok " "$TMP/ring" | tail -n 12 | sed 's/^/# ring_test: /'
expect_eq "ring_test's fuzzer: exit status (seed $SEED)" 0 "$rc"
check "ring_test: all cases pass" grep -q "^# Totals: pass:10 fail:0" "$TMP/ring"
# a command in flight when ring_test exits holds its file (and so its
# pipes) until the command completes: a WAIT ends within its timeout,
# NICPROG_WAIT_TIMEOUT_MAX (10 s) at most
pipes_gone() { [ "$(npstat "nicsim${ID}p0" ring_pipes)" = 0 ]; }
wait_for 12 pipes_gone
expect_eq "no pipe left" 0 "$(npstat "nicsim${ID}p0" ring_pipes)"
nicsim_del "$ID"
no_oops "rings"
slab_back "rings" "$base"
tap_end
