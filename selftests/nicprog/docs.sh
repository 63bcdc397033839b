#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guides' examples as a newcomer pastes them. A page marks a shell
# block ".. example: NAME" and the output it shows ".. example-output:
# NAME"; each such block runs in bash at the tree's top, with nicprog's
# modules unloaded first (the guides start from a booted guest), and
# every line of its output block must appear in what it prints, in that
# order, other lines between them allowed.
. "$(dirname "$0")/lib.sh"
require_root_tools
DOCS=$NICPROG_SRC/Documentation/nicprog
TMP=$(mktemp -d /tmp/nicprog-docs.XXXXXX)
trap 'cleanup; rm -rf "$TMP"' EXIT

# block PAGE KIND NAME: the indented body of the code block that follows
# the comment ".. KIND: NAME", three spaces of indent off, trailing blank
# lines dropped
block() {
	awk -v mark=".. $2: $3" '
		$0 == mark { found = 1; next }
		found == 1 && /^\.\. code-block::/ { found = 2; next }
		found == 2 && /^$/ { if (started) blank++; next }
		found == 2 && /^   / {
			for (; blank > 0; blank--) print ""
			started = 1; print substr($0, 4); next
		}
		found == 2 && started { exit }
	' "$1"
}

# in_order EXPECTED ACTUAL: each line of EXPECTED is a line of ACTUAL, in
# order, "..." in a line standing for any text; the first missing one on
# stdout
in_order() {
	awk 'BEGIN { n = 0; i = 0 }
	     NR == FNR {
		re = $0
		gsub(/[][\\^$.|()*+?{}]/, "\\\\&", re)
		gsub(/\\\.\\\.\\\./, ".*", re)
		want[n] = $0; pat[n++] = "^" re "$"; next
	     }
	     i < n && $0 ~ pat[i] { i++ }
	     END { if (i < n) { print want[i]; exit 1 } }' "$1" "$2"
}

# state SNAPSHOT: the namespaces, nicsim devices and /run/ncl mounts there
# are, so that what a failed example leaves behind can be removed
state() {
	{ ip netns list | awk '{ print "ns " $1 }'
	  ls /sys/bus/nicsim/devices 2>/dev/null | sed 's/^nicsim/dev /'
	  awk '$2 ~ "^/run/ncl/" { print "mnt " $2 }' /proc/mounts
	} | sort > "$1"
}
restore() {	# SNAPSHOT: remove what is there now and was not then
	local kind what
	state "$TMP/now"
	comm -13 "$1" "$TMP/now" | while read -r kind what; do
		case $kind in
		ns) ip netns del "$what" ;;
		dev) echo "$what" > /sys/bus/nicsim/del_device ;;
		mnt) umount "$what" ;;
		esac
	done 2>/dev/null
}

unload() {
	local m
	for m in nicsim nicprog_ring nicprog_exec nicprog; do
		module_loaded "$m" || continue
		rmmod "$m" || return 1
	done
}

tap_begin
for ex in ${DOCS_EXAMPLES:-ncl.rst:ncl-allreduce rdma.rst:rdma-pingpong}; do
	page=${ex%%:*} name=${ex#*:}
	block "$DOCS/$page" example "$name" > "$TMP/$name.sh"
	block "$DOCS/$page" example-output "$name" > "$TMP/$name.want"
	if [ ! -s "$TMP/$name.sh" ] || [ ! -s "$TMP/$name.want" ]; then
		tap_fail "$page: example $name and its output are marked"
		continue
	fi
	tap_ok "$page: example $name and its output are marked ($(wc -l < "$TMP/$name.sh") lines)"
	if [ "$name" = rdma-pingpong ] &&
	   ! { command -v ibv_rc_pingpong && command -v rdma &&
	       modprobe -n rdma_rxe; } > /dev/null 2>&1; then
		tap_skip "$page $name" "no ibv_rc_pingpong, rdma or rdma_rxe"
		continue
	fi
	if ! unload; then
		tap_fail "$page $name: nicprog's modules unload first"
		continue
	fi
	state "$TMP/before"
	(cd "$NICPROG_SRC" && timeout 600 bash -e "$TMP/$name.sh") \
		> "$TMP/$name.out" 2>&1
	rc=$?
	restore "$TMP/before"
	if [ $rc -ne 0 ]; then
		tap_fail "$page $name: the block runs to its end (exit $rc)"
		while read -r l; do tap_info "$l"; done < <(tail -n 15 "$TMP/$name.out")
		continue
	fi
	tap_ok "$page $name: the block runs to its end"
	if miss=$(in_order "$TMP/$name.want" "$TMP/$name.out"); then
		tap_ok "$page $name: it prints the lines the page shows"
	else
		tap_fail "$page $name: it prints the lines the page shows (not: $miss)"
		while read -r l; do tap_info "$l"; done < "$TMP/$name.out"
	fi
done
# the modules as the next test expects to find them, if it loads them
nicprog_load >/dev/null 2>&1 || true
tap_end
