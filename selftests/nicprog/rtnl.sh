#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# RTNL held where it must be and free where it must be: a kprobe reads
# rtnl_mutex's owner (0: nobody holds it) where nicprog sends a datapath
# event -- which names the port's netdev and goes to its namespace, both of
# which RTNL keeps still -- and where nicsim reads a profile's firmware
# file, which a slow file system would stretch, so RTNL must be free.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/ring_test" ] || skip_all "ring_test not built"
CLI=$NICPROG_SRC/tools/nicprog/nicprog
[ -x "$CLI" ] || skip_all "tools/nicprog/nicprog not built (make tools)"
require_plan
TR=/sys/kernel/tracing
[ -w $TR/kprobe_events ] || skip_all "no kprobe events (tracefs)"
nicprog_load || skip_all "cannot load nicprog/nicsim"
fw_profiles rtnl
EV=nicprog_rtnl
unprobe() {
	{
		echo 0 > "$TR/events/$EV/enable"
		echo "-:$EV/event" >> "$TR/kprobe_events"
		echo "-:$EV/firmware" >> "$TR/kprobe_events"
	} 2> /dev/null
}
trap 'unprobe; cleanup; echo -n "$_oldfw" > "$FWPATH"; rm -rf "$TMP"' EXIT

# probe NAME FUNC: record RTNL's owner each time FUNC is called
probe() {
	echo "p:$EV/$1 $2 rtnl=@rtnl_mutex:x64" >> "$TR/kprobe_events" &&
	echo 1 > "$TR/events/$EV/$1/enable"
}
# owners NAME: the owners probe NAME recorded, one per call
owners() { sed -n "s/.* $1: (.* rtnl=\(0x[0-9a-f]*\)$/\1/p" "$TR/trace"; }
# held_at NAME: probe NAME was hit, and RTNL was held at every hit
held_at() { [ -n "$(owners "$1")" ] && ! owners "$1" | grep -qx 0x0; }
# free_at NAME: probe NAME was hit, and RTNL was free at every hit
free_at() { [ -n "$(owners "$1")" ] && ! owners "$1" | grep -qvx 0x0; }

tap_begin
unprobe
: > "$TR/trace"
probe event nicprog_nl_notify_ring_drops || skip_all "cannot set a kprobe"
probe firmware request_firmware_direct || skip_all "cannot set a kprobe"

# A full pipe drops records: a ring-drops event within a second.
topipe_nic || { echo "not ok: cannot set up a topipe NIC" >&2; exit 1; }
"$SELFDIR/ring_test" --fill "$IN" "$NF" > "$TMP/fill" 2>&1 &
FPID=$!
_bg_pids+=($FPID)
filled() { grep -q "^filled" "$TMP/fill"; }
check "a pipe fills up and drops" wait_for 10 filled
sent() { [ -n "$(owners event)" ]; }
check "a ring-drops event is sent" wait_for 5 sent
tap_info "RTNL's owner at each event: $(owners event | xargs)"
check "events read the port's netdev under RTNL" held_at event
kill "$FPID"
ip link set dev "$NF" xdpoffload off
nicsim_del "$NF_ID"

# A profile by name from a firmware file, through netlink and sysfs.
"$PLAN" --lnic | sed 's/^lnic nicsim-generic$/lnic fwrtnl/' \
	> "$TMP/nicsim/fwrtnl.lnic"
ID=$(nicsim_new_id)
P=nicsim${ID}p0
nicsim_new "$ID" 1
: > "$TR/trace"
check "netlink profile-set takes a firmware file's profile" \
	"$CLI" dev set dev "$P" profile fwrtnl
expect_eq "the port's profile is the file's" fwrtnl \
	"$(cat "/sys/class/nicprog/$P/profile")"
tap_info "RTNL's owner at each firmware read: $(owners firmware | xargs)"
check "netlink profile-set reads the firmware file without RTNL" \
	free_at firmware
: > "$TR/trace"
check "the sysfs profile file takes it too" \
	sh -c "echo fwrtnl > $BUS/devices/nicsim$ID/profile"
tap_info "RTNL's owner at each firmware read: $(owners firmware | xargs)"
check "and reads the file without RTNL" free_at firmware
out=$("$CLI" dev set dev "$P" profile nosuch 2>&1)
check "a name neither shipped nor a file: refused, the message says so" \
	grep -q "no such profile: not shipped, and no firmware file" <<< "$out"
check "a shipped profile by name still needs no file" \
	"$CLI" dev set dev "$P" profile nicsim-soc
expect_eq "the port's profile is the shipped one" nicsim-soc \
	"$(cat "/sys/class/nicprog/$P/profile")"
tap_end
