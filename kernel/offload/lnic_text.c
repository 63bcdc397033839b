// SPDX-License-Identifier: GPL-2.0
/*
 * LNIC profiles as text. A profile is data: a driver ships it as a file,
 * micro-benchmarks write one, and the offline planner reads the file the
 * NIC was created with, so the parser and the writer build in userspace
 * too. The format is documented in Documentation/nicprog/lnic.rst: one
 * statement per line ("lnic", "region", "unit", "hub"), a line that starts
 * with white space continues the one before, '#' comments to the end of
 * the line. Input is untrusted (a sysfs write, a firmware file): every
 * error is an -EINVAL with the line and the word that caused it.
 */
#include "compat.h"
#include <net/nicprog_lnic.h>

#define LT_MAX_WORDS	48	/* per statement */

struct lt_word {
	u32 off;
	u32 len;
};

struct lt {
	const char *text;
	struct nicprog_lnic_text *out;
	char *why;
	size_t why_len;
	struct lt_word w[LT_MAX_WORDS];
	u32 n;
	u32 line;
};

enum lt_val { LT_NUM, LT_SIZE, LT_UTYPE, LT_ATYPE, LT_COST, LT_REGIONS,
	      LT_UNITS, LT_INTERLEAVE };

/**
 * struct lt_key - one key of a statement
 * @key: the word
 * @stmt: 'r' region, 'u' unit, 'h' hub
 * @val: how its value is read
 * @required: the statement is incomplete without it
 * @field: the field, in the statement's zeroed instance (lt_base())
 * @width: bytes of the field
 */
struct lt_key {
	const char *key;
	char stmt;
	u8 val;
	bool required;
	const void *field;
	u8 width;
};

/*
 * A key names its field once, as a member of a zeroed instance of its
 * statement's struct: the member's address there gives the offset and
 * its size the width, which so cannot disagree.
 */
static const struct nicprog_lnic_region lt_r;
static const struct nicprog_lnic_unit lt_u;
static const struct nicprog_lnic_hub lt_h;

#define LT_KEY(k, s, v, req, m) { k, s, v, req, &(m), sizeof(m) }
#define LT_R(k, v, req, f) LT_KEY(k, 'r', v, req, lt_r.f)
#define LT_U(k, v, req, f) LT_KEY(k, 'u', v, req, lt_u.f)
#define LT_H(k, v, req, f) LT_KEY(k, 'h', v, req, lt_h.f)

/* The offset of @k's field in its statement's struct. */
static size_t lt_off(const struct lt_key *k)
{
	const void *base = k->stmt == 'r' ? (const void *)&lt_r :
			   k->stmt == 'u' ? (const void *)&lt_u :
					    (const void *)&lt_h;

	return (const u8 *)k->field - (const u8 *)base;
}

static const struct lt_key lt_keys[] = {
	LT_R("size", LT_SIZE, true, size),
	LT_R("latency", LT_NUM, true, latency_cycles),
	LT_R("banks", LT_NUM, false, banks),
	LT_R("busy", LT_NUM, false, bank_cycles),
	LT_R("cache", LT_SIZE, false, cache_bytes),
	LT_R("hit", LT_NUM, false, cache_cycles),
	LT_R("island", LT_NUM, false, island),
	LT_R("interleave", LT_INTERLEAVE, false, interleave),
	LT_U("type", LT_UTYPE, true, type),
	LT_U("accel", LT_ATYPE, false, accel),
	LT_U("count", LT_NUM, true, count),
	LT_U("threads", LT_NUM, false, threads),
	LT_U("clock", LT_NUM, true, clock_mhz),
	LT_U("insns", LT_SIZE, false, insn_store),
	LT_U("cost", LT_COST, false, cost),
	LT_U("service", LT_NUM, false, service_cycles),
	LT_U("per_kib", LT_NUM, false, cycles_per_kib),
	LT_U("regions", LT_REGIONS, false, region_mask),
	LT_H("capacity", LT_NUM, true, capacity),
	LT_H("from", LT_UNITS, true, from_mask),
	LT_H("to", LT_UNITS, true, to_mask),
};

static const char * const lt_ic_names[__NICPROG_IC_MAX] = {
	[NICPROG_IC_ALU] = "alu", [NICPROG_IC_MUL] = "mul",
	[NICPROG_IC_DIV] = "div", [NICPROG_IC_BRANCH] = "branch",
	[NICPROG_IC_LOAD] = "load", [NICPROG_IC_STORE] = "store",
	[NICPROG_IC_ATOMIC] = "atomic", [NICPROG_IC_CALL] = "call",
};

static int lt_bad(struct lt *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!p->why || !p->why_len)
		return -EINVAL;
	n = p->line ? snprintf(p->why, p->why_len, "line %u: ", p->line) : 0;
	if (n >= 0 && (size_t)n < p->why_len) {
		va_start(ap, fmt);
		vsnprintf(p->why + n, p->why_len - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool lt_is(const struct lt *p, const struct lt_word *w, const char *s)
{
	return strlen(s) == w->len && !memcmp(p->text + w->off, s, w->len);
}

/* Word @w as a C string in @buf, cut at @size - 1 bytes (for messages). */
static const char *lt_str(const struct lt *p, const struct lt_word *w,
			  char *buf, size_t size)
{
	size_t n = min_t(size_t, w->len, size - 1);

	memcpy(buf, p->text + w->off, n);
	buf[n] = '\0';
	return buf;
}

static bool lt_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* Copy a name word into @dst (@size bytes, NUL included) after checks. */
static int lt_name(struct lt *p, const struct lt_word *w, char *dst,
		   size_t size, const char *what)
{
	char b[24];
	u32 i;

	if (w->len >= size)
		return lt_bad(p, "%s name \"%s...\" longer than %zu characters",
			      what, lt_str(p, w, b, sizeof(b)), size - 1);
	for (i = 0; i < w->len; i++)
		if (!lt_name_char(p->text[w->off + i]))
			return lt_bad(p, "%s name \"%s\": only letters, digits, '_', '-' and '.'",
				      what, lt_str(p, w, b, sizeof(b)));
	memcpy(dst, p->text + w->off, w->len);
	dst[w->len] = '\0';
	return 0;
}

/*
 * A decimal number, with a binary K, M or G suffix where @suffix allows,
 * that fits @max.
 */
static int lt_num(struct lt *p, const struct lt_word *w, bool suffix,
		  u64 max, u64 *v, const char *key)
{
	const char *s = p->text + w->off;
	u32 i, len = w->len, shift = 0;
	char b[24];
	u64 n = 0;

	if (suffix && len > 1) {
		switch (s[len - 1]) {
		case 'K':
			shift = 10;
			break;
		case 'M':
			shift = 20;
			break;
		case 'G':
			shift = 30;
			break;
		}
		if (shift)
			len--;
	}
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return lt_bad(p, "%s: \"%s\" is not a number%s", key,
				      lt_str(p, w, b, sizeof(b)),
				      suffix ? " (suffixes K, M, G)" : "");
		if (n > (U64_MAX - (s[i] - '0')) / 10)
			break;
		n = n * 10 + (s[i] - '0');
	}
	if (!len || i < len || n > (max >> shift))
		return lt_bad(p, "%s: %s out of range 0..%llu", key,
			      lt_str(p, w, b, sizeof(b)),
			      (unsigned long long)max);
	*v = n << shift;
	return 0;
}

/* The value in [from, n) whose name, as @name gives it, is the word. */
static int lt_enum(struct lt *p, const struct lt_word *w,
		   const char *(*name)(unsigned int), u32 from, u32 n,
		   const char *key)
{
	char b[24];
	u32 i;

	for (i = from; i < n; i++)
		if (lt_is(p, w, name(i)))
			return i;
	return lt_bad(p, "%s: unknown value \"%s\"", key,
		      lt_str(p, w, b, sizeof(b)));
}

static const char *lt_il_name(unsigned int il)
{
	static const char * const names[__NICPROG_IL_MAX] = {
		[NICPROG_IL_UNKNOWN] = "unknown",
		[NICPROG_IL_HASH] = "hash",
	};

	return names[il];
}

static const char *lt_ic_name(unsigned int c)
{
	return lt_ic_names[c];
}

/* Split a comma-separated word; calls @fn on each part. */
static int lt_list(struct lt *p, const struct lt_word *w, void *dst,
		   int (*fn)(struct lt *p, const struct lt_word *part,
			     void *dst))
{
	struct lt_word part = { .off = w->off };
	u32 end = w->off + w->len, i;
	int err;

	for (i = w->off; i <= end; i++) {
		if (i < end && p->text[i] != ',')
			continue;
		part.len = i - part.off;
		err = fn(p, &part, dst);
		if (err)
			return err;
		part.off = i + 1;
	}
	return 0;
}

static int lt_cost_one(struct lt *p, const struct lt_word *part, void *dst)
{
	struct lt_word cls = *part, val;
	u16 *cost = dst;
	u64 v;
	int c, err;
	char b[24];

	for (cls.len = 0; cls.len < part->len; cls.len++)
		if (p->text[part->off + cls.len] == '=')
			break;
	if (cls.len == part->len)
		return lt_bad(p, "cost: \"%s\" is not class=cycles",
			      lt_str(p, part, b, sizeof(b)));
	c = lt_enum(p, &cls, lt_ic_name, 0, __NICPROG_IC_MAX, "cost");
	if (c < 0)
		return c;
	val.off = cls.off + cls.len + 1;
	val.len = part->len - cls.len - 1;
	err = lt_num(p, &val, false, 0xffff, &v, lt_ic_names[c]);
	if (err)
		return err;
	cost[c] = v;
	return 0;
}

/* Set the bit of name @part, one of the @n in @names, in *@mask. */
static int lt_name_bit(struct lt *p, const struct lt_word *part,
		       char (*names)[NICPROG_LNIC_NAME_LEN], u32 n, u32 *mask,
		       const char *what)
{
	char b[24];
	u32 i;

	for (i = 0; i < n; i++)
		if (lt_is(p, part, names[i])) {
			*mask |= BIT(i);
			return 0;
		}
	return lt_bad(p, "no %s \"%s\" defined above", what,
		      lt_str(p, part, b, sizeof(b)));
}

static int lt_region_one(struct lt *p, const struct lt_word *part, void *dst)
{
	return lt_name_bit(p, part, p->out->region_names,
			   p->out->lnic.n_regions, dst, "region");
}

static int lt_unit_one(struct lt *p, const struct lt_word *part, void *dst)
{
	return lt_name_bit(p, part, p->out->unit_names, p->out->lnic.n_units,
			   dst, "unit");
}

static void lt_store(void *field, u8 width, u64 v)
{
	switch (width) {
	case 1:
		*(u8 *)field = v;
		break;
	case 2:
		*(u16 *)field = v;
		break;
	case 4:
		*(u32 *)field = v;
		break;
	default:
		*(u64 *)field = v;
		break;
	}
}

static int lt_value(struct lt *p, const struct lt_key *k,
		    const struct lt_word *w, void *obj)
{
	void *field = (u8 *)obj + lt_off(k);
	u64 v;
	int err;

	switch (k->val) {
	case LT_NUM:
	case LT_SIZE:
		err = lt_num(p, w, k->val == LT_SIZE,
			     k->width == 8 ? U64_MAX :
			     (1ULL << (8 * k->width)) - 1, &v, k->key);
		if (err)
			return err;
		lt_store(field, k->width, v);
		return 0;
	case LT_UTYPE:
		err = lt_enum(p, w, nicprog_unit_type_name, NICPROG_UNIT_CORE,
			      __NICPROG_UNIT_MAX, k->key);
		break;
	case LT_ATYPE:
		err = lt_enum(p, w, nicprog_accel_type_name, NICPROG_ACCEL_CSUM,
			      __NICPROG_ACCEL_MAX, k->key);
		break;
	case LT_INTERLEAVE:
		err = lt_enum(p, w, lt_il_name, NICPROG_IL_UNKNOWN,
			      __NICPROG_IL_MAX, k->key);
		break;
	case LT_COST:
		return lt_list(p, w, field, lt_cost_one);
	case LT_REGIONS:
		return lt_list(p, w, field, lt_region_one);
	default:
		return lt_list(p, w, field, lt_unit_one);
	}
	if (err < 0)
		return err;
	lt_store(field, k->width, err);
	return 0;
}

/* The key=value pairs after "KIND NAME" of a statement, into @obj. */
static int lt_pairs(struct lt *p, char stmt, void *obj)
{
	u32 seen = 0, i, k;
	char b[24];
	int err;

	if ((p->n - 2) % 2)
		return lt_bad(p, "\"%s\" has no value",
			      lt_str(p, &p->w[p->n - 1], b, sizeof(b)));
	for (i = 2; i < p->n; i += 2) {
		for (k = 0; k < ARRAY_SIZE(lt_keys); k++)
			if (lt_keys[k].stmt == stmt &&
			    lt_is(p, &p->w[i], lt_keys[k].key))
				break;
		if (k == ARRAY_SIZE(lt_keys))
			return lt_bad(p, "unknown key \"%s\"",
				      lt_str(p, &p->w[i], b, sizeof(b)));
		if (seen & BIT(k))
			return lt_bad(p, "key \"%s\" given twice",
				      lt_keys[k].key);
		seen |= BIT(k);
		err = lt_value(p, &lt_keys[k], &p->w[i + 1], obj);
		if (err)
			return err;
	}
	for (k = 0; k < ARRAY_SIZE(lt_keys); k++)
		if (lt_keys[k].stmt == stmt && lt_keys[k].required &&
		    !(seen & BIT(k)))
			return lt_bad(p, "key \"%s\" missing", lt_keys[k].key);
	return 0;
}

static int lt_statement(struct lt *p)
{
	struct nicprog_lnic_text *t = p->out;
	struct nicprog_lnic *l = &t->lnic;
	const struct lt_word *kind = &p->w[0];
	char b[24];
	int err;

	if (lt_is(p, kind, "lnic")) {
		if (p->n != 2)
			return lt_bad(p, "\"lnic\" takes one word, the profile's name");
		if (l->name)
			return lt_bad(p, "a second \"lnic\" statement");
		err = lt_name(p, &p->w[1], t->name, sizeof(t->name), "LNIC");
		l->name = t->name;
		return err;
	}
	if (p->n < 2)
		return lt_bad(p, "\"%s\" without a name",
			      lt_str(p, kind, b, sizeof(b)));
	if (lt_is(p, kind, "region")) {
		struct nicprog_lnic_region *r = &t->regions[l->n_regions];

		if (l->n_regions == NICPROG_LNIC_MAX_REGIONS)
			return lt_bad(p, "more than %u regions",
				      NICPROG_LNIC_MAX_REGIONS);
		err = lt_name(p, &p->w[1], t->region_names[l->n_regions],
			      NICPROG_LNIC_NAME_LEN, "region");
		r->name = t->region_names[l->n_regions];
		l->n_regions++;
		return err ?: lt_pairs(p, 'r', r);
	}
	if (lt_is(p, kind, "unit")) {
		struct nicprog_lnic_unit *u = &t->units[l->n_units];

		if (l->n_units == NICPROG_LNIC_MAX_UNITS)
			return lt_bad(p, "more than %u units",
				      NICPROG_LNIC_MAX_UNITS);
		err = lt_name(p, &p->w[1], t->unit_names[l->n_units],
			      NICPROG_LNIC_NAME_LEN, "unit");
		u->name = t->unit_names[l->n_units];
		u->threads = 1;
		l->n_units++;
		return err ?: lt_pairs(p, 'u', u);
	}
	if (lt_is(p, kind, "hub")) {
		struct nicprog_lnic_hub *h = &t->hubs[l->n_hubs];

		if (l->n_hubs == NICPROG_LNIC_MAX_HUBS)
			return lt_bad(p, "more than %u hubs",
				      NICPROG_LNIC_MAX_HUBS);
		err = lt_name(p, &p->w[1], t->hub_names[l->n_hubs],
			      NICPROG_LNIC_NAME_LEN, "hub");
		h->name = t->hub_names[l->n_hubs];
		l->n_hubs++;
		return err ?: lt_pairs(p, 'h', h);
	}
	return lt_bad(p, "unknown statement \"%s\" (lnic, region, unit, hub)",
		      lt_str(p, kind, b, sizeof(b)));
}

/**
 * nicprog_lnic_parse() - read an LNIC profile from its text
 * @text: the profile; need not be NUL-terminated
 * @len: bytes in @text
 * @out: filled in; @out->lnic is the profile, pointing into @out
 * @why: buffer for the reason of a rejection, may be NULL
 * @why_len: size of @why
 *
 * The result has passed nicprog_lnic_validate().
 *
 * Context: any; does not sleep or allocate.
 * Return: 0, or -EINVAL with the line and the cause in @why.
 */
int nicprog_lnic_parse(const char *text, size_t len,
		       struct nicprog_lnic_text *out, char *why,
		       size_t why_len)
{
	struct lt *p, ps = {
		.text = text, .out = out, .why = why, .why_len = why_len,
	};
	u32 i = 0, eol, start_line = 0, this_line = 0;
	bool more;
	int err;
	char c;

	p = &ps;
	memset(out, 0, sizeof(*out));
	out->lnic.units = out->units;
	out->lnic.regions = out->regions;
	out->lnic.hubs = out->hubs;
	if (len > NICPROG_LNIC_TEXT_MAX)
		return lt_bad(p, "profile of %zu bytes, at most %u", len,
			      NICPROG_LNIC_TEXT_MAX);
	do {
		this_line++;
		for (eol = i; eol < len && text[eol] != '\n'; eol++)
			;
		more = eol < len;
		/* a line that starts a statement ends the one before */
		if (i < eol && text[i] != ' ' && text[i] != '\t' &&
		    text[i] != '#' && text[i] != '\r' && p->n) {
			p->line = start_line;
			err = lt_statement(p);
			if (err)
				return err;
			p->n = 0;
		}
		p->line = this_line;
		for (; i < eol && text[i] != '#'; i++) {
			c = text[i];
			if (c == ' ' || c == '\t' || c == '\r')
				continue;
			if (c < 0x21 || c > 0x7e)
				return lt_bad(p, "byte 0x%02x is not printable ASCII",
					      (u8)c);
			if (!p->n)
				start_line = this_line;
			if (p->n == LT_MAX_WORDS)
				return lt_bad(p, "more than %u words in a statement",
					      LT_MAX_WORDS);
			p->w[p->n].off = i;
			while (i < eol && text[i] > 0x20 && text[i] < 0x7f &&
			       text[i] != '#')
				i++;
			p->w[p->n].len = i - p->w[p->n].off;
			p->n++;
			i--;
		}
		i = eol + 1;
	} while (more);
	if (p->n) {
		p->line = start_line;
		err = lt_statement(p);
		if (err)
			return err;
	}
	p->line = 0;
	if (!out->lnic.name)
		return lt_bad(p, "no \"lnic NAME\" statement");
	if (nicprog_lnic_validate(&out->lnic, why, why_len))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(nicprog_lnic_parse);

struct lt_out {
	char *buf;
	size_t size;
	size_t len;
};

static void lt_put(struct lt_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += n;
}

static void lt_put_size(struct lt_out *o, const char *key, u64 v)
{
	static const char sfx[] = "GMK";
	int s;

	for (s = 0; s < 3 && v; s++)
		if (!(v & ((1ULL << (30 - 10 * s)) - 1))) {
			lt_put(o, " %s %llu%c", key,
			       (unsigned long long)(v >> (30 - 10 * s)), sfx[s]);
			return;
		}
	lt_put(o, " %s %llu", key, (unsigned long long)v);
}

static void lt_put_mask(struct lt_out *o, const char *key, u32 mask,
			const char *(*name)(const struct nicprog_lnic *, u32),
			const struct nicprog_lnic *l)
{
	const char *sep = " ";
	u32 i;

	if (!mask)
		return;
	lt_put(o, " %s", key);
	for (i = 0; i < 32; i++)
		if (mask & BIT(i)) {
			lt_put(o, "%s%s", sep, name(l, i));
			sep = ",";
		}
}

static const char *lt_region_name(const struct nicprog_lnic *l, u32 i)
{
	return i < l->n_regions ? l->regions[i].name : "?";
}

static const char *lt_unit_name(const struct nicprog_lnic *l, u32 i)
{
	return i < l->n_units ? l->units[i].name : "?";
}

/**
 * nicprog_lnic_format() - write an LNIC as profile text
 * @lnic: a valid LNIC
 * @buf: where to write, may be NULL when @size is 0
 * @size: bytes available in @buf, NUL included
 *
 * nicprog_lnic_parse() of the text gives back the same LNIC.
 *
 * Context: any; does not sleep.
 * Return: the length of the whole text, as snprintf() returns: the text
 * was cut if that is @size or more.
 */
size_t nicprog_lnic_format(const struct nicprog_lnic *lnic, char *buf,
			   size_t size)
{
	struct lt_out o = { .buf = buf, .size = size };
	const struct nicprog_lnic_unit *u;
	const char *sep;
	u32 i, c;

	if (buf && size)
		buf[0] = '\0';
	lt_put(&o, "lnic %s\n", lnic->name);
	for (i = 0; i < lnic->n_regions; i++) {
		lt_put(&o, "region %s", lnic->regions[i].name);
		lt_put_size(&o, "size", lnic->regions[i].size);
		lt_put(&o, " latency %u", lnic->regions[i].latency_cycles);
		if (lnic->regions[i].banks > 1)
			lt_put(&o, " banks %u", lnic->regions[i].banks);
		if (lnic->regions[i].bank_cycles)
			lt_put(&o, " busy %u", lnic->regions[i].bank_cycles);
		if (lnic->regions[i].cache_bytes) {
			lt_put_size(&o, "cache", lnic->regions[i].cache_bytes);
			lt_put(&o, " hit %u", lnic->regions[i].cache_cycles);
		}
		if (lnic->regions[i].island)
			lt_put(&o, " island %u", lnic->regions[i].island);
		if (lnic->regions[i].interleave)
			lt_put(&o, " interleave %s",
			       lt_il_name(lnic->regions[i].interleave));
		lt_put(&o, "\n");
	}
	for (i = 0; i < lnic->n_units; i++) {
		u = &lnic->units[i];
		lt_put(&o, "unit %s type %s", u->name,
		       nicprog_unit_type_name(u->type));
		if (u->accel)
			lt_put(&o, " accel %s",
			       nicprog_accel_type_name(u->accel));
		lt_put(&o, " count %u threads %u clock %u", u->count,
		       u->threads, u->clock_mhz);
		if (u->insn_store)
			lt_put_size(&o, "insns", u->insn_store);
		for (c = 0, sep = "\n\tcost "; c < __NICPROG_IC_MAX; c++)
			if (u->cost[c]) {
				lt_put(&o, "%s%s=%u", sep, lt_ic_names[c],
				       u->cost[c]);
				sep = ",";
			}
		if (u->service_cycles)
			lt_put(&o, " service %u", u->service_cycles);
		if (u->cycles_per_kib)
			lt_put(&o, " per_kib %u", u->cycles_per_kib);
		lt_put_mask(&o, "regions", u->region_mask, lt_region_name,
			    lnic);
		lt_put(&o, "\n");
	}
	for (i = 0; i < lnic->n_hubs; i++) {
		lt_put(&o, "hub %s capacity %u", lnic->hubs[i].name,
		       lnic->hubs[i].capacity);
		lt_put_mask(&o, "from", lnic->hubs[i].from_mask, lt_unit_name,
			    lnic);
		lt_put_mask(&o, "to", lnic->hubs[i].to_mask, lt_unit_name,
			    lnic);
		lt_put(&o, "\n");
	}
	return o.len;
}
EXPORT_SYMBOL_GPL(nicprog_lnic_format);
