#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Initial table entries of the example NFs for oracle runs and benchmarks,
# as oracle arguments (MAP:KEYHEX:VALHEX). Source it; nf_entries NF fills
# the array ENTRIES. Routes need NF_IDX and OUT_IDX (ifindexes).

# u32 in little-endian hex
le32() { printf '%02x%02x%02x%02x' $(($1 & 255)) $(($1 >> 8 & 255)) $(($1 >> 16 & 255)) $(($1 >> 24 & 255)); }

# route KEYHEX: prefix length (u32 LE) and network (big endian)
route() {
	echo "routes:$(le32 "$1")$2:$(le32 "$3")02aabbccdd0102aabbccdd02"
}

# esp: security association of a destination: SPI and a 256-bit key
# (printf -v, not $(...): in the TCG guest each subshell costs ~10 ms)
esp_sa() {
	local key= h i

	for ((i = 0; i < 32; i++)); do
		printf -v h '%02x' $((($2 * 37 + i * 11) & 255))
		key+=$h
	done
	echo "sas:$1:$(le32 "$2")00000000${key}$(printf '%032d' 0)"
}

nf_entries() {
	local slot b e h hop

	ENTRIES=()
	case $1 in
	port_filter)
		ENTRIES=(blocked:3500:0000000000000000
			 blocked:901f:0000000000000000
			 blocked:1600:0000000000000000) ;;
	firewall)
		# allow ports 80 and 53; aging off: the host's clock and the
		# NIC's differ, and connections keep the time they were seen
		ENTRIES=(allow:5000:00 allow:3500:00
			 config:01000000:0100000000000000) ;;
	router)
		ENTRIES=("$(route 8 0a000000 "$OUT_IDX")"
			 "$(route 16 0a010000 "$NF_IDX")"
			 "$(route 24 0a010200 "$OUT_IDX")"
			 "$(route 16 c0a80000 "$NF_IDX")"
			 "$(route 32 08080808 "$OUT_IDX")") ;;
	lb)
		# 251 ring slots over 4 backends 02:00:00:00:00:0b, 10.9.0.b
		# (slots below 256: one byte of each u32)
		for ((slot = 0; slot <= 250; slot++)); do
			printf -v e 'ring:%02x000000:%02x000000' $slot $((slot % 4))
			ENTRIES+=("$e")
		done
		for b in 0 1 2 3; do
			ENTRIES+=("backends:$(le32 "$b"):02000000000${b}00000a09000${b}")
		done ;;
	heavy_hitter)
		ENTRIES=("config:00000000:$(le32 20)") ;;
	nat)
		ENTRIES=(nat_cfg:00000000:c6336401) ;;
	esp)
		ENTRIES=("$(esp_sa 0a000001 4097)" "$(esp_sa 0a020304 8193)"
			 seqs:0a000001:00000000 seqs:0a020304:00000000)
		# ESP_DESTS=N (at most 64, the tables' size): instead one for
		# each of 10.64.0.0 to N - 1 (the oracle's ORACLE_BENCH=dests)
		[ "${ESP_DESTS:-0}" -gt 0 ] && ENTRIES=()
		for ((e = 0; e < ${ESP_DESTS:-0}; e++)); do
			printf -v h '0a4000%02x' "$e"
			ENTRIES+=("$(esp_sa "$h" $((12289 + e)))" "seqs:$h:00000000")
		done ;;
	# the held-out NFs (bpf/heldout)
	acl)
		# {proto, pad, port}: drop ssh, dns over UDP, discard; reflect 8080
		ENTRIES=(acl:06000016:01000000 acl:11000035:01000000
			 acl:11000009:01000000 acl:06001f90:03000000) ;;
	flow_meter)
		ENTRIES=("config:00000000:$(le32 50)00000000") ;;
	lb_maglev)
		# {address, port, proto, pad} -> VIP; 61 ring slots a VIP over
		# 8 backends 10.10.0.b, 02:00:00:00:0a:0b
		ENTRIES=(vips:0a00000100500600:00000000
			 vips:0a00000101bb0600:01000000
			 vips:0a01020300351100:02000000
			 vips:0808080800351100:03000000)
		for ((slot = 0; slot < 4 * 61; slot++)); do
			ENTRIES+=("ring:$(le32 $slot):$(le32 $(((slot * 7 + slot / 61) % 8)))")
		done
		for b in 0 1 2 3 4 5 6 7; do
			ENTRIES+=("reals:$(le32 "$b"):0a0a000${b}020000000a0${b}0000")
		done ;;
	# set 3
	flow_budget)
		# 3000 bytes a flow
		ENTRIES=("budget:00000000:$(le32 3000)00000000") ;;
	lpm_fwd)
		# 10/8 -> 1, 10.1/16 -> 2, 10.1.9.9 blackholed, 192.168/16 -> 3,
		# 8.8.8.8 -> 0 (no address: the host's); next hops 1-3
		ENTRIES=(routes:080000000a000000:01000000
			 routes:100000000a010000:02000000
			 routes:200000000a010909:ffffffff
			 routes:10000000c0a80000:03000000
			 routes:2000000008080808:00000000)
		for hop in 1 2 3; do
			ENTRIES+=("nexthops:$(le32 "$hop"):02000000010${hop}02000000000${hop}")
		done ;;
	# set 4
	flow_police)
		# 2 bytes a microsecond a bucket, bursts of 4,000 bytes
		ENTRIES=("police_cfg:00000000:$(le32 2)$(le32 4000)") ;;
	# set 6
	cm_sketch)
		# a flow's 101st frame on is dropped
		ENTRIES=("cms_cfg:00000000:$(le32 100)") ;;
	newflow_limit)
		# 16 new flows every 200 us
		ENTRIES=("limit_cfg:00000000:$(le32 16)$(le32 200)") ;;
	# set 10
	ipip_tx)
		# VIPs 10.0.0.1:80/TCP, 10.1.2.3:53/UDP, 192.168.1.1:443/TCP to
		# endpoints 10.255.1.1-3 from 10.255.0.1
		ENTRIES=(vip2tnl:0a00000100500600:0aff00010aff010102000000aa010000
			 vip2tnl:0a01020300351100:0aff00010aff010202000000aa020000
			 vip2tnl:c0a8010101bb0600:0aff00010aff010302000000aa030000) ;;
	filter_ports)
		# TCP, UDP and IPv4 lists; TCP to 22, UDP to 5353, either to 9;
		# to 8.8.8.8, from 10.128.0.5
		ENTRIES=("filter_features:00000000:$(le32 7)"
			 "filter_ports:$(le32 22):$(le32 6)00000000"
			 "filter_ports:$(le32 5353):$(le32 10)00000000"
			 "filter_ports:$(le32 9):$(le32 14)00000000"
			 "filter_ipv4:08080808:$(le32 2)00000000"
			 "filter_ipv4:0a800005:$(le32 1)00000000") ;;
	# set 11: ct_reply and udp_pinhole have no configuration
	# set 9 (proto_count has no configuration)
	dst_guard)
		# a destination takes 400 SYNs from sources not yet seen talking
		ENTRIES=("guard_cfg:00000000:$(le32 400)$(le32 0)") ;;
	# set 8
	udp_portmap)
		# UDP ports 53 -> 5300, 5353 -> 5354, 1234 -> 4321
		ENTRIES=(port_map:0035:14b4 port_map:14e9:14ea port_map:04d2:10e1) ;;
	syn_cookie)
		ENTRIES=("cookie_cfg:00000000:$(le32 1592594005)") ;;
	# set 7
	traj_sample)
		# a quarter of the frames selected; 16 of 256 buckets blocked
		ENTRIES=("ts_cfg:00000000:$(le32 1073741824)")
		for ((b = 0; b < 256; b += 16)); do
			ENTRIES+=("ts_block:$(le32 $b):01000000")
		done ;;
	rss_steer)
		# 128 slots over 16 queues; slots 7 and 77 down
		for ((slot = 0; slot < 128; slot++)); do
			if [ $slot = 7 ] || [ $slot = 77 ]; then
				ENTRIES+=("rss_indir:$(le32 $slot):$(le32 65535)")
			else
				ENTRIES+=("rss_indir:$(le32 $slot):$(le32 $((slot % 16)))")
			fi
		done ;;
	esac
}
