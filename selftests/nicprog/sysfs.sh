#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# /sys/class/nicprog/<ifname>: the LNIC summary of nicsim's default profile,
# the entry following renames and namespace moves, and going away with the
# port.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"

ID=$(nicsim_new_id)
P=nicsim${ID}p0
C=/sys/class/nicprog
tap_begin
nicsim_new "$ID" 1
check "class entry exists for the port" test -d "$C/$P"
expect_eq "profile" nicsim-generic "$(cat $C/$P/profile)"
expect_eq "cores" 16 "$(cat $C/$P/cores)"
expect_eq "core_threads" 64 "$(cat $C/$P/core_threads)"
expect_eq "parsers" 1 "$(cat $C/$P/parsers)"
expect_eq "mat_stages" 4 "$(cat $C/$P/mat_stages)"
accels() { for t in csum crc hash crypto compress regex; do echo -n "$t:$(cat "$C/$P/accelerators/$t") "; done; }
expect_eq "accelerators, one file per type" "csum:1 crc:16 hash:2 crypto:2 compress:0 regex:0 " "$(accels)"
expect_eq "dma_engines" 2 "$(cat $C/$P/dma_engines)"
expect_eq "mem_regions" 2 "$(cat $C/$P/mem_regions)"
expect_eq "mem_bytes" $((65536 + 1073741824)) "$(cat $C/$P/mem_bytes)"
expect_eq "insn_store" 8192 "$(cat $C/$P/insn_store)"
expect_eq "ifindex matches the netdev" "$(cat /sys/class/net/$P/ifindex)" "$(cat $C/$P/ifindex)"
check "device link points at the nicsim bus device" \
	test "$(basename "$(readlink -f $C/$P/device)")" = "nicsim$ID"
expect_eq "attributes are mode 0444" 444 "$(stat -c %a "$C/$P/profile")"
check "writing an attribute is refused, even for root" sh -c "! echo x > $C/$P/profile 2>/dev/null"
expect_eq "the attribute is unchanged" nicsim-generic "$(cat $C/$P/profile)"
# the plan policy is set through netlink, where the privilege is checked
expect_eq "plan_engine_share: every engine type all on the engines" \
	"csum 16 crc 16 hash 16 crypto 16" "$(xargs < "$C/$P/plan_engine_share")"
for f in plan_shape plan_cores plan_partial plan_engine_share accelerators/csum; do
	v=$(cat "$C/$P/$f")
	check "$f is read-only, even for root, and unchanged" \
		sh -c "! echo 1 > $C/$P/$f 2>/dev/null && test \"\$(cat $C/$P/$f)\" = '$v'"
done
expect_eq "every attribute is mode 0444" "" \
	"$(find "$C/$P/" -maxdepth 2 -type f ! -perm 0444 ! -name uevent ! -path '*/power/*' -printf '%P ')"

ip link set "$P" name "np-ren-$ID"
check "rename follows the netdev" test -d "$C/np-ren-$ID" -a ! -e "$C/$P"
netns_new "ns-sys-$ID"
ip link set "np-ren-$ID" netns "ns-sys-$ID"
check "entry survives a move to another namespace" test -d "$C/np-ren-$ID"
ip -n "ns-sys-$ID" link set "np-ren-$ID" name "$P"
check "rename inside the namespace follows" test -d "$C/$P"
nicsim_del "$ID"
_created_devs=()
check "entry goes away with the port" test ! -e "$C/$P"
tap_end
