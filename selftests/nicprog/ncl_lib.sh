#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the NCL selftests (ncl.sh, ncl_in.sh, ncl_kv.sh) share: modules
# and tools, the testbed (tools/testing/topo) torn down on exit, and
# reading the kernels' pinned counters.
. "$(dirname "$0")/lib.sh"
require_root_tools
nicprog_load || skip_all "cannot load nicprog/nicsim"
for t in bpftool jq python3 llvm-readelf; do
	command -v $t >/dev/null || skip_all "$t not installed"
done
# shellcheck disable=SC2034  # the sourcing tests' names
AR=$NICPROG_SRC/tools/apps/allreduce KV=$NICPROG_SRC/tools/apps/nclkv \
	NCL=$NICPROG_SRC/tools/ncl/ncl
for f in "$AR" "$KV" "$NICPROG_SRC/bpf/ncl/allreduce.o" "$NICPROG_SRC/bpf/ncl/kvcache.o"; do
	[ -e "$f" ] || skip_all "$f not built (make)"
done
# shellcheck source=../../tools/testing/topo
. "$NICPROG_SRC/tools/testing/topo"
TMP=$(mktemp -d)
trap 'topo_down; rm -rf "$TMP"; cleanup' EXIT

# pinned_u64 FILE KEY: the __u64 at __u32 KEY of the pinned table FILE
pinned_u64() {
	local b v=0
	for b in $(bpftool -j map lookup pinned "$1" key hex "$(printf '%02x' "$2")" 00 00 00 |
		   jq -r '.value | reverse | .[]'); do
		v=$((v * 256 + b))
	done
	echo "$v"
}
