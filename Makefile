# gpumemsim build. Every .c under src/ (except src/cli) goes into libgpumemsim.a;
# src/cli/*.c builds the gpumemsim command; tests/unit/*.c build one test runner.
CC      ?= gcc
# build in parallel by default (one job per core)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
BUILD   ?= build
# link-time optimisation: about 5% fewer host instructions on the hot path (bench/README.md)
OPT     ?= -O2 -g -flto=auto
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

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

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

# Optional faster command, build-pgo/gpumemsim: link-time optimisation plus profile-guided
# optimisation trained on three short runs (about 10% faster on stream/qv100, statistics
# identical; bench/README.md). Two builds and the training take about a minute. `make` and
# the tests never use it.
PGO_TRAIN := "--config configs/qv100.config --workload stream --set n=524288" \
             "--config configs/qv100.config --workload gather --set n=16384" \
             "--config configs/gtx480.config --workload transpose --set N=512"
pgo:
	rm -rf build-pgo
	$(MAKE) BUILD=build-pgo OPT="$(OPT) -flto=auto -fprofile-generate -fprofile-update=single" \
	    LDFLAGS="$(LDFLAGS) -fprofile-generate" build-pgo/gpumemsim
	for t in $(PGO_TRAIN); do build-pgo/gpumemsim run $$t --quiet >/dev/null || exit 1; done
	find build-pgo \( -name '*.o' -o -name '*.a' \) -delete
	rm -f build-pgo/gpumemsim
	$(MAKE) BUILD=build-pgo OPT="$(OPT) -flto=auto -fprofile-use -fprofile-partial-training -Wno-missing-profile" \
	    build-pgo/gpumemsim

clean:
	rm -rf build build-asan build-pgo

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TST_OBJ:.o=.d)
