// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz - the nicprog generic netlink family against random requests
 * (selftests/nicprog/fuzz.sh):
 *
 *   nl_fuzz SEED ROUNDS PROFILE_TEXT IFNAME...
 *
 * Each round is one request: one of the family's operations, or now and
 * then any other command (a notification's, an unknown one); a do or a
 * dump; now and then
 * a wrong family version or reserved field; zero to seven attributes of
 * types in and past the operation's set, with flags the policy forbids,
 * every payload size, integers that name the given ports or nothing,
 * strings terminated or not and too long, nests of garbage, and profile
 * text: PROFILE_TEXT (a file) with a few bytes changed, or too much of
 * it. The kernel must answer every request -- data, an ACK or an error
 * -- within 5 s, and the family must still describe the first port
 * correctly at the end. Prints how the requests ended, by errno.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/nicprog.h>

#include "kselftest.h"
#include "nl.h"

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (rng * 0x2545f4914f6cdd1dULL) >> 32;
}

static char *text;		/* the profile text */
static size_t text_len;
static const char **ports;
static uint32_t n_ports;

/* The highest attribute type of the set an operation's request uses. */
static uint16_t set_max(uint8_t cmd)
{
	switch (cmd) {
	case NICPROG_CMD_PROG_GET:
	case NICPROG_CMD_PREDICT:
		return NICPROG_A_PROG_MAX;
	case NICPROG_CMD_STATS_GET:
		return NICPROG_A_STATS_MAX;
	default:
		return NICPROG_A_DEV_MAX;
	}
}

/* An integer an attribute may carry: a port's index, or anything. */
static uint64_t some_int(void)
{
	switch (rnd() % 6) {
	case 0:
		return if_nametoindex(ports[rnd() % n_ports]);
	case 1:
		return 0;
	case 2:
		return rnd() % 8;
	case 3:
		return ~0ULL >> (rnd() % 64);
	default:
		return ((uint64_t)rnd() << 32) | rnd();
	}
}

static uint32_t min_len(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Bytes an attribute may still take in the request's buffer. */
static uint32_t room(const struct nlmsghdr *nlh)
{
	uint32_t used = nlh->nlmsg_len + 2 * MNL_ATTR_HDRLEN + 256;

	return used < NL_BUF_SIZE ? NL_BUF_SIZE - used : 0;
}

/* One attribute of type @type with a random payload, or payload @how. */
static void put_attr(struct nlmsghdr *nlh, uint16_t type, int depth,
		     int how)
{
	static char junk[70000];
	struct nlattr *nest;
	uint32_t len, i, n;
	uint64_t v;

	if (room(nlh) < 128)
		return;
	switch (how < 0 ? (int)(rnd() % 10) : how) {
	case 0:
		mnl_attr_put_u8(nlh, type, some_int());
		break;
	case 1:
		mnl_attr_put_u32(nlh, type, some_int());
		break;
	case 2:
		v = some_int();
		mnl_attr_put(nlh, type, sizeof(v), &v);
		break;
	case 3:
		mnl_attr_put_strz(nlh, type, ports[rnd() % n_ports]);
		break;
	case 4:		/* a string unterminated, or past IFNAMSIZ */
		len = 1 + rnd() % 40;
		memset(junk, 'a' + rnd() % 26, len);
		mnl_attr_put(nlh, type, len, junk);
		break;
	case 5:		/* a nest of garbage */
		if (depth > 2)
			break;
		nest = mnl_attr_nest_start(nlh, type);
		for (n = rnd() % 4, i = 0; i < n; i++)
			put_attr(nlh, rnd() % 24, depth + 1, -1);
		mnl_attr_nest_end(nlh, nest);
		break;
	case 6:		/* profile text, a few bytes changed */
		len = text_len;
		memcpy(junk, text, len);
		for (n = rnd() % 5, i = 0; i < n && len; i++)
			junk[rnd() % len] = rnd() % 4 ? "0123456789 #=,\nx"[rnd() % 16] :
							(char)rnd();
		if (rnd() % 4 == 0)
			len = rnd() % (len + 1);
		mnl_attr_put(nlh, type, min_len(len, room(nlh)), junk);
		break;
	case 7:		/* more than a policy takes */
		len = rnd() % 4 ? 65532 + rnd() % 8 : rnd() % sizeof(junk);
		len = min_len(len, room(nlh));
		for (i = 0; i < len; i++)
			junk[i] = "lnic x\n"[i % 7];
		mnl_attr_put(nlh, type, len, junk);
		break;
	default:	/* bytes, any length up to 64 */
		len = rnd() % 65;
		for (i = 0; i < len; i++)
			junk[i] = rnd();
		mnl_attr_put(nlh, type, len, junk);
	}
}

/* A request's attribute type: the set's, past it, with a flag or not. */
static uint16_t some_type(uint8_t cmd)
{
	uint16_t t = rnd() % (set_max(cmd) + 4);

	if (rnd() % 16 == 0)
		t |= rnd() % 2 ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
	return t;
}

/*
 * An attribute an operation takes, of the right kind with a value in or
 * out of range: requests that pass the policy reach the handlers.
 */
static void put_valid(struct nlmsghdr *nlh, uint8_t cmd)
{
	static const char *const profiles[] = {
		"nicsim-generic", "nicsim-soc", "nicsim-nfp", "nicsim-pipeline",
		"nicsim-fpga", "nosuch", "../etc/passwd", "",
	};
	bool prog = set_max(cmd) == NICPROG_A_PROG_MAX;

	if (room(nlh) < 128)
		return;
	switch (rnd() % 6) {
	case 0:		/* the port by index */
		mnl_attr_put_u32(nlh, 1, if_nametoindex(ports[rnd() % n_ports]));
		break;
	case 1:		/* a shape */
		mnl_attr_put_u8(nlh, prog ? NICPROG_A_PROG_SHAPE_ASKED :
					    NICPROG_A_DEV_PLAN_SHAPE, rnd() % 7);
		break;
	case 2:		/* cores, a budget */
		mnl_attr_put_u32(nlh, prog ? NICPROG_A_PROG_BUDGET :
					     NICPROG_A_DEV_PLAN_CORES,
				 rnd() % 2 ? rnd() % 20 : rnd());
		break;
	case 3:
		if (prog)
			mnl_attr_put_u32(nlh, NICPROG_A_PROG_FD, rnd() % 8);
		else
			mnl_attr_put_u8(nlh, NICPROG_A_DEV_PLAN_PARTIAL,
					rnd() % 3);
		break;
	case 4:
		if (prog)
			mnl_attr_put_u64(nlh, NICPROG_A_PROG_RATE, some_int());
		else
			mnl_attr_put_strz(nlh, NICPROG_A_DEV_PROFILE,
					  profiles[rnd() % 8]);
		break;
	default:	/* profile text, mutated */
		put_attr(nlh, NICPROG_A_DEV_LNIC_TEXT, 0, 6);
	}
}

#define ERRNOS	140

/* The family's operations (the rest of its commands are notifications). */
static const uint8_t ops[] = {
	NICPROG_CMD_DEV_GET, NICPROG_CMD_DEV_SET, NICPROG_CMD_PROG_GET,
	NICPROG_CMD_STATS_GET, NICPROG_CMD_PROFILE_SET, NICPROG_CMD_PREDICT,
	NICPROG_CMD_TABLE_SET,
};

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NICPROG_A_DEV_MAX + 1];

	nl_attrs(nlh, tb, NICPROG_A_DEV_MAX);
	if (tb[NICPROG_A_DEV_IFINDEX])
		*(uint32_t *)data = mnl_attr_get_u32(tb[NICPROG_A_DEV_IFINDEX]);
	return MNL_CB_OK;
}

int main(int argc, char **argv)
{
	static struct nl nl;
	unsigned long rounds, r, ends[ERRNOS + 1] = { 0 };
	struct timeval tv = { .tv_sec = 5 };
	struct genlmsghdr *g;
	struct nlmsghdr *nlh;
	uint32_t n, i, lost = 0, ifindex = 0;
	uint8_t cmd;
	FILE *f;
	int err;

	if (argc < 5)
		ksft_exit_fail_msg("usage: nl_fuzz SEED ROUNDS PROFILE_TEXT IFNAME...\n");
	rng = strtoull(argv[1], NULL, 0) * 2654435761ULL + 1;
	rounds = strtoul(argv[2], NULL, 0);
	f = fopen(argv[3], "r");
	text = malloc(65536);
	if (!f || !text)
		ksft_exit_fail_msg("%s: %s\n", argv[3], strerror(errno));
	text_len = fread(text, 1, 65536, f);
	fclose(f);
	ports = (const char **)argv + 4;
	n_ports = argc - 4;

	ksft_print_header();
	ksft_set_plan(2);
	err = nl_open(&nl);
	if (err)
		ksft_exit_fail_msg("the nicprog family: %s\n", strerror(-err));
	setsockopt(mnl_socket_get_fd(nl.sock), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	for (r = 0; r < rounds; r++) {
		cmd = rnd() % 8 ? ops[rnd() % 6] : rnd() % 64;
		nlh = nl_msg(&nl, cmd, rnd() % 4 ? 0 : NLM_F_DUMP);
		g = mnl_nlmsg_get_payload(nlh);
		if (rnd() % 32 == 0)
			g->version = rnd() % 3;
		if (rnd() % 32 == 0)
			g->reserved = rnd();
		/* mostly the port by name first: the handlers get to work */
		if (rnd() % 4)
			mnl_attr_put_strz(nlh, 2, ports[rnd() % n_ports]);
		for (n = rnd() % 6, i = 0; i < n; i++) {
			if (rnd() % 2)
				put_valid(nlh, cmd);
			else
				put_attr(nlh, some_type(cmd), 0, -1);
		}
		err = nl_run(&nl, nlh, NULL, NULL);
		if (err == -EAGAIN) {
			ksft_print_msg("round %lu: command %u, no answer in 5 s\n",
				       r, cmd);
			lost++;
		}
		ends[-err < ERRNOS && err <= 0 ? -err : ERRNOS]++;
	}
	for (i = 0; i <= ERRNOS; i++)
		if (ends[i])
			ksft_print_msg("%lu %s\n", ends[i],
				       i == ERRNOS ? "other results" :
				       i ? strerror(i) : "succeeded");
	ksft_test_result(!lost, "%lu random requests, every one answered\n",
			 rounds);

	/* the family still works: the first port, by name, as it is */
	nlh = nl_msg(&nl, NICPROG_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, NICPROG_A_DEV_IFNAME, ports[0]);
	err = nl_run(&nl, nlh, dev_cb, &ifindex);
	ksft_test_result(!err && ifindex == if_nametoindex(ports[0]),
			 "dev-get of %s still answers, with its ifindex %u\n",
			 ports[0], ifindex);
	nl_close(&nl);
	ksft_finished();
	return 0;
}
