#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A NIC is one device: its ports share one BPF offload device, as nfp's
# and netdevsim's do. A map created for one port serves a program loaded
# for its sibling and attached there (bpftool, ip), and the program counts
# exactly the frames sent to it; one program attached to both ports runs
# on each; a program or map of another NIC is refused, naming the cause.
# The NIC is one devlink instance, the driver's, registered before the
# NIC registers with nicprog (stock devlink): the driver's dev info, ports
# (one per netdev), "profile" parameter and reload -- refused while a
# program is bound (nicprog's check) and for an unknown profile -- beside
# what nicprog adds: resources whose occupancy is what the plans hold (a
# table two plans share counted once) and the "cores" health reporter
# that a flood into a one-core slow program trips, with its dump and
# diagnosis. The driver lists the plan shapes it runs: auto plans among
# them, and another is refused when set. Removing the NIC under
# pinned programs and maps leaves them orphaned (ENODEV), as the kernel
# orphans any device's, with no oops.
. "$(dirname "$0")/lib.sh"
require_root_tools
command -v bpftool >/dev/null || skip_all "bpftool not installed"
command -v devlink >/dev/null || skip_all "devlink (iproute2) not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"

COUNT=$NICPROG_SRC/bpf/examples/count.o
ID=$(nicsim_new_id)
P=nicsim${ID}p0 Q=nicsim${ID}p1
nicsim_new "$ID" 2 || skip_all "cannot create a nicsim device"
ID2=$(nicsim_new_id)
R=nicsim${ID2}p0
nicsim_new "$ID2" 1 || skip_all "cannot create a second nicsim device"
PIN=/sys/fs/bpf/nicprog-nic-$ID
mkdir -p "$PIN"
TMP=$(mktemp -d /tmp/nicprog-nic.XXXXXX)
trap 'cleanup; rm -rf "$PIN" "$TMP"' EXIT
echo "$ID:0 $ID:1" > "$BUS/link_device"
for p in $P $Q; do
	sysctl -qw "net.ipv6.conf.$p.disable_ipv6=1"
	ip link set "$p" up
done

# counts_of CLASS: "packets bytes" of count.o's entry for CLASS (0: IPv4)
counts_of() {
	bpftool -j map lookup pinned "$PIN/counts" key "$1" 0 0 0 |
		python3 -c 'import json, sys
v = json.load(sys.stdin)["value"]
b = bytes(int(x, 16) for x in v)
print(int.from_bytes(b[0:8], "little"), int.from_bytes(b[8:16], "little"))'
}
# ping_to FROM TO N: N echo requests from port FROM to port TO's MAC
ping_to() {
	ip addr flush dev "$1"
	ip addr add 10.78.0.1/24 dev "$1"
	ip neigh replace 10.78.0.2 lladdr "$(cat "/sys/class/net/$2/address")" \
		dev "$1" nud permanent
	ping -q -c "$3" -i 0.01 -W 0.2 -I "$1" 10.78.0.2 > /dev/null 2>&1
	ip addr flush dev "$1"
}

DL=nicsim/nicsim$ID
CLI=$NICPROG_SRC/tools/nicprog/nicprog
# jpy EXPR: EXPR of the JSON on stdin, as d
jpy() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
# res NAME FIELD [DEV]: a devlink resource's size or occ ($DL's)
res() {
	local dl=${3:-$DL}
	devlink -j resource show "$dl" | jpy "[r['$2'] for r in d['resources']['$dl'] if r['name'] == '$1'][0]"
}
# plan_mat PORT: the MAT stages the port's plan holds (debugfs), 0 for none
plan_mat() { awk '$1 == "mat:" && $3 == "stages," { m = $2 } END { print m + 0 }' "/sys/kernel/debug/nicprog/$1/plan"; }
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

tap_begin
mark=$(dmesg | wc -l)
expect_eq "devlink: one instance for the NIC" 1 \
	"$(devlink dev show | grep -c "^$DL\$")"
devlink -j dev info "$DL" > "$TMP/info.json"
expect_eq "devlink dev info: driver, serial, the profile running" \
	"nicsim nicsim$ID nicsim-generic" \
	"$(jpy "d['info']['$DL']['driver'], d['info']['$DL']['serial_number'], d['info']['$DL']['versions']['running']['fw.profile']" < "$TMP/info.json" | tr -d "(),'")"
expect_eq "devlink port show: a physical port per netdev" \
	"$DL/0 eth $P physical 0 $DL/1 eth $Q physical 1" \
	"$(devlink -j port show | jpy "' '.join('%s %s %s %s %s' % (k, v['type'], v['netdev'], v['flavour'], v['port']) for k, v in sorted(d['port'].items()) if k.startswith('$DL/'))")"
expect_eq "devlink resource show: 16 cores, 4 MAT stages, 1 GiB of dram, none held" \
	"16 0 4 0 1073741824 0" \
	"$(res cores size) $(res cores occ) $(res mat_stages size) $(res mat_stages occ) $(res region_dram size) $(res region_dram occ)"
expect_eq "and each accelerator pool of the profile" "1 16 2 2" \
	"$(res accel_csum size) $(res accel_crc size) $(res accel_hash size) $(res accel_crypto size)"
# each port's plan gets eight of nicsim-generic's sixteen cores
for p in $P $Q; do plan_set "$p" cores 8; done
check "a map created for port $P" bpftool map create "$PIN/counts" \
	type array key 4 value 16 entries 4 name counts dev "$P"
check "serves a program loaded for its sibling $Q" bpftool prog load \
	"$COUNT" "$PIN/prog" type xdp dev "$Q" map name counts pinned "$PIN/counts"
expect_eq "bpftool: the map is offloaded to $P" "$P" \
	"$(bpftool -j map show pinned "$PIN/counts" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("dev", {}).get("ifname"))')"
expect_eq "bpftool: the program to $Q" "$Q" \
	"$(bpftool -j prog show pinned "$PIN/prog" | python3 -c 'import json, sys; print(json.load(sys.stdin).get("dev", {}).get("ifname"))')"
check "the program attaches to $Q" ip link set dev "$Q" xdpoffload pinned "$PIN/prog"
ping_to "$P" "$Q" 20
sleep 0.3
# 20 echo requests of 98 bytes (Ethernet, IPv4, ICMP, 56 bytes of data)
expect_eq "the program on $Q counted the 20 frames sent to it in $P's map" \
	"20 1960" "$(counts_of 0)"
check "the same program attaches to $P as well" \
	ip link set dev "$P" xdpoffload pinned "$PIN/prog"
ping_to "$Q" "$P" 10
sleep 0.3
expect_eq "and counts there into the same map" "30 2940" "$(counts_of 0)"
p_cores=$(awk '$1 == "shape" { print $6 }' "/sys/kernel/debug/nicprog/$P/plan" 2>/dev/null)
q_cores=$(awk '$1 == "shape" { print $6 }' "/sys/kernel/debug/nicprog/$Q/plan" 2>/dev/null)
expect_eq "each port's plan holds its own eight cores" "8 8" "$p_cores $q_cores"
expect_eq "devlink: the cores' occupancy is the plans'" 16 "$(res cores occ)"
tbytes=$("$CLI" -j stats dev "$Q" | jpy "d[0]['tables'][0]['bytes']")
region=$(awk '$1 == "table" && $3 == "counts:" { r = $0; sub(/.*region /, "", r); sub(/,.*/, "", r); print r }' "/sys/kernel/debug/nicprog/$Q/plan")
check "the table the two plans share counts once in region_$region ($tbytes bytes)" \
	test -n "$tbytes" -a "$(res "region_$region" occ)" = "$tbytes"
out=$(devlink dev reload "$DL" 2>&1)
check "reload with programs attached: refused, naming the cause" \
	grep -q "the NIC has a program or an offloaded map" <<< "$out"
ip link set dev "$P" xdpoffload off
ip link set dev "$Q" xdpoffload off
expect_eq "detached: nothing held" "0 0" "$(res cores occ) $(res mat_stages occ)"
check "router on $P" ip link set dev "$P" xdpoffload obj "$NICPROG_SRC/bpf/examples/router.o" sec xdp
mat=$(plan_mat "$P")
check "its plan holds MAT stages ($mat)" test "$mat" -gt 0
expect_eq "devlink: the MAT stages' occupancy is its plan's, and the cores'" \
	"$mat $(awk '$1 == "shape" { print $6 }' "/sys/kernel/debug/nicprog/$P/plan")" \
	"$(res mat_stages occ) $(res cores occ)"
ip link set dev "$P" xdpoffload off

# a slow program on one core, flooded: the health reporter trips
plan_set "$Q" cores 1
check "a slow program on one core of $Q" \
	ip link set dev "$Q" xdpoffload obj "$SELFDIR/progs/slow.o" sec xdp
ip addr add 10.78.0.1/24 dev "$P"
ip neigh replace 10.78.0.2 lladdr "$(cat "/sys/class/net/$Q/address")" \
	dev "$P" nud permanent
timeout 20 "$SELFDIR/udp_stream" flood 10.78.0.2 9 2 > /dev/null 2>&1
ip addr flush dev "$P"
reported() { [ "$(devlink -j health show "$DL" reporter cores | jpy "d['health']['$DL'][0]['error']")" -ge 1 ]; }
check "devlink health: reporter cores saw the overload" wait_for 5 reported
devlink -j health dump show "$DL" reporter cores > "$TMP/dump.json" 2>&1
check "its dump names the port, its stage and the plan's core" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
o = d['last_overload']
p = [x for x in d['plans'] if x['port'] == '$Q']
sys.exit(not (o['port'] == '$Q' and o['stage'] == 0 and o['frames'] > 0 and
	      len(p) == 1 and p[0]['cores'] == 1 and p[0]['core_stage'] == [0] and
	      len(d['cores']) == 16))" "$TMP/dump.json"
check "diagnose counts the frames dropped" sh -c \
	"devlink -j health diagnose $DL reporter cores | python3 -c 'import json, sys; sys.exit(not json.load(sys.stdin)[\"overload_frames\"] > 0)'"
ip link set dev "$Q" xdpoffload off
plan_set "$Q" cores 0

check "a program loaded for another NIC's port" \
	bpftool prog load "$COUNT" "$PIN/other" type xdp dev "$R"
out=$(ip link set dev "$Q" xdpoffload pinned "$PIN/other" 2>&1)
# from 6.3 the core refuses it before asking the driver (dev_xdp_attach)
why="program is offloaded to another device"
kernel_at_least 6 3 && why="Program bound to different device"
check "is refused on $Q, naming the cause" grep -q "$why" <<< "$out"
out=$(bpftool prog load "$COUNT" "$PIN/mixed" type xdp dev "$R" \
	map name counts pinned "$PIN/counts" 2>&1)
check "a map of another NIC is refused at load, naming the cause" \
	grep -q "offload device mismatch between prog and map" <<< "$out"
check "nothing is attached to either port" \
	sh -c "! ip link show dev $P | grep -q prog/xdp && ! ip link show dev $Q | grep -q prog/xdp"

# reload takes the profile the parameter names (on the other NIC, once
# the program loaded for it is gone)
rm -f "$PIN/other"
DL2=nicsim/nicsim$ID2
expect_eq "devlink param profile: the NIC's, for the next reload" nicsim-generic \
	"$(devlink -j dev param show "$DL2" name profile | jpy "d['param']['$DL2'][0]['values'][0]['value']")"
out=$(devlink dev reload "$DL2" netns 1 2>&1)
check "reload into a namespace: refused, naming the cause" \
	grep -q "ports stay in their namespaces" <<< "$out"
# the parameter takes a profile's name, never a path: refused when set
mark=$(kmsg_mark)
bad=0
for v in ../../../etc/passwd nicsim/four .hidden "a b"; do
	out=$(devlink dev param set "$DL2" name profile value "$v" cmode driverinit 2>&1) &&
		{ tap_info "param set profile \"$v\": taken"; bad=$((bad + 1)); continue; }
	grep -q "a profile name is 1..31 letters" <<< "$out" ||
		{ tap_info "param set profile \"$v\": $out"; bad=$((bad + 1)); }
done
expect_eq "devlink param profile: a path, a hidden name, a space refused when set, naming the rule" \
	0 "$bad"
expect_eq "... the parameter stays, and the kernel log is quiet" "nicsim-generic 0" \
	"$(devlink -j dev param show "$DL2" name profile | jpy "d['param']['$DL2'][0]['values'][0]['value']") $(dmesg | tail -n +$((mark + 1)) | wc -l)"
if kernel_at_least 6 3; then
	# devlink there wants a reload's ports gone (kernels.rst)
	devlink dev param set "$DL2" name profile value nicsim-soc cmode driverinit
	out=$(devlink dev reload "$DL2" 2>&1)
	check "reload on $(uname -r): refused, naming the cause" \
		grep -q "a reload must re-create the NIC's ports" <<< "$out"
	expect_eq "and the profile stays" nicsim-generic \
		"$(cat "$BUS/devices/nicsim$ID2/profile")"
	echo nicsim-soc > "$BUS/devices/nicsim$ID2/profile"
	regen() { [ "$(res cores size "$DL2")" = "$1" ]; }
	check "a profile taken through sysfs: the resources follow" wait_for 5 regen 8
	echo nicsim-generic > "$BUS/devices/nicsim$ID2/profile"
	check "and back" wait_for 5 regen 16
else
	devlink dev param set "$DL2" name profile value nicsim-soc cmode driverinit
	reload() { devlink dev reload "$DL2" 2>/dev/null; }
	check "reload with profile nicsim-soc" wait_for 20 reload
	expect_eq "the NIC runs it: sysfs, dev info, 8 cores" "nicsim-soc nicsim-soc 8" \
		"$(cat "$BUS/devices/nicsim$ID2/profile") $(devlink -j dev info "$DL2" | jpy "d['info']['$DL2']['versions']['running']['fw.profile']") $(res cores size "$DL2")"
	devlink dev param set "$DL2" name profile value nope cmode driverinit
	out=$(devlink dev reload "$DL2" 2>&1)
	check "an unknown profile: refused, naming the cause" grep -q "no such profile" <<< "$out"
	expect_eq "and the profile stays" nicsim-soc "$(cat "$BUS/devices/nicsim$ID2/profile")"
	echo nicsim-generic > "$BUS/devices/nicsim$ID2/profile"
	regen() { [ "$(res cores size "$DL2")" = 16 ]; }
	check "a profile taken through sysfs: the resources follow" wait_for 5 regen
	devlink dev param set "$DL2" name profile value nicsim-soc cmode driverinit
	check "a reload with the parameter as last applied keeps the NIC's profile" \
		devlink dev reload "$DL2"
	expect_eq "nicsim-generic stays" nicsim-generic "$(cat "$BUS/devices/nicsim$ID2/profile")"
fi

# The driver's capabilities: a NIC whose driver lists the plan shapes it
# runs -- here single and replicated, no pipelining -- is handed no other;
# heavy_hitter, whose "auto" plan is pipelined on a NIC that runs every
# shape, then gets one stage, and pipelining is refused when set.
ID3=$(nicsim_new_id)
nicsim_new "$ID3" 1
P3=nicsim${ID3}p0
stages() { sed -n 's/.*, stages \([0-9]*\)$/\1/p' "/sys/kernel/debug/nicprog/$P3/plan"; }
HH=$NICPROG_SRC/bpf/examples/heavy_hitter.o
ip link set dev "$P3" xdpoffload obj "$HH" sec xdp
check "every shape listed (plan_shapes 0): heavy_hitter's auto plan has stages" \
	test "$(stages)" -gt 1
out=$(echo 0x6 2>&1 > "$BUS/devices/nicsim$ID3/plan_shapes")
check "the capability changes only while no port has a plan" \
	test "$(($(cat "$BUS/devices/nicsim$ID3/plan_shapes")))" = 0
ip link set dev "$P3" xdpoffload off
echo 0x6 > "$BUS/devices/nicsim$ID3/plan_shapes"
expect_eq "plan_shapes in sysfs: what the driver runs, auto among them" \
	"auto single replicated" "$(cat "/sys/class/nicprog/$P3/plan_shapes")"
out=$(plan_set "$P3" shape pipelined 2>&1)
check "pipelined, which the driver does not run, is refused when set, naming the cause" \
	grep -q "runs no plan of this shape" <<< "$out"
expect_eq "... and the port's shape stays" auto "$(cat "/sys/class/nicprog/$P3/plan_shape")"
ip link set dev "$P3" xdpoffload obj "$HH" sec xdp
expect_eq "auto plans among the shapes listed: one stage" 1 "$(stages)"
check "... a shape the driver lists" \
	grep -qE "^shape (single|replicated|sharded) " "/sys/kernel/debug/nicprog/$P3/plan"
ip link set dev "$P3" xdpoffload off

# the NIC goes with its program and map still pinned

check "the NIC is removed under a pinned program and map" nicsim_del "$ID"
out=$(bpftool prog show pinned "$PIN/prog" 2>&1)
check "the program is orphaned: its info says ENODEV" \
	grep -q "No such device" <<< "$out"
check "the map too, and its lookups fail" \
	sh -c "! bpftool map lookup pinned $PIN/counts key 0 0 0 0 2>/dev/null"
rm -f "$PIN/prog" "$PIN/counts" "$PIN/other"
check "its devlink instance is gone" sh -c "! devlink dev show | grep -q '^$DL\$'"
check "no oops, no warning" sh -c \
	"! dmesg | tail -n +$((mark + 1)) | grep -qE 'WARNING|Oops|BUG'"
tap_end
