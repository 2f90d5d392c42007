# The two commands (see README.md): `make run` and `make test`. Each installs
# what is missing from Debian 12's packages, configures and builds the
# standalone module against the installed ns-3, then runs.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
OUT ?= out

.PHONY: all deps configure build run test bench bench-debian compat clean

all: build

deps:
	scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DRDMA_WARNINGS_AS_ERRORS=ON $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job: rdma-sim on its embedded default experiment (k=4 fat-tree,
# WebSearch at 30 % load, DCQCN, PFC on); outputs in $(OUT)/rdma-sim.
run: build
	$(BUILD_DIR)/examples/rdma-sim --force --output.dir=$(OUT)/rdma-sim

test: build
	RDMA_BUILD_DIR=$(BUILD_DIR) scripts/run-tests.sh

# Speed benchmark (not a test): wall time, events/s, link transmissions/s,
# data packets/s and peak RSS of rdma-sim on the benchmark configs, with a
# Release build: ns-3.37 built from Debian's source in ns-3's release profile
# (no logs, no asserts) with this module as contrib/rdma (ns3-module/check-compat.sh
# --build-only; ~12 minutes the first time, a minute or two after).
# bench-debian: the same against Debian's libns3 (logs and asserts compiled in;
# its event loop is about 4x slower). BENCH_RUNS=3: medians of three runs.
COMPAT_DIR ?= /var/tmp/rdma-compat
BENCH_RUNS ?= 1
bench:
	RDMA_COMPAT_DIR=$(COMPAT_DIR) ns3-module/check-compat.sh --build-only
	scripts/bench.py --runs $(BENCH_RUNS) --sim "$$(cat $(COMPAT_DIR)/rdma-sim.path)"

bench-debian: build
	scripts/bench.py --runs $(BENCH_RUNS)

# Build mode 2 for real: the module as contrib/rdma of ns-3.37's source (~10 min).
compat:
	ns3-module/check-compat.sh

clean:
	rm -rf $(BUILD_DIR) $(OUT)
