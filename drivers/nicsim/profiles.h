/* SPDX-License-Identifier: GPL-2.0 */
/* nicsim's shipped architecture profiles (profiles.c), shared with the tools. */
#ifndef _NICSIM_PROFILES_H
#define _NICSIM_PROFILES_H

#include <net/nicprog_lnic.h>

#define NICSIM_RXQ_LEN		1024	/* frames the NIC buffers per port */

int nicsim_profiles_init(char *why, size_t why_len);
void nicsim_profiles_exit(void);
const struct nicprog_lnic *nicsim_profile_find(const char *name);
const char *nicsim_profile_names(char *buf, size_t size);

#endif /* _NICSIM_PROFILES_H */
