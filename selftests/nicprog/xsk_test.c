// SPDX-License-Identifier: GPL-2.0
/*
 * xsk_test - native host XDP on a nicsim port, every verdict, and AF_XDP
 * in copy mode on it (progs/hostxdp.o says which UDP port gets which):
 *
 *   xsk_test IN OUT OBJ COUNT SEED RDR RDR_PEER
 *
 * attaches OBJ natively to IN, binds an AF_XDP socket to IN's queue 0 and
 * sends COUNT seeded frames of 60..1514 bytes from OUT, IN's peer. Frames
 * to the socket arrive in it, in order, byte for byte; frames sent back
 * (XDP_TX) arrive at OUT with their MACs swapped; frames redirected out of
 * RDR (ndo_xdp_xmit) arrive at RDR_PEER unchanged; nothing else arrives
 * anywhere, and the socket drops nothing. It prints how many frames each
 * verdict got ("verdicts drop N pass N tx N redirect N aborted N xsk N"),
 * which the shell checks against the port's counters.
 *
 *   xsk_test --hold IN OBJ   (attach, bind a socket, print "ready", wait
 *                            for a line on stdin, then report what a wait
 *                            on the socket returns)
 *
 *   xsk_test --maps XSKS_ID CFG_ID IN OUT OBJ COUNT SEED RDR RDR_PEER
 *
 * does the same with OBJ already offloaded to IN (ip link ... nicprog):
 * the NIC's program hands the socket's frames to the host XSKMAP XSKS_ID
 * (the table that stands for it names it), CFG_ID is its cfg map on the
 * device. A key without a socket passes the frame on the host ("empty"
 * in the verdicts), and the detach is the offloaded program's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "afxdp.h"
#include "frame_lib.h"
#include "kselftest.h"

enum cls { C_XSK, C_EMPTY, C_DROP, C_TX, C_ABORT, C_REDIR, C_PASS, C_N };
static const uint16_t cls_port[C_N] = { 9000, 9001, 8000, 8001, 8002, 8003,
					7000 };

static uint32_t rnd_state;

static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return rnd_state >> 8;
}

/* A UDP frame to @dport of @len bytes, seeded payload. */
static void frame(uint8_t *f, uint16_t dport, int len)
{
	int i;

	fl_udp_frame(f, dport, len, 0);
	for (i = 42; i < len; i++)
		f[i] = rnd();
}

static int raw_socket(const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = htons(ETH_P_ALL) };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	sll.sll_ifindex = if_nametoindex(ifname);
	if (fd < 0 || !sll.sll_ifindex ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)))
		ksft_exit_fail_msg("packet socket on %s: %s\n", ifname,
				   strerror(errno));
	return fd;
}

/* The next frame in the socket, or -1 after @ms. */
static int recv_xsk(struct afxdp *x, uint8_t *buf, int ms)
{
	struct afxdp_frame f;
	int len;

	if (afxdp_wait(x, ms) != 1 || afxdp_peek(x, &f, 1) != 1)
		return -1;
	len = f.len > 2048 ? 2048 : f.len;
	memcpy(buf, f.data, len);
	afxdp_release(x);
	return len;
}

static struct bpf_object *load(const char *path, const char *in, int *prog_fd)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_program *prog;
	int err;

	if (!obj || libbpf_get_error(obj))
		ksft_exit_fail_msg("open %s\n", path);
	err = bpf_object__load(obj);
	prog = bpf_object__find_program_by_name(obj, "hostxdp");
	if (err || !prog)
		ksft_exit_fail_msg("load %s: %s\n", path, strerror(-err));
	*prog_fd = bpf_program__fd(prog);
	err = bpf_xdp_attach(if_nametoindex(in), *prog_fd,
			     XDP_FLAGS_DRV_MODE, NULL);
	if (err)
		ksft_exit_fail_msg("attach natively to %s: %s\n", in,
				   strerror(-err));
	return obj;
}

static void xsk_into_map(int map_fd, struct afxdp *x)
{
	int fd = afxdp_fd(x);
	uint32_t k = 0;

	if (bpf_map_update_elem(map_fd, &k, &fd, 0))
		ksft_exit_fail_msg("XSKMAP update: %s\n", strerror(errno));
}

/* A map by its ID (--maps), or the object's of @name. */
static int map_fd(struct bpf_object *obj, uint32_t id, const char *name)
{
	int fd = obj ? bpf_object__find_map_fd_by_name(obj, name) :
		       bpf_map_get_fd_by_id(id);

	if (fd < 0)
		ksft_exit_fail_msg("map %s (ID %u): %s\n", name, id,
				   strerror(errno));
	return fd;
}

static int hold(const char *in, const char *path)
{
	struct bpf_object *obj;
	char err[256], line[16];
	struct afxdp x;
	int prog_fd, r;

	obj = load(path, in, &prog_fd);
	if (afxdp_open(&x, in, 0, 64, err, sizeof(err)))
		ksft_exit_fail_msg("%s\n", err);
	xsk_into_map(map_fd(obj, 0, "xsks"), &x);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	r = afxdp_wait(&x, 100);
	printf("wait %d\n", r);
	afxdp_close(&x);
	bpf_object__close(obj);
	return 0;
}

int main(int argc, char **argv)
{
	const char *in, *out, *rdr, *rdr_peer;
	uint32_t count, i, n[C_N] = { 0 }, bad[C_N] = { 0 }, extra = 0;
	uint32_t xsks_id = 0, cfg_id = 0;
	uint8_t f[1514], g[2048];
	struct bpf_object *obj = NULL;
	int prog_fd, snd, out_fd, rdr_fd, len, got, mode, wait_ms, lost = 0;
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = 6 };
	uint64_t dropped = 1;
	struct afxdp x, y;
	char err[256];
	uint32_t k = 0, ifindex;
	enum cls c;

	if (argc == 4 && !strcmp(argv[1], "--hold"))
		return hold(argv[2], argv[3]);
	if (argc == 11 && !strcmp(argv[1], "--maps")) {
		xsks_id = strtoul(argv[2], NULL, 0);
		cfg_id = strtoul(argv[3], NULL, 0);
		if (!xsks_id || !cfg_id)
			ksft_exit_fail_msg("--maps: map IDs, not \"%s\" \"%s\"\n",
					   argv[2], argv[3]);
		argc -= 3;
		argv += 3;
	}
	if (argc != 8)
		ksft_exit_fail_msg("usage: xsk_test [--maps XSKS_ID CFG_ID] IN OUT OBJ COUNT SEED RDR RDR_PEER | --hold IN OBJ\n");
	in = argv[1], out = argv[2], rdr = argv[6], rdr_peer = argv[7];
	count = strtoul(argv[4], NULL, 0);
	rnd_state = strtoul(argv[5], NULL, 0);

	ksft_print_header();
	ksft_set_plan(7);
	if (!xsks_id)
		obj = load(argv[3], in, &prog_fd);
	mode = obj ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_HW_MODE;
	ifindex = if_nametoindex(rdr);
	if (bpf_map_update_elem(map_fd(obj, cfg_id, "cfg"), &k, &ifindex, 0))
		ksft_exit_fail_msg("cfg update: %s\n", strerror(errno));

	ksft_test_result(afxdp_open(&y, in, 1, 64, err, sizeof(err)) == -EINVAL,
			 "a socket on a queue the port does not have: EINVAL (%s)\n",
			 err);
	if (afxdp_open(&x, in, 0, 1024, err, sizeof(err)))
		ksft_exit_fail_msg("%s\n", err);
	xsk_into_map(map_fd(obj, xsks_id, "xsks"), &x);

	snd = socket(AF_PACKET, SOCK_RAW, 0);
	to.sll_ifindex = if_nametoindex(out);
	out_fd = raw_socket(out);
	rdr_fd = raw_socket(rdr_peer);
	if (snd < 0)
		ksft_exit_fail_msg("send socket: %s\n", strerror(errno));

	for (i = 0; i < count; i++) {
		/*
		 * A path that loses every frame would cost 2 s a frame: after
		 * a few losses, count the rest without waiting for them.
		 */
		wait_ms = lost < 3 ? 2000 : 0;
		c = rnd() % C_N;
		len = 60 + rnd() % (1514 - 60 + 1);
		frame(f, cls_port[c], len);
		n[c]++;
		if (sendto(snd, f, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != len)
			ksft_exit_fail_msg("send: %s\n", strerror(errno));
		switch (c) {
		case C_XSK:
			got = recv_xsk(&x, g, wait_ms);
			bad[c] += got != len || memcmp(f, g, len);
			break;
		case C_TX:
			got = fl_recv(out_fd, g, wait_ms);
			bad[c] += got != len || memcmp(g, f + 6, 6) ||
				  memcmp(g + 6, f, 6) ||
				  memcmp(g + 12, f + 12, len - 12);
			break;
		case C_REDIR:
			got = fl_recv(rdr_fd, g, wait_ms);
			bad[c] += got != len || memcmp(f, g, len);
			break;
		default:
			got = 0;
			break;
		}
		lost += got < 0;
	}
	/* anything more is a frame where none belongs */
	while (recv_xsk(&x, g, 200) >= 0 || fl_recv(out_fd, g, 0) >= 0 ||
	       fl_recv(rdr_fd, g, 0) >= 0)
		extra++;

	printf("verdicts drop %u pass %u tx %u redirect %u aborted %u xsk %u empty %u\n",
	       n[C_DROP], n[C_PASS] + n[C_EMPTY], n[C_TX], n[C_REDIR],
	       n[C_ABORT], n[C_XSK], n[C_EMPTY]);
	ksft_test_result(!bad[C_XSK] && n[C_XSK],
			 "%u frames to the socket arrived in order, byte for byte (%u wrong)\n",
			 n[C_XSK], bad[C_XSK]);
	ksft_test_result(!bad[C_TX] && n[C_TX],
			 "%u frames sent back arrived with their MACs swapped (%u wrong)\n",
			 n[C_TX], bad[C_TX]);
	ksft_test_result(!bad[C_REDIR] && n[C_REDIR],
			 "%u frames redirected out of %s arrived unchanged (%u wrong)\n",
			 n[C_REDIR], rdr, bad[C_REDIR]);
	ksft_test_result(!extra, "no frame arrived where none belongs (%u did)\n",
			 extra);
	ksft_test_result(!afxdp_dropped(&x, &dropped) && !dropped,
			 "the socket dropped nothing (%llu)\n",
			 (unsigned long long)dropped);
	ksft_test_result(!bpf_xdp_detach(if_nametoindex(in), mode, NULL),
			 "the program detaches with the socket bound\n");
	afxdp_close(&x);
	bpf_object__close(obj);
	ksft_finished();
}
