// SPDX-License-Identifier: GPL-2.0
/*
 * A program in .text, the object's only code, as the kernel's own offload
 * tests keep theirs (selftests/bpf/progs/sample_ret0.c): libbpf makes it
 * the program, stock "xdpoffload ... sec .text" loads it.
 */
int func(void)
{
	return 0;
}

char _license[] __attribute__((section("license"), used)) = "GPL";
