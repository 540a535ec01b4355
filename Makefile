# gpumemsim build. Every .c under src/ (except src/cli) goes into libgpumemsim.a;
# src/cli/*.c builds the gpumemsim command; tests/unit/*.c build one test runner.
CC      ?= gcc
# build in parallel by default (one job per core)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
BUILD   ?= build
# link-time optimisation: about 5% fewer host instructions on the hot path; -O3 with the
# profile-guided build 3% fewer again and x1.06 wall on stream/qv100 (bench/README.md)
OPT     ?= -O3 -g -flto=auto
WARN    := -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wformat=2
CFLAGS  += -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -Iinclude -Isrc -MMD -MP $(XCFLAGS)
LDLIBS  += -llzma -lzstd -lsqlite3 -lm -pthread
# hardware popcount/parity (every x86-64 since 2008); without it gcc calls slow helpers
ifeq ($(shell uname -m),x86_64)
CFLAGS  += -mpopcnt
endif
SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

LIB_SRC := $(shell find src -name '*.c' -not -path 'src/cli/*' | sort)
CLI_SRC := $(wildcard src/cli/*.c)
TST_SRC := $(wildcard tests/unit/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
TST_OBJ := $(TST_SRC:%.c=$(BUILD)/%.o)

.PHONY: all run test test-fast bench clean fuzz pgo
all: $(BUILD)/gpumemsim $(BUILD)/gms_tests

# -frandom-seed: the same per source whatever the build directory, so that the profile of the
# instrumented build (PGO below) matches its functions (gcc derives their ids from it)
$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -frandom-seed=$< -c $< -o $@

$(BUILD)/libgpumemsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/gpumemsim: $(CLI_OBJ) $(BUILD)/libgpumemsim.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libgpumemsim.a $(LDLIBS)

$(BUILD)/gms_tests: $(TST_OBJ) $(BUILD)/libgpumemsim.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TST_OBJ) $(BUILD)/libgpumemsim.a $(LDLIBS)

# The main job on a built-in default: the stream microbenchmark on the QV100 preset.
run: $(BUILD)/gpumemsim
	$(BUILD)/gpumemsim run --config configs/qv100.config --workload stream --quiet

# Every suite (unit, CLI, unit under ASan+UBSan, sweep harness); last line "N passed, N failed".
test:
	+sh tests/run_all.sh

# Unit and CLI tests only, plain build.
test-fast:
	+sh tests/run_all.sh --quick

bench: $(BUILD)/gpumemsim
	sh bench/speed.sh

# Profile-guided optimisation, on by default for the `build` directory: the objects are
# compiled with the profile of six short training runs (three timing runs; two functional runs,
# --no-timing, for the workloads' generation and the shadow memory's checks, which the timing
# runs do not reach; one run of an Accel-Sim trace exported from a built-in workload, for the
# trace parser) of an instrumented build of the same
# objects (gcc ties a static function's profile to its object's path, so the instrumented
# objects are built in place, trained, and then replaced). About 10% faster on stream/qv100,
# statistics identical (bench/README.md). Any change to a source or header rebuilds every
# object instrumented and re-trains from scratch, then recompiles every object with the new
# profiles: objects left by `make PGO=0` in build/ (not instrumented) would otherwise be
# linked into the training binary, keep their old profiles, and fail the build with
# coverage-mismatch errors. `make PGO=0` builds without any of it (faster edit-build cycles).
# The training runs use two host threads (-gms_host_pipeline): the instrumented build updates
# its counters atomically, and -fprofile-correction smooths what is left of the races (gcc
# rejects an inconsistent value profile otherwise).
PGO ?= 1
PGO_TRAIN := "--config configs/qv100.config --workload stream --set n=524288" \
             "--config configs/qv100.config --workload gather --set n=16384" \
             "--config configs/gtx480.config --workload transpose --set N=512" \
             "--config configs/qv100.config --workload leukocyte --set rows=100 --set cols=100 --no-timing" \
             "--config configs/qv100.config --workload tpacf --set scale=0.05 --no-timing"
ifeq ($(PGO)$(BUILD),1build)
PGO_STAMP := $(BUILD)/.pgo-profile
CFLAGS  += -fprofile-use -fprofile-partial-training -fprofile-correction -Wno-missing-profile
$(LIB_OBJ) $(CLI_OBJ) $(TST_OBJ): $(PGO_STAMP)
$(PGO_STAMP): $(LIB_SRC) $(CLI_SRC) $(shell find src include -name '*.h')
	@mkdir -p $(BUILD)
	@# every object instrumented, every profile new (see above)
	find $(BUILD) \( -name '*.o' -o -name '*.a' -o -name '*.gcda' \) -delete
	rm -f $(BUILD)/gpumemsim $(BUILD)/gms_tests
	$(MAKE) PGO=0 OPT="$(OPT) -fprofile-generate -fprofile-update=atomic" \
	    LDFLAGS="$(LDFLAGS) -fprofile-generate" FLAGS_FILE=$(BUILD)/.cflags-instrumented $(BUILD)/gpumemsim
	for t in $(PGO_TRAIN); do $(BUILD)/gpumemsim run $$t --quiet >/dev/null || exit 1; done
	@# and an Accel-Sim trace (the parser and the trace front end): a built-in workload exported
	rm -rf $(BUILD)/pgo-trace
	$(BUILD)/gpumemsim trace export --workload transpose --set N=256 --out $(BUILD)/pgo-trace >/dev/null
	$(BUILD)/gpumemsim run --trace $(BUILD)/pgo-trace/kernelslist.g --config configs/qv100.config --quiet >/dev/null
	rm -rf $(BUILD)/pgo-trace
	find $(BUILD) \( -name '*.o' -o -name '*.a' \) -delete
	rm -f $(BUILD)/gpumemsim $(BUILD)/gms_tests
	touch $@
endif
# The objects depend on the flags they were compiled with: switching between `make` and
# `make PGO=0` (or other XCFLAGS) in one build directory recompiles them instead of linking
# objects of the other kind.
FLAGS_FILE ?= $(BUILD)/.cflags
$(FLAGS_FILE): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(CFLAGS) $(LDFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS) $(LDFLAGS)' > $@
$(LIB_OBJ) $(CLI_OBJ) $(TST_OBJ): $(FLAGS_FILE)
.PHONY: FORCE
FORCE:

# kept for old scripts: the default build is profile-guided now
pgo: all

clean:
	rm -rf build build-asan build-pgo

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TST_OBJ:.o=.d)
