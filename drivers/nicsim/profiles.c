// SPDX-License-Identifier: GPL-2.0
/*
 * nicsim's shipped architecture profiles. They are data: text files in
 * profiles/ (format in Documentation/nicprog/lnic.rst) that
 * profiles_data.S builds in and nicsim_profiles_init() reads once. The
 * offline planner (tools/nicprog-plan) links the same two files, so it
 * plans for exactly what nicsim runs. In userspace, the offloader's
 * compat.h comes first.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/string.h>
#else
#include "compat.h"
#endif
#include "profiles.h"

extern const char nicsim_lnic_generic[], nicsim_lnic_soc[], nicsim_lnic_nfp[],
		  nicsim_lnic_pipeline[], nicsim_lnic_fpga[];

/* The first is the default. */
static const char * const nicsim_profile_texts[] = {
	nicsim_lnic_generic,
	nicsim_lnic_soc,
	nicsim_lnic_nfp,
	nicsim_lnic_pipeline,
	nicsim_lnic_fpga,
};

static struct nicprog_lnic_text *nicsim_profiles[ARRAY_SIZE(nicsim_profile_texts)];

/**
 * nicsim_profiles_exit() - free the shipped profiles
 *
 * Context: no device may still use one.
 */
void nicsim_profiles_exit(void)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nicsim_profiles); i++) {
		kvfree(nicsim_profiles[i]);
		nicsim_profiles[i] = NULL;
	}
}

/**
 * nicsim_profiles_init() - read the shipped profiles' text
 * @why: buffer for the reason of a failure
 * @why_len: its size
 *
 * Return: 0; -ENOMEM; or -EINVAL when a shipped profile does not parse
 * (a build defect), with the profile and line in @why.
 */
int nicsim_profiles_init(char *why, size_t why_len)
{
	const char *text;
	size_t n;
	u32 i;
	int err;

	for (i = 0; i < ARRAY_SIZE(nicsim_profile_texts); i++) {
		nicsim_profiles[i] = kvcalloc(1, sizeof(*nicsim_profiles[i]),
					      GFP_KERNEL);
		if (!nicsim_profiles[i]) {
			nicsim_profiles_exit();
			return -ENOMEM;
		}
		text = nicsim_profile_texts[i];
		err = nicprog_lnic_parse(text, strlen(text), nicsim_profiles[i],
					 why, why_len);
		if (err) {
			n = strlen(why);
			snprintf(why + n, why_len - n, " (shipped profile %u)",
				 i);
			nicsim_profiles_exit();
			return err;
		}
	}
	return 0;
}

/**
 * nicsim_profile_find() - a shipped architecture profile by name
 * @name: its name; NULL for the default, nicsim-generic
 *
 * Return: the profile, or NULL.
 */
const struct nicprog_lnic *nicsim_profile_find(const char *name)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(nicsim_profiles); i++)
		if (nicsim_profiles[i] &&
		    (!name || !strcmp(name, nicsim_profiles[i]->lnic.name)))
			return &nicsim_profiles[i]->lnic;
	return NULL;
}

/**
 * nicsim_profile_names() - the shipped profiles' names, for messages
 * @buf: where to write them, comma-separated
 * @size: bytes in @buf
 *
 * Return: @buf.
 */
const char *nicsim_profile_names(char *buf, size_t size)
{
	size_t n = 0;
	u32 i;

	buf[0] = '\0';
	for (i = 0; i < ARRAY_SIZE(nicsim_profiles) && n < size; i++)
		if (nicsim_profiles[i])
			n += snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
				      nicsim_profiles[i]->lnic.name);
	return buf;
}
