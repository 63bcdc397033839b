// SPDX-License-Identifier: GPL-2.0
/*
 * nclkv - a key-value store behind the switch's in-network cache
 * (bpf/ncl/kvcache.c; the contract is bpf/ncl/kvcache.h).
 *
 *   nclkv server LABEL ITEMS SLOTS SWITCH_ADDR SEED IDLE_S
 *	the storage server, label number LABEL (the one the description
 *	names as the cache's server, "serve 2 hN"): ITEMS keys (0 .. ITEMS - 1), each at version 1
 *	with a value from SEED; answers GETs that miss the cache and PUTs,
 *	and fills the switch's SLOTS cache slots with what was read (evicting
 *	round-robin); ends after IDLE_S seconds without a request and prints
 *	what it served
 *   nclkv client SENDER SERVER_ADDR ITEMS OPS PUT_PCT SEED [-z ZIPF]
 *	OPS requests, one at a time, PUT_PCT percent PUTs, keys uniform or
 *	Zipf(ZIPF); checks that no GET returns a value older than this
 *	client's last acknowledged PUT of the key, and that every value is
 *	whole; prints its counts and median GET latencies, exits 0 only if
 *	nothing was wrong
 *
 * A value is self-describing: its first 8 bytes are the key, the next 8 a
 * tag, the rest a function of the tag, so that a value torn between two
 * writes shows.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "../lib/ncl/ncl.h"
#include "../../bpf/ncl/kvcache.h"

static const uint32_t kv_elem[NCL_ARGS_MAX] = { NCL_KV_KEY, NCL_KV_VALUE };

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void value_make(uint8_t *v, uint64_t key, uint64_t tag)
{
	uint64_t w[NCL_KV_VALUE / 8];
	unsigned int i;

	w[0] = key;
	w[1] = tag;
	for (i = 2; i < NCL_KV_VALUE / 8; i++)
		w[i] = splitmix64(tag * 31 + i);
	memcpy(v, w, sizeof(w));
}

static int value_whole(const uint8_t *v, uint64_t key, uint64_t *tag)
{
	uint8_t want[NCL_KV_VALUE];

	memcpy(tag, v + 8, 8);
	value_make(want, key, *tag);
	return !memcmp(v, want, NCL_KV_VALUE);
}

/* Send one window: op, key, value (NULL: zeros, or no value for EVICT). */
static int kv_send(int fd, const struct sockaddr_in *to, uint16_t sender,
		   uint32_t op, uint64_t key, const uint8_t *value,
		   uint32_t version, uint32_t reqid, uint32_t slot)
{
	static const uint8_t zero[NCL_KV_VALUE];
	uint8_t buf[NCL_FRAME_MAX];
	struct ncl_frame f = {
		.kernel = NCL_KV_KERNEL,
		.mask = op == NCL_KV_EVICT ? 1 : 3,
		.offset = { reqid, slot },
		.sender = sender,
		.len = 1,
		.user = { op, version },
		.data = { &key, value ? value : zero },
		.elem_bytes = { NCL_KV_KEY, NCL_KV_VALUE },
	};
	size_t n;

	if (op == NCL_KV_REPLY || op == NCL_KV_PUT_ACK)
		f.flags = NCP_F_RESULT;
	n = ncl_encode(buf, sizeof(buf), &f);
	return sendto(fd, buf, n, 0, (const struct sockaddr *)to,
		      sizeof(*to)) == (ssize_t)n ? 0 : -errno;
}

static int kv_socket(void)
{
	struct sockaddr_in me = {
		.sin_family = AF_INET,
		.sin_port = htons(NCL_UDP_PORT),
	};
	int fd = socket(AF_INET, SOCK_DGRAM, 0), size = 4 << 20;

	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		fprintf(stderr, "nclkv: UDP port %u: %s\n", NCL_UDP_PORT,
			strerror(errno));
		exit(1);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	return fd;
}

static int server(uint32_t label, uint64_t items, uint32_t slots,
		  const char *sw_addr, uint64_t seed, int idle_s)
{
	struct sockaddr_in sw = { .sin_family = AF_INET,
				  .sin_port = htons(NCL_UDP_PORT) };
	uint64_t gets = 0, puts = 0, fills = 0, evicts = 0, k, hand = 0;
	uint64_t *version, *tag, *slot_key, *last_put;
	uint8_t buf[2048], val[NCL_KV_VALUE];
	struct pollfd pfd;
	struct sockaddr_in from;
	socklen_t fl;
	struct ncl_frame f;
	int64_t *slot_of;
	uint32_t op, s;
	ssize_t n;
	int fd;

	if (inet_pton(AF_INET, sw_addr, &sw.sin_addr) != 1 || !items ||
	    !slots || slots > NCL_KV_SLOTS || !label || label > 65535) {
		fprintf(stderr, "nclkv: bad server arguments (LABEL 1 to 65535, SLOTS 1 to %u)\n",
			NCL_KV_SLOTS);
		return 2;
	}
	version = calloc(items, sizeof(*version));
	tag = calloc(items, sizeof(*tag));
	slot_of = malloc(items * sizeof(*slot_of));
	slot_key = malloc(slots * sizeof(*slot_key));
	last_put = calloc(65536, sizeof(*last_put));
	if (!version || !tag || !slot_of || !slot_key || !last_put)
		return 1;
	for (k = 0; k < items; k++) {
		version[k] = 1;
		tag[k] = splitmix64(seed ^ k);
		slot_of[k] = -1;
	}
	for (s = 0; s < slots; s++)
		slot_key[s] = UINT64_MAX;
	fd = kv_socket();
	pfd.fd = fd;
	pfd.events = POLLIN;
	printf("ready\n");
	fflush(stdout);
	while (poll(&pfd, 1, idle_s * 1000) > 0) {
		fl = sizeof(from);
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &fl);
		if (n < 0 || ncl_decode(buf, (size_t)n, kv_elem, &f) ||
		    f.kernel != NCL_KV_KERNEL || f.mask != 3 || f.len != 1)
			continue;
		memcpy(&k, f.data[0], 8);
		op = f.user[0];
		if (k >= items)
			continue;
		if (op == NCL_KV_GET) {
			gets++;
			value_make(val, k, tag[k]);
			kv_send(fd, &from, (uint16_t)label, NCL_KV_REPLY, k, val,
				(uint32_t)version[k], f.offset[0], 0);
			/* refill: the key's slot, or the next one round-robin */
			if (slot_of[k] < 0) {
				s = (uint32_t)(hand++ % slots);
				if (slot_key[s] != UINT64_MAX) {
					kv_send(fd, &sw, (uint16_t)label, NCL_KV_EVICT,
						slot_key[s], NULL, 0, 0, 0);
					slot_of[slot_key[s]] = -1;
					evicts++;
				}
				slot_of[k] = s;
				slot_key[s] = k;
			}
			kv_send(fd, &sw, (uint16_t)label, NCL_KV_FILL, k, val,
				(uint32_t)version[k], 0, (uint32_t)slot_of[k]);
			fills++;
		} else if (op == NCL_KV_PUT) {
			/* a resent PUT (same sender and request) counts once */
			if (last_put[f.sender] != f.offset[0] + 1ull) {
				last_put[f.sender] = f.offset[0] + 1ull;
				if (!value_whole(f.data[1], k, &tag[k]))
					continue;
				version[k]++;
				puts++;
			}
			/* the switch removed it from its index */
			if (slot_of[k] >= 0) {
				slot_key[slot_of[k]] = UINT64_MAX;
				slot_of[k] = -1;
			}
			kv_send(fd, &from, (uint16_t)label, NCL_KV_PUT_ACK, k, NULL,
				(uint32_t)version[k], f.offset[0], 0);
		}
	}
	printf("nclkv server: gets %llu puts %llu fills %llu evicts %llu\n",
	       (unsigned long long)gets, (unsigned long long)puts,
	       (unsigned long long)fills, (unsigned long long)evicts);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, uint64_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

/* The cumulative weights of keys 0..@items - 1 under Zipf's law @s. */
static double *zipf_cdf(uint64_t items, double s, double *sum)
{
	double *cdf = malloc(items * sizeof(*cdf));
	uint64_t k;

	if (!cdf)
		return NULL;
	for (k = 0, *sum = 0; k < items; k++) {
		*sum += 1.0 / pow((double)(k + 1), s);
		cdf[k] = *sum;
	}
	return cdf;
}

/* A key from the random word @rnd: uniform, or by @cdf (total @sum). */
static uint64_t draw_key(const double *cdf, double sum, uint64_t items,
			 uint64_t rnd)
{
	uint32_t lo = 0, hi = (uint32_t)items - 1, mid;
	double u;

	if (!cdf)
		return rnd % items;
	u = (double)(rnd >> 11) / 9007199254740992.0 * sum;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int client(int argc, char **argv)
{
	uint64_t items, ops, seed, i, k, rnd, t0, *acked, *mytag, ver, tg;
	uint64_t gets = 0, hits = 0, misses = 0, puts = 0, bad = 0, retries = 0;
	uint64_t *hit_ns, *miss_ns, *get_ns, nh = 0, nm = 0, ng = 0;
	struct sockaddr_in srv = { .sin_family = AF_INET,
				   .sin_port = htons(NCL_UDP_PORT) };
	uint8_t buf[2048], val[NCL_KV_VALUE];
	double zipf = 0, *cdf = NULL, sum = 0;
	uint32_t sender, put_pct, op, want;
	struct pollfd pfd;
	struct ncl_frame f;
	int c, fd, tries, got;
	ssize_t n;

	while ((c = getopt(argc, argv, "z:")) != -1) {
		if (c != 'z')
			return 2;
		zipf = strtod(optarg, NULL);
	}
	if (argc - optind != 6)
		return 2;
	sender = strtoul(argv[optind], NULL, 0);
	items = strtoull(argv[optind + 2], NULL, 0);
	ops = strtoull(argv[optind + 3], NULL, 0);
	put_pct = strtoul(argv[optind + 4], NULL, 0);
	seed = strtoull(argv[optind + 5], NULL, 0);
	if (inet_pton(AF_INET, argv[optind + 1], &srv.sin_addr) != 1 ||
	    !sender || sender > 65535 || !items || put_pct > 100)
		return 2;
	acked = calloc(items, sizeof(*acked));
	mytag = calloc(items, sizeof(*mytag));
	hit_ns = calloc(ops + 1, sizeof(*hit_ns));
	miss_ns = calloc(ops + 1, sizeof(*miss_ns));
	get_ns = calloc(ops + 1, sizeof(*get_ns));
	if (!acked || !mytag || !hit_ns || !miss_ns || !get_ns)
		return 1;
	if (zipf > 0) {
		cdf = zipf_cdf(items, zipf, &sum);
		if (!cdf)
			return 1;
	}
	fd = kv_socket();
	pfd.fd = fd;
	pfd.events = POLLIN;
	rnd = seed ^ ((uint64_t)sender << 48);
	for (i = 0; i < ops; i++) {
		rnd = splitmix64(rnd);
		k = draw_key(cdf, sum, items, rnd);
		op = (splitmix64(rnd) % 100) < put_pct ? NCL_KV_PUT : NCL_KV_GET;
		if (op == NCL_KV_PUT) {
			mytag[k] = splitmix64(rnd ^ 0x5555);
			value_make(val, k, mytag[k]);
		}
		t0 = now_ns();
		for (tries = 0, got = 0; tries < 20 && !got; tries++) {
			if (tries)
				retries++;
			kv_send(fd, &srv, (uint16_t)sender, op, k,
				op == NCL_KV_PUT ? val : NULL, 0, (uint32_t)i, 0);
			while (!got && poll(&pfd, 1, 1000) > 0) {
				n = recv(fd, buf, sizeof(buf), 0);
				if (n < 0 || ncl_decode(buf, (size_t)n, kv_elem, &f) ||
				    f.kernel != NCL_KV_KERNEL || f.offset[0] != (uint32_t)i ||
				    f.mask != 3)
					continue;
				want = op == NCL_KV_PUT ? NCL_KV_PUT_ACK : 0;
				if (want && f.user[0] == want) {
					got = 1;
					puts++;
					if (f.user[1] > acked[k])
						acked[k] = f.user[1];
				} else if (!want && (f.user[0] == NCL_KV_HIT ||
						     f.user[0] == NCL_KV_REPLY)) {
					got = 1;
					gets++;
					ver = f.user[1];
					if (f.user[0] == NCL_KV_HIT) {
						hits++;
						hit_ns[nh++] = now_ns() - t0;
					} else {
						misses++;
						miss_ns[nm++] = now_ns() - t0;
					}
					get_ns[ng++] = now_ns() - t0;
					if (!value_whole(f.data[1], k, &tg) ||
					    ver < acked[k] ||
					    (ver == acked[k] && acked[k] && tg != mytag[k])) {
						if (bad++ < 5)
							printf("nclkv client: key %llu: %s version %llu, last acknowledged PUT %llu\n",
							       (unsigned long long)k,
							       f.user[0] == NCL_KV_HIT ? "hit" : "miss",
							       (unsigned long long)ver,
							       (unsigned long long)acked[k]);
					}
				}
			}
		}
		if (!got) {
			printf("nclkv client: request %llu unanswered\n",
			       (unsigned long long)i);
			return 1;
		}
	}
	printf("nclkv client: ops %llu gets %llu hits %llu misses %llu puts %llu wrong %llu retries %llu hit_p50_ns %llu miss_p50_ns %llu get_p50_ns %llu\n",
	       (unsigned long long)ops, (unsigned long long)gets,
	       (unsigned long long)hits, (unsigned long long)misses,
	       (unsigned long long)puts, (unsigned long long)bad,
	       (unsigned long long)retries,
	       (unsigned long long)median(hit_ns, nh),
	       (unsigned long long)median(miss_ns, nm),
	       (unsigned long long)median(get_ns, ng));
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (argc == 8 && !strcmp(argv[1], "server"))
		rc = server(strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0),
			    strtoul(argv[4], NULL, 0), argv[5],
			    strtoull(argv[6], NULL, 0), atoi(argv[7]));
	else if (argc > 1 && !strcmp(argv[1], "client"))
		rc = client(argc - 1, argv + 1);
	if (rc == 2)
		fprintf(stderr, "usage: nclkv server LABEL ITEMS SLOTS SWITCH_ADDR SEED IDLE_S\n"
				"       nclkv client SENDER SERVER_ADDR ITEMS OPS PUT_PCT SEED [-z ZIPF]\n");
	return rc;
}
