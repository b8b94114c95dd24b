# SPDX-License-Identifier: Apache-2.0 OR MIT
# cuzk build. `make` builds libcuzk.a, build/bin/cuzk-bench and the test runner.
# `make test` runs the whole suite (normal build, then an ASan+UBSan build); `make demo` runs the
# main job. Both install missing Debian packages first (scripts/install-deps.sh).

BUILD    ?= build
CC       ?= cc
OPT      ?= -O3 -march=native
SAN      ?=
VERIFY   ?=
GIT_COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD 2>/dev/null || echo -dirty)
VERSION  := 0.1.0

CPPFLAGS += -Iinclude -Isrc -D_GNU_SOURCE -DCUZK_VERSION='"$(VERSION)"'
CFLAGS   += -std=c11 -Wall -Wextra -Werror -g $(OPT) -pthread
ifneq ($(SAN),)
CFLAGS   += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS  += -fsanitize=address,undefined
endif
ifneq ($(VERIFY),)
CPPFLAGS += -DCUZK_VERIFY
endif
LDLIBS   += -lcrypto -lcjson -lpthread -lm

LIB_SRC   := $(shell find src -name '*.c' -not -path 'src/daemon/*' | sort)
# The daemon (src/daemon, the only place with gRPC server code) and the cuzk-bench client link
# Debian's gRPC core and protobuf-c; the message code is generated from proto/ by protoc-c.
DAEMON_SRC := $(shell find src/daemon -name '*.c' 2>/dev/null | sort)
PROTO      := proto/cuzk/v1/proving.proto
PROTO_C    := $(BUILD)/gen/proto/cuzk/v1/proving.pb-c.c
PROTO_H    := $(PROTO_C:.c=.h)
GRPC_LIBS  := $(shell pkg-config --libs grpc libprotobuf-c 2>/dev/null || echo -lgrpc -lgpr -lprotobuf-c)
PB_LIBS    := $(shell pkg-config --libs libprotobuf-c 2>/dev/null || echo -lprotobuf-c)
# The daemon's HTTP GET /status server (src/daemon/http_status.c) uses GNU libmicrohttpd; it is
# required like gRPC (scripts/install-deps.sh installs it), so no build lacks the feature.
MHD_LIBS   := $(shell pkg-config --libs libmicrohttpd 2>/dev/null || echo -lmicrohttpd)

# CUDA backend (STYLE.md section 6): with nvcc every src/gpu/*.cu is compiled for sm_90 plus
# embedded PTX and the CUDA runtime is linked statically; without nvcc, or with CUDA=0,
# src/gpu/gpu_stub.c provides the same symbols (every call returns CUZK_ERR_NO_DEVICE).
CUDA     ?= 1
NVCC     ?= $(shell command -v nvcc 2>/dev/null || ls /usr/local/cuda/bin/nvcc 2>/dev/null)
ifeq ($(CUDA),0)
NVCC     :=
endif
CUDA_SRC :=
ifneq ($(NVCC),)
CUDA_SRC  := $(sort $(wildcard src/gpu/*.cu))
LIB_SRC   := $(filter-out src/gpu/gpu_stub.c,$(LIB_SRC))
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NVCCFLAGS ?= -std=c++17 -O3 -gencode arch=compute_90,code=[sm_90,compute_90] -Werror all-warnings \
             -Xcompiler -Wall,-Wextra,-Wno-unknown-pragmas -g
# src/gpu/shim.cu stands in for the MSM entry points until src/gpu/msm*.cu defines them.
ifneq ($(wildcard src/gpu/msm*.cu),)
NVCCFLAGS += -DCUZK_GPU_HAVE_MSM=1
endif
LDLIBS   += -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/targets/x86_64-linux/lib -lcudart_static -ldl -lrt \
            -lstdc++
endif
# cuzk-bench's gRPC calls live in a module it loads only for the client commands
# (tools/bench/client_transport.h): gRPC's ~50 libraries would cost every process ~4.5 ms.
GRPC_MOD_SRC := tools/bench/client_grpc.c
BENCH_SRC := $(filter-out $(GRPC_MOD_SRC),$(shell find tools/bench -name '*.c' | sort))
TEST_SRC  := $(shell find tests/unit tests/vectors -name '*.c' 2>/dev/null | sort) tests/common/runner.c \
             tests/fuzz/fuzz_targets.c

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(CUDA_SRC:%.cu=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o)
DAEMON_OBJ := $(DAEMON_SRC:%.c=$(BUILD)/obj/%.o)
PROTO_OBJ := $(BUILD)/obj/gen/proving.pb-c.o
TEST_OBJ  := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)
# Device code compiled for the host (tests/unit/*.cu, nvcc only): tests of it that need no GPU.
ifneq ($(NVCC),)
TEST_OBJ  += $(patsubst %.cu,$(BUILD)/obj/%.o,$(sort $(wildcard tests/unit/*.cu)))
endif

LIB   := $(BUILD)/lib/libcuzk.a
BENCH := $(BUILD)/bin/cuzk-bench
GRPC_MOD := $(BUILD)/lib/cuzk-bench-grpc.so
GRPC_MOD_OBJ := $(BUILD)/obj/$(GRPC_MOD_SRC:.c=.pic.o)
DAEMON := $(BUILD)/bin/cuzk
TESTS := $(BUILD)/bin/cuzk-test

.PHONY: all deps test check check-san interop blst-oracle daemon-test portable-check ifma-build fuzz fuzz-smoke demo clean format
all: $(LIB) $(BENCH) $(GRPC_MOD) $(DAEMON) $(TESTS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) -MMD -MP -c $< -o $@

# The CPU check (include/cuzk/cpu.h) runs on CPUs the rest of the build may not: x86-64 baseline
# whatever OPT says, on the command line too (the sanitizer flags are in CFLAGS and stay).
$(BUILD)/obj/src/common/isa_check.o: override OPT := -O2 -march=x86-64 -mtune=generic

# The test registry: every CUZK_TEST(name) found in the test sources.
$(BUILD)/gen/test_list.h: $(filter-out tests/common/runner.c,$(TEST_SRC))
	@mkdir -p $(dir $@)
	@grep -ho '^CUZK_TEST([A-Za-z0-9_]*)' $^ | sed 's/^CUZK_TEST(\(.*\))/X(\1)/' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp

# The commit `cuzk-bench info` reports: rewritten on every make, touched only when it changes, so
# that cmd_info.o (and nothing else) is rebuilt after a commit.
$(BUILD)/gen/version.h: FORCE
	@mkdir -p $(dir $@)
	@echo '#define CUZK_GIT_COMMIT "$(GIT_COMMIT)"' > $@.tmp
	@cmp -s $@.tmp $@ || mv $@.tmp $@; rm -f $@.tmp
FORCE:
$(BUILD)/obj/tools/bench/cmd_info.o: $(BUILD)/gen/version.h
$(BUILD)/obj/tools/bench/cmd_info.o: CPPFLAGS += -I$(BUILD)/gen
# The daemon tags its PCE files with the commit (src/daemon/main.c).
$(BUILD)/obj/src/daemon/main.o: $(BUILD)/gen/version.h
$(BUILD)/obj/src/daemon/main.o: CPPFLAGS += -I$(BUILD)/gen

$(BUILD)/obj/tests/common/runner.o: CPPFLAGS += -I$(BUILD)/gen
$(BUILD)/obj/tests/common/runner.o: $(BUILD)/gen/test_list.h
$(BUILD)/obj/tests/%.o: CPPFLAGS += -Itests/common

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(PROTO_C) $(PROTO_H): $(PROTO)
	@mkdir -p $(BUILD)/gen/proto
	protoc-c --c_out=$(BUILD)/gen/proto -Iproto $(PROTO)

# Generated code is compiled without -Werror-prone extras but with the same flags otherwise.
$(PROTO_OBJ): $(PROTO_C) $(PROTO_H)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(BUILD)/gen/proto $(CFLAGS) -Wno-unused-parameter -c $< -o $@

# Everything that includes the generated header needs it first.
$(DAEMON_OBJ) $(BENCH_OBJ): $(PROTO_H)
$(DAEMON_OBJ) $(BENCH_OBJ): CPPFLAGS += -I$(BUILD)/gen/proto

# cuzk-bench runs as one process per proof (like snarkjs), so its start is part of every proof's
# time: it is linked without position independence and with libcrypto (and, with CUDA, libstdc++
# and libgcc) from their static archives, which takes ~5 ms off each start on the development VM
# (no relocations written into fresh pages, fewer libraries to map; docs/PERFORMANCE.md, "Process
# start"). STATIC_BENCH=0, a sanitizer build, or a missing archive gives the usual dynamic PIE
# link; the daemon and the tests always have it. The gRPC module (dlopen) keeps its own libcrypto.
STATIC_BENCH ?= 1
BENCH_LDFLAGS := $(LDFLAGS)
BENCH_LDLIBS  := $(LDLIBS)
ifeq ($(STATIC_BENCH)$(SAN),1)
CRYPTO_A := $(shell $(CC) -print-file-name=libcrypto.a)
STDCXX_A := $(shell $(CC) -print-file-name=libstdc++.a)
BENCH_LDFLAGS += -no-pie
ifneq ($(CRYPTO_A),libcrypto.a)
BENCH_LDLIBS := $(patsubst -lcrypto,$(CRYPTO_A),$(BENCH_LDLIBS))
endif
ifneq ($(filter -lstdc++,$(BENCH_LDLIBS)),)
ifneq ($(STDCXX_A),libstdc++.a)
BENCH_LDLIBS := $(patsubst -lstdc++,$(STDCXX_A),$(BENCH_LDLIBS))
BENCH_LDFLAGS += -static-libgcc
endif
endif
endif

# The module comes with the binary (a prerequisite, not linked), so `make $(BENCH)` builds both.
$(BENCH): $(BENCH_OBJ) $(PROTO_OBJ) $(LIB) $(GRPC_MOD)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(BENCH_LDFLAGS) -o $@ $(BENCH_OBJ) $(PROTO_OBJ) $(LIB) $(BENCH_LDLIBS) $(PB_LIBS) -ldl

$(GRPC_MOD_OBJ): $(GRPC_MOD_SRC)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(GRPC_MOD): $(GRPC_MOD_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-z,defs -o $@ $< $(GRPC_LIBS)

$(DAEMON): $(DAEMON_OBJ) $(PROTO_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(DAEMON_OBJ) $(PROTO_OBJ) $(LIB) $(LDLIBS) $(GRPC_LIBS) $(MHD_LIBS)

$(TESTS): $(TEST_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJ) $(LIB) $(LDLIBS) -lgmp

# An MSM variant for timing on a GPU host (scripts/gpu-porep.sh msm): VARIANT_SRC (default
# src/gpu/msm_g1.cu; several files allowed) compiled with VARIANT_FLAGS (e.g.
# -DCUZK_GPU_MONT_ROLL=1) and linked ahead of the library, whose own objects of those files are
# then never pulled in, as bin/cuzk-bench-$(VARIANT).
VARIANT_SRC ?= src/gpu/msm_g1.cu
.PHONY: msm-variant gpu-emu
# The main binaries are relinked with it, so none is left older than the library it came from.
msm-variant: $(BENCH_OBJ) $(PROTO_OBJ) $(LIB) $(GRPC_MOD) $(BENCH) $(TESTS) $(DAEMON)
	@test -n "$(VARIANT)" || { echo "msm-variant: set VARIANT=name VARIANT_FLAGS=..."; exit 1; }
	@mkdir -p $(BUILD)/obj/variants $(BUILD)/bin
	$(foreach f,$(VARIANT_SRC),$(NVCC) $(CPPFLAGS) $(NVCCFLAGS) $(VARIANT_FLAGS) -c $(f) \
		-o $(BUILD)/obj/variants/$(VARIANT)-$(notdir $(f:.cu=.o)) &&) true
	$(CC) $(CFLAGS) $(BENCH_LDFLAGS) -o $(BUILD)/bin/cuzk-bench-$(VARIANT) \
		$(foreach f,$(VARIANT_SRC),$(BUILD)/obj/variants/$(VARIANT)-$(notdir $(f:.cu=.o))) \
		$(BENCH_OBJ) $(PROTO_OBJ) $(LIB) $(BENCH_LDLIBS) $(PB_LIBS) -ldl

deps:
	@scripts/install-deps.sh

# The whole suite: the normal build, the CUZK_VERIFY build, then ASan + UBSan.
test: deps
	$(MAKE) check
	$(MAKE) gpu-emu
	$(MAKE) check BUILD=build/verify VERIFY=1
	$(MAKE) check-san
	$(MAKE) interop
	$(MAKE) blst-oracle
	$(MAKE) daemon-test
	$(MAKE) portable-check
	$(MAKE) ifma-build
	$(MAKE) fuzz-smoke

# The README's portable build (x86-64-v3) proving under an emulated CPU without AVX-512 (exit 77
# = skipped without qemu-user).
portable-check:
	scripts/portable-check.sh || [ $$? = 77 ]

# The AVX-512 IFMA variant compiled, for hosts whose -march=native leaves it out.
ifma-build:
	scripts/ifma-build-check.sh

check: all
	$(TESTS)
	scripts/test-cli.sh $(BENCH)

# The device MSM's algorithm on the CPU (tests/gpu/msm_emu.cu): the kernel bodies of
# src/gpu/msm_run.cuh as host loops against the CPU MSM, fresh seed each run.
EMU := $(BUILD)/bin/msm-emu
$(EMU): tests/gpu/msm_emu.cu $(LIB) $(wildcard src/gpu/*.cuh)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -x c++ -D__CUDACC__ -D__host__= -D__device__= \
		-D__forceinline__=inline '-D__noinline__=__attribute__((noinline))' \
		-Wno-unknown-pragmas -Iinclude -Isrc $< -x none $(LIB) $(LDLIBS) -o $@
gpu-emu: $(EMU)
	$(EMU) 200
	@# the reduction in two passes (default for G1 above 2^16 points only), with segments of 3
	@# buckets: the second pass has several, and uneven, segments
	CUZK_GPU_MSM_RED2=1 CUZK_GPU_MSM_SEG=3 $(EMU) 100

check-san:
	$(MAKE) check BUILD=build/san SAN=1 OPT="-O1 -march=native"

# snarkjs/circom interoperability (node + npm; exit 77 = skipped when they are missing). The
# first run makes a 2^12 powers-of-tau file (~2-3 min) cached in build/interop.
interop: all
	scripts/interop-snarkjs.sh $(BENCH) || [ $$? = 77 ]

# blst as an outside oracle for the CPU MSMs and the pairing (tests/oracle/blst_oracle.c):
# scripts/blst-oracle.sh fetches blst's sources from the npm registry into build/blst and builds
# them, then this binary (exit 77 = skipped without npm or the registry).
BLST_DIR ?= build/blst/package/blst
ORACLE := $(BUILD)/bin/cuzk-blst-oracle
$(ORACLE): tests/oracle/blst_oracle.c $(LIB) $(BLST_DIR)/libblst.a
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(BLST_DIR)/bindings $(CFLAGS) -o $@ $< $(LIB) $(BLST_DIR)/libblst.a $(LDLIBS)
blst-oracle: all
	scripts/blst-oracle.sh check || [ $$? = 77 ]

# The daemon on a unix socket and a loopback port, driven by cuzk-bench and a grpc-js client
# (tests/daemon; tests needing node are skipped without it, exit 77 = all skipped).
daemon-test: all
	tests/daemon/run.sh $(DAEMON) $(BENCH) || [ $$? = 77 ]

demo:
	scripts/demo.sh

# libFuzzer drivers for every parser (clang): make fuzz, then e.g.
#   build/fuzz/bin/fuzz_vk -max_total_time=60 ../shared/fixtures/filecoin/
# It also writes seed inputs of the structured targets to build/fuzz/seeds/<target>/, e.g.
#   build/fuzz/bin/fuzz_post_vanilla -max_total_time=600 build/fuzz/seeds/post_vanilla
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(filter-out tests/fuzz/fuzz_targets.c,$(wildcard tests/fuzz/fuzz_*.c)))
fuzz:
	$(MAKE) BUILD=build/fuzz CC=clang SAN=1 CUDA=0 OPT="-O1 -march=native -fsanitize=fuzzer-no-link -Wno-bitwise-instead-of-logical -DCUZK_FP_ADDSUB_NO_ASM" build/fuzz/lib/libcuzk.a
	@mkdir -p build/fuzz/bin build/fuzz/obj/tests/fuzz
	clang -std=c11 -g -O1 -D_GNU_SOURCE -march=native -Iinclude -Isrc \
	    -fsanitize=fuzzer-no-link,address,undefined -c tests/fuzz/fuzz_targets.c \
	    -o build/fuzz/obj/tests/fuzz/fuzz_targets.o
	for t in $(FUZZ_TARGETS); do \
	    clang -std=c11 -g -O1 -D_GNU_SOURCE -march=native -Iinclude -Isrc -fsanitize=fuzzer,address,undefined \
	        -o build/fuzz/bin/fuzz_$$t tests/fuzz/fuzz_$$t.c build/fuzz/obj/tests/fuzz/fuzz_targets.o \
	        build/fuzz/lib/libcuzk.a $(LDLIBS) || exit 1; \
	done
	clang -std=c11 -g -O1 -D_GNU_SOURCE -march=native -Iinclude -Isrc -fsanitize=address,undefined \
	    -o build/fuzz/bin/write_seeds tests/fuzz/write_seeds.c build/fuzz/obj/tests/fuzz/fuzz_targets.o \
	    build/fuzz/lib/libcuzk.a $(LDLIBS)
	build/fuzz/bin/write_seeds build/fuzz/seeds

# Every driver for a few seconds (FUZZ_SECONDS, default 10), fresh seed each run: CI's use of them.
fuzz-smoke:
	scripts/fuzz-smoke.sh || [ $$? = 77 ]

format:
	clang-format -i $$(find include src tools tests -name '*.[ch]')

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
