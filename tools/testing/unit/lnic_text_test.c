// SPDX-License-Identifier: GPL-2.0
/*
 * LNIC profile text, natively: the shipped profiles parse and survive a
 * write/read round trip unchanged; every malformed statement is refused
 * with its line and cause; and seeded random damage to a shipped profile
 * never crashes the parser (run under ASan/UBSan by lnic_text_test-asan)
 * and never yields an LNIC that fails validation.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>

#include <stdlib.h>
#include <time.h>

#include "kselftest_harness.h"

#ifndef PROFILE_DIR
#error "PROFILE_DIR: the directory of the shipped .lnic files"
#endif

static const char * const shipped[] = {
	"nicsim-generic", "nicsim-soc", "nicsim-nfp", "nicsim-pipeline", "nicsim-fpga",
};

static size_t read_profile(const char *name, char *buf, size_t size)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.lnic", PROFILE_DIR, name);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

static bool lnic_equal(const struct nicprog_lnic *a,
		       const struct nicprog_lnic *b)
{
	u32 i;

	if (strcmp(a->name, b->name) || a->n_units != b->n_units ||
	    a->n_regions != b->n_regions || a->n_hubs != b->n_hubs)
		return false;
	for (i = 0; i < a->n_units; i++) {
		struct nicprog_lnic_unit x = a->units[i], y = b->units[i];

		if (strcmp(x.name, y.name))
			return false;
		x.name = y.name = NULL;
		if (memcmp(&x, &y, sizeof(x)))
			return false;
	}
	for (i = 0; i < a->n_regions; i++)
		if (strcmp(a->regions[i].name, b->regions[i].name) ||
		    a->regions[i].size != b->regions[i].size ||
		    a->regions[i].latency_cycles !=
		    b->regions[i].latency_cycles ||
		    max(a->regions[i].banks, 1u) != max(b->regions[i].banks, 1u) ||
		    a->regions[i].bank_cycles != b->regions[i].bank_cycles ||
		    a->regions[i].cache_bytes != b->regions[i].cache_bytes ||
		    a->regions[i].cache_cycles != b->regions[i].cache_cycles ||
		    a->regions[i].island != b->regions[i].island ||
		    a->regions[i].interleave != b->regions[i].interleave)
			return false;
	for (i = 0; i < a->n_hubs; i++)
		if (strcmp(a->hubs[i].name, b->hubs[i].name) ||
		    a->hubs[i].capacity != b->hubs[i].capacity ||
		    a->hubs[i].from_mask != b->hubs[i].from_mask ||
		    a->hubs[i].to_mask != b->hubs[i].to_mask)
			return false;
	return true;
}

FIXTURE(text) {
	struct nicprog_lnic_text t, back;
	char buf[NICPROG_LNIC_TEXT_MAX + 1];
	char why[256];
};

FIXTURE_SETUP(text)
{
	memset(self->why, 0, sizeof(self->why));
}

FIXTURE_TEARDOWN(text)
{
}

/* The minimal valid profile the refusal cases below damage. */
#define BASE	"lnic t\n" \
		"region mem size 4K latency 2\n" \
		"unit core type core count 2 clock 800 insns 1K\n" \
		"\tcost alu=1,mul=1,div=1,branch=1,load=1,store=1,atomic=1,call=1\n" \
		"\tregions mem\n"

/* BASE with more keys on its region */
#define REGION(keys)	"lnic t\n" \
		"region mem size 4K latency 2 " keys "\n" \
		"unit core type core count 2 clock 800 insns 1K\n" \
		"\tcost alu=1,mul=1,div=1,branch=1,load=1,store=1,atomic=1,call=1\n" \
		"\tregions mem\n"
#define NOHIT	"region 0 (mem): a cache needs a hit latency below the region's 2 cycles, and a hit latency a cache"

static int parse(struct _test_data_text *self, const char *s)
{
	return nicprog_lnic_parse(s, strlen(s), &self->t, self->why,
				  sizeof(self->why));
}

TEST_F(text, shipped_round_trip)
{
	size_t n, m;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(shipped); i++) {
		n = read_profile(shipped[i], self->buf, sizeof(self->buf));
		ASSERT_LT(0, n) TH_LOG("%s.lnic not found in %s", shipped[i],
				       PROFILE_DIR);
		ASSERT_EQ(0, nicprog_lnic_parse(self->buf, n, &self->t,
						self->why, sizeof(self->why)))
			TH_LOG("%s: %s", shipped[i], self->why);
		EXPECT_STREQ(shipped[i], self->t.lnic.name);
		m = nicprog_lnic_format(&self->t.lnic, self->buf,
					sizeof(self->buf));
		ASSERT_LT(m, sizeof(self->buf));
		ASSERT_EQ(0, nicprog_lnic_parse(self->buf, m, &self->back,
						self->why, sizeof(self->why)))
			TH_LOG("%s written back: %s\n%s", shipped[i], self->why,
			       self->buf);
		EXPECT_TRUE(lnic_equal(&self->t.lnic, &self->back.lnic))
			TH_LOG("%s changed on the round trip:\n%s", shipped[i],
			       self->buf);
	}
}

TEST_F(text, generic_content)
{
	const struct nicprog_lnic *l = &self->t.lnic;
	size_t n;

	n = read_profile("nicsim-generic", self->buf, sizeof(self->buf));
	ASSERT_EQ(0, nicprog_lnic_parse(self->buf, n, &self->t, self->why,
					sizeof(self->why)));
	ASSERT_EQ(8, l->n_units);
	EXPECT_STREQ("core", l->units[0].name);
	EXPECT_EQ(16, l->units[0].count);
	EXPECT_EQ(4, l->units[0].threads);
	EXPECT_EQ(8192, l->units[0].insn_store);
	EXPECT_EQ(20, l->units[0].cost[NICPROG_IC_DIV]);
	EXPECT_EQ(0x3, l->units[0].region_mask);
	EXPECT_EQ(NICPROG_ACCEL_CRC, l->units[4].accel);
	EXPECT_EQ(16, l->units[4].count);
	EXPECT_EQ(1ULL << 30, l->regions[1].size);
	EXPECT_EQ(NICPROG_IL_UNKNOWN, l->regions[0].interleave);
	EXPECT_EQ(NICPROG_IL_HASH, l->regions[1].interleave);
	EXPECT_EQ(0x2, l->hubs[0].from_mask);
	EXPECT_EQ(0x1, l->hubs[0].to_mask);
}

TEST_F(text, comments_continuations_crlf)
{
	ASSERT_EQ(0, parse(self, "# head\r\nlnic t # name\r\n"
			   "region mem size 4K latency 2\r\n\r\n"
			   "unit core type core\r\n  count 2 clock 800\r\n"
			   "\tinsns 1K # store\r\n"
			   "\tcost alu=1,mul=1,div=1,branch=1,load=1,store=1,atomic=1,call=1\r\n"
			   "\tregions mem\r\n"))
		TH_LOG("%s", self->why);
	EXPECT_EQ(1024, self->t.lnic.units[0].insn_store);
	EXPECT_EQ(1, self->t.lnic.units[0].threads);
}

struct refusal {
	const char *text;
	const char *why;
};

TEST_F(text, refusals)
{
	static const struct refusal r[] = {
		{ "", "no \"lnic NAME\" statement" },
		{ "lnic\n", "line 1: \"lnic\" takes one word, the profile's name" },
		{ BASE "lnic u\n", "line 6: a second \"lnic\" statement" },
		{ BASE "frob x\n", "line 6: unknown statement \"frob\" (lnic, region, unit, hub)" },
		{ BASE "region\n", "line 6: \"region\" without a name" },
		{ BASE "region r size 1K latency\n", "line 6: \"latency\" has no value" },
		{ BASE "region r size 1K\n", "line 6: key \"latency\" missing" },
		{ BASE "region r size 1K latency 2 size 2K\n", "line 6: key \"size\" given twice" },
		{ BASE "region r size 1T latency 2\n", "line 6: size: \"1T\" is not a number (suffixes K, M, G)" },
		{ BASE "region r size 99999999999999999999 latency 2\n", "line 6: size: 99999999999999999999 out of range 0..18446744073709551615" },
		{ BASE "region r size 1K latency 4294967296\n", "line 6: latency: 4294967296 out of range 0..4294967295" },
		{ BASE "region r size 1K latency -1\n", "line 6: latency: \"-1\" is not a number" },
		{ BASE "region r/1 size 1K latency 2\n", "line 6: region name \"r/1\": only letters, digits, '_', '-' and '.'" },
		{ BASE "region abcdefghijklmnop size 1K latency 2\n", "line 6: region name \"abcdefghijklmnop...\" longer than 15 characters" },
		{ BASE "unit u type gpu count 1 clock 1\n", "line 6: type: unknown value \"gpu\"" },
		{ BASE "unit u type unspec count 1 clock 1\n", "line 6: type: unknown value \"unspec\"" },
		{ BASE "unit u type accel accel none count 1 clock 1 service 1\n", "line 6: accel: unknown value \"none\"" },
		{ BASE "unit u type mat count 1 clock 1 service 1 regions mem,nope\n", "line 6: no region \"nope\" defined above" },
		{ BASE "unit u type mat count 1 clock 1 service 1 cost alu\n", "line 6: cost: \"alu\" is not class=cycles" },
		{ BASE "unit u type mat count 1 clock 1 service 1 cost fpu=1\n", "line 6: cost: unknown value \"fpu\"" },
		{ BASE "unit u type mat count 1 clock 1 service 1 cost alu=65536\n", "line 6: alu: 65536 out of range 0..65535" },
		{ BASE "unit u type mat count 1 clock 1 service 1 threads 65536\n", "line 6: threads: 65536 out of range 0..65535" },
		{ BASE "unit u type mat count 1 clock 1 service 1 colour red\n", "line 6: unknown key \"colour\"" },
		{ BASE "hub h capacity 1 from core to ghost\n", "line 6: no unit \"ghost\" defined above" },
		{ BASE "hub h capacity 1 from core\n", "line 6: key \"to\" missing" },
		{ BASE "unit core type mat count 1 clock 1 service 1\n", "unit 1 (core): name already used by unit 0" },
		{ BASE "unit m type mat count 0 clock 1 service 1\n", "unit 1 (m): count 0 out of range 1..4096" },
		{ BASE "unit m type mat count 1 clock 1\n", "unit 1 (m): mat unit with a service time of 0 cycles" },
		{ "lnic t\nregion m size 1K latency 2\nunit c type core count 1 clock 1 insns 1K regions m\n", "unit 0 (c): cost of instruction class 0 is 0 cycles" },
		{ BASE "unit x type dma count 1 clock 1 service 1\x7f\n", "line 6: byte 0x7f is not printable ASCII" },
		{ BASE "\n\n  \tunit x\xc3\xa9 type dma\n", "line 8: byte 0xc3 is not printable ASCII" },
		{ REGION("banks 1025"), "region 0 (mem): 1025 banks, at most 1024" },
		{ REGION("cache 1000 hit 1"), "region 0 (mem): cache of 1000 bytes is not a multiple of 512 or is larger than the region" },
		{ REGION("cache 8K hit 1"), "region 0 (mem): cache of 8192 bytes is not a multiple of 512 or is larger than the region" },
		{ REGION("cache 1K"), NOHIT },
		{ REGION("hit 1"), NOHIT },
		{ REGION("cache 1K hit 2"), NOHIT },
		{ REGION("cache 1K hit 1 island 2"), "region 0 (mem): an island region has no cache and at most 4096 cores an island" },
		{ REGION("interleave modulo"), "line 2: interleave: unknown value \"modulo\"" },
		{ REGION("island 5000"), "region 0 (mem): an island region has no cache and at most 4096 cores an island" },
		{ REGION("island 1") "unit m type mat count 1 clock 1 service 1 regions mem\n",
		  "region 0 (mem): an island region is reached by cores only, not by unit 1 (m)" },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(r); i++) {
		memset(self->why, 0, sizeof(self->why));
		EXPECT_EQ(-EINVAL, parse(self, r[i].text))
			TH_LOG("case %u accepted:\n%s", i, r[i].text);
		EXPECT_STREQ(r[i].why, self->why)
			TH_LOG("case %u", i);
	}
}

TEST_F(text, nul_byte_and_size)
{
	static const char nul[] = "lnic t\0x\n";

	EXPECT_EQ(-EINVAL, nicprog_lnic_parse(nul, sizeof(nul) - 1, &self->t,
					      self->why, sizeof(self->why)));
	EXPECT_STREQ("line 1: byte 0x00 is not printable ASCII", self->why);
	memset(self->buf, ' ', sizeof(self->buf));
	EXPECT_EQ(-EINVAL, nicprog_lnic_parse(self->buf, sizeof(self->buf),
					      &self->t, self->why,
					      sizeof(self->why)));
	EXPECT_STREQ("profile of 65537 bytes, at most 65536",
		     self->why);
	/* no reason buffer: still refused */
	EXPECT_EQ(-EINVAL, nicprog_lnic_parse("x", 1, &self->t, NULL, 0));
}

TEST_F(text, format_measures_and_cuts)
{
	size_t n, m;
	char small[16];

	ASSERT_EQ(0, parse(self, BASE));
	n = nicprog_lnic_format(&self->t.lnic, NULL, 0);
	m = nicprog_lnic_format(&self->t.lnic, self->buf, sizeof(self->buf));
	EXPECT_EQ(n, m);
	EXPECT_EQ(n, strlen(self->buf));
	EXPECT_EQ(n, nicprog_lnic_format(&self->t.lnic, small, sizeof(small)));
	EXPECT_EQ(sizeof(small) - 1, strlen(small));
	EXPECT_EQ(0, strncmp(self->buf, small, sizeof(small) - 1));
}

/* xorshift64*: the same damage on every machine for a seed */
static u64 rnd(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

TEST_F(text, fuzz)
{
	static const char alphabet[] = " \t\n#,=KMG0123456789abcxyz-";
	const char *env = getenv("LNIC_FUZZ_RUNS");
	const char *env_seed = getenv("LNIC_FUZZ_SEED");
	u32 runs = env ? (u32)atoi(env) : 20000, r, k, edits, ok = 0;
	char orig[NICPROG_LNIC_TEXT_MAX];
	size_t n, len, at;
	u64 seed = env_seed ? strtoull(env_seed, NULL, 0) : (u64)time(NULL);
	char why[256];

	TH_LOG("seed %llu (LNIC_FUZZ_SEED=%llu replays it)",
	       (unsigned long long)seed, (unsigned long long)seed);
	seed |= 1;	/* xorshift never leaves 0 */
	n = read_profile("nicsim-generic", orig, sizeof(orig));
	ASSERT_LT(0, n);
	for (r = 0; r < runs; r++) {
		memcpy(self->buf, orig, n);
		len = n;
		edits = 1 + rnd(&seed) % 4;
		for (k = 0; k < edits && len; k++) {
			at = rnd(&seed) % len;
			switch (rnd(&seed) % 4) {
			case 0:		/* overwrite with a format character */
				self->buf[at] = alphabet[rnd(&seed) %
							 (sizeof(alphabet) - 1)];
				break;
			case 1:		/* any byte */
				self->buf[at] = (char)rnd(&seed);
				break;
			case 2:		/* delete */
				memmove(self->buf + at, self->buf + at + 1,
					len - at - 1);
				len--;
				break;
			default:	/* cut */
				len = at;
				break;
			}
		}
		memset(why, 0, sizeof(why));
		if (!nicprog_lnic_parse(self->buf, len, &self->t, why,
					sizeof(why))) {
			ok++;
			ASSERT_EQ(0, nicprog_lnic_validate(&self->t.lnic, why,
							   sizeof(why)));
		} else {
			ASSERT_NE(0, why[0]) TH_LOG("run %u: no reason", r);
		}
	}
	TH_LOG("%u of %u damaged profiles still parse", ok, runs);
}

TEST_HARNESS_MAIN
