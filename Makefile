# mm86 - the one entry point: build, run, test, iso, debug, deps.
#
#   make run     installs what is missing, builds, boots in QEMU, runs the self-tests
#   make test    the whole suite: host tests, the exercises and the QEMU boot matrix
#   make report  build/report/index.html: the results and pictures of memory
#                of the last make test's boots (or of LOG=build/run.log)
#   make autograder LAB=NAME  build/autograder-NAME.zip, the lab's autograder
#                for Gradescope (GRADE_EXTRA=DIR: hidden tests; labs/gradescope/)
#
# Variables: CROSS (toolchain prefix), MEM, CPUS, APPEND, FIRMWARE (bios or
# uefi), BOOT (kernel, iso or iso-mb1), MACHINE (q35) for run/debug,
# GDBPORT and OPT (-Og: its own build directory) for debug/gdb,
# RUN_TIMEOUT (seconds before make run gives up; 0 never),
# ONLY (a glob of boot names for test), JOBS (parallel boots), FORCE=1 (make
# test re-runs the boots, lab and exercise checks whose passing verdict it
# recorded), NR_CPUS (the most CPUs the kernel supports; a build setting,
# default 16).

# ---- toolchain ----------------------------------------------------------
# Nothing below asks a tool that `make deps` may still have to install while
# make reads this file: what comes from the compiler is a deferred variable
# worked out on first use, in a recipe, after deps ran (an immediate := ran
# gcc before it was installed, and -isystem then swallowed the next flag).
# deps never installs i686-elf-gcc, so looking for it now is safe, and the
# default i686-linux-gnu- is what deps installs.
ifeq ($(origin CROSS),undefined)
  CROSS := $(if $(shell command -v i686-elf-gcc 2>/dev/null),i686-elf-,i686-linux-gnu-)
endif
# $(call once,NAME,COMMAND): COMMAND's output, run the first time only.
once = $(if $(filter undefined,$(origin once.$1)),$(eval once.$1 := $$(shell $2)))$(once.$1)
CC      := $(CROSS)gcc
LD      := $(CROSS)ld
OBJCOPY := $(CROSS)objcopy
NM      := $(CROSS)nm
QEMU    ?= qemu-system-i386
PYTHON  ?= python3

BUILD   := build
KERNEL  := $(BUILD)/mm86.elf
ISO     := $(BUILD)/mm86.iso
ISO_MB1 := $(BUILD)/mm86-mb1.iso

NR_CPUS ?= 16
MEM     ?= 512M
CPUS    ?= 2
APPEND  ?=
FIRMWARE ?= bios
BOOT    ?= $(if $(filter uefi,$(FIRMWARE)),iso,kernel)
MACHINE ?=
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
ONLY    ?= *

# Quiet by default; V=1 shows the commands.
ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-7s %s\n' $(1) $(2)
endif

VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

CPPFLAGS  = -nostdinc -isystem $(call once,cc-include,$(CC) -print-file-name=include) \
	    -I. -Iarch/x86/include -DMM86_VERSION='"$(VERSION)"' -DNR_CPUS=$(NR_CPUS)
CFLAGS   := -std=gnu11 -m32 -march=i686 -O2 -g -ffreestanding -fno-pic -fno-pie \
	    -fno-stack-protector -fno-omit-frame-pointer -mgeneral-regs-only \
	    -fno-asynchronous-unwind-tables -Wall -Wextra -Wno-unused-parameter \
	    -Werror -MMD -MP
ASFLAGS  := -m32 -D__ASSEMBLER__ -MMD -MP
LDFLAGS  := -m elf_i386 -nostdlib -T linker.ld -z max-page-size=4096 --no-warn-rwx-segments -z noexecstack
LIBGCC    = $(call once,libgcc,$(CC) -m32 -print-libgcc-file-name)

# ---- sources: every file of the kernel's directories -------------------
SRCS := $(wildcard boot/*.S) \
	$(wildcard arch/x86/*.c arch/x86/*.S) \
	$(wildcard kernel/*.c) \
	$(wildcard mm/*.c) \
	$(wildcard lib/*.c) \
	$(wildcard tests/*.c)
# EXTRA_TESTS=DIR adds DIR/*.c (a teacher's hidden suites; make grade
# GRADE_EXTRA builds them into their own kernel, never into this one).
EXTRA_TESTS ?=
EXTRA_SRCS  := $(if $(EXTRA_TESTS),$(wildcard $(EXTRA_TESTS)/*.c))
OBJS := $(patsubst %,$(BUILD)/%.o,$(basename $(SRCS))) \
	$(patsubst $(EXTRA_TESTS)/%.c,$(BUILD)/extra/%.o,$(EXTRA_SRCS))

.PHONY: all run test test-qemu test-host test-exercises test-mistakes host fuzz fuzz-build fuzz-long bench-host valgrind iso debug gdb deps clean help \
	lab report

all: $(KERNEL)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

ifneq ($(EXTRA_SRCS),)
$(BUILD)/extra/%.o: $(EXTRA_TESTS)/%.c
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@
endif

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	$(call say,AS,$<)
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS) -c $< -o $@

# Two links: the first image's symbols become the second's kallsyms table
# (in .rodata, after .text, so no text address moves).
$(KERNEL): $(OBJS) linker.ld tools/kallsyms.py
	$(call say,LD,$@)
	$(Q)$(LD) $(LDFLAGS) -o $(BUILD)/mm86.tmp.elf $(OBJS) $(LIBGCC)
	$(Q)$(NM) -n $(BUILD)/mm86.tmp.elf | $(PYTHON) tools/kallsyms.py > $(BUILD)/kallsyms.S
	$(Q)$(CC) $(CPPFLAGS) $(ASFLAGS) -c $(BUILD)/kallsyms.S -o $(BUILD)/kallsyms.o
	$(Q)$(LD) $(LDFLAGS) -o $@ $(OBJS) $(BUILD)/kallsyms.o $(LIBGCC)
	@$(NM) -n $@ > $(BUILD)/mm86.map

-include $(OBJS:.o=.d)

# ---- the user-space build: mm/ under the sanitizers ---------------------
# The same mm/, kernel/ and lib/ files, arch/host instead of arch/x86, the
# host compiler with AddressSanitizer and UBSan, and the suites that make
# sense without PC hardware (not acpi, smp, bench_*, and not slab_debug,
# whose layout cases are worked out for i386 words and kallsyms; the
# host-slab-debug run exercises debugging under every other suite), and
# the host's own race suite (tests/host/race_test.c).  build/host/mm86-host
# runs them.
HOSTCC      ?= gcc
HOST_BUILD  := $(BUILD)/host
HOST_BIN    := $(HOST_BUILD)/mm86-host
HOST_SAN    ?= -fsanitize=address,undefined -fno-sanitize-recover=all
HOST_CFLAGS := -std=gnu11 -g -O1 -fno-omit-frame-pointer -fno-builtin \
	       -Wall -Wextra -Wno-unused-parameter -Werror -MMD -MP \
	       -I. -Iarch/host/include -DNR_CPUS=$(NR_CPUS) \
	       -DMM86_VERSION='"$(VERSION)"' $(HOST_SAN)
HOST_LDLIBS := $(HOST_SAN) -pthread
HOST_SUITES := lib cmdline multiboot multiboot2 e820 memblock buddy gfp zone pcp vmstat \
	       highmem slab kmalloc smp_stress irq_alloc sched timer wait reclaim mempool \
	       torture lockdep ktest snapshot
HOST_SRCS   := $(filter-out lib/string.c,$(wildcard lib/*.c)) \
	       $(addprefix kernel/,cmdline.c multiboot.c multiboot2.c printk.c panic.c \
				   smp.c percpu.c version.c kallsyms.c main.c \
				   sched.c kthread.c timer.c wait.c mutex.c lockdep.c) \
	       $(wildcard mm/*.c) $(wildcard arch/host/*.c) \
	       tests/ktest.c tests/ktest_capture.c tests/resources.c tests/reclaim_cache.c \
	       tests/bench.c \
	       tests/sched_helpers.c \
	       $(wildcard $(patsubst %,tests/%_test.c,$(HOST_SUITES))) \
	       tests/host/race_test.c
HOST_OBJS   := $(patsubst %,$(HOST_BUILD)/%.o,$(basename $(HOST_SRCS)))

$(HOST_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,HOSTCC,$<)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -c $< -o $@

$(HOST_BIN): $(HOST_OBJS)
	$(call say,HOSTLD,$@)
	$(Q)$(HOSTCC) -o $@ $(HOST_OBJS) $(HOST_LDLIBS)

host: $(HOST_BIN)

# The same build under ThreadSanitizer, the race detector (make host-tsan):
# objects of its own, -fsanitize=thread instead of ASan and UBSan, tasks
# and interrupt handlers as TSan fibers (arch/host/tsan.c), and the race
# scenarios of tests/host/race_test.c.  -Wno-tsan: GCC warns that TSan
# does not model __atomic_thread_fence; the kernel's fences order accesses
# that are atomic or marked anyway (where one ordered plain data, a
# release and an acquire now do).
HOST_TSAN_BUILD := $(BUILD)/host-tsan
HOST_TSAN_BIN   := $(HOST_TSAN_BUILD)/mm86-host
HOST_TSAN_SAN   := -fsanitize=thread -Wno-tsan
HOST_TSAN_OBJS  := $(patsubst $(HOST_BUILD)/%,$(HOST_TSAN_BUILD)/%,$(HOST_OBJS))

$(HOST_TSAN_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,TSANCC,$<)
	$(Q)$(HOSTCC) $(filter-out $(HOST_SAN),$(HOST_CFLAGS)) $(HOST_TSAN_SAN) \
		-c $< -o $@

$(HOST_TSAN_BIN): $(HOST_TSAN_OBJS)
	$(call say,TSANLD,$@)
	$(Q)$(HOSTCC) -o $@ $(HOST_TSAN_OBJS) $(HOST_TSAN_SAN) -pthread

.PHONY: host-tsan
host-tsan: $(HOST_TSAN_BIN)

-include $(HOST_TSAN_OBJS:.o=.d)

# ---- fuzzing: libFuzzer targets over the user-space build ----------------
FUZZ_CC      ?= clang
FUZZ_BUILD   := $(BUILD)/fuzz
FUZZ_SECONDS ?= 20
FUZZ_TARGETS := e820 alloc alloc_smp multiboot multiboot2 acpi cmdline
FUZZ_CFLAGS  := $(filter-out $(HOST_SAN),$(HOST_CFLAGS)) -idirafter arch/x86/include \
		-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_SRCS    := $(filter-out arch/host/main.c tests/%_test.c,$(HOST_SRCS))
FUZZ_OBJS    := $(patsubst %,$(FUZZ_BUILD)/%.o,$(basename $(FUZZ_SRCS)))
FUZZ_MAINS   := $(patsubst %,$(FUZZ_BUILD)/tests/fuzz/fuzz_%.o,$(FUZZ_TARGETS))
FUZZ_BINS    := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))

# Comparison tracing (-fsanitize=fuzzer's trace-cmp) lets libFuzzer solve
# the magic numbers and keywords of what it fuzzes, and costs half a run's
# time or more wherever it is.  So each target gets it in its parsers
# alone (FUZZ_TRACED.<target>, and the extra files of FUZZ_EXTRA.<target>);
# everything else, the target's own checks included, comes from
# $(FUZZ_PLAIN) without it.  The allocator targets drive the kernel with
# opcodes, not magic values: nothing of theirs is traced.
FUZZ_PLAIN   := $(BUILD)/fuzz-plain
FUZZ_TRACED.e820       := mm/e820.c mm/e820_user.c mm/memblock.c
FUZZ_TRACED.multiboot  := kernel/multiboot.c
FUZZ_TRACED.multiboot2 := kernel/multiboot2.c kernel/multiboot.c
FUZZ_TRACED.acpi       := arch/x86/acpi.c arch/x86/acpi_print.c arch/x86/acpi_layout.c \
			  mm/numa.c
FUZZ_PARAM_RE          := ^(early_param|__setup)[(]
FUZZ_TRACED.cmdline    := kernel/cmdline.c mm/e820_user.c lib/kstrtox.c lib/glob.c \
			  $(shell grep -lE '$(FUZZ_PARAM_RE)' $(FUZZ_SRCS))
# The ACPI parser reads memory only through its accessor: it builds here
# as it is, with the one x86 header it needs (-idirafter: after the host's).
FUZZ_EXTRA.acpi        := arch/x86/acpi.c arch/x86/acpi_print.c arch/x86/acpi_layout.c
FUZZ_ACPI_OBJS         := $(patsubst %.c,$(FUZZ_BUILD)/%.o,$(FUZZ_EXTRA.acpi))

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@
$(FUZZ_PLAIN)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,FUZZCC,$<)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fno-sanitize-coverage=trace-cmp -c $< -o $@

# A target's objects: its traced files from $(FUZZ_BUILD), the rest plain.
fuzz_objs = $(FUZZ_PLAIN)/tests/fuzz/fuzz_$(1).o \
	$(foreach f,$(FUZZ_SRCS) $(FUZZ_EXTRA.$(1)),$(if $(filter $(f),$(FUZZ_TRACED.$(1))),$(FUZZ_BUILD),$(FUZZ_PLAIN))/$(basename $(f)).o)
define fuzz_link
$(FUZZ_BUILD)/fuzz_$(1): $(call fuzz_objs,$(1))
	$$(call say,FUZZLD,$$@)
	$$(Q)$$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -pthread -o $$@ $$^
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_link,$(t))))
FUZZ_ALL_OBJS := $(sort $(foreach t,$(FUZZ_TARGETS),$(call fuzz_objs,$(t))))

# The same targets for clang's source-based coverage (no sanitizers), for
# make fuzz-long's report.
FUZZ_COV      := $(BUILD)/fuzz-cov
FUZZ_COV_OBJS := $(patsubst $(FUZZ_BUILD)/%,$(FUZZ_COV)/%,$(FUZZ_OBJS))
FUZZ_COV_BINS := $(patsubst $(FUZZ_BUILD)/%,$(FUZZ_COV)/%,$(FUZZ_BINS))
$(FUZZ_COV)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,COVCC,$<)
	$(Q)$(FUZZ_CC) $(filter-out $(HOST_SAN),$(HOST_CFLAGS)) -idirafter arch/x86/include \
		-fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping -c $< -o $@
$(FUZZ_COV)/fuzz_%: $(FUZZ_COV)/tests/fuzz/fuzz_%.o $(FUZZ_COV_OBJS)
	$(call say,COVLD,$@)
	$(Q)$(FUZZ_CC) -fsanitize=fuzzer -fprofile-instr-generate -pthread -o $@ $^
FUZZ_COV_MAINS := $(patsubst $(FUZZ_BUILD)/%,$(FUZZ_COV)/%,$(FUZZ_MAINS) $(FUZZ_ACPI_OBJS))
$(FUZZ_COV)/fuzz_acpi: $(patsubst $(FUZZ_BUILD)/%,$(FUZZ_COV)/%,$(FUZZ_ACPI_OBJS))
$(FUZZ_COV_OBJS) $(FUZZ_COV_MAINS) $(FUZZ_COV_BINS): | deps

# Each target for FUZZ_SECONDS (here 600 unless given; FUZZ_RUNS: at most
# that many inputs, 0 no limit), one at a time under nice, from the seeds
# and what earlier runs found; then each one's coverage of its parser
# files (lines, branches).
FUZZ_RUNS ?= 0
FUZZ_LONG_SECONDS = $(if $(filter command line environment,$(origin FUZZ_SECONDS)),$(FUZZ_SECONDS),600)
fuzz-long: deps $(FUZZ_BINS) $(FUZZ_COV_BINS)
	$(PYTHON) tools/fuzz-long.py --seconds $(FUZZ_LONG_SECONDS) --runs $(FUZZ_RUNS) \
		--corpus tests/fuzz/corpus --work $(FUZZ_BUILD) --cov $(FUZZ_COV) $(FUZZ_TARGETS)

fuzz-build: $(FUZZ_BINS)

# Each target for FUZZ_SECONDS from the seed corpus in tests/fuzz/corpus/
# (new inputs go to build/, never into the repository).
fuzz: deps $(FUZZ_BINS)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
		echo "fuzz_$$t: $(FUZZ_SECONDS) s"; \
		$(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -close_fd_mask=1 \
			-artifact_prefix=$(FUZZ_BUILD)/ \
			$(FUZZ_BUILD)/corpus-$$t tests/fuzz/corpus/$$t || exit 1; \
	done

-include $(FUZZ_ALL_OBJS:.o=.d) \
	$(wildcard $(FUZZ_COV)/*/*.d $(FUZZ_COV)/*/*/*.d)

-include $(HOST_OBJS:.o=.d)

# The user-space build without sanitizers, under valgrind's memcheck.
valgrind: deps
	@$(MAKE) --no-print-directory host HOST_SAN= HOST_BUILD=$(BUILD)/host-nosan
	valgrind --error-exitcode=1 --quiet $(BUILD)/host-nosan/mm86-host --cpus=2 \
		ktest.time_limit=900

# ---- benchmarks against user-space allocators ----------------------------
# The user-space build again, optimised and without sanitizers, beside
# glibc, mimalloc and jemalloc; then instruction counts from callgrind.
# Twice: as the tests build it (MM_DEBUG=1: the page and slab checks on,
# lockdep on) and as a production kernel would (MM_DEBUG=0 and LOCKDEP=0:
# the checks and the lock validator compiled out, in build/bench-nodebug).
BENCH_BUILD  := $(BUILD)/bench
BENCH_CFLAGS := $(filter-out $(HOST_SAN) -O1,$(HOST_CFLAGS)) -O2
BENCH_SRCS   := $(filter-out arch/host/main.c tests/%_test.c,$(HOST_SRCS))
BENCH_OBJS   := $(patsubst %,$(BENCH_BUILD)/%.o,$(basename $(BENCH_SRCS)))
BENCH_MAIN   := $(BENCH_BUILD)/tests/host/bench_host.o
BENCH_BIN    := $(BENCH_BUILD)/bench-host
BENCH_ND     := $(BUILD)/bench-nodebug
BENCH_ND_BIN := $(BENCH_ND)/bench-host
BENCH_ND_OBJS := $(patsubst $(BENCH_BUILD)/%,$(BENCH_ND)/%,$(BENCH_MAIN) $(BENCH_OBJS))

$(BENCH_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,BENCHCC,$<)
	$(Q)$(HOSTCC) $(BENCH_CFLAGS) -c $< -o $@

$(BENCH_ND)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,BENCHCC,$@)
	$(Q)$(HOSTCC) $(BENCH_CFLAGS) -DMM_DEBUG=0 -DLOCKDEP=0 -c $< -o $@

$(BENCH_BIN): $(BENCH_MAIN) $(BENCH_OBJS)
$(BENCH_ND_BIN): $(BENCH_ND_OBJS)
$(BENCH_BIN) $(BENCH_ND_BIN):
	$(call say,BENCHLD,$@)
	$(Q)$(HOSTCC) -o $@ $^ -pthread -lmimalloc -ljemalloc

# The hot/cold claim in cache misses: cachegrind on the MM_DEBUG=0 build,
# with the simulated caches pinned (not the host CPU's).
# An empty environment (env -i): the stack's place, and so which cache
# sets it shares with the measured data, does not vary with the caller's.
BENCH_CACHES := --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64

bench-host: deps $(BENCH_BIN) $(BENCH_ND_BIN)
	$(BENCH_BIN)
	$(BENCH_ND_BIN)
	@for b in $(BENCH_BIN) $(BENCH_ND_BIN); do \
		valgrind --tool=callgrind --toggle-collect='cg_*' \
			--callgrind-out-file=$$(dirname $$b)/callgrind.out \
			$$b --callgrind > /dev/null 2>&1 || exit 1; \
	done
	@$(PYTHON) tools/callgrind-ops.py 10000 MM_DEBUG=1=$(BENCH_BUILD)/callgrind.out \
		MM_DEBUG=0=$(BENCH_ND)/callgrind.out
	@env -i valgrind --tool=cachegrind --cache-sim=yes $(BENCH_CACHES) \
		--cachegrind-out-file=$(BENCH_ND)/cachegrind.out \
		$(BENCH_ND_BIN) --cachegrind > $(BENCH_ND)/cachegrind.txt 2>&1 || \
		{ cat $(BENCH_ND)/cachegrind.txt; exit 1; }
	@$(PYTHON) tools/cachegrind-hotcold.py $(BENCH_ND)/cachegrind.out $(BENCH_ND)/cachegrind.txt

-include $(BENCH_OBJS:.o=.d) $(BENCH_MAIN:.o=.d) $(BENCH_ND_OBJS:.o=.d)

# ---- the GRUB ISOs ------------------------------------------------------
# Two images from one rule, each bootable under BIOS and 32-bit UEFI
# (tools/mkiso fails when GRUB for either is missing): $(ISO) boots GRUB's
# multiboot2 entry, $(ISO_MB1) the multiboot (v1) one.  ISO_APPEND is the
# command line GRUB passes (default: none, or APPEND when run or debug boot
# an ISO, BOOT=iso or iso-mb1).  The images are remade only when the kernel,
# grub.cfg, tools/mkiso or ISO_APPEND change: ISO_APPEND lives in
# $(ISO_STAMP), rewritten only when it differs.
# Both are taken as written: $(value ...), never expanded by make (a "$"
# stays a "$"), and tools/mkiso quotes the line for GRUB's parser.
ISO_APPEND ?= $(if $(filter-out kernel,$(BOOT)),$(value APPEND))
ISO_CMDLINE = $(if $(filter command line environment,$(origin ISO_APPEND)),$(value ISO_APPEND),$(ISO_APPEND))
ISO_STAMP  := $(BUILD)/iso-append.txt
ifneq ($(file <$(ISO_STAMP)),$(ISO_CMDLINE))
  $(shell mkdir -p $(BUILD))
  $(file >$(ISO_STAMP),$(ISO_CMDLINE))
endif

iso: $(ISO) $(ISO_MB1)

$(ISO_STAMP):
	@mkdir -p $(@D)
	@touch $@

$(ISO) $(ISO_MB1): $(KERNEL) iso/grub.cfg tools/mkiso $(ISO_STAMP)
	$(call say,ISO,$@)
	$(Q)$(PYTHON) tools/mkiso $@ $(KERNEL) iso/grub.cfg $(ISO_STAMP) \
		$(if $(filter $(ISO_MB1),$@),1,0)

# ---- running ------------------------------------------------------------
# FIRMWARE=bios|uefi, BOOT=kernel|iso|iso-mb1 (what the firmware boots:
# -kernel, or GRUB from the multiboot2 or the multiboot ISO; UEFI boots an
# ISO, iso by default), MACHINE=q35 (UEFI is always q35).  tools/qemu-run
# puts COM1 and the monitor on the terminal (quit: Ctrl-A X), gives UEFI a
# fresh copy of OVMF's variables, and turns QEMU's exit into the verdict.
RUN_IMAGE := $(if $(filter iso,$(BOOT)),$(ISO)) \
	     $(if $(filter iso-mb1,$(BOOT)),$(ISO_MB1))
RUN_ARGS = --firmware $(FIRMWARE) --boot $(BOOT) \
	   $(if $(MACHINE),--machine $(MACHINE)) -m $(MEM) --smp $(CPUS) \
	   --kernel $(KERNEL) --iso $(ISO) --iso-mb1 $(ISO_MB1) \
	   --vars $(BUILD)/ovmf-vars.fd \
	   $(if $(filter kernel,$(BOOT)),--append-env MM86_APPEND)

# The kernel command line reaches the kernel byte for byte: APPEND's text
# as given on make's command line ($(value APPEND): make does not expand
# it, so a "$" stays a "$"), handed to qemu-run in the environment, so no
# shell parses it either (quotes, spaces and backticks stay as they are).
export MM86_APPEND := $(value APPEND)

# make run gives up after RUN_TIMEOUT seconds without a verdict (0: never),
# naming the case that was running; make debug never does (you may sit in
# gdb for as long as you like).  A whole default boot takes well under a
# minute; the per-case watchdog names a hanging case after 30 s.
RUN_TIMEOUT ?= 300

RUN_LOG ?= $(BUILD)/run.log

run: deps $(KERNEL) $(RUN_IMAGE)
	@$(PYTHON) tools/qemu-run --timeout $(RUN_TIMEOUT) --log $(RUN_LOG) \
		$(RUN_ARGS)

# make debug boots as make run does, but QEMU waits for gdb on GDBPORT
# (from the user id, so that two users of one machine do not collide);
# make gdb, in another terminal, starts gdb on the same kernel, connected,
# with the allocator commands of tools/gdb/mm86.py (mm-buddyinfo ...).
# OPT=-Og builds that kernel with other optimisation flags in its own
# build directory, $(BUILD)/debug-Og, so that the allocator's functions
# and arguments are not inlined or optimised away ($(KERNEL) and its
# objects are left alone).  Ports repeat only for uids 50000 apart.
# gdb reads a script written into the build directory and is told not to
# auto-load a .gdbinit from here (no safe-path warning).
GDBPORT ?= $(shell echo $$((10000 + $$(id -u) % 50000)))
OPT     ?=
GDB     ?= gdb
GDB_SCRIPT = $(BUILD)/mm86.gdb
DEBUG_SUB  = $(MAKE) --no-print-directory OPT= BUILD=$(BUILD)/debug$(OPT) \
	     CFLAGS='$(filter-out -O%,$(CFLAGS)) $(OPT)' GDBPORT=$(GDBPORT)

ifneq ($(OPT),)
debug gdb: deps
	@$(DEBUG_SUB) $@
else
debug: deps $(KERNEL) $(RUN_IMAGE)
	$(write-gdb-script)
	@$(PYTHON) tools/qemu-run --gdb --gdb-port $(GDBPORT) $(RUN_ARGS)

gdb: deps $(KERNEL)
	$(write-gdb-script)
	@$(GDB) -q -iex 'set auto-load local-gdbinit off' -x $(GDB_SCRIPT)
endif

define write-gdb-script
@printf 'file %s\nsource %s\ntarget remote localhost:%s\n' \
	"$(abspath $(KERNEL))" "$(abspath tools/gdb/mm86.py)" \
	"$(GDBPORT)" > $(GDB_SCRIPT)
endef

# ---- testing ------------------------------------------------------------
# The boots', labs' and exercises' checks record their passing verdicts
# under $(BUILD)/verdicts, keyed on every input (the tree's files, the
# built kernel, ISOs and host binary, OVMF, the compilers, QEMU and its
# firmware, the make variables: tools/verdicts.py); a run with the same
# inputs reuses them (a boot's only while its log is the one it left) and
# make test's summary says how many.  FORCE=1 runs everything.
FORCE ?=
FORCE_FLAG = $(if $(filter-out 0,$(FORCE)),--force)
RUNNER_ARGS = --jobs $(JOBS) --only '$(ONLY)' --kernel $(KERNEL) \
	      --iso $(ISO) --iso-mb1 $(ISO_MB1) --logs $(BUILD)/logs \
	      $(if $(FORCE_FLAG),,--reuse)

test: deps $(KERNEL) $(ISO) $(ISO_MB1)
	@rm -f $(BUILD)/host-counts.txt $(BUILD)/lab-counts.txt \
		$(BUILD)/mistake-counts.txt $(BUILD)/exercise-counts.txt
	-@$(MAKE) --no-print-directory test-host
	-@$(MAKE) --no-print-directory test-labs
	-@$(MAKE) --no-print-directory test-exercises
	$(PYTHON) tools/runner.py $(RUNNER_ARGS) \
		--extra-counts $(BUILD)/host-counts.txt $(BUILD)/lab-counts.txt \
		$(BUILD)/mistake-counts.txt $(BUILD)/exercise-counts.txt --post-check "$(POST_CHECK)"

# After the boots, make test checks the snapshot parser against golden
# physical maps (tests/mmsnap-golden.txt) and loads a report of a few logs
# in headless Chromium (tools/postboot_checks.py).
POST_CHECK = $(PYTHON) tools/postboot_checks.py --logs $(BUILD)/logs \
	     --only '$(ONLY)' --work $(BUILD)/report-check $(FORCE_FLAG)

test-qemu: deps $(KERNEL) $(ISO) $(ISO_MB1)
	$(PYTHON) tools/runner.py $(RUNNER_ARGS)

# The host tools' unit tests, the user-space kernel's suites (under ASan
# and UBSan, and under TSan with its race scenarios), and each fuzzer for
# FUZZ_TEST_SECONDS.
FUZZ_TEST_SECONDS ?= 5
test-host: $(HOST_BIN) $(HOST_TSAN_BIN) $(FUZZ_BINS)
	@mkdir -p $(BUILD)/logs
	$(PYTHON) tools/host-tests.py --counts $(BUILD)/host-counts.txt \
		--host-binary $(HOST_BIN) --tsan-binary $(HOST_TSAN_BIN) \
		--logs $(BUILD)/logs \
		--fuzz $(FUZZ_BINS) --fuzz-seconds $(FUZZ_TEST_SECONDS) \
		--fuzz-corpus tests/fuzz/corpus --fuzz-work $(FUZZ_BUILD) \
		--jobs $(JOBS)

# The exercises of docs/exercises.md, checked: each step of
# tests/exercises.txt patched into a copy of the tree (with the objects
# built here, so only what the patch touches is rebuilt), built, run and
# compared, EXERCISE_JOBS at a time; ONLY_EXERCISES picks steps by glob.
EXERCISE_JOBS ?= 2
ONLY_EXERCISES ?= *
test-exercises: deps $(KERNEL) $(HOST_BIN)
	@rm -f $(BUILD)/exercise-counts.txt
	$(PYTHON) tools/exercises.py --jobs $(EXERCISE_JOBS) $(FORCE_FLAG) \
		--only '$(ONLY_EXERCISES)' --counts $(BUILD)/exercise-counts.txt

# ---- the report: pictures of memory -------------------------------------
# make report writes $(BUILD)/report/index.html from every boot log of the
# last make test ($(BUILD)/logs), or from LOG=FILE alone (make run leaves
# $(BUILD)/run.log): the KTAP results, the run summary and the pictures
# drawn from the kernel's memory snapshots (tools/report.py).
LOG ?=
report: deps
	@$(PYTHON) tools/report.py --out $(BUILD)/report --jobs 2 \
		$(if $(LOG),$(LOG),--logs $(BUILD)/logs --matrix tests/boots.txt)

# ---- course labs ----------------------------------------------------------
# A lab is a student tree cut from this one: labs/NAME/ holds its hand-out
# and its grading (tools/labtree.py has the format).  make lab LAB=NAME
# DEST=DIR writes the tree; in it, make grade boots the graded tests and
# prints "Score: N/M", make handin packs the committed work with its grade.
# GRADE_SEEDS (ktest seeds, default 1), GRADE_TIMEOUT_SCALE (multiplies each
# lab's boot time limit), GRADE_EXTRA=DIR (a teacher's hidden suites:
# DIR/*.c and DIR/grade.conf, built into their own kernel).
# make test-labs proves every lab: tools/lab.py prove.
LAB                 ?= $(shell cat .mm86-lab 2>/dev/null)
GRADE_SEEDS         ?= 1
GRADE_TIMEOUT_SCALE ?= 1
GRADE_EXTRA         ?=
GRADE_BUILD          = $(if $(GRADE_EXTRA),$(BUILD)/grade-extra,$(BUILD))
GRADE_ARGS           = --seeds '$(GRADE_SEEDS)' \
		       --timeout-scale $(GRADE_TIMEOUT_SCALE) \
		       $(if $(GRADE_EXTRA),--extra $(abspath $(GRADE_EXTRA)))

lab:
	@if [ -z "$(LAB)" ] || [ -z "$(DEST)" ]; then \
		echo "usage: make lab LAB=NAME DEST=DIR; the labs:"; \
		$(PYTHON) tools/lab.py list; exit 2; fi
	@$(PYTHON) tools/lab.py cut $(LAB) $(DEST)

grade-kernel: deps
	@$(MAKE) --no-print-directory BUILD=$(GRADE_BUILD) \
		$(if $(GRADE_EXTRA),EXTRA_TESTS=$(abspath $(GRADE_EXTRA))) \
		$(GRADE_BUILD)/mm86.elf

grade: grade-kernel
	@$(PYTHON) tools/grade.py --lab '$(LAB)' $(GRADE_ARGS) \
		--kernel $(GRADE_BUILD)/mm86.elf --logs $(GRADE_BUILD)/grade \
		--json $(GRADE_BUILD)/grade.json --text $(GRADE_BUILD)/grade.txt

handin: grade-kernel
	@$(PYTHON) tools/handin.py --build $(GRADE_BUILD) --grade-args "$(GRADE_ARGS)"

# The zip a teacher uploads to Gradescope: the lab's hand-out tree, its
# set-up and run_autograder (labs/gradescope/README.md); reference tree only.
.PHONY: autograder
autograder:
	@$(PYTHON) labs/gradescope/autograder.py zip --lab '$(LAB)' \
		$(if $(GRADE_EXTRA),--extra $(abspath $(GRADE_EXTRA))) \
		--out $(BUILD)/autograder-$(LAB).zip

test-labs: deps $(KERNEL)
	$(PYTHON) tools/lab.py prove --build $(BUILD) --jobs $(JOBS) \
		$(FORCE_FLAG) --counts $(BUILD)/lab-counts.txt
	@$(MAKE) --no-print-directory test-mistakes

# Every lab's written mistakes (labs/NAME/mistakes.txt), each patched into
# a copy of the reference and graded: each must lose exactly the points
# its stanza names (tools/mistakes.py).  LAB=NAME[,NAME] and
# ONLY_MISTAKES=GLOB (of LAB/ID) pick some.
ONLY_MISTAKES ?= *
test-mistakes: deps $(KERNEL)
	$(PYTHON) tools/mistakes.py --jobs $(JOBS) $(FORCE_FLAG) \
		--lab '$(LAB)' --only '$(ONLY_MISTAKES)' \
		--counts $(BUILD)/mistake-counts.txt

# ---- set-up: the Debian packages each target needs ----------------------
# The one table of them.  `deps` installs what the goals on the command line
# need (as root; otherwise it prints the command and stops), every build
# waits for it, and `make deps` alone installs what every target needs, or
# DEPS_FOR='run iso' names the targets.  deps writes nothing under build/,
# so `sudo make deps` leaves the clone to its owner.  The cross toolchain is
# wanted only when CROSS is the default that deps installs.
PKGS.cross      := $(if $(filter i686-linux-gnu-,$(CROSS)),gcc-i686-linux-gnu binutils-i686-linux-gnu)
PKGS.all        := $(PKGS.cross) python3
PKGS.iso        := $(PKGS.all) grub-common grub-pc-bin grub-efi-ia32-bin xorriso mtools
PKGS.run        := $(PKGS.all) qemu-system-x86 \
		   $(if $(filter-out kernel,$(BOOT)),$(PKGS.iso)) \
		   $(if $(filter uefi,$(FIRMWARE)),ovmf-ia32)
PKGS.debug      := $(PKGS.run) gdb
PKGS.gdb        := $(PKGS.all) gdb
PKGS.host       := gcc
PKGS.host-tsan  := $(PKGS.host)
PKGS.fuzz-build := clang libclang-rt-dev
PKGS.fuzz       := $(PKGS.fuzz-build)
PKGS.fuzz-long  := $(PKGS.fuzz) llvm python3
PKGS.test-host  := $(PKGS.host) $(PKGS.fuzz) python3
PKGS.test-qemu  := $(PKGS.run) $(PKGS.iso) ovmf-ia32
PKGS.lab        := python3 git
PKGS.grade-kernel := $(PKGS.all)
PKGS.grade      := $(PKGS.all) qemu-system-x86 git
PKGS.handin     := $(PKGS.grade)
PKGS.test-labs  := $(PKGS.grade)
PKGS.test-mistakes := $(PKGS.grade)
PKGS.test-exercises := $(PKGS.run) $(PKGS.host) git
PKGS.report     := python3 python3-matplotlib
PKGS.test       := $(PKGS.test-host) $(PKGS.test-qemu) gdb git \
		   $(PKGS.report) chromium fonts-dejavu-core
PKGS.valgrind   := $(PKGS.host) valgrind
PKGS.bench-host := $(PKGS.host) valgrind libmimalloc-dev libjemalloc-dev python3
DEPS_TARGETS    := $(sort $(patsubst PKGS.%,%,$(filter-out PKGS.cross,$(filter PKGS.%,$(.VARIABLES)))))

DEPS_GOALS := $(filter-out deps clean help,$(MAKECMDGOALS))
DEPS_FOR   ?= $(if $(MAKECMDGOALS),$(or $(DEPS_GOALS),$(if $(filter deps,$(MAKECMDGOALS)),$(DEPS_TARGETS))),all)
DEPS_PKGS   = $(sort $(foreach t,$(DEPS_FOR),$(PKGS.$(t))))
ifneq ($(filter-out $(DEPS_TARGETS),$(if $(filter command line environment,$(origin DEPS_FOR)),$(DEPS_FOR))),)
  $(error DEPS_FOR: no package list for '$(filter-out $(DEPS_TARGETS),$(DEPS_FOR))'; the targets are: $(DEPS_TARGETS))
endif

# what the user typed, and the `make deps` that installs as much
# (with FIRMWARE= and BOOT= when they change what run and debug need)
DEPS_VARS  := $(if $(filter-out bios,$(FIRMWARE)),FIRMWARE=$(FIRMWARE)) \
	      $(if $(filter command line,$(origin BOOT)),BOOT=$(BOOT))
DEPS_GOAL  := $(strip make $(MAKECMDGOALS) $(DEPS_VARS))
DEPS_CMD    = $(strip make deps$(if $(filter-out $(DEPS_FOR),$(DEPS_TARGETS)), DEPS_FOR="$(DEPS_FOR)") \
	      $(if $(filter run debug,$(DEPS_FOR)),$(DEPS_VARS)))

deps:
	@tools/deps.sh --goal '$(DEPS_GOAL)' --deps '$(DEPS_CMD)' --build $(BUILD) \
		$(if $(filter deps,$(MAKECMDGOALS)),--report) -- $(DEPS_PKGS)

# Every compile, link and image waits for deps (order-only: deps never makes
# anything out of date).  Naming the objects here also keeps them: none is an
# intermediate file that make deletes and rebuilds the next time.
$(OBJS) $(KERNEL) $(HOST_OBJS) $(HOST_BIN) $(HOST_TSAN_OBJS) $(HOST_TSAN_BIN) $(FUZZ_ALL_OBJS) \
$(FUZZ_BINS) $(BENCH_OBJS) $(BENCH_MAIN) $(BENCH_BIN) $(ISO) $(ISO_MB1): | deps

clean:
	rm -rf $(BUILD) .gdbinit


help:
	@sed -n '1,/^$$/p' Makefile
