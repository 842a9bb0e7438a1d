# retrace: top-level commands.  See README.
#
#   make run            build, then boot the kernel in QEMU with tracing ready
#   make check          host tests + kernel + selftests in QEMU
#   make check DEBUG=1  the same on a KASAN + lockdep kernel
#   make kernel         build/bzImage and build/modules/
#   make tools          build/tools/kmemtrace, the kmemtrace reader
#   make host-test      only the host unit tests (seconds)
#   make fuzz           fuzz the ring buffer (FUZZ_SECONDS, default 20) and
#                       the parsers; FUZZ_RUNS=N: N inputs per target instead
#   make soak           SOAK_MINUTES (10) of concurrent tracing operations on
#                       the KASAN + lockdep kernel, multi-threaded TCG
#                       (SOAK_KERNEL=normal: on the normal kernel)
#   make bench          retrace vs upstream 6.12 tracing, QEMU -icount figures
#   make series         build/series/: retrace as a git-am-able patch series
#   make series-check   the series applies, is the harness's tree, is
#                       checkpatch-clean, and the kernel builds after each patch
#
# KSRC=/path/to/linux-6.12 uses that tree instead of Debian's tarball.

export KSRC DEBUG
SHELL := /bin/bash
H := harness

.PHONY: all kernel tools check conformance run bench host-test fuzz soak initramfs series series-check clean distclean

all: kernel tools

tools:
	@$(MAKE) -s -C tools/kmemtrace O=$(CURDIR)/build/tools

kernel:
	@$(H)/deps.sh && $(H)/kernel.sh

initramfs: kernel
	@$(H)/initramfs.sh

check:
	@$(H)/check.sh

conformance:
	@$(H)/conformance.sh

run:
	@$(H)/deps.sh && $(H)/kernel.sh && $(H)/initramfs.sh
	@if [ -t 0 ] && [ -t 1 ]; then \
		echo "Booting retrace in QEMU: tracing at /sys/kernel/debug/tracing; quit with 'poweroff' or Ctrl-a x"; \
		$(H)/boot.sh shell; \
	else \
		echo "No terminal: running the scripted demo instead of a shell"; \
		BOOT_TIMEOUT=600 $(H)/boot.sh demo; \
	fi

host-test:
	@mkdir -p build/host && $(MAKE) -s -C kernel/trace/retrace/host O=$(CURDIR)/build/host check

bench:
	@$(H)/bench.sh

series:
	@$(H)/deps.sh && $(H)/series.py gen

series-check:
	@$(H)/deps.sh && $(H)/series.py gen && $(H)/series.py check && $(H)/series.py bisect

fuzz:
	@mkdir -p build/host && $(MAKE) -s -C kernel/trace/retrace/host O=$(CURDIR)/build/host fuzz \
		$(if $(FUZZ_SECONDS),FUZZ_SECONDS=$(FUZZ_SECONDS)) $(if $(FUZZ_RUNS),FUZZ_RUNS=$(FUZZ_RUNS))

soak:
	@$(H)/soak.sh

clean:
	rm -rf build/obj build/obj-debug build/obj-ref build/obj-refnolat build/obj-notrace build/obj-idle build/obj-nolat build/host build/tools build/check-* build/soak-* build/conformance build/bench \
		build/bzImage build/modules build/debug build/ref build/refnolat build/notrace build/idle build/nolat build/profile

distclean:
	rm -rf build
