# The two commands (see README.md): `make run` and `make test`. Each installs
# what is missing from Debian 12's packages, configures and builds the
# standalone module against the installed ns-3, then runs.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
OUT ?= out
# The sanitizer build (clang, AddressSanitizer + UBSan, libFuzzer harnesses).
SAN_DIR ?= build-asan
FUZZ_SECONDS ?= 20
FUZZ_LONG_SECONDS ?= 600

.PHONY: all deps configure build install doc sanitize-build fuzz run run-quick test test-release test-sanitize bench bench-lto bench-shared bench-floor bench-fastforward bench-debian bench-peers bench-conweave bench-htsim compat mpi bench-mpi clean

all: build

deps:
	scripts/install-deps.sh

configure: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DRDMA_WARNINGS_AS_ERRORS=ON $(CMAKE_FLAGS)

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# make install: the library and its headers, rdma-sim, the Python module
# rdmasim (where Debian's /usr/bin/python3 finds it: import rdmasim from any
# folder), the data and the shipped configs, under PREFIX (default /usr/local;
# ns3-module/standalone-install.cmake lists what goes where).
PREFIX ?= /usr/local
install: CMAKE_FLAGS += -DCMAKE_INSTALL_PREFIX=$(PREFIX)
install: build
	cmake --install $(BUILD_DIR)

# The documentation as HTML, built as ns-3's own module documentation is
# (Sphinx, Debian's python3-sphinx) with warnings as errors:
# $(BUILD_DIR)/doc/html/index.html (test/python/test_doc_build.py does the same).
doc: deps
	sphinx-build -b html -W --keep-going -q -d $(BUILD_DIR)/doc/doctrees doc $(BUILD_DIR)/doc/html
	@echo "make doc: $(BUILD_DIR)/doc/html/index.html"

# The main job: rdma-sim on its embedded default experiment (k=4 fat-tree,
# WebSearch at 30 % load, DCQCN, PFC on); outputs in $(OUT)/rdma-sim.
# make run uses rdma-sim as `make bench` builds it (ns-3.37 from Debian's
# source, release profile, static with LTO: about 17 minutes the first time
# with a progress line every 30 s, a few minutes after a change to the
# module; 1.7-2.9x faster than the HPCC simulator, against 1.0-1.4x for the
# build against Debian's libns3). make run-quick: `make build`'s rdma-sim.
run: bench-lto
	"$$(cat $(LTO_DIR)/rdma-sim.path)" --force --output.dir=$(OUT)/rdma-sim

run-quick: build
	$(BUILD_DIR)/examples/rdma-sim --force --output.dir=$(OUT)/rdma-sim

# make test: the Release build's tests (CTest, pytest), then the sanitizer
# build's (sanitize-build): every CTest test again under AddressSanitizer +
# UBSan, the Python tests that feed the programs user input against the
# sanitized programs, and each libFuzzer harness on its regression inputs and
# then FUZZ_RUNS seeded mutations (FUZZ_SEED: the same inputs on every
# machine, so CI is reproducible), at most FUZZ_SECONDS each. One summary line
# per stage and per harness (scripts/run-tests.sh). make test-release: the
# Release build's tests alone; make fuzz: long, randomly seeded fuzzing.
FUZZ_SEED ?= 1
FUZZ_RUNS ?= 10000
test: build sanitize-build mpi
	RDMA_BUILD_DIR=$(BUILD_DIR) RDMA_SANITIZE_DIR=$(SAN_DIR) FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  FUZZ_SEED=$(FUZZ_SEED) FUZZ_RUNS=$(FUZZ_RUNS) RDMA_MPI_DIR=$(MPI_DIR) RDMA_REQUIRE_MPI=1 \
	  scripts/run-tests.sh

test-sanitize: test

test-release: build
	RDMA_BUILD_DIR=$(BUILD_DIR) scripts/run-tests.sh

# The module, rdma-test-runner, the examples and the fuzz harnesses built by
# clang with -fsanitize=address,undefined -fno-sanitize-recover=all at -O1
# (line tables for the reports), against Debian's ns-3.
sanitize-build: deps
	cmake -S . -B $(SAN_DIR) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
	  "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" -DRDMA_WARNINGS_AS_ERRORS=ON \
	  -DRDMA_SANITIZE=ON -DRDMA_FUZZ=ON -DRDMA_BUILD_PYTHON=OFF $(CMAKE_FLAGS)
	cmake --build $(SAN_DIR) -j $(JOBS)

# Longer fuzzing than make test's: FUZZ_LONG_SECONDS per harness.
fuzz: sanitize-build
	scripts/run-fuzz.sh $(SAN_DIR) $(FUZZ_LONG_SECONDS)

# Speed benchmark (not a test): wall time, events/s, link transmissions/s,
# data packets/s and peak RSS of rdma-sim on the benchmark configs, with a
# Release build: ns-3.37 built from Debian's source in ns-3's release profile
# (no logs, no asserts), static with link-time optimization, with this module
# as contrib/rdma (ns3-module/check-compat.sh --build-only with
# RDMA_COMPAT_LTO=1; ~15 minutes the first time, a few after).
# bench-shared: the same with ns-3's shared libraries (no LTO), 25 % slower.
# bench-debian: the same against Debian's libns3 (logs and asserts compiled
# in; its event loop is about 4x slower). BENCH_RUNS=3: medians of three runs.
# bench-floor: rdma-hop-floor, ns-3's own per-hop cost on the 1 ms HPCC run's
# topology and flows (one event per hop, nothing else), in the same build.
# LTO_DIR (default $RDMA_LTO_DIR, else /var/tmp/rdma-compat-lto): where
# bench-lto builds; its rdma-sim.path names the rdma-sim built, which
# scripts/sweep.py and loss_sweep.py run when not told (scripts/rdmasim_binary.py).
# PGO=1 (default): bench-lto's build is profile-guided, trained once on the
# shipped configurations (ns3-module/pgo-train.sh); PGO=retrain trains again
# (after changing the model), PGO=0 builds without a profile.
COMPAT_DIR ?= /var/tmp/rdma-compat
LTO_DIR ?= $(or $(RDMA_LTO_DIR),/var/tmp/rdma-compat-lto)
BENCH_RUNS ?= 1
PGO ?= 1
bench-lto: deps
	RDMA_COMPAT_DIR=$(LTO_DIR) RDMA_COMPAT_LTO=1 RDMA_COMPAT_FILTER=1 RDMA_COMPAT_PGO=$(PGO) \
	  ns3-module/check-compat.sh --build-only

bench: bench-lto
	scripts/bench.py --runs $(BENCH_RUNS) --sim "$$(cat $(LTO_DIR)/rdma-sim.path)"

bench-shared:
	RDMA_COMPAT_DIR=$(COMPAT_DIR) ns3-module/check-compat.sh --build-only
	scripts/bench.py --runs $(BENCH_RUNS) --sim "$$(cat $(COMPAT_DIR)/rdma-sim.path)"

# bench-fastforward: sim.fastForward's speed-up and error, each case run with
# it on and off in turn (scripts/bench_fastforward.py; FF_ARGS=--full adds
# GPT-7B at full size, about half an hour).
bench-fastforward: bench-lto
	scripts/bench_fastforward.py --sim "$$(cat $(LTO_DIR)/rdma-sim.path)" $(FF_ARGS)

bench-floor: bench-lto
	for frames in packet pod; do \
	  "$$(dirname "$$(cat $(LTO_DIR)/rdma-sim.path)")/ns3.37-rdma-hop-floor" --frames=$$frames \
	    --topology=data/topology/fat.txt --flows=data/flows/ws_fat_l30_t0.001.txt || exit 1; \
	done

bench-debian: build
	scripts/bench.py --runs $(BENCH_RUNS)

# rdma-sim (cc.preset=hpcc-sim) and the HPCC simulator side by side on the
# shipped HPCC fat-tree files (1 ms and 5 ms, HPCC and DCQCN), alternating in
# one run: slowdown tables, pauses, wall times (scripts/bench_peers.py).
# HPCC_SRC: a checkout of github.com/alibaba-edu/High-Precision-Congestion-Control
# (built once in PEER_DIR, ~8 min with Python 2.7). rdma-sim as `make bench`
# builds it (lto, whose answers are compared) runs beside it, and PEER_SIMS,
# LABEL=PATH pairs: by default `make build`'s (debian, Debian's libns3), and
# ns-3's floor (rdma-hop-floor, Packets and structs) from the lto build. PEER_CASES: a subset, e.g.
# 1ms-hpcc,1ms-dcqcn; BENCH_RUNS runs of each 1 ms case, PEER_RUNS_5MS of
# each 5 ms case (medians).
PEER_DIR ?= /var/tmp/rdma-peer-hpcc
PEER_SIM ?= $(BUILD_DIR)/examples/rdma-sim
PEER_SIMS ?= debian=$(PEER_SIM)
PEER_CASES ?= 1ms-hpcc,1ms-dcqcn,5ms-hpcc,5ms-dcqcn
PEER_RUNS_5MS ?= 1
bench-peers: build bench-lto
	@test -n "$(HPCC_SRC)" || { echo "make bench-peers: set HPCC_SRC=<checkout of the HPCC simulator>" >&2; exit 2; }
	scripts/bench_peers.py --hpcc-src "$(HPCC_SRC)" --sim "lto=$$(cat $(LTO_DIR)/rdma-sim.path)" \
	  $(foreach s,$(PEER_SIMS),--sim "$(s)") \
	  --floor "$$(dirname "$$(cat $(LTO_DIR)/rdma-sim.path)")/ns3.37-rdma-hop-floor" \
	  --peer-dir "$(PEER_DIR)" --cases "$(PEER_CASES)" --runs $(BENCH_RUNS) \
	  --runs-5ms $(PEER_RUNS_5MS) --out $(OUT)/bench-peers

# rdma-sim (--hpcc.config, cc.preset=conweave-sim) and ConWeave's simulator
# side by side on the same flows, alternating (scripts/bench_conweave.py;
# doc/rdma.rst, "Side by side with ConWeave's simulator"): its run.py's case
# (CONWEAVE_LB fecmp, drill, conga or letflow, or several comma-separated;
# CONWEAVE_RECOVERY pfc: PFC and go-back-N, irn: IRN without PFC, or both;
# DCQCN, its 128-host leaf-spine),
# CONWEAVE_TIME seconds of CONWEAVE_CDF arrivals at CONWEAVE_LOAD percent of
# the core, from its traffic_gen.py seeded with CONWEAVE_SEED (or the flow file
# CONWEAVE_FLOWS); slowdown tables, pauses, wall times and peak RSS.
# CONWEAVE_SRC: a checkout of github.com/conweave-project/conweave-ns3 (built
# once in CONWEAVE_DIR, ~7 min with Python 2.7), or CONWEAVE_TREE: a tree of it
# already built. rdma-sim as `make build` builds it (CONWEAVE_SIM); BENCH_RUNS
# rounds (medians).
CONWEAVE_DIR ?= /var/tmp/rdma-peer-conweave
CONWEAVE_SIM ?= $(BUILD_DIR)/examples/rdma-sim
CONWEAVE_LB ?= fecmp
CONWEAVE_RECOVERY ?= pfc
CONWEAVE_TIME ?= 0.005
CONWEAVE_LOAD ?= 50
CONWEAVE_CDF ?= AliStorage2019
CONWEAVE_SEED ?= 1
bench-conweave: build
	@test -n "$(CONWEAVE_SRC)$(CONWEAVE_TREE)" || { echo "make bench-conweave: set CONWEAVE_SRC=<checkout of ConWeave's simulator> or CONWEAVE_TREE=<its built tree>" >&2; exit 2; }
	scripts/bench_conweave.py $(if $(CONWEAVE_TREE),--conweave-tree "$(CONWEAVE_TREE)",--conweave-src "$(CONWEAVE_SRC)") \
	  --sim "$(CONWEAVE_SIM)" --peer-dir "$(CONWEAVE_DIR)" --lb $(CONWEAVE_LB) --recovery $(CONWEAVE_RECOVERY) \
	  --time $(CONWEAVE_TIME) \
	  --netload $(CONWEAVE_LOAD) --cdf $(CONWEAVE_CDF) --seed $(CONWEAVE_SEED) \
	  $(if $(CONWEAVE_FLOWS),--flows "$(CONWEAVE_FLOWS)") --runs $(BENCH_RUNS) --out $(OUT)/bench-conweave

# rdma-sim and Broadcom's csg-htsim (sim/datacenter/htsim_roce) side by side on
# a fat-tree permutation (2 MB per host, PFC, no CC), alternating in one run
# (scripts/bench_htsim.py; doc/large-fabrics.rst, "Side by side with htsim").
# HTSIM_RUN: a script run as SCRIPT HOSTS FLOW_BYTES MTU OUTDIR printing
# wall_s/cpu_s/max_rss_mb/flows_completed/data_pkts; or HTSIM_BIN: the
# htsim_roce binary, run directly (both: BIN is given to the script).
# HTSIM_HOSTS: host counts (k^3/4), HTSIM_MTU: payload bytes per packet.
# rdma-sim as `make bench` builds it (lto), and ns-3's floor (rdma-hop-floor on
# the same fat tree and permutation, Packets and structs) from the same build.
HTSIM_HOSTS ?= 128,1024
HTSIM_MTU ?= 4096
bench-htsim: bench-lto
	@test -n "$(HTSIM_RUN)$(HTSIM_BIN)" || { echo "make bench-htsim: set HTSIM_RUN=<run script> or HTSIM_BIN=<htsim_roce>" >&2; exit 2; }
	scripts/bench_htsim.py $(if $(HTSIM_RUN),--htsim-run "$(HTSIM_RUN)") $(if $(HTSIM_BIN),--htsim "$(HTSIM_BIN)") \
	  --sim "$$(cat $(LTO_DIR)/rdma-sim.path)" \
	  --floor "$$(dirname "$$(cat $(LTO_DIR)/rdma-sim.path)")/ns3.37-rdma-hop-floor" \
	  --hosts "$(HTSIM_HOSTS)" --mtu $(HTSIM_MTU) --runs $(BENCH_RUNS) --out $(OUT)/bench-htsim

# One simulation across processes (doc/mpi.rst): ns-3.37 from Debian's source
# with its mpi module (NS3_MPI) against Debian's OpenMPI (libopenmpi-dev,
# openmpi-bin, installed by the script), release profile, this module as
# contrib/rdma (ns3-module/check-compat.sh --build-only with RDMA_COMPAT_MPI=1;
# ~25 minutes the first time on 2 cores, a few after). The rdma-sim it built
# is named in $(MPI_DIR)/rdma-sim.path; run it under mpirun -np N.
MPI_DIR ?= /var/tmp/rdma-compat-mpi
mpi: deps
	RDMA_COMPAT_DIR=$(MPI_DIR) RDMA_COMPAT_MPI=1 RDMA_COMPAT_FILTER=1 ns3-module/check-compat.sh --build-only
	@echo "make mpi: $$(cat $(MPI_DIR)/rdma-sim.path)"

# The distributed runs' benchmark (scripts/bench_mpi.py): the HPCC 5 ms file
# and a k=16 fat-tree permutation (1024 hosts), sequential and on
# MPI_RANKS ranks, with speed-up and synchronization overhead (doc/mpi.rst).
MPI_RANKS ?= 2
bench-mpi: mpi
	scripts/bench_mpi.py --sim "$$(cat $(MPI_DIR)/rdma-sim.path)" --ranks $(MPI_RANKS)

# Build mode 2 for real: the module as contrib/rdma of ns-3.37's source (~10 min).
compat:
	ns3-module/check-compat.sh

clean:
	rm -rf $(BUILD_DIR) $(SAN_DIR) $(OUT)
