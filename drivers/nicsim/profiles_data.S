/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shipped profiles' text (profiles/<name>.lnic), built into nicsim
 * and the offline planner, each NUL-terminated. The build passes the
 * profiles directory to the assembler's include path.
 */
	.section .rodata, "a"

	.globl	nicsim_lnic_generic
nicsim_lnic_generic:
	.incbin	"nicsim-generic.lnic"
	.byte	0

	.globl	nicsim_lnic_soc
nicsim_lnic_soc:
	.incbin	"nicsim-soc.lnic"
	.byte	0

	.globl	nicsim_lnic_nfp
nicsim_lnic_nfp:
	.incbin	"nicsim-nfp.lnic"
	.byte	0

	.globl	nicsim_lnic_pipeline
nicsim_lnic_pipeline:
	.incbin	"nicsim-pipeline.lnic"
	.byte	0

	.globl	nicsim_lnic_fpga
nicsim_lnic_fpga:
	.incbin	"nicsim-fpga.lnic"
	.byte	0

#ifndef __KERNEL__
	.section .note.GNU-stack, "", @progbits
#endif
