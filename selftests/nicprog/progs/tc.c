// SPDX-License-Identifier: GPL-2.0
/* Refused on the NIC: a tc classifier, not an XDP program. */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

SEC("tc")
int classify(struct __sk_buff *skb)
{
	return TC_ACT_OK;
}

char LICENSE[] SEC("license") = "GPL";
