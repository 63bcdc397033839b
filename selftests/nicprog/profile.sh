#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Profiles as data. Each shipped profile reads back from
# /sys/bus/nicsim/devices/nicsim<ID>/lnic exactly as nicprog-plan writes
# the same built-in text. A profile from a firmware file
# (nicsim/<name>.lnic under firmware_class.path) makes a device with its
# units, and an NF offloaded to it is planned for them. A file with an
# error, binary junk, an oversized file, a missing file, a name that is
# not a plain file name and a file naming another profile are refused with
# an errno and a kernel log line naming the cause, and create nothing.
# A device takes another profile later (its profile file) while no port
# has a program or map: the ports, ethtool and plans follow, and the
# oracle holds on the new cores; while one is bound, EBUSY and the cause.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_plan
nicprog_load || skip_all "cannot load nicprog/nicsim"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

fw_profiles profile
EX=$NICPROG_SRC/bpf/examples

tap_begin
for p in nicsim-generic nicsim-soc nicsim-nfp nicsim-pipeline nicsim-fpga; do
	ID=$(nicsim_new_id)
	echo "$ID 1 $p" > "$BUS/new_device" && _created_devs+=("$ID")
	"$PLAN" --profile "$p" --lnic > "$TMP/$p.user"
	# (a copy: cmp trusts sizes, and sysfs files claim 4096 bytes)
	cat "$BUS/devices/nicsim$ID/lnic" > "$TMP/$p.kernel"
	check "$p: the kernel's profile text equals nicprog-plan's" \
		cmp -s "$TMP/$p.user" "$TMP/$p.kernel"
	nicsim_del "$ID"
done

# nicsim-generic with four cores, as a file
"$PLAN" --lnic | sed 's/^lnic nicsim-generic$/lnic four/
	s/^unit core type core count 16 /unit core type core count 4 /' \
	> "$TMP/nicsim/four.lnic"
ID=$(nicsim_new_id)
P=nicsim${ID}p0
if echo "$ID 1 four" > "$BUS/new_device"; then
	_created_devs+=("$ID")
	tap_ok "a profile from a firmware file creates the device"
	expect_eq "the port shows its name" four "$(cat /sys/class/nicprog/$P/profile)"
	expect_eq "the port shows its cores" 4 "$(cat /sys/class/nicprog/$P/cores)"
	"$PLAN" --profile "$TMP/nicsim/four.lnic" --lnic > "$TMP/four.user"
	cat "$BUS/devices/nicsim$ID/lnic" > "$TMP/four.kernel"
	check "read back, it is the file's profile" \
		cmp -s "$TMP/four.user" "$TMP/four.kernel"
	ip link set "$P" up
	ip link set dev "$P" xdpoffload obj "$EX/count.o" sec xdp
	check "an NF offloaded to it is planned for its 4 cores" \
		grep -q "cores 4 of 4" "/sys/kernel/debug/nicprog/$P/plan"
	ip link set dev "$P" xdpoffload off
	nicsim_del "$ID"
else
	tap_fail "a profile from a firmware file creates the device"
fi

# Programs on two ports share the NIC's memory: with room in lmem for one
# count table (64 bytes of 100), the second port's plan finds it taken
# and puts its table in dram; once the first program goes, lmem is free
# for the next plan.
sed 's/^lnic four$/lnic tiny/; s/^region lmem size 64K /region lmem size 100 /' \
	"$TMP/nicsim/four.lnic" > "$TMP/nicsim/tiny.lnic"
ID=$(nicsim_new_id)
P0=nicsim${ID}p0 P1=nicsim${ID}p1
if echo "$ID 2 tiny" > "$BUS/new_device"; then
	_created_devs+=("$ID")
	region() { awk '$1 == "table" && $2 == "0" { r = $0; sub(/.*region /, "", r); sub(/,.*/, "", r); print r }' \
		"/sys/kernel/debug/nicprog/$1/plan"; }
	for p in $P0 $P1; do
		ip link set "$p" up
		plan_set "$p" cores 2
	done
	ip link set dev "$P0" xdpoffload obj "$EX/count.o" sec xdp
	expect_eq "one program: its table in lmem" lmem "$(region "$P0")"
	ip link set dev "$P1" xdpoffload obj "$EX/count.o" sec xdp
	expect_eq "a second port's program: lmem taken, its table in dram" \
		dram "$(region "$P1")"
	expect_eq "... the first's stays" lmem "$(region "$P0")"
	ip link set dev "$P0" xdpoffload off
	ip link set dev "$P1" xdpoffload off
	ip link set dev "$P1" xdpoffload obj "$EX/count.o" sec xdp
	expect_eq "the first gone, the next plan's table in lmem" lmem \
		"$(region "$P1")"
	ip link set dev "$P1" xdpoffload off
	nicsim_del "$ID"
else
	tap_fail "a profile with a small lmem creates the device"
fi

# Replacing a device's profile.
ID=$(nicsim_new_id)
P=nicsim${ID}p0
nicsim_new "$ID" 2
DEV=$BUS/devices/nicsim$ID
expect_eq "a device names its profile" nicsim-generic "$(cat "$DEV/profile")"
plan_set "$P" cores 16
plan_set "$P" engine-share csum:8 engine-share crypto:12
expect_eq "sysfs plan_engine_share: a line per engine type" \
	"csum 8 crc 16 hash 16 crypto 12" \
	"$(xargs < "/sys/class/nicprog/$P/plan_engine_share")"
mark=$(kmsg_mark)
check "it takes another" sh -c "echo nicsim-soc > $DEV/profile"
expect_eq "the device names it" nicsim-soc "$(cat "$DEV/profile")"
expect_eq "every port names it" "nicsim-soc nicsim-soc" \
	"$(cat /sys/class/nicprog/nicsim${ID}p0/profile /sys/class/nicprog/nicsim${ID}p1/profile | xargs)"
expect_eq "the ports have its cores" 8 "$(cat "/sys/class/nicprog/$P/cores")"
expect_eq "a plan_cores more than those is reset" 0 "$(cat "/sys/class/nicprog/$P/plan_cores")"
expect_eq "its one engine type keeps its share" "crypto 12" \
	"$(xargs < "/sys/class/nicprog/$P/plan_engine_share")"
check "the kernel log says csum's share was reset" grep -q \
	"$P: nicprog: engine share of csum reset to 16: profile nicsim-soc has no such engine" \
	<<< "$(kmsg_since "$mark")"
plan_set "$P" engine-share crypto:16
expect_eq "ethtool's firmware version is the profile" nicsim-soc \
	"$(ethtool -i "$P" | awk '$1 == "firmware-version:" { print $2 }')"
"$PLAN" --profile nicsim-soc --lnic > "$TMP/soc.user"
cat "$DEV/lnic" > "$TMP/soc.kernel"
check "its text reads back" cmp -s "$TMP/soc.user" "$TMP/soc.kernel"
check "ethtool counts its 8 cores" sh -c \
	"ethtool -S $P | grep -q '^ *core7_packets:' && ! ethtool -S $P | grep -q '^ *core8_packets:'"
ip link set "$P" up
ip link set dev "$P" xdpoffload obj "$EX/count.o" sec xdp
check "an NF is planned for its cores" \
	grep -q "cores 8 of 8" "/sys/kernel/debug/nicprog/$P/plan"
n=$(dmesg | wc -l)
check "with a program attached: EBUSY" bash -c \
	"! echo nicsim-nfp 2> $TMP/err > $DEV/profile && grep -q 'Device or resource busy' $TMP/err"
check "the kernel log says why" sh -c \
	"dmesg | tail -n +$((n + 1)) | grep -q 'nicsim$ID: nicprog: cannot take profile nicsim-nfp: 1 programs, 1 maps and 0 host buffers are bound to the NIC'"
expect_eq "the profile stays" nicsim-soc "$(cat "$DEV/profile")"
ip link set dev "$P" xdpoffload off
# the program and its map are freed after the detach, asynchronously
retake() { echo nicsim-nfp > "$DEV/profile" 2>/dev/null; }
check "once they are freed, it takes another" wait_for 20 retake
expect_eq "the ports have its cores" 16 "$(cat "/sys/class/nicprog/$P/cores")"
check "an unknown profile: ENOENT, the profile stays" sh -c \
	"! echo nope > $DEV/profile 2>/dev/null && [ \$(cat $DEV/profile) = nicsim-nfp ]"
check "a firmware file's profile" sh -c "echo four > $DEV/profile"
expect_eq "the ports have its cores" 4 "$(cat "/sys/class/nicprog/$P/cores")"
# Loads and attaches racing replacements: each replacement either
# happens or is refused, each load sees one profile; nothing breaks.
Q=nicsim${ID}p1
ip link set "$Q" up
bg sh -c "for i in \$(seq 30); do
	ip link set dev $Q xdpoffload obj $EX/count.o sec xdp 2>/dev/null
	ip link set dev $Q xdpoffload off 2>/dev/null
done"
took=0
for i in $(seq 30); do
	for p in nicsim-generic nicsim-soc; do
		echo "$p" > "$DEV/profile" 2>/dev/null && took=$((took + 1))
		cat "/sys/class/nicprog/$P/profile" "/sys/class/nicprog/$P/cores" > /dev/null
	done
done
wait
tap_info "$took of 60 replacements taken while programs came and went"
check "replacements racing loads: no oops, no warning" \
	sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
nicsim_del "$ID"

oracle_nic reprofile nicsim-generic
echo nicsim-fpga > "$BUS/devices/nicsim$ID/profile"
out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$EX/count.o" "$IN" "$NF" "$OUT" \
	"$CAP" 3 300 2>&1)
rc=$?
FRAMES=300
oracle_equal "the oracle on the new profile's cores" "$out" "$rc"
check "the kernel log names the new profile" sh -c \
	"dmesg | grep -q 'nicsim$ID: profile: now nicsim-fpga'"

# refused DESC PROFILE ERRNO-TEXT LOG-TEXT
refused() {
	local id n before ok=1
	id=$(nicsim_new_id)
	n=$(dmesg | wc -l)
	before=$(ls "$BUS/devices" | wc -l)
	if echo "$id 1 $2" > "$BUS/new_device" 2> "$TMP/err"; then
		_created_devs+=("$id")
		tap_fail "$1: accepted"
		return
	fi
	grep -q "$3" "$TMP/err" || { tap_info "errno: $(cat "$TMP/err")"; ok=0; }
	dmesg | tail -n +$((n + 1)) | grep -qF -- "$4" ||
		{ tap_info "log: $(dmesg | tail -n +$((n + 1)))"; ok=0; }
	[ "$(ls "$BUS/devices" | wc -l)" = "$before" ] ||
		{ tap_info "a device was left behind"; ok=0; }
	[ $ok = 1 ] && tap_ok "$1" || tap_fail "$1"
}

sed 's/ clock 800 service 150$/ service 150/; s/^lnic four$/lnic bad/' \
	"$TMP/nicsim/four.lnic" > "$TMP/nicsim/bad.lnic"
refused "a profile with an error: EINVAL, line and cause logged" bad \
	"Invalid argument" 'profile nicsim/bad.lnic: line 6: key "clock" missing'
head -c 4096 /bin/true > "$TMP/nicsim/junk.lnic"
refused "binary junk: EINVAL, the byte logged" junk "Invalid argument" \
	"profile nicsim/junk.lnic: line 1: byte 0x7f is not printable ASCII"
{ cat "$TMP/nicsim/four.lnic"; head -c 70000 /dev/zero | tr '\0' '#'; } |
	sed 's/^lnic four$/lnic big/' > "$TMP/nicsim/big.lnic"
refused "a profile over 64 KiB: EINVAL" big "Invalid argument" \
	"profile nicsim/big.lnic: profile of"
refused "no such profile: ENOENT, the shipped ones named" nope \
	"No such file" \
	"not shipped (nicsim-generic, nicsim-soc, nicsim-nfp, nicsim-pipeline, nicsim-fpga) and no firmware file nicsim/nope.lnic"
refused "a name with a path: EINVAL" ../nicsim/four "Invalid argument" \
	'profile "../nicsim/four": a name is 1..31 letters'
cp "$TMP/nicsim/four.lnic" "$TMP/nicsim/other.lnic"
refused "a file naming another profile: EINVAL" other "Invalid argument" \
	'profile nicsim/other.lnic: names itself "four", not "other"'
tap_end
