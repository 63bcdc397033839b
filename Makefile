# SPDX-License-Identifier: GPL-2.0
#
#   make          build the modules (with BTF), userspace tools, BPF objects
#                 and selftests
#   make deps     install Debian packages, prepare the module-BTF object tree
#   make check    build, run every test (native + in a QEMU guest)
#   make demo     boot a guest and show a simulated SmartNIC carrying traffic
#   make check-debug   the guest suite on the sanitizer kernel (KASAN,
#                 kmemleak, lockdep, ...; built once, cached)
#
# KVER=6.12 (a series or a full release) picks the kernel to build against
# and boot; the default is the distribution's (Debian 12: 6.1). The modules
# in the checkout are built for one kernel at a time.
#
# Nothing here loads a module into the running kernel: only the guest does.

NICPROG_CACHE ?= /var/cache/nicprog
export NICPROG_CACHE
KVER ?=
export KVER
KREL := $(shell tools/testing/kver $(KVER) 2>/dev/null)
KDIR ?= $(NICPROG_CACHE)/kbuild-$(KREL)
# Evaluated when this Makefile is parsed: 'check' and 'demo' run 'deps'
# first and then a sub-make, which parses after the tree is unpacked.
KSERIES := $(shell echo $(KREL) | cut -d. -f1,2 | cut -d- -f1)
KSFT_DIR ?= $(wildcard $(NICPROG_CACHE)/linux-source-$(KSERIES)/tools/testing/selftests)

NPROC := $(shell nproc)

USER_CFLAGS := -std=gnu99 -O2 -g -Wall -Wextra -Werror
export USER_CFLAGS

.PHONY: all modules tools bpf selftests corpus deps check check-debug demo clean

all: modules tools bpf selftests corpus

$(KDIR)/.nicprog-ready:
	@echo "Kbuild object tree $(KDIR) is missing: run 'make deps' first" >&2
	@false

modules: $(KDIR)/.nicprog-ready
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools/testing/unit KSFT_DIR=$(KSFT_DIR)
	$(MAKE) -C tools/nicprog-plan nicprog-plan nicprog-plan-asan
	$(MAKE) -C tools/testing/fuzz
	$(MAKE) -C tools/lib/nicprog
	$(MAKE) -C tools/nicprog-calibrate
	$(MAKE) -C tools/lib/nicring
	$(MAKE) -C tools/lib/ynl
	$(MAKE) -C tools/lib/ncl
	$(MAKE) -C tools/nicprog
	$(MAKE) -C tools/apps
	$(MAKE) -C tools/bench/rxbench
	$(MAKE) -C tools/bench/rdmabench
	tools/iproute2/build

bpf:
	$(MAKE) -C bpf

# public XDP programs, as Debian ships them, for selftests/nicprog/corpus.sh
corpus: $(KDIR)/.nicprog-ready
	tools/testing/corpus/build

# the oracle links tools/lib/nicprog's library
selftests: tools
	$(MAKE) -C selftests/nicprog OUTPUT=$(CURDIR)/selftests/nicprog KSFT_DIR=$(KSFT_DIR)

deps:
	tools/testing/deps

# Both cores build (here and in check-debug): make all is a chain of
# small makes, each serial.
check: deps
	$(MAKE) -j$(NPROC) all
	tools/testing/run-checks

# The sanitizer kernel is built on first use (about an hour on 2 cores)
# and cached; tools/testing/check-debug builds the modules for it.
check-debug: deps
	$(MAKE) -j$(NPROC) tools bpf selftests
	tools/testing/check-debug

demo: deps
	$(MAKE) -j$(NPROC) all
	tools/testing/vm-run --timeout 300 -- tools/demo/demo.sh

clean:
	-[ -d $(KDIR) ] && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/testing/unit clean
	$(MAKE) -C tools/nicprog-plan clean
	$(MAKE) -C tools/testing/fuzz clean
	$(MAKE) -C tools/nicprog-calibrate clean
	$(MAKE) -C tools/nicprog clean
	$(MAKE) -C tools/lib/nicring clean
	$(MAKE) -C tools/lib/nicprog clean
	$(MAKE) -C tools/lib/ynl clean
	$(MAKE) -C tools/lib/ncl clean
	$(MAKE) -C tools/apps clean
	$(MAKE) -C tools/bench/rxbench clean
	$(MAKE) -C tools/bench/rdmabench clean
	$(MAKE) -C bpf clean
	rm -rf build/corpus
	-$(MAKE) -C selftests/nicprog OUTPUT=$(CURDIR)/selftests/nicprog clean
	rm -f tools/iproute2/ip tools/iproute2/ip.stamp tools/iproute2/ip.missing
	rm -rf build selftests/kselftest
