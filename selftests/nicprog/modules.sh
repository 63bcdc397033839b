#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Load/unload cycles of nicprog, its interpreter, its rings and nicsim, with
# devices and wires present at unload time (a port moved into another
# namespace): every object goes away with its module, nothing is left
# behind, not a sysfs entry. And the module graph: the core needs no other
# nicprog module; the interpreter and the rings are modules only drivers
# that use them load.
. "$(dirname "$0")/lib.sh"
require_root_tools

CYCLES=5
KO_CORE=$NICPROG_SRC/kernel/nicprog.ko
KO_EXEC=$NICPROG_SRC/kernel/nicprog_exec.ko
KO_RING=$NICPROG_SRC/kernel/nicprog_ring.ko
KO_SIM=$NICPROG_SRC/drivers/nicsim/nicsim.ko
[ -f "$KO_CORE" ] && [ -f "$KO_EXEC" ] && [ -f "$KO_RING" ] && [ -f "$KO_SIM" ] ||
	skip_all "modules not built (run make)"
IP=$NICPROG_SRC/tools/iproute2/ip
[ -x "$IP" ] || skip_all "tools/iproute2/ip not built (run make tools)"
trap - EXIT

nicsim_netdevs() { ls /sys/class/net | grep -c '^nicsim' ; }
# sysfs's entries (kernfs nodes): what a cycle creates, it removes
sysfs_entries() { find /sys -xdev 2> /dev/null | wc -l; }

tap_begin
module_loaded nicsim && rmmod nicsim
module_loaded nicprog_ring && rmmod nicprog_ring
module_loaded nicprog_exec && rmmod nicprog_exec
module_loaded nicprog && rmmod nicprog
check "modules start unloaded" test ! -d /sys/module/nicprog

ok=1
ip netns add nicprog-mod-$$
for i in $(seq $CYCLES); do
	insmod "$KO_CORE" && insmod "$KO_EXEC" && insmod "$KO_RING" &&
		insmod "$KO_SIM" || { ok=0; break; }
	echo "7 4" > $BUS/new_device && echo "8 2" > $BUS/new_device &&
		echo "7:0 8:1" > $BUS/link_device &&
		echo "7:1 7:2" > $BUS/link_device &&
		ip link set nicsim7p0 up && ip link set nicsim8p1 up &&
		ip link set nicsim7p3 netns nicprog-mod-$$ || { ok=0; break; }
	[ "$(nicsim_netdevs)" = 5 ] || { ok=0; break; }
	# Unload with devices, wires and up interfaces present.
	nicprog_unload || { ok=0; break; }
	[ "$(nicsim_netdevs)" = 0 ] && [ ! -d /sys/class/nicprog ] &&
		[ ! -d /sys/bus/nicsim ] || { ok=0; break; }
	# the first cycle may leave the kernel's own first-use state
	[ "$i" = 1 ] && after1=$(sysfs_entries)
done
ip netns del nicprog-mod-$$
check "$CYCLES load/unload cycles with devices present leave nothing behind" test $ok = 1
expect_eq "... not a sysfs entry: as many after the last cycle as after the first" \
	"${after1:-none}" "$(sysfs_entries)"

# the graph the build recorded, as modprobe reads it
expect_eq "nicprog.ko depends on no module" "" "$(modinfo -F depends "$KO_CORE")"
expect_eq "nicprog_exec.ko depends on the core alone" nicprog \
	"$(modinfo -F depends "$KO_EXEC")"
expect_eq "nicprog_ring.ko depends on the core alone" nicprog \
	"$(modinfo -F depends "$KO_RING")"
expect_eq "nicsim.ko depends on the core, the interpreter and the rings" \
	"nicprog,nicprog_exec,nicprog_ring" "$(modinfo -F depends "$KO_SIM")"

insmod "$KO_CORE"
check "the core loads without the interpreter and the rings" \
	test -d /sys/class/nicprog -a ! -d /sys/module/nicprog_exec \
	-a ! -d /sys/module/nicprog_ring
check "... and its netlink family answers" \
	sh -c "'$IP' link set dev lo nicprog off 2>&1 | grep -q 'not a nicprog port'"
out=$(insmod "$KO_SIM" 2>&1)
rc=$?
check "nicsim does not load without the interpreter and the rings" \
	test $rc -ne 0
check "... the kernel names an interpreter's symbol it lacks" \
	sh -c "dmesg | tail -n 50 | grep -qE 'nicsim: Unknown symbol nicprog_(plan_run|kernel_run|exec_)'"
check "... and a ring module's" \
	sh -c "dmesg | tail -n 50 | grep -qE 'nicsim: Unknown symbol nicprog_(ring_deliver|ring_flush|rdma_complete)'"
insmod "$KO_EXEC"
insmod "$KO_RING"
out=$(insmod "$KO_SIM" 2>&1 && rmmod nicprog 2>&1)
rc=$?
check "nicprog cannot be unloaded while nicsim uses it" test $rc -ne 0
check "the refusal names the users of the module" \
	grep -qE "in use by:.*nicsim" <<< "$out"
out=$(rmmod nicprog_exec 2>&1)
rc=$?
check "the interpreter cannot be unloaded while nicsim uses it" test $rc -ne 0
out=$(rmmod nicprog_ring 2>&1)
rc=$?
check "the rings cannot be unloaded while nicsim uses them" test $rc -ne 0
check "nicprog stays loaded and usable" test -d /sys/class/nicprog -a -d /sys/bus/nicsim

rmmod nicsim
check "nicsim unloads with no device" test ! -d /sys/bus/nicsim
out=$(insmod "$KO_SIM" 2>&1)
check "nicsim reloads after unload" test -d /sys/bus/nicsim

# an open device node holds the module whose file operations it runs
echo "9 1" > $BUS/new_device
minor=$(cut -d: -f2 /sys/class/nicprog/nicsim9p0/dev)
exec 3<> "/dev/nicprog/port$minor"
echo 9 > $BUS/del_device
rmmod nicsim
out=$(rmmod nicprog_ring 2>&1)
rc=$?
check "an open device node holds the ring module" test $rc -ne 0
exec 3>&-
check "... which unloads once the node is closed" rmmod nicprog_ring
rmmod nicprog_exec
rmmod nicprog
check "all four modules unloaded at the end" \
	test ! -d /sys/module/nicprog -a ! -d /sys/module/nicprog_exec \
	-a ! -d /sys/module/nicprog_ring -a ! -d /sys/module/nicsim
tap_end
