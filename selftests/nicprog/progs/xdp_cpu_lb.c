// SPDX-License-Identifier: GPL-2.0
/*
 * Spreading frames over host CPUs as samples/bpf's xdp_redirect_cpu does
 * (its "lb_hash_ip_pairs" program): IPv4 frames by a hash of their address
 * pair to one of the CPUs the cpus_available table lists, the count of
 * them in cpus_count, through a CPUMAP whose entries user space creates
 * with their queue sizes; a CPU without an entry aborts the frame (flags
 * 0, as the sample redirects). Other frames pass; counts per CPU in a
 * per-CPU array.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#define MAX_CPUS 64

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct bpf_cpumap_val));
	__uint(max_entries, MAX_CPUS);
} cpu_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, MAX_CPUS);
} cpus_available SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 1);
} cpus_count SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, MAX_CPUS);
} rx_cnt SEC(".maps");

SEC("xdp")
int xdp_cpu_lb(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct ethhdr *eth = data;
	__u32 key = 0, *count, *cpu, hash, idx;
	struct iphdr *iph;
	__u64 *n;

	if ((void *)(eth + 1) > data_end ||
	    eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	iph = (void *)(eth + 1);
	if ((void *)(iph + 1) > data_end)
		return XDP_PASS;
	count = bpf_map_lookup_elem(&cpus_count, &key);
	if (!count || !*count)
		return XDP_PASS;
	hash = iph->saddr ^ iph->daddr;
	hash ^= hash >> 16;
	idx = hash % *count;
	cpu = bpf_map_lookup_elem(&cpus_available, &idx);
	if (!cpu)
		return XDP_ABORTED;
	n = bpf_map_lookup_elem(&rx_cnt, cpu);
	if (n)
		*n += 1;
	return bpf_redirect_map(&cpu_map, *cpu, 0);
}

char _license[] SEC("license") = "GPL";
