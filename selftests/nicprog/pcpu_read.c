// SPDX-License-Identifier: GPL-2.0
/*
 * pcpu_read - read a per-CPU map the way user-space statistics tools do
 * (xdp-tutorial's xdp_stats, samples/bpf's xdp1_user): one
 * bpf_map_lookup_elem() per key into an array of libbpf_num_possible_cpus()
 * values of round_up(VALUE_SIZE, 8) bytes, summed over the CPUs.
 *
 *   pcpu_read MAP_ID VALUE_SIZE
 *
 * VALUE_SIZE is one CPU's value as the program defines it. Prints one
 * line per key: the key as an unsigned number, then the CPU sums of each
 * 64-bit word of the value. Exits 1 if the map's value is not the per-CPU
 * layout for this machine's CPUs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_map_info info = {};
	uint32_t len = sizeof(info), slot, w;
	uint8_t key[64], next[64], *vals;
	int cpus, fd, c, have = 0;
	uint64_t sum, x, k;

	if (argc != 3) {
		fprintf(stderr, "usage: pcpu_read MAP_ID VALUE_SIZE\n");
		return 2;
	}
	cpus = libbpf_num_possible_cpus();
	slot = (strtoul(argv[2], NULL, 0) + 7) & ~7UL;
	fd = bpf_map_get_fd_by_id(strtoul(argv[1], NULL, 0));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.key_size > sizeof(key) || cpus <= 0) {
		perror("pcpu_read: map");
		return 2;
	}
	if (info.value_size != (uint32_t)cpus * slot) {
		fprintf(stderr, "pcpu_read: value of %u bytes, not %d CPUs of %u\n",
			info.value_size, cpus, slot);
		return 1;
	}
	vals = calloc(cpus, slot);
	if (!vals)
		return 2;
	while (!bpf_map_get_next_key(fd, have ? key : NULL, next)) {
		memcpy(key, next, info.key_size);
		have = 1;
		if (bpf_map_lookup_elem(fd, key, vals))
			continue;
		k = 0;
		memcpy(&k, key, info.key_size < 8 ? info.key_size : 8);
		printf("%llu", (unsigned long long)k);
		for (w = 0; w + 8 <= slot; w += 8) {
			for (c = 0, sum = 0; c < cpus; c++) {
				memcpy(&x, vals + (size_t)c * slot + w, 8);
				sum += x;
			}
			printf(" %llu", (unsigned long long)sum);
		}
		printf("\n");
	}
	free(vals);
	return 0;
}
