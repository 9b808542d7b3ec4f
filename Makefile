# bakeoff — hand-written Makefile. CC, CPPFLAGS, CFLAGS, LDFLAGS, PREFIX, DESTDIR are
# overridable; V=1 shows the commands. Objects go to $(BUILD)/.
#   make            build ./bakeoff
#   make check      build and run every test under prove
#   make check-quick the unit tests and the timing-free e2e tests (QUICK_E2E)
#   make sanitize   build with ASan+UBSan in build-san/ and run every test
#                   (CI: CC=clang, whose UBSan checks more)
#   make generic    build everything in build-generic/ with the portable OS
#                   layer (os-generic.c) instead of os-linux.c
#   make peers      run established peers beside bakeoff (scripts/peers.sh)
#   make fuzz       build the libFuzzer targets (clang) in build-fuzz/ and run
#                   each for FUZZ_SECONDS (default 60); crashes land in
#                   build-fuzz/crashes/ and belong in tests/fuzz/regress/
#   make install    PREFIX=/usr/local DESTDIR=
#   make cross      ARCH=aarch64|s390x|riscv64|ppc64le: build and test under qemu-user
#   make dist       bakeoff-VERSION.tar.gz; make distcheck checks it unpacked

CC      ?= cc
CFLAGS  ?= -O2
WARN     = -Wall -Wextra -Werror
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L
LDFLAGS ?=
LDLIBS   = -lm
PREFIX  ?= /usr/local
BUILD   ?= build
BIN     ?= bakeoff
PROVE   ?= prove

ifeq ($(BUILD),build)
BINPATH = $(BIN)
else
BINPATH = $(BUILD)/$(BIN)
endif

Q = @
ifeq ($(V),1)
Q =
endif

# How bakeoff was built is recorded in every result file (sysinfo adds the
# compiler's own version string).
DEFS = -DBAKEOFF_CC='"$(CC)"' -DBAKEOFF_CFLAGS='"$(strip $(CPPFLAGS) $(CFLAGS))"'
ALL_CFLAGS = $(STD) $(WARN) $(CPPFLAGS) $(CFLAGS) -Isrc -Isrc/core -MMD -MP

# src/cli/ is the top floor (the verbs); its main.c holds main() and is
# linked into the program only, the rest into the library the tests use.
LIB_SRC  = $(wildcard src/core/*.c) $(wildcard src/bench/*.c) $(wildcard src/report/*.c) \
	   $(wildcard src/net/*.c) $(filter-out src/cli/main.c,$(wildcard src/cli/*.c))
LIB_OBJ  = $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ = $(BUILD)/src/cli/main.o
UNIT_SRC = $(wildcard tests/unit/t-*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
E2E      = $(wildcard tests/e2e/*.t)

all: $(BINPATH)

$(BINPATH): $(MAIN_OBJ) $(BUILD)/libbakeoff.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libbakeoff.a: $(LIB_OBJ)
	$(Q)rm -f $@
	$(Q)ar rcs $@ $^

$(BUILD)/src/core/sysinfo.o: ALL_CFLAGS += $(DEFS)
$(BUILD)/src/core/sysinfo.o: Makefile

# The core gauge (gauge.h) is an instrument: its loops compile at -O2
# whatever CFLAGS say, so that readings compare across builds along a
# history (a -O0 build read 2.5-2.8 where -O2 reads 0.50 on one guest,
# and history took its runs for runs on a shared core).
$(BUILD)/src/core/gauge.o: ALL_CFLAGS += -O2
$(BUILD)/src/core/gauge.o: Makefile

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libbakeoff.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(BUILD)/libbakeoff.a $(LDLIBS)

unit: $(UNIT_BIN)

# The test build: the same program plus the test-only benchmarks of
# src/bench/test-harness.c (a crash, a hang, Ctrl-C ignored, ...), and
# mem.numa reading its node list from $$BAKEOFF_TEST_NODES.
TESTING_OBJ = $(BUILD)/testing/registry.o $(BUILD)/testing/test-harness.o $(BUILD)/testing/mem-numa.o
$(BUILD)/testing/%.o: src/core/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (testing)"
	$(Q)$(CC) $(ALL_CFLAGS) -DBAKEOFF_TESTING -c -o $@ $<
$(BUILD)/testing/%.o: src/bench/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (testing)"
	$(Q)$(CC) $(ALL_CFLAGS) -DBAKEOFF_TESTING -c -o $@ $<
$(BUILD)/bakeoff-testing: $(MAIN_OBJ) $(TESTING_OBJ) $(BUILD)/libbakeoff.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

check: $(BINPATH) $(BUILD)/bakeoff-testing $(UNIT_BIN)
	BAKEOFF=./$(BINPATH) BAKEOFF_TESTING=./$(BUILD)/bakeoff-testing BUILD=$(BUILD) \
		$(PROVE) --exec '' $(UNIT_BIN) $(E2E)

SAN = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
sanitize:
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	$(MAKE) BUILD=build-san CFLAGS="$(SAN)" LDFLAGS="$(SAN)" check

generic:
	$(MAKE) BUILD=build-generic CFLAGS="$(CFLAGS) -DBAKEOFF_NO_LINUX" all unit

# Fuzzing: tests/fuzz/fuzz-NAME.c runs on seeds tests/fuzz/corpus/NAME/
# (json also on the result seeds); the corpus it grows stays in build-fuzz/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN      = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_NAMES    = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_SEEDS_json = tests/fuzz/corpus/result

fuzz-bins: $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz-%)

$(BUILD)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/targets.h $(BUILD)/libbakeoff.a
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -fsanitize=fuzzer $(LDFLAGS) -o $@ $< $(BUILD)/libbakeoff.a $(LDLIBS)

fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" \
		LDFLAGS="$(FUZZ_SAN)" fuzz-bins
	$(Q)for t in $(FUZZ_NAMES); do \
		mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes; \
		echo "== fuzz-$$t for $(FUZZ_SECONDS) s"; \
		seeds="tests/fuzz/corpus/$$t"; \
		[ $$t = json ] && seeds="$$seeds $(FUZZ_SEEDS_json)"; \
		ASAN_OPTIONS=allocator_may_return_null=1 build-fuzz/fuzz/fuzz-$$t \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix=build-fuzz/crashes/$$t- \
			build-fuzz/corpus/$$t $$seeds >build-fuzz/fuzz-$$t.log 2>&1 || { \
			tail -n 40 build-fuzz/fuzz-$$t.log; \
			echo "fuzz-$$t failed: the input is in build-fuzz/crashes/; add it to tests/fuzz/regress/"; \
			exit 1; }; \
		grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" build-fuzz/fuzz-$$t.log | \
			sed "s/^/fuzz-$$t /"; \
	done

peers: $(BINPATH)
	BAKEOFF=./$(BINPATH) sh scripts/peers.sh

# How well history finds steps of 5, 10, 20% in this machine's own noise
# (docs/regressions.md): a few minutes of real runs, then synthetic histories.
history-bench: $(BINPATH)
	perl scripts/history-bench --bakeoff ./$(BINPATH)

install: $(BINPATH)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 755 $(BINPATH) $(DESTDIR)$(PREFIX)/bin/bakeoff
	install -m 644 docs/bakeoff.1 $(DESTDIR)$(PREFIX)/share/man/man1/bakeoff.1
	./$(BINPATH) completion bash >$(DESTDIR)$(PREFIX)/share/bash-completion/completions/bakeoff || { \
		rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/bakeoff; \
		echo "make install: no bash completion (the binary does not run here: a cross build?)" >&2; }

# Another CPU under emulation: ARCH=aarch64|s390x|riscv64|ppc64le, with
# Debian's cross compiler (gcc-ARCH-linux-gnu, libc6-dev-*-cross) and
# qemu-user. Builds in build-ARCH/ with -Werror, runs every unit test and
# the end-to-end tests that judge no timing (CROSS_E2E) under qemu; the
# e2e tests run the program through build-ARCH/bakeoff-qemu, a wrapper.
# ppc64le runs with 64 KiB pages (QEMU_PAGESIZE), as its kernels have them.
ARCH      ?= aarch64
CROSS_GNU  = $(if $(filter ppc64le,$(ARCH)),powerpc64le,$(ARCH))-linux-gnu
CROSS_QEMU = qemu-$(if $(filter ppc64le,$(ARCH)),ppc64le,$(ARCH))
# ppc64le's Debian kernels use 64 KiB pages: so does its emulation here
CROSS_PAGE = $(if $(filter ppc64le,$(ARCH)),65536,4096)
CROSS_E2E ?= tests/e2e/cli.t tests/e2e/report.t tests/e2e/compare.t tests/e2e/options.t \
	     tests/e2e/export.t tests/e2e/completion.t tests/e2e/cross.t
cross:
	@command -v $(CROSS_GNU)-gcc >/dev/null && command -v $(CROSS_QEMU) >/dev/null || \
		{ echo "make cross ARCH=$(ARCH): needs $(CROSS_GNU)-gcc and $(CROSS_QEMU) (Debian: gcc-$(CROSS_GNU) qemu-user)" >&2; exit 2; }
	$(MAKE) BUILD=build-$(ARCH) CC=$(CROSS_GNU)-gcc all unit
	printf '#!/bin/sh\nexec $(CROSS_QEMU) -L /usr/$(CROSS_GNU) "$(CURDIR)/build-$(ARCH)/bakeoff" "$$@"\n' \
		>build-$(ARCH)/bakeoff-qemu && chmod +x build-$(ARCH)/bakeoff-qemu
	QEMU_LD_PREFIX=/usr/$(CROSS_GNU) QEMU_PAGESIZE=$(CROSS_PAGE) BAKEOFF=build-$(ARCH)/bakeoff-qemu BUILD=build-$(ARCH) \
		BAKEOFF_CROSS=$(ARCH) $(PROVE) --exec '$(CROSS_QEMU)' $(UNIT_SRC:tests/unit/%.c=build-$(ARCH)/tests/%)
	QEMU_LD_PREFIX=/usr/$(CROSS_GNU) QEMU_PAGESIZE=$(CROSS_PAGE) BAKEOFF=build-$(ARCH)/bakeoff-qemu BUILD=build-$(ARCH) \
		BAKEOFF_CROSS=$(ARCH) BAKEOFF_RUNNER='$(CROSS_QEMU) -L /usr/$(CROSS_GNU)' $(PROVE) $(CROSS_E2E)

# A release tarball of the files git tracks, as they are in the work tree
# (bakeoff-VERSION.tar.gz); distcheck unpacks it in build/distcheck and
# runs make check there, so a file the build or a test needs and git does
# not track fails it.
VERSION := $(shell sed -n 's/^\#define BAKEOFF_VERSION "\(.*\)"/\1/p' src/core/version.h)
DIST     = bakeoff-$(VERSION)
dist:
	@test -n "$(VERSION)" || { echo "make dist: no version in src/core/version.h" >&2; exit 1; }
	@command -v git >/dev/null && git rev-parse --git-dir >/dev/null 2>&1 || \
		{ echo "make dist: needs git and this checkout's .git (the list of files is git's)" >&2; exit 1; }
	git ls-files -z | tar --null -T - --transform 's,^,$(DIST)/,' -czf $(DIST).tar.gz
	@echo "make dist: $(DIST).tar.gz, $$(git ls-files | wc -l) files"

# check-quick: the unit tests and the end-to-end tests that judge no timing
# (QUICK_E2E). distcheck builds the unpacked tarball and runs that: what a
# missing file would break, without another pass of the whole suite in CI.
QUICK_E2E ?= tests/e2e/cli.t tests/e2e/report.t tests/e2e/compare.t tests/e2e/options.t \
	tests/e2e/export.t tests/e2e/completion.t
check-quick:
	$(MAKE) check E2E="$(QUICK_E2E)"
distcheck: dist
	rm -rf build/distcheck && mkdir -p build/distcheck
	tar -xzf $(DIST).tar.gz -C build/distcheck
	$(MAKE) -C build/distcheck/$(DIST) check-quick

clean:
	rm -rf build build-san build-generic build-fuzz build-aarch64 build-s390x build-riscv64 build-ppc64le bakeoff bakeoff-*.tar.gz

.PHONY: all unit check check-quick sanitize generic fuzz fuzz-bins peers history-bench install dist distcheck cross clean
-include $(LIB_OBJ:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_BIN:=.d) $(TESTING_OBJ:.o=.d)
