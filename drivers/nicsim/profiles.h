/* SPDX-License-Identifier: GPL-2.0 */
/* nicsim's architecture profiles (profiles.c), shared with the tools. */
#ifndef _NICSIM_PROFILES_H
#define _NICSIM_PROFILES_H

#include <net/nicprog_lnic.h>

#define NICSIM_RXQ_LEN		1024	/* frames the NIC buffers per port */

extern const struct nicprog_lnic nicsim_profile_generic;
extern const struct nicprog_lnic nicsim_profile_soc;
const struct nicprog_lnic *nicsim_profile_find(const char *name);

#endif /* _NICSIM_PROFILES_H */
