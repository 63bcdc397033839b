// SPDX-License-Identifier: GPL-2.0
/*
 * hostxdp.c with the AF_XDP socket looked up before the redirect
 * (bpf_redirect_map(..., 0) only when the XSKMAP has the key, XDP_PASS
 * otherwise), as libbpf's program before Linux 5.3, libxdp's
 * xsk_def_xdp_prog_5.3.o and xdp-tutorial's AF_XDP lesson write it.
 */
#define XSK_GATE 1
#include "hostxdp.c"
