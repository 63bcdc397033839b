#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The streaming-ring device against a hostile local user (ring_hostile):
# every command completes however io_uring issues it (inline, from its
# worker thread, linked), also under churn with frames arriving, and
# leaves no file, pipe or module reference behind; a command waiting on
# user memory while the port goes and its driver is unloaded never
# touches the driver; what acts on the network needs the opener's
# CAP_NET_ADMIN, and a file restricted to RX and handed out does nothing
# else; a create that fails late frees only its own pipe, and
# pipes count against the opener's memory cgroup; a port's device node
# never outlives it.
. "$(dirname "$0")/lib.sh"
require_root_tools
[ -x "$SELFDIR/ring_hostile" ] || skip_all "ring_hostile not built"
nicprog_load || skip_all "cannot load nicprog/nicsim"

TMP=$(mktemp -d /tmp/nicprog-hostile.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT
CHURN_SECS=${CHURN_SECS:-10}
CHURN_SEED=${CHURN_SEED:-$(date +%s)}

# an open ring file holds nicprog_ring.ko, whose file operations it runs
refcnt() { cat /sys/module/nicprog_ring/refcnt; }
pipes() { npstat "$1" ring_pipes; }

# run DESC PASS_COUNT CMD...: a ring_hostile mode, its TAP nested
run() {
	local desc=$1 want=$2 rc
	shift 2
	"$@" > "$TMP/out" 2>&1
	rc=$?
	sed 's/^/# /' "$TMP/out"
	expect_eq "$desc: exit status" 0 "$rc"
	check "$desc: all $want pass" grep -q "^# Totals: pass:$want fail:0" "$TMP/out"
}

tap_begin
topipe_nic || { echo "not ok: cannot set up a topipe NIC" >&2; exit 1; }
ref0=$(refcnt)
slab0=$(slab_ours)

run "every command completes inline, with IOSQE_ASYNC and linked" 44 \
	"$SELFDIR/ring_hostile" --complete "$IN" "$NF"
tap_info "churn seed $CHURN_SEED (CHURN_SEED=$CHURN_SEED replays it)"
run "churn: every command completes" 1 \
	"$SELFDIR/ring_hostile" --churn "$IN" "$NF" "$CHURN_SECS" "$CHURN_SEED"
settled() { [ "$(refcnt)" = "$ref0" ] && [ "$(pipes "$NF")" = 0 ]; }
wait_for 10 settled
expect_eq "no ring file left: nicprog_ring's module references as before" \
	"$ref0" "$(refcnt)"
expect_eq "no pipe left" 0 "$(pipes "$NF")"
slab_back "after the churn" "$slab0"

# The opener's CAP_NET_ADMIN, at every command that acts on the network.
if command -v setpriv > /dev/null; then
	noadmin() { setpriv --bounding-set=-net_admin --inh-caps=-net_admin "$@"; }
	NODE=$(ring_node "$NF")
	expect_eq "a file opened without CAP_NET_ADMIN: send and bind EPERM" \
		"send: -1 bind: -1" \
		"$(noadmin "$SELFDIR/ring_hostile" --cap "$NF" | xargs)"
	expect_eq "opened with it and inherited by a process without: both go (the opener's privilege)" \
		"send: 1 bind: 0" \
		"$(noadmin "$SELFDIR/ring_hostile" --cap "$NF" 5 5<> "$NODE" | xargs)"
else
	tap_skip "the opener's CAP_NET_ADMIN" "setpriv not installed"
fi

# Delegation: a file its opener restricted to RX and handed to a process
# of uid 65534 without capabilities reads its pipe and issues nothing of
# another class, though the opener's CAP_NET_ADMIN would let it bind and
# send; nothing widens the file again, the opener's own descriptor
# included, and a file left without RX or TX maps nothing.
expect_eq "a file restricted to RX, handed to an unprivileged process: every other class EPERM, its pipe read" \
	"denied 18 of 18|widen 0x1|read 8 of 8|opener: -1|mmap without RX or TX: Operation not permitted" \
	"$("$SELFDIR/ring_hostile" --delegate "$IN" "$NF" 2>&1 | paste -sd'|')"

# A create whose result cannot be written back, while the same file
# destroys the id it would have and creates another pipe: the create
# fails, the other pipe is whole.
expect_eq "a create failing to write its result frees only its own pipe" \
	"create: -14; meanwhile destroy 1: -22, create: 0 (pipe 2); then destroy 2: 0" \
	"$("$SELFDIR/ring_hostile" --create-race "$NF" | tail -n 1)"

# Pipe memory is charged to the opener's memory cgroup: 64 MiB hold
# fewer than 64 pipes of 1 MiB, and the next create fails with ENOMEM.
CG=/sys/fs/cgroup
[ -e $CG/cgroup.controllers ] || mount -t cgroup2 none $CG 2> /dev/null
if grep -qw memory $CG/cgroup.controllers 2> /dev/null; then
	echo +memory > $CG/cgroup.subtree_control
	mkdir -p "$CG/nicprog-$$"
	echo 64M > "$CG/nicprog-$$/memory.max"
	out=$(sh -c "echo \$\$ > $CG/nicprog-$$/cgroup.procs &&
		     exec $SELFDIR/ring_hostile --memcg $NF 4")
	tap_info "in a cgroup of 64 MiB: $out"
	check "pipes past the opener's memory cgroup limit: ENOMEM" \
		grep -qE "^created ([0-9]|[1-5][0-9]|6[0-3]) MiB: -12$" <<< "$out"

	# Limits of 0 to 32 pages: whichever of a create's allocations
	# crosses one, the create fails with ENOMEM and the opener lives (the
	# cgroup's OOM killer is not woken).
	rmdir "$CG/nicprog-$$"
	mkdir "$CG/nicprog-$$"
	out=$("$SELFDIR/ring_hostile" --memcg-edge "$NF" "$CG/nicprog-$$" 32)
	tap_info "$(echo $out)"
	check "a create at its cgroup's limit: made or ENOMEM, no OOM event" \
		grep -qE "^33 creates: [1-9][0-9]* made, [1-9][0-9]* ENOMEM, 0 other, 0 oom events$" <<< "$out"
	expect_eq "the opener at its cgroup's limit lives on" \
		"then: 0 opener: status 0" \
		"$(grep -E '^(then|opener)' <<< "$out" | xargs)"
	rmdir "$CG/nicprog-$$/edge" 2> /dev/null
	rmdir "$CG/nicprog-$$/home" "$CG/nicprog-$$"
else
	tap_skip "pipes charged to the opener's memory cgroup" "no memory controller"
fi
ip link set dev "$NF" xdpoffload off
nicsim_del "$NF_ID"

# A port renamed, then deleted: its device node goes with it (devtmpfs
# removes a node by the name the device has when it goes), and the next
# port, given a number again, does not get its node.
ID=$(nicsim_new_id)
nicsim_new "$ID" 1
P=nicsim${ID}p0
NODE=$(ring_node "$P")
tap_info "$P's ring device: $NODE"
ip link set "$P" name "hx$ID"
expect_eq "a rename keeps the port's node" "$NODE" "$(ring_node "hx$ID")"
nicsim_del "$ID"
check "deleting the renamed port removes its node" test ! -e "$NODE"
check "no node is left named after the port" \
	sh -c "! ls /dev/nicprog | grep -qE '^(nicsim${ID}p0|hx$ID)\$'"
ID=$(nicsim_new_id)
nicsim_new "$ID" 1
P=nicsim${ID}p0
check "the next port's node is another" test "$(ring_node "$P")" != "$NODE"
check "the old node opens nothing" sh -c "! true 3< '$NODE'" 2> /dev/null
expect_eq "the next port's pipes: none" 0 "$(pipes "$P")"
nicsim_del "$ID"

# A command waits for its argument's page (userfaultfd) -- or a copy to
# the NIC for its data's page -- while its port is
# deleted and the port's driver unloaded; then the page arrives. The
# command must not touch the driver: it fails with ENODEV (a destroy
# still frees its pipe), the file closes, nothing oopses.
declare -A after=([send]=-19 [bind]=-19 [create]=-19 [destroy]=0
		  [unbind]=-19 [wait]=-19 [alloc]=-19 [copy]=-19
		  [copydata]=-19 [qp]=-19)
for op in send bind create destroy unbind wait alloc copy copydata qp; do
	nicprog_load || { tap_fail "$op: nicsim reloads"; continue; }
	ID=$(nicsim_new_id)
	P=nicsim${ID}p0
	nicsim_new "$ID" 1
	out=$("$SELFDIR/ring_hostile" --uffd "$op" "$P" \
		"echo $ID > $BUS/del_device && rmmod nicsim" 2>&1)
	tap_info "$out"
	expect_eq "$op waiting for its argument while the port goes and nicsim is unloaded" \
		"$op: ${after[$op]}" "$(tail -n 1 <<< "$out")"
	check "nicsim was unloaded meanwhile" sh -c "! test -d /sys/module/nicsim"
done
nicprog_load
check "no oops, no warning" sh -c "! dmesg | grep -qE 'BUG|WARNING|Oops'"
tap_end
