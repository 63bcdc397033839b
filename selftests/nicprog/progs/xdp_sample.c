// SPDX-License-Identifier: GPL-2.0
/*
 * Packet sampling the way samples/bpf/xdp_sample_pkts_kern.c and
 * xdpdump-style tools do it: bpf_perf_event_output() of a small metadata
 * struct followed by the frame's first bytes (BPF_F_CTXLEN_MASK) into a
 * PERF_EVENT_ARRAY sized by libbpf (no max_entries), read on the host by a
 * perf buffer. Frames of odd length are sampled twice, with a second,
 * metadata-only event; every frame passes.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define SAMPLE_SIZE 64ul
#define min(x, y) ((x) < (y) ? (x) : (y))

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(__u32));
} my_map SEC(".maps");

SEC("xdp_sample")
int xdp_sample_prog(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;

	/* Metadata will be in the perf event before the packet data. */
	struct S {
		__u16 cookie;
		__u16 pkt_len;
	} __attribute__((packed)) metadata;

	if (data < data_end) {
		/*
		 * The XDP perf_event_output handler will use the upper 32 bits
		 * of the flags argument as a number of bytes to include of the
		 * packet payload in the event data.
		 */
		__u64 flags = BPF_F_CURRENT_CPU;
		__u16 sample_size;
		int ret;

		metadata.cookie = 0xdead;
		metadata.pkt_len = (__u16)(data_end - data);
		sample_size = min(metadata.pkt_len, SAMPLE_SIZE);
		flags |= (__u64)sample_size << 32;

		ret = bpf_perf_event_output(ctx, &my_map, flags, &metadata,
					    sizeof(metadata));
		if (!ret && (metadata.pkt_len & 1)) {
			metadata.cookie = 0xbeef;
			bpf_perf_event_output(ctx, &my_map, BPF_F_CURRENT_CPU,
					      &metadata, sizeof(metadata));
		}
	}
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
