// SPDX-License-Identifier: GPL-2.0
/*
 * vlog - load an XDP object for a device's offload and print the verifier's
 * log at level 1, the level nicprog's "[nicprog]" lines need:
 *
 *   vlog OBJ IFNAME
 *
 * bpftool -d asks for levels 1, 2 and 4: every instruction's state, two
 * million lines and a minute for digest.o in the TCG guest. Exits with 0
 * when every program loaded, 1 when one was refused (its log printed
 * still), 2 on bad usage or setup.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

/* digest.o's log passes 16 MiB before the verifier trims it */
#define LOG_SIZE	(256 << 20)

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .kernel_log_level = 1);
	struct bpf_program *prog;
	struct bpf_object *obj;
	unsigned int ifindex;
	char *log;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: vlog OBJ IFNAME\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[2]);
	log = calloc(1, LOG_SIZE);
	if (!ifindex || !log) {
		fprintf(stderr, "vlog: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	opts.kernel_log_buf = log;
	opts.kernel_log_size = LOG_SIZE;
	obj = bpf_object__open_file(argv[1], &opts);
	if (!obj) {
		fprintf(stderr, "vlog: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	bpf_object__for_each_program(prog, obj)
		bpf_program__set_ifindex(prog, ifindex);
	err = bpf_object__load(obj);
	fputs(log, stdout);
	bpf_object__close(obj);
	free(log);
	return err ? 1 : 0;
}
