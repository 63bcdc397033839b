/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output in words or in JSON, as iproute2 prints: each value is printed
 * once, under a JSON key and with a format for words.
 */
#ifndef NICPROG_JSON_H
#define NICPROG_JSON_H

#include <stdbool.h>
#include <stdint.h>

enum out_mode { OUT_TEXT, OUT_JSON, OUT_PRETTY };

void out_init(enum out_mode mode);
bool out_json(void);
void out_open_object(const char *key);
void out_close_object(void);
void out_open_array(const char *key);
void out_close_array(void);
/* @fmt: printf format of the words, or NULL to print none */
void out_uint(const char *key, const char *fmt, uint64_t v);
void out_string(const char *key, const char *fmt, const char *s);
void out_bool(const char *key, const char *fmt, bool v);
/* JSON has no NaN or infinity: those print as null */
void out_double(const char *key, const char *fmt, double v);
/*
 * A static bracket, "throughput T1..T2 packets per million cycles,
 * latency L1..L2 cycles", under the keys @pre followed by tput_min,
 * tput_max, latency_min and latency_max
 */
void out_bracket(const char *pre, uint64_t tmin, uint64_t tmax,
		 uint64_t lmin, uint64_t lmax);
/* words only */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_flush(void);

#endif
