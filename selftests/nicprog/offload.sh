#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Offload with stock tools: iproute2 attaches, bpftool shows and edits the
# NIC's tables with the kernel's map semantics, verdicts are counted and
# aborts traced; and the program, its tables and the device stay sound
# while traffic flows: replacing the program, updating tables, deleting
# the device, unloading the driver.
. "$(dirname "$0")/lib.sh"
require_root_tools
command -v bpftool >/dev/null || skip_all "bpftool not installed"
nicprog_load || skip_all "cannot load nicprog/nicsim"

EX=$NICPROG_SRC/bpf/examples
ID=$(nicsim_new_id)
A=nicsim${ID}p0
B=nicsim${ID}p1
NSA=oa-$ID
NSB=ob-$ID
maps0=$(bpftool map show | grep -c '^[0-9]')
progs0=$(bpftool prog show | grep -c '^[0-9]')

setup() {
	nicsim_new "$ID" 2 && echo "$ID:0 $ID:1" > $BUS/link_device &&
	netns_new "$NSA" && netns_new "$NSB" &&
	port_to_ns "$NSA" "$A" 10.80.0.1/24 &&
	port_to_ns "$NSB" "$B" 10.80.0.2/24 &&
	ip -n "$NSA" neigh replace 10.80.0.2 dev "$A" lladdr \
		"$(ip netns exec "$NSB" cat /sys/class/net/$B/address)"
}
teardown_ns() { ip netns del "$NSA"; ip netns del "$NSB"; _created_ns=(); }
bpfb() { ip netns exec "$NSB" bpftool "$@"; }
xstat() { ip netns exec "$NSB" ethtool -S "$B" | awk -v k="$1:" '$1 == k { print $2 }'; }
# rose NAME BEFORE: counter NAME is past BEFORE; the NIC's cores may still
# be on the flood's last frames when it ends, so callers wait for it
rose() { [ "$(xstat "$1")" -gt "$2" ]; }
udp() {	# udp SECONDS PORT
	timeout $(($1 + 10)) ip netns exec "$NSA" "$SELFDIR/udp_stream" flood 10.80.0.2 "$2" "$1" >/dev/null
}

tap_begin
setup
check "attach with ip link ... xdpoffload obj" \
	ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/port_filter.o" sec xdp
out=$(ip -n "$NSB" link show dev "$B")
check "ip link shows the offloaded program" grep -q "xdpoffload.*prog/xdp id" <<< "$(tr '\n' ' ' <<< "$out")"
check "bpftool prog show: offloaded_to the port" grep -q "offloaded_to $B" <<< "$(bpfb prog show)"
check "bpftool net show lists it as offloaded" grep -q "^$B([0-9]*) offload id" <<< "$(bpfb net show)"

# HASH table semantics through bpftool
check "hash: update (any)" bpfb map update name blocked key 9 0 value 0 0 0 0 0 0 0 0
expect_fail "hash: update noexist on an existing key" "File exists" \
	bpfb map update name blocked key 9 0 value 0 0 0 0 0 0 0 0 noexist
expect_fail "hash: update exist on a missing key" "No such file or directory" \
	bpfb map update name blocked key 10 0 value 0 0 0 0 0 0 0 0 exist
d0=$(xstat xdp_drop)
udp 1 9
check "hash: frames to the blocked port are dropped on the NIC" wait_for 2 rose xdp_drop "$d0"
# Offloaded maps carry no BTF: bpftool prints the value as bytes.
counted() {
	local out
	out=$(bpfb map lookup name blocked key 9 0)
	grep -q "value:" <<< "$out" &&
		! grep -q "value: 00 00 00 00 00 00 00 00" <<< "$out"
}
check "hash: the NF counted its hits in the table" wait_for 2 counted
check "hash: delete" bpfb map delete name blocked key 9 0
expect_fail "hash: delete of a missing key" "No such file or directory" \
	bpfb map delete name blocked key 9 0
p0=$(xstat xdp_pass)
udp 1 9
check "hash: after delete the port passes" wait_for 2 rose xdp_pass "$p0"
cmds=$(mktemp)
for i in $(seq 0 1023); do
	echo "map update name blocked key $((i & 255)) $((i >> 8)) value 0 0 0 0 0 0 0 0"
done > "$cmds"
check "hash: fill all 1024 entries (bpftool batch)" bpfb batch file "$cmds"
check "hash: dump walks every entry" grep -q "Found 1024 elements" <<< "$(bpfb map dump name blocked)"
expect_fail "hash: one more key is refused (E2BIG)" "Argument list too long" \
	bpfb map update name blocked key 0 4 value 0 0 0 0 0 0 0 0
rm -f "$cmds"

# ARRAY table semantics
check "array: update" bpfb map update name stats key 0 0 0 0 value 1 0 0 0 0 0 0 0
expect_fail "array: update noexist (elements always exist)" "File exists" \
	bpfb map update name stats key 1 0 0 0 value 0 0 0 0 0 0 0 0 noexist
expect_fail "array: delete is refused" "Invalid argument" \
	bpfb map delete name stats key 0 0 0 0
check "array: lookup beyond the end finds nothing" \
	grep -q "Not found" <<< "$(bpfb map lookup name stats key 2 0 0 0 2>&1)"
expect_fail "array: update beyond the end" "Argument list too long" \
	bpfb map update name stats key 2 0 0 0 value 0 0 0 0 0 0 0 0

# Aborts are counted and traced, as host XDP does.
T=/sys/kernel/tracing
[ -d $T/events/xdp ] || T=/sys/kernel/debug/tracing
echo 1 > $T/events/xdp/xdp_exception/enable
echo > $T/trace
check "replace the program (ip -force)" \
	ip -force -n "$NSB" link set dev "$B" xdpoffload obj "$SELFDIR/progs/abort.o" sec xdp
a0=$(xstat xdp_aborted)
udp 1 7
check "aborted frames are counted" wait_for 2 rose xdp_aborted "$a0"
check "and fire the xdp_exception tracepoint" grep -q "xdp_exception:.*action=ABORTED" $T/trace
echo 0 > $T/events/xdp/xdp_exception/enable

# Lifetime under traffic
udp 6 9 &
F=$!
ok=1
for i in 1 2 3 4 5; do
	for o in "$EX/count.o" "$EX/port_filter.o"; do
		ip -force -n "$NSB" link set dev "$B" xdpoffload obj "$o" \
			sec xdp 2>/dev/null || ok=0
	done
done
check "replace the program 10 times while traffic flows" test $ok = 1
cmds=$(mktemp)
for i in $(seq 200); do
	echo "map update name blocked key $((i % 7)) 0 value 0 0 0 0 0 0 0 0"
	echo "map update name stats key $((i % 2)) 0 0 0 value $((i & 255)) 0 0 0 0 0 0 0"
	echo "map delete name blocked key $((i % 7)) 0"
done > "$cmds"
check "update and delete table entries while traffic flows" bpfb batch file "$cmds"
rm -f "$cmds"
check "the flood ends on time" wait $F
check "the port still forwards to the host" \
	grep -q " 0% packet loss" <<< "$(ip netns exec "$NSA" ping -c 2 -i 0.2 -W 2 10.80.0.2 2>&1)"

udp 4 7 &
F=$!
sleep 1
check "delete the device with the program attached, under traffic" nicsim_del "$ID"
check "the flood ends on time" wait $F
teardown_ns
gone() {
	[ "$(bpftool map show | grep -c '^[0-9]')" = "$maps0" ] &&
	[ "$(bpftool prog show | grep -c '^[0-9]')" = "$progs0" ]
}
check "the program and its tables are freed with the device" wait_for 10 gone

setup
ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/port_filter.o" sec xdp
udp 4 7 &
F=$!
sleep 1
check "rmmod nicsim with the program attached, under traffic" rmmod nicsim
check "the flood ends on time" wait $F
_created_devs=()
teardown_ns
check "the program and its tables are freed with the driver" wait_for 10 gone
no_core_threads() { ! grep -qs '^nicsim' /proc/[0-9]*/comm; }
check "no NIC core kthread survives the driver" no_core_threads
check "nicsim loads again" nicprog_load

# Slab counters return to baseline after repeated device/program/table
# cycles: a leak of table elements alone (1024 per cycle) would exceed
# the slack several times over.
# slab_drain first: on the sanitizer kernel KASAN's quarantine held 3,305
# freed objects after the cycles, counted as active.
kmalloc_objs() {
	slab_drain
	awk '/^kmalloc-/ { n += $2 } END { print n }' /proc/slabinfo
}
fill=$(mktemp)
for i in $(seq 0 1023); do
	echo "map update name blocked key $((i & 255)) $((i >> 8)) value 0 0 0 0 0 0 0 0"
done > "$fill"
sync; echo 3 > /proc/sys/vm/drop_caches
base=$(kmalloc_objs)
ok=1
for _ in 1 2 3 4 5; do
	setup &&
	ip -n "$NSB" link set dev "$B" xdpoffload obj "$EX/port_filter.o" \
		sec xdp 2>/dev/null &&
	bpfb batch file "$fill" >/dev/null &&
	udp 1 7 && nicsim_del "$ID" || ok=0
	teardown_ns
	_created_devs=()
done
rm -f "$fill"
check "5 device/program/table cycles" test $ok = 1
settled() {
	echo 3 > /proc/sys/vm/drop_caches
	[ "$(kmalloc_objs)" -le $((base + 2000)) ]
}
check "kmalloc slab objects return to baseline (+2000 slack)" wait_for 15 settled
tap_info "kmalloc objects: $base before, $(kmalloc_objs) after"
tap_end
