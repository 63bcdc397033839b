// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads (tools/nicprog-plan/workload.c): the text format and its
 * refusals, the seeded expansion (the same frames every time, the mix and
 * the flows as asked, frames of the class they are drawn for), capture
 * files (tools/nicprog-plan/pcap.c, libpcap): pcap both ways, pcapng read.
 * Built with AddressSanitizer.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "workload.h"

static int parse(const char *text, struct np_workload *w, char *why)
{
	return np_workload_parse(text, strlen(text), w, why, 256);
}

#define SYN "workload t\nseed 5\nframes 4000\nflows 300 uniform\n" \
	    "mix tcp_syn 50 tcp 20 udp 20 icmp 5 arp 5\nsizes 64 3 1500 1\n"

TEST(parse_and_refuse)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "mix tcp 1\n", "a workload needs a mix and sizes with some weight" },
		{ "sizes 64 1\n", "a workload needs a mix and sizes" },
		{ "mix tcp 1\nsizes 59 1\n", "line 2: a size is 60 to 1514 bytes" },
		{ "mix tcp 1\nsizes 1515 1\n", "line 2: a size is 60 to 1514 bytes" },
		{ "\n\nmix sctp 1\n", "line 3: unknown class sctp" },
		{ "frames 0\n", "line 1: frames takes 1 to" },
		{ "flows 99999999\n", "line 1: flows takes 1 to 8388608" },
		{ "flows 10 zipf 0\n", "line 1: zipf takes an exponent above 0" },
		{ "flows 10 pareto 1\n", "line 1: cannot read \"flows\"" },
		{ "# ok\nrate -5\n", "line 2: cannot read \"rate\"" },
		{ "seed\n", "line 1: cannot read \"seed\"" },
		{ "color blue\n", "line 1: cannot read \"color\"" },
		{ "mix tcp 1 udp\n", "line 1: cannot read \"mix\"" },
	};
	struct np_workload w;
	char why[256];
	unsigned int i;

	ASSERT_EQ(0, parse(SYN, &w, why));
	EXPECT_STREQ("t", w.name);
	EXPECT_EQ(5, w.seed);
	EXPECT_EQ(4000, w.frames);
	EXPECT_EQ(300, w.flows);
	EXPECT_EQ(0, w.zipf);
	EXPECT_EQ(50, w.mix[NP_WL_TCP_SYN]);
	EXPECT_EQ(5, w.mix[NP_WL_ARP]);
	EXPECT_EQ(2, w.n_sizes);
	EXPECT_EQ(1500, w.size[1]);
	ASSERT_EQ(0, parse("mix udp 1\nsizes 60 1\nflows 9 zipf 1.5 # skew\n",
			   &w, why));
	EXPECT_EQ(1.5, w.zipf);
	EXPECT_EQ(10000, w.frames);	/* the default */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = 0;
		EXPECT_EQ(-1, parse(bad[i].text, &w, why));
		EXPECT_NE(NULL, strstr(why, bad[i].why)) {
			TH_LOG("%s: got \"%s\"", bad[i].text, why);
		}
	}
}

/* The expansion: reproducible, the mix and sizes as asked, classes true. */
TEST(expand)
{
	u32 cls[__NP_WL_CLASS_MAX] = { 0 }, i, len1500 = 0;
	struct np_frames a, b;
	struct np_workload w;
	char why[256];
	u8 seen[300] = { 0 };
	u32 flows = 0;
	const u8 *f;

	ASSERT_EQ(0, parse(SYN, &w, why));
	ASSERT_EQ(0, np_wl_expand(&w, &a, why, sizeof(why)));
	ASSERT_EQ(0, np_wl_expand(&w, &b, why, sizeof(why)));
	ASSERT_EQ(4000, a.n);
	for (i = 0; i < a.n; i++) {
		ASSERT_EQ(a.len[i], b.len[i]);
		ASSERT_EQ(0, memcmp(a.buf + a.off[i], b.buf + b.off[i],
				    a.len[i]));
		f = a.buf + a.off[i];
		cls[np_wl_classify(f, a.len[i])]++;
		len1500 += a.len[i] == 1500;
		if (f[12] == 8 && f[13] == 0 && f[26] == 10 &&
		    !seen[((f[27] & 0x7f) << 16 | f[28] << 8 | f[29]) % 300]++)
			flows++;
	}
	/* shares within 3 points of the mix's */
	EXPECT_LT(abs((int)cls[NP_WL_TCP_SYN] - 2000), 120);
	EXPECT_LT(abs((int)cls[NP_WL_TCP] - 800), 120);
	EXPECT_LT(abs((int)cls[NP_WL_UDP] - 800), 120);
	EXPECT_LT(abs((int)cls[NP_WL_ICMP] - 200), 120);
	EXPECT_LT(abs((int)cls[NP_WL_ARP] - 200), 120);
	EXPECT_EQ(0, cls[NP_WL_OTHER]);
	EXPECT_LT(abs((int)len1500 - 1000), 120);
	EXPECT_EQ(300, flows);		/* 4000 draws cover 300 flows */
	np_frames_free(&b);

	/* another seed: other frames */
	w.seed = 6;
	ASSERT_EQ(0, np_wl_expand(&w, &b, why, sizeof(why)));
	for (i = 0; i < a.n && a.len[i] == b.len[i] &&
	     !memcmp(a.buf + a.off[i], b.buf + b.off[i], a.len[i]); i++)
		;
	EXPECT_LT(i, 10);
	np_frames_free(&a);
	np_frames_free(&b);
}

/* Zipf: the most popular flow is far above its uniform share. */
TEST(zipf)
{
	static u32 count[1000];
	struct np_workload w;
	struct np_frames a;
	char why[256];
	u32 i, top = 0;
	const u8 *f;

	ASSERT_EQ(0, parse("frames 10000\nflows 1000 zipf 1.1\nmix udp 1\nsizes 64 1\n",
			   &w, why));
	ASSERT_EQ(0, np_wl_expand(&w, &a, why, sizeof(why)));
	for (i = 0; i < a.n; i++) {
		f = a.buf + a.off[i];
		count[(f[28] << 8 | f[29]) % 1000]++;
	}
	for (i = 0; i < 1000; i++)
		top = max(top, count[i]);
	/* rank 1 of Zipf(1.1) over 1000 flows: about 17% of the frames */
	EXPECT_GT(top, 1200);
	EXPECT_LT(top, 2200);
	np_frames_free(&a);
}

static bool same_frames(const struct np_frames *a, const struct np_frames *b)
{
	u32 i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->len[i] != b->len[i] ||
		    memcmp(a->buf + a->off[i], b->buf + b->off[i], a->len[i]))
			return false;
	return true;
}

/* A pcapng block of @type: its length, @body, padding, its length again. */
static void ng_block(FILE *f, u32 type, const void *body, u32 len)
{
	u32 total = 12 + ((len + 3) & ~3u);
	static const u8 pad[4];

	fwrite(&type, 4, 1, f);
	fwrite(&total, 4, 1, f);
	fwrite(body, len, 1, f);
	fwrite(pad, total - 12 - len, 1, f);
	fwrite(&total, 4, 1, f);
}

/* @fr as pcapng, as Wireshark writes it: section, interface, packets. */
static void ng_write(const char *path, const struct np_frames *fr, u16 link)
{
	static const u8 shb[16] = { 0x4d, 0x3c, 0x2b, 0x1a, 1, 0, 0, 0,
				    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				    0xff };
	u8 idb[8] = { link, link >> 8, 0, 0, 0, 0, 0, 0 }, epb[20 + 1514];
	FILE *f = fopen(path, "wb");
	u32 i, v;

	ng_block(f, 0x0a0d0d0a, shb, sizeof(shb));
	ng_block(f, 1, idb, sizeof(idb));
	for (i = 0; i < fr->n; i++) {
		memset(epb, 0, 20);
		v = i;				/* time stamp, low word */
		memcpy(epb + 8, &v, 4);
		memcpy(epb + 12, &fr->len[i], 4);
		memcpy(epb + 16, &fr->len[i], 4);
		memcpy(epb + 20, fr->buf + fr->off[i], fr->len[i]);
		ng_block(f, 6, epb, 20 + fr->len[i]);
	}
	fclose(f);
}

TEST(pcap)
{
	char path[] = "/tmp/workload_test.XXXXXX", why[256];
	struct np_workload w;
	struct np_frames a, b;
	int fd;
	FILE *f;

	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, parse(SYN, &w, why));
	ASSERT_EQ(0, np_wl_expand(&w, &a, why, sizeof(why)));
	ASSERT_EQ(0, np_pcap_write(path, &a, why, sizeof(why)));
	ASSERT_EQ(0, np_pcap_read(path, &b, why, sizeof(why)));
	ASSERT_TRUE(same_frames(&a, &b));
	np_frames_free(&b);

	/* cut short in a frame's bytes */
	ASSERT_EQ(0, truncate(path, 24 + 16 + a.len[0] + 16 + 10));
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "cut short after 1 frames"));
	EXPECT_EQ(NULL, b.buf);

	/* a snap length that cut the frames */
	f = fopen(path, "wb");
	ASSERT_NE(NULL, f);
	fwrite("\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\x40\0\0\0\x01\0\0\0"
	       "\0\0\0\0\0\0\0\0\x40\0\0\0\x80\0\0\0", 40, 1, f);
	fwrite(a.buf, 64, 1, f);	/* the 64 bytes it kept */
	fclose(f);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "frame 1: 64 bytes of 128 captured"));

	/* pcapng: the same frames; a broken section; not Ethernet */
	ng_write(path, &a, 1);
	ASSERT_EQ(0, np_pcap_read(path, &b, why, sizeof(why)));
	ASSERT_TRUE(same_frames(&a, &b));
	np_frames_free(&b);
	ng_write(path, &a, 113);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "link type 113, not Ethernet"));
	f = fopen(path, "wb");
	fwrite("\x0a\x0d\x0d\x0a\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 24, 1, f);
	fclose(f);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "not a pcap or pcapng file ("));
	EXPECT_EQ(NULL, b.buf);
	f = fopen(path, "wb");
	fwrite("GIF89a", 6, 1, f);
	fclose(f);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "not a pcap or pcapng file ("));
	f = fopen(path, "wb");
	fwrite("\xd4\xc3\xb2\xa1\x02\x00\x04\x00\0\0\0\0\0\0\0\0\xff\xff\0\0\x71\0\0\0", 24, 1, f);
	fclose(f);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "link type 113, not Ethernet"));
	/* no frames */
	ASSERT_EQ(0, truncate(path, 24));
	f = fopen(path, "r+b");
	fseek(f, 20, SEEK_SET);
	fwrite("\x01\0\0\0", 4, 1, f);
	fclose(f);
	EXPECT_EQ(-1, np_pcap_read(path, &b, why, sizeof(why)));
	EXPECT_NE(NULL, strstr(why, "no frames"));
	unlink(path);
	np_frames_free(&a);
}

TEST_HARNESS_MAIN
