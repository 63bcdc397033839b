#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The driver contract held by a second driver: nicrisc (drivers/nicrisc),
# a NIC whose cores run an instruction set of their own, written from the
# driver guide. It loads beside nicprog alone (no interpreter, no rings);
# it owns its devlink instance, to which nicprog adds its resources and
# reporter, and whose reload re-creates the ports; it keeps the tables in
# its memory and translates every plan. Checked as nicsim is elsewhere:
# offload with stock tools and the NIC's table semantics through bpftool,
# refusals that name the cause, every example NF equal to the host's run
# of the same object (oracle), and removal of the device and of the driver
# under traffic, leaving nothing behind.
. "$(dirname "$0")/lib.sh"
require_root_tools
for t in devlink bpftool python3; do
	command -v $t >/dev/null || skip_all "$t not installed"
done
[ -x "$SELFDIR/oracle" ] || skip_all "oracle not built"
[ -x "$SELFDIR/udp_stream" ] || skip_all "udp_stream not built"
RISC_KO=$NICPROG_SRC/drivers/nicrisc/nicrisc.ko
[ -f "$RISC_KO" ] || skip_all "drivers/nicrisc/nicrisc.ko not built (run make)"
RBUS=/sys/bus/nicrisc
EX=$NICPROG_SRC/bpf/examples
P_DIR=$SELFDIR/progs
TMP=$(mktemp -d /tmp/nicprog-nicrisc.XXXXXX)
_risc_devs=()
risc_cleanup() {
	local id
	cleanup
	for id in "${_risc_devs[@]}"; do
		[ -e "$RBUS/devices/nicrisc$id" ] &&
			echo "$id" > "$RBUS/del_device" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap risc_cleanup EXIT

# risc_new ID PORTS: a nicrisc device, remembered for cleanup
risc_new() {
	echo "$1 $2" > "$RBUS/new_device" && _risc_devs+=("$1")
}
risc_id() { new_id "$RBUS" nicrisc; }
jpy() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }
# xstat NS DEV NAME: an ethtool -S counter of a port in a namespace
xstat() { ip netns exec "$1" ethtool -S "$2" | awk -v k="$3:" '$1 == k { print $2 }'; }
rose() { [ "$(xstat "$1" "$2" "$3")" -gt "$4" ]; }

tap_begin

# nicprog and nicrisc only: the other driver and the library modules
# leave first; nothing an earlier file left may hold them
unload_others() {
	local m
	for m in nicsim nicprog_ring nicprog_exec; do
		if module_loaded $m; then rmmod $m || return 1; fi
	done
}
check "nicsim, nicprog_ring and nicprog_exec unload" unload_others
module_loaded nicprog || insmod "$NICPROG_SRC/kernel/nicprog.ko" ||
	skip_all "cannot load nicprog"
expect_eq "modinfo: nicrisc depends on nicprog alone" nicprog \
	"$(modinfo -F depends "$RISC_KO")"
module_loaded nicrisc && rmmod nicrisc
# what nicprog holds alone: the driver's load and unload leave it so
slab0=$(slab_ours)
check "nicrisc loads beside nicprog alone" insmod "$RISC_KO"
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
maps0=$(bpftool map show | grep -c '^[0-9]')
progs0=$(bpftool prog show | grep -c '^[0-9]')
mark=$(kmsg_mark)

# --- devlink: the driver's instance, nicprog's resources on it -----------
ID=$(risc_id)
DL=nicrisc/nicrisc$ID
check "new_device: a NIC of four ports" risc_new "$ID" 4
devlink -j dev info "$DL" > "$TMP/info.json"
expect_eq "devlink dev info: driver, serial, the cores' ISA, nicprog's profile" \
	"nicrisc nicrisc$ID nicrisc-1 nicrisc-8" \
	"$(jpy "d['info']['$DL']['driver'], d['info']['$DL']['serial_number'], d['info']['$DL']['versions']['running']['fw.isa'], d['info']['$DL']['versions']['running']['fw.profile']" < "$TMP/info.json" | tr -d "(),'")"
ports() {
	devlink -j port show | jpy "' '.join('%s %s %s %s' % (k, v.get('netdev'), v['flavour'], v['port']) for k, v in sorted(d['port'].items()) if k.startswith('$DL/'))"
}
want_ports="$DL/0 nicrisc${ID}p0 physical 0 $DL/1 nicrisc${ID}p1 physical 1 $DL/2 nicrisc${ID}p2 physical 2 $DL/3 nicrisc${ID}p3 physical 3"
expect_eq "devlink port show: a physical port per netdev" "$want_ports" "$(ports)"
expect_eq "devlink resource show: nicprog's, from the LNIC: 8 cores, 64 MiB of sram" \
	"cores 8 region_sram 67108864" \
	"$(devlink -j resource show "$DL" | jpy "' '.join('%s %s' % (r['name'], r['size']) for r in d['resources']['$DL'])")"
expect_eq "devlink health: nicprog's reporter cores on the driver's instance" healthy \
	"$(devlink -j health show "$DL" reporter cores | jpy "d['health']['$DL'][0]['state']")"
expect_eq "sysfs: the driver runs one-stage plans only" "auto single" \
	"$(cat /sys/class/nicprog/nicrisc${ID}p1/plan_shapes)"
idx0=$(cat "/sys/class/net/nicrisc${ID}p1/ifindex")
check "devlink dev reload: the driver's re-initialization" devlink dev reload "$DL"
expect_eq "after it the same ports, made again" "$want_ports" "$(ports)"
check "new netdevs (another ifindex)" \
	test "$(cat "/sys/class/net/nicrisc${ID}p1/ifindex")" != "$idx0"
expect_fail "devlink dev reload into another namespace: refused, naming why" \
	"stay in their namespaces" devlink dev reload "$DL" netns 1
check "a program attaches after the reload" \
	ip link set dev "nicrisc${ID}p1" xdpoffload obj "$EX/count.o" sec xdp
expect_fail "devlink dev reload with a program bound: refused, naming why" \
	"the NIC has a program or an offloaded map" devlink dev reload "$DL"
check "the program is still attached" \
	grep -q "prog/xdp id" <<< "$(ip link show dev "nicrisc${ID}p1")"
check "and detaches" ip link set dev "nicrisc${ID}p1" xdpoffload off

# --- offload with stock tools, tables in the NIC's memory ----------------
A=nicrisc${ID}p0 B=nicrisc${ID}p1
NSA=ra-$ID NSB=rb-$ID
netns_new "$NSA" && netns_new "$NSB" &&
	port_to_ns "$NSA" "$A" 10.83.0.1/24 &&
	port_to_ns "$NSB" "$B" 10.83.0.2/24 ||
	{ echo "not ok: cannot move nicrisc$ID's ports" >&2; exit 1; }
bpfb() { ip netns exec "$NSB" bpftool "$@"; }
udp() {	# udp SECONDS PORT
	timeout $(($1 + 10)) ip netns exec "$NSA" "$SELFDIR/udp_stream" flood 10.83.0.2 "$2" "$1" >/dev/null
}
check "ping through the NIC, no program" \
	ip netns exec "$NSA" ping -c 2 -W 2 -q 10.83.0.2
check "ip link ... xdpoffload obj port_filter.o" \
	ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/port_filter.o" sec xdp
check "bpftool prog show: offloaded_to the port" \
	grep -q "offloaded_to $B" <<< "$(bpfb prog show)"
check "ping passes the NIC's program" \
	ip netns exec "$NSA" ping -c 2 -W 2 -q 10.83.0.2
check "hash: update" bpfb map update name blocked key 9 0 value 0 0 0 0 0 0 0 0
expect_fail "hash: update noexist on an existing key" "File exists" \
	bpfb map update name blocked key 9 0 value 0 0 0 0 0 0 0 0 noexist
d0=$(xstat "$NSB" "$B" xdp_drop)
udp 1 9
check "frames to the blocked port are dropped on the NIC" \
	wait_for 2 rose "$NSB" "$B" xdp_drop "$d0"
counted() {
	! grep -q "value: 00 00 00 00 00 00 00 00" <<< "$(bpfb map lookup name blocked key 9 0)"
}
check "hash: the NF counted its hits in the NIC's table" wait_for 2 counted
check "hash: delete" bpfb map delete name blocked key 9 0
expect_fail "hash: delete of a missing key" "No such file or directory" \
	bpfb map delete name blocked key 9 0

# refusals name the cause; the port keeps its program
keeps() { grep -q "name port_filter" <<< "$(ip -n "$NSB" -d link show dev "$B")"; }
# helpers nicprog's executor runs but the driver's list has not:
# refused by the verifier, before any plan is made
expect_fail "bpf_check_mtu() of the port's own MTU, not in the driver's list: refused when verified" \
	"helper bpf_check_mtu (163) is not supported on the NIC (its driver lists the helpers its cores run)" \
	ip -force -n "$NSB" link set dev "$B" xdpoffload obj "$P_DIR/check_mtu.o" sec xdp
check "the port keeps port_filter" keeps
expect_fail "a helper not in the driver's list (bpf_xdp_get_buff_len): refused when verified" \
	"helper bpf_xdp_get_buff_len (188) is not supported on the NIC (its driver lists the helpers its cores run)" \
	ip -force -n "$NSB" link set dev "$B" xdpoffload obj "$P_DIR/xdp_bytes.o" sec xdp
check "the port keeps port_filter" keeps
# a PROG_ARRAY: stock ip cannot make one for a device on 6.1; nicprog's
# can, and the driver refuses the table; from 6.3 the kernel puts no
# offloaded program in one, and the loader says so first
if kernel_at_least 6 3; then
	why="makes tail calls, and this kernel puts no offloaded program in a PROG_ARRAY"
else
	why="a PROG_ARRAY (tail calls); the NIC reaches only tables in its own memory"
fi
expect_fail "tail calls: refused, naming why" "$why" \
	ip netns exec "$NSB" "$NICPROG_SRC/tools/iproute2/ip" -force link set \
	dev "$B" nicprog obj "$P_DIR/xdp_tail.o" program xdp_tail_entry
check "the port keeps port_filter" keeps

# replacing the program and updating its table under traffic
bg udp 4 9
for nf in count port_filter count port_filter; do
	ip -n "$NSB" link set dev "$B" xdpoffload off 2>/dev/null
	ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/$nf.o" sec xdp || break
	[ $nf = port_filter ] &&
		bpfb map update name blocked key 9 0 value 0 0 0 0 0 0 0 0
done
check "programs replaced and tables updated under traffic" keeps
wait
check "ping after it" ip netns exec "$NSA" ping -c 2 -W 2 -q 10.83.0.2
ip -n "$NSB" link set dev "$B" xdpoffload off

# --- the host's oracle over every example NF -------------------------------
OID=$(risc_id)
IN=nicrisc${OID}p0 NF=nicrisc${OID}p1 OUT=nicrisc${OID}p2 CAP=nicrisc${OID}p3
NS=ro-$OID
risc_new "$OID" 4 && netns_new "$NS" &&
	silent_ports_to_ns "$NS" "$IN" "$NF" "$OUT" "$CAP" ||
	{ echo "not ok: cannot set up nicrisc$OID" >&2; exit 1; }
# shellcheck disable=SC2034 # nf_entries.sh's routes read both
NF_IDX=$(ip netns exec "$NS" cat "/sys/class/net/$NF/ifindex")
# shellcheck disable=SC2034
OUT_IDX=$(ip netns exec "$NS" cat "/sys/class/net/$OUT/ifindex")
. "$SELFDIR/nf_entries.sh"
FRAMES=${ORACLE_FRAMES:-1000}
for nf in ${ORACLE_NFS:-count icmp_echo port_filter firewall router lb heavy_hitter nat esp digest}; do
	nf_entries "$nf"
	out=$(ip netns exec "$NS" "$SELFDIR/oracle" "$EX/$nf.o" "$IN" "$NF" \
	      "$OUT" "$CAP" 7 "$FRAMES" "${ENTRIES[@]}" 2>&1)
	rc=$?
	print_matching '^#' "$out"
	oracle_equal "$nf on nicrisc" "$out" "$rc"
done

# --- a redirect's target is resolved in the receiving port's namespace -----
# redirect_any sends frames to a MAC ending in an odd byte out of the
# port out_cfg names: OUT, wired to CAP; once OUT is in another
# namespace, its ifindex names nothing where NF is, and the redirect fails
NS2=rp-$OID
netns_new "$NS2"
ip -n "$NS" addr add 10.85.0.1/24 dev "$IN"
ip -n "$NS" neigh replace 10.85.0.2 dev "$IN" lladdr 02:00:00:00:00:01
check "redirect_any on $NF" ip -n "$NS" link set dev "$NF" xdpoffload \
	obj "$P_DIR/redirect_any.o" sec xdp
check "out_cfg names $OUT" ip netns exec "$NS" bpftool map update \
	name out_cfg key 0 0 0 0 value $((OUT_IDX & 255)) \
	$((OUT_IDX >> 8 & 255)) 0 0
flood_in() {
	timeout 12 ip netns exec "$NS" "$SELFDIR/udp_stream" flood 10.85.0.2 7 1 >/dev/null 2>&1
}
cap_rx() { ip netns exec "$NS" cat "/sys/class/net/$CAP/statistics/rx_packets"; }
r0=$(xstat "$NS" "$NF" xdp_redirect) c0=$(cap_rx)
flood_in
check "redirected out of $OUT, in the same namespace" \
	wait_for 2 rose "$NS" "$NF" xdp_redirect "$r0"
check "and arriving at $CAP" test "$(cap_rx)" -gt "$c0"
ip -n "$NS" link set "$OUT" netns "$NS2"
e0=$(xstat "$NS" "$NF" xdp_redirect_err) c0=$(cap_rx)
flood_in
check "$OUT in another namespace: the redirect fails, counted" \
	wait_for 2 rose "$NS" "$NF" xdp_redirect_err "$e0"
expect_eq "and nothing arrives at $CAP" "$c0" "$(cap_rx)"
ip -n "$NS2" link set "$OUT" netns "$NS" && ip -n "$NS" link set "$OUT" up
r0=$(xstat "$NS" "$NF" xdp_redirect)
flood_in
check "$OUT back: redirected again" \
	wait_for 2 rose "$NS" "$NF" xdp_redirect "$r0"
ip -n "$NS" link set dev "$NF" xdpoffload off

# --- removal under traffic -------------------------------------------------
flood() {	# flood NS TO SECONDS: UDP to port 7 from NS
	timeout $(($3 + 10)) ip netns exec "$1" "$SELFDIR/udp_stream" flood "$2" 7 "$3" >/dev/null 2>&1
}
check "a program on $B again" \
	ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/count.o" sec xdp
bg flood "$NSA" 10.83.0.2 3
sleep 1
check "del_device under traffic" sh -c "echo $ID > $RBUS/del_device"
wait
check "its devlink instance is gone" sh -c "! devlink dev show | grep -q '^$DL\$'"

ID3=$(risc_id)
check "another device" risc_new "$ID3" 2
A3=nicrisc${ID3}p0 B3=nicrisc${ID3}p1
NS3=rc-$ID3
netns_new "$NS3" && port_to_ns "$NS3" "$A3" 10.84.0.1/24 &&
	ip link set "$B3" up &&
	ip link set dev "$B3" xdpoffload obj "$EX/port_filter.o" sec xdp ||
	tap_fail "setting up nicrisc$ID3"
ip -n "$NS3" neigh replace 10.84.0.2 dev "$A3" lladdr \
	"$(cat "/sys/class/net/$B3/address")"
bg flood "$NS3" 10.84.0.2 3
sleep 1
check "rmmod nicrisc under traffic" rmmod nicrisc
wait
expect_eq "no offloaded map left" "$maps0" "$(bpftool map show | grep -c '^[0-9]')"
expect_eq "no offloaded program left" "$progs0" "$(bpftool prog show | grep -c '^[0-9]')"
slab_back "nicrisc" "$slab0"
check "nicprog_exec.ko was never loaded" sh -c "! test -d /sys/module/nicprog_exec"
check "nor nicprog_ring.ko" sh -c "! test -d /sys/module/nicprog_ring"
expect_eq "no warning, oops or leak report in the kernel log" "" \
	"$(kmsg_since "$mark" | grep -iE 'warn|bug|oops|leak|refcount' | grep -v 'loading out-of-tree')"
tap_end
