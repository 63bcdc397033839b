#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# adapt.sh's checks that need a second CPU: a per-CPU map's program on the
# NIC updates the slot of the CPU its NIC core's thread runs on, and
# xdp_cpu_lb.o's redirects to a host CPUMAP reach the cpumap kthreads of
# both CPUs.
. "$(dirname "$0")/lib.sh"
require_root_tools
require_cpus 2
. "$(dirname "$0")/adapt_lib.sh"

# percpu_slots PROFILE FRAMES SEED: a per-CPU map's program on the NIC
# updates the slot of the CPU that runs it, as on the host: with every
# NIC core's thread kept on CPU 1, all of xdp_stats.o's counts land in
# slot 1, and the sums still equal the host's (the oracle); nicprog stats
# shows the table as a counter table with the same sums.
percpu_slots() {
	local prof=$1 frames=$2 seed=$3 pids p out rc m
	local what="$prof xdp_stats.o, NIC cores on CPU 1"
	pids=$(ps -eo pid=,comm= | awk '$2 ~ /^nicsim[0-9]*\/core/ { print $1 }')
	for p in $pids; do
		taskset -p 2 "$p" > /dev/null || tap_info "cannot pin $p"
	done
	nip link set dev "$NF" nicprog obj "$P_DIR/xdp_stats.o" > "$TMP/out" 2>&1
	expect_eq "$what: ip link ... nicprog attaches it" 0 "$?"
	check "$what: nicprog prog show names the table's kind (percpu)" \
		grep -q "table 0 xdp_stats_map (percpu)" \
		<<< "$(ip netns exec "$NS" "$NICPROG" prog show dev "$NF")"
	m=$(prog_maps)
	out=$(ORACLE_ATTACHED=1 ip netns exec "$NS" "$SELFDIR/oracle" \
	      "$P_DIR/xdp_stats.o" "$IN" "$NF" "$OUT" "$CAP" "$seed" \
	      "$frames" 2>&1)
	rc=$?
	FRAMES=$frames oracle_equal "$what" "$out" "$rc"
	expect_eq "$what: packets per CPU slot (CPU 0, CPU 1)" "0 $frames" \
		"$(bpftool -j map dump id "$m" | /usr/bin/python3 -c '
import json, sys
cpus = int(sys.argv[1])
rows = json.load(sys.stdin)
slot = len(rows[0]["value"]) // cpus
per = [0] * cpus
for e in rows:
    v = bytes(int(b, 16) for b in e["value"])
    for c in range(cpus):
        per[c] += int.from_bytes(v[c * slot:c * slot + 8], "little")
print(per[0], per[1])' "$(nproc --all)")"
	# the same counts through netlink: nicprog stats shows xdp_stats_map
	# as a counter table, packets and bytes per action, the CPUs summed
	expect_eq "$what: nicprog stats shows the table's counters, CPUs summed" \
		"$(bpftool -j map dump id "$m" | /usr/bin/python3 -c '
import json, sys
cpus = int(sys.argv[1])
rows = sorted(json.load(sys.stdin), key=lambda e: int(e["key"][0], 16))
out = []
for e in rows:
    v = bytes(int(b, 16) for b in e["value"])
    slot = len(v) // cpus
    for w in (0, 8):
        out.append(sum(int.from_bytes(v[c * slot + w:c * slot + w + 8], "little")
                       for c in range(cpus)))
print(*out)' "$(nproc --all)")" \
		"$(ip netns exec "$NS" "$NICPROG" -j stats dev "$NF" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)
t = [t for t in d[0]["tables"] if t["name"] == "xdp_stats_map"][0]
print(*t["counters"]) if t["counter_words"] == 2 else print("words", t["counter_words"])')"
	if command -v setpriv > /dev/null; then
		expect_eq "$what: without CAP_NET_ADMIN, stats shows the table, not its counters" \
			"no counters, 5 entries" \
			"$(ip netns exec "$NS" setpriv --bounding-set=-net_admin --inh-caps=-net_admin \
				"$NICPROG" -j stats dev "$NF" | /usr/bin/python3 -c '
import json, sys
t = [t for t in json.load(sys.stdin)[0]["tables"] if t["name"] == "xdp_stats_map"][0]
print("counters" if "counters" in t else "no counters", "%d entries" % t["entries"], sep=", ")')"
	else
		tap_skip "$what: without CAP_NET_ADMIN, no counters" "setpriv not installed"
	fi
	nip link set dev "$NF" nicprog off
	for p in $pids; do
		taskset -p "$(printf '%x' $(( (1 << $(nproc --all)) - 1 )))" "$p" \
			> /dev/null
	done
}

# kthreads_processed [WANT]: the frames the CPUMAP kthreads report
# processed in the trace so far; with WANT, whether that many
kthreads_processed() {
	local n
	n=$(awk '/xdp_cpumap_kthread/ { for (i = 1; i <= NF; i++) if ($i ~ /^processed=/) { sub("processed=", "", $i); s += $i } } END { print s + 0 }' /sys/kernel/tracing/trace)
	if [ $# -eq 0 ]; then
		echo "$n"
	else
		[ "$n" -ge "$1" ]
	fi
}

# cpumap_hits PROFILE FRAMES: xdp_cpu_lb.o with CPUMAP entries for CPUs 0
# and 1 (queue size 192): every IPv4 frame the NIC redirects to the host
# map is taken by an entry, and the cpumap kthreads of both CPUs process
# them (tracepoint xdp:xdp_cpumap_kthread).
cpumap_hits() {
	local prof=$1 frames=$2 what="$1 xdp_cpu_lb.o with CPUMAP entries"
	local cpumap k rh rx got tr=/sys/kernel/tracing
	nip link set dev "$NF" nicprog obj "$P_DIR/xdp_cpu_lb.o" > "$TMP/out" 2>&1
	expect_eq "$what: ip link ... nicprog attaches it" 0 "$?"
	cpumap=$(host_map_id cpu_map)
	check "$what: the cpu_map table stands for a host CPUMAP ($cpumap)" \
		sh -c "bpftool map show id '${cpumap:-0}' | grep -q 'cpumap  name cpu_map'"
	bpftool map update id "$(map_of_prog cpus_count)" key 0 0 0 0 value 2 0 0 0
	for k in 0 1; do
		bpftool map update id "$(map_of_prog cpus_available)" \
			key $k 0 0 0 value $k 0 0 0
		bpftool map update id "$cpumap" key $k 0 0 0 \
			value 192 0 0 0 0 0 0 0
	done
	check "$what: the NIC's stand-in refuses user space's writes (EPERM)" \
		sh -c "bpftool map update id '$(map_of_prog cpu_map)' key 0 0 0 0 value 0 0 0 0 2>&1 | grep -q 'Operation not permitted'"
	if [ -w $tr/events/xdp/xdp_cpumap_kthread/enable ]; then
		echo 1 > $tr/events/xdp/xdp_cpumap_kthread/enable
		echo > $tr/trace
	fi
	rh=$(nf_stat xdp_redirect_host)
	rx=$(nf_stat rx_xdp_redirect)
	ORACLE_ATTACHED=1 ORACLE_BENCH=1 ip netns exec "$NS" \
		"$SELFDIR/oracle" "$P_DIR/xdp_cpu_lb.o" "$IN" "$NF" "$OUT" \
		"$CAP" 3 "$frames" > "$TMP/out" 2>&1
	expect_eq "$what: the oracle sends its frames" 0 "$?"
	rh=$(($(nf_stat xdp_redirect_host) - rh))
	rx=$(($(nf_stat rx_xdp_redirect) - rx))
	check "$what: the NIC redirected frames to the host map ($rh)" test "$rh" -gt 0
	expect_eq "$what: the host map's entries took every one" "$rh" "$rx"
	if [ -w $tr/events/xdp/xdp_cpumap_kthread/enable ]; then
		# the kthreads run when their CPUs get to them: a fixed second
		# saw 892 of 1211 on a machine running another guest
		wait_for 5 kthreads_processed "$rh"
		echo 0 > $tr/events/xdp/xdp_cpumap_kthread/enable
		for k in 0 1; do
			got=$(awk -v c="cpu=$k" '$0 ~ c " " { for (i = 1; i <= NF; i++) if ($i ~ /^processed=/) { sub("processed=", "", $i); s += $i } } END { print s + 0 }' $tr/trace)
			check "$what: CPU $k's kthread processed frames ($got)" test "$got" -gt 0
		done
		expect_eq "$what: the kthreads processed every frame redirected" "$rh" \
			"$(kthreads_processed)"
	else
		tap_skip "$what: the CPUs' kthreads" "no tracefs"
	fi
	nip link set dev "$NF" nicprog off
	check "$what: the host CPUMAP goes with the program" \
		wait_for 10 sh -c "! bpftool map show id '$cpumap' >/dev/null 2>&1"
}

tap_begin
prof=nicsim-generic
oracle_nic "adcpu" "$prof"
ip netns exec "$NS" ethtool -L "$NF" rx 4
percpu_slots "$prof" "$FRAMES_MAIN" 15
cpumap_hits "$prof" 2000
cleanup
tap_end
