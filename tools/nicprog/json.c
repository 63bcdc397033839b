// SPDX-License-Identifier: GPL-2.0
/* Output in words or in JSON (json.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "json.h"

#define DEPTH_MAX 16

static enum out_mode mode;
static int depth;
static bool first[DEPTH_MAX];	/* nothing printed yet at this depth */
static bool is_array[DEPTH_MAX];

void out_init(enum out_mode m)
{
	mode = m;
	depth = 0;
	first[0] = true;
}

bool out_json(void)
{
	return mode != OUT_TEXT;
}

static void indent(void)
{
	int i;

	if (mode != OUT_PRETTY)
		return;
	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("    ", stdout);
}

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* Start a member: the comma, the indentation and the key. */
static void member(const char *key)
{
	/* top-level values are documents of their own: no commas */
	if (depth && !first[depth])
		putchar(',');
	first[depth] = false;
	if (depth)
		indent();
	if (key && depth && !is_array[depth]) {
		json_str(key);
		fputs(mode == OUT_PRETTY ? ": " : ":", stdout);
	}
}

static void open(const char *key, char c, bool array)
{
	if (mode == OUT_TEXT)
		return;
	member(key);
	putchar(c);
	if (depth + 1 < DEPTH_MAX)
		depth++;
	first[depth] = true;
	is_array[depth] = array;
}

static void close_(char c)
{
	bool empty;

	if (mode == OUT_TEXT)
		return;
	empty = first[depth];
	if (depth)
		depth--;
	if (!empty)
		indent();
	putchar(c);
	if (!depth)
		putchar('\n');
}

void out_open_object(const char *key)
{
	open(key, '{', false);
}

void out_close_object(void)
{
	close_('}');
}

void out_open_array(const char *key)
{
	open(key, '[', true);
}

void out_close_array(void)
{
	close_(']');
}

void out_uint(const char *key, const char *fmt, uint64_t v)
{
	if (mode == OUT_TEXT) {
		if (fmt)
			printf(fmt, (unsigned long long)v);
		return;
	}
	member(key);
	printf("%llu", (unsigned long long)v);
}

void out_bracket(const char *pre, uint64_t tmin, uint64_t tmax,
		 uint64_t lmin, uint64_t lmax)
{
	char key[64];

	snprintf(key, sizeof(key), "%stput_min", pre);
	out_uint(key, "throughput %llu", tmin);
	snprintf(key, sizeof(key), "%stput_max", pre);
	out_uint(key, "..%llu packets per million cycles", tmax);
	snprintf(key, sizeof(key), "%slatency_min", pre);
	out_uint(key, ", latency %llu", lmin);
	snprintf(key, sizeof(key), "%slatency_max", pre);
	out_uint(key, "..%llu cycles", lmax);
}

void out_string(const char *key, const char *fmt, const char *s)
{
	if (mode == OUT_TEXT) {
		if (fmt)
			printf(fmt, s);
		return;
	}
	member(key);
	json_str(s);
}

void out_bool(const char *key, const char *fmt, bool v)
{
	if (mode == OUT_TEXT) {
		if (fmt)
			printf(fmt, v ? "on" : "off");
		return;
	}
	member(key);
	fputs(v ? "true" : "false", stdout);
}

void out_double(const char *key, const char *fmt, double v)
{
	if (mode == OUT_TEXT) {
		if (fmt)
			printf(fmt, v);
		return;
	}
	member(key);
	if (isfinite(v))
		printf("%.10g", v);
	else
		fputs("null", stdout);
}

void out_text(const char *fmt, ...)
{
	va_list ap;

	if (mode != OUT_TEXT)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

void out_flush(void)
{
	fflush(stdout);
}
