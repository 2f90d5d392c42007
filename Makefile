# The two commands (see README.md): `make run` and `make test`. Each installs
# what is missing from Debian 12's packages, configures and builds the
# standalone module against the installed ns-3, then runs.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
OUT ?= out

.PHONY: all deps configure build run test bench compat clean

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
# data packets/s and peak RSS of rdma-sim on the benchmark configs.
bench: build
	scripts/bench.py

# Build mode 2 for real: the module as contrib/rdma of ns-3.37's source (~10 min).
compat:
	ns3-module/check-compat.sh

clean:
	rm -rf $(BUILD_DIR) $(OUT)
