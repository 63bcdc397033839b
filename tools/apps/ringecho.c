// SPDX-License-Identifier: GPL-2.0
/*
 * ringecho - send every frame an NF steers to an output back out of the
 * port, Ethernet addresses swapped, without copying it: the TX pipe shares
 * the RX pipe's data (libnicring's nicring_forward()).
 *
 *   ringecho IFNAME [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]
 *
 * Ends after FRAMES frames (default: never) or IDLE_MS without one
 * (default 5000), and prints what it cost: commands, waits and
 * notifications per frame.
 */
#include <stdio.h>
#include <string.h>

#include "app.h"

#define BATCH	64

int main(int argc, char **argv)
{
	struct app a = { .name = "ringecho", .idle_ms = 5000 };
	struct nicring_rec recs[BATCH];
	struct nicring_stats st;
	uint8_t mac[6];
	int n, i;

	if (app_options(&a, argc, argv, "", NULL)) {
		fprintf(stderr, "usage: ringecho IFNAME [-o OUTPUT] [-n FRAMES] [-i IDLE_MS]\n");
		return 2;
	}
	if (app_open(&a, NICPROG_FRAMING_RECORDS, 0, APP_TX_SHARED, ""))
		return 1;
	while ((n = app_next(&a, recs, BATCH))) {
		for (i = 0; i < n; i++) {
			if (recs[i].len < 12)
				continue;
			memcpy(mac, recs[i].data, 6);
			memmove(recs[i].data, (uint8_t *)recs[i].data + 6, 6);
			memcpy((uint8_t *)recs[i].data + 6, mac, 6);
		}
		if (app_forward(&a, n))
			break;
		a.done += n;
	}
	nicring_get_stats(a.r, &st);
	printf("ringecho: %lu frames, %llu commands (%.4f per frame), %llu waits, %llu notifications (%.4f per frame), %llu dropped\n",
	       a.done, (unsigned long long)st.commands,
	       a.done ? (double)st.commands / a.done : 0,
	       (unsigned long long)st.waits,
	       (unsigned long long)st.notifications,
	       a.done ? (double)st.notifications / a.done : 0,
	       (unsigned long long)nicring_drops(a.rx));
	nicring_close(a.r);
	return a.want && a.done < a.want;
}
