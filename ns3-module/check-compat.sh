#!/bin/bash
# shellcheck disable=SC2317  # functions called through step/run_check look unreachable
# Proves build mode 2 for real: this tree as contrib/rdma inside Debian's
# ns-3.37 source tree, configured, built and tested by ns-3's own tools.
#
#   ns3-module/check-compat.sh [--fresh] [--build-only]
#
# Steps (each one timed, its output kept in $CACHE/logs/NAME.log):
#   1. apt: a deb-src line for bookworm (added as
#      /etc/apt/sources.list.d/rdma-deb-src.sources if apt has none), and the
#      build tools (cmake, g++, python3, dpkg-dev, zlib1g-dev, libmetis-dev,
#      libprotobuf-dev, protobuf-compiler,
#      ninja-build).
#   2. ns-3.37 source: "apt-get source --download-only ns3" + "dpkg-source -x"
#      into $CACHE, reused when already extracted.  With RDMA_COMPAT_LTO or
#      RDMA_COMPAT_MPI (make run's and make mpi's ns-3), then the patches in
#      ns3-module/patches/ (each one's header says what it changes and why);
#      the compatibility build is Debian's ns-3 as it is.
#   3. contrib/rdma -> this tree (install-into-ns3.sh).
#   4. ./ns3 configure -d release --enable-modules=rdma --enable-examples
#      --enable-tests: ns-3 itself resolves rdma's dependencies from the
#      ${lib...} references in contrib/rdma/CMakeLists.txt, so only the
#      modules rdma needs are built.  Checked: every [dependencies] module is
#      among ns-3's "Modules configured to be built", and ns-3's scan found
#      no module name that does not exist.
#   5. cmake --build cmake-cache -j$JOBS (ns-3.37's "./ns3 build" ignores
#      -j N).  Checked: no compiler warning in rdma's files (those compiled in
#      this run).
#   6. ./ns3 run of one example (rdma-wire-example, else the first listed).
#   7. Every rdma TestSuite ("test-runner --list" entries starting with
#      "rdma"), one "test-runner --suite=NAME" each.
# Ends with "N passed, N failed" on its own line; exit 0 only if none failed.
#
# Environment:
#   RDMA_COMPAT_DIR    cache folder (default /var/tmp/rdma-compat)
#   RDMA_COMPAT_JOBS   parallel build jobs (default 2)
#   RDMA_COMPAT_FILTER 1 adds --filter-module-examples-and-tests=rdma, so
#                      only rdma's examples and tests are built (about half
#                      the build time); off by default, the plain configure
#                      line above is the one to prove.
#   RDMA_COMPAT_LTO    1 builds ns-3 and the module as one static library
#                      (--enable-static) with link-time optimization
#                      (NS3_LINK_TIME_OPTIMIZATION), so calls into ns-3's
#                      core (Ptr, Packet, Buffer, Simulator) can be inlined
#                      across what are otherwise shared libraries; with
#                      --build-only only, and only rdma-sim and
#                      rdma-hop-floor are built. Give it its own
#                      RDMA_COMPAT_DIR.
#   RDMA_COMPAT_PGO    with RDMA_COMPAT_LTO=1: 1 builds profile-guided
#                      (GCC's -fprofile-generate, the training runs of
#                      ns3-module/pgo-train.sh, then -fprofile-use): two
#                      builds the first time, then the profile is kept in
#                      the cache and only changed files are compiled again,
#                      by it. retrain: train and rebuild again (after
#                      changes to the model, whose new code the old profile
#                      does not cover). 0 (default): no profile.
#   RDMA_COMPAT_MPI    1 builds with ns-3's mpi module (./ns3 configure
#                      --enable-mpi, ns-3's NS3_MPI) against Debian's OpenMPI
#                      (libopenmpi-dev, openmpi-bin, installed in step 1), for
#                      one simulation across processes (rdma-sim under
#                      mpirun, doc/mpi.rst); rdma's CMakeLists.txt then adds
#                      its MPI sources and ns-3's mpi library.  Give it its
#                      own RDMA_COMPAT_DIR (`make mpi` uses
#                      /var/tmp/rdma-compat-mpi).
# --fresh: drop ns-3's cmake-cache/ and build/ first (a from-scratch build).
# --build-only: steps 1-5 only, then print the path of the release-profile
#   rdma-sim it built (what `make bench` runs: ns-3's core without logs or
#   asserts, unlike Debian's libns3).
#
# From scratch: about 24 CPU-minutes of compiling (almost all of it ns-3's own
# core, network, internet, stats, traffic-control and bridge modules, their
# examples and tests), so ~12 minutes on 2 idle cores and 25 on a busy 2-core
# machine; a minute or two when only the module changed.

set -u -o pipefail
# fd 3: the terminal's stdout, for progress lines from inside a logged step.
exec 3>&1

CACHE=${RDMA_COMPAT_DIR:-/var/tmp/rdma-compat}
JOBS=${RDMA_COMPAT_JOBS:-2}
FILTER=${RDMA_COMPAT_FILTER:-0}
LTO=${RDMA_COMPAT_LTO:-0}
MPI=${RDMA_COMPAT_MPI:-0}
PGO=${RDMA_COMPAT_PGO:-0}
# The profile phase configure_ns3 builds for: none, generate or use.
PGO_PHASE=none
# The log of the step running (step sets it).
STEP_LOG=/dev/null
SUITE_PREFIX=rdma
DEB_SRC_FILE=/etc/apt/sources.list.d/rdma-deb-src.sources
PACKAGES=(cmake g++ make python3 dpkg-dev xz-utils zlib1g-dev libmetis-dev libprotobuf-dev
          protobuf-compiler)
OPTIONAL_PACKAGES=(ninja-build)
[ "$MPI" = 1 ] && PACKAGES+=(libopenmpi-dev openmpi-bin)
# ns-3's driver and our helpers run on Debian's interpreter, not whatever
# python3 comes first on PATH.
PYTHON=/usr/bin/python3

FRESH=0
BUILD_ONLY=0
for arg in "$@"; do
    case "$arg" in
        --fresh) FRESH=1 ;;
        --build-only) BUILD_ONLY=1 ;;
        -h|--help) sed -n '3,/^$/s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "check-compat.sh: unknown argument $arg (try --help)" >&2; exit 2 ;;
    esac
done

case "$PGO" in
    0|1|retrain) ;;
    *) echo "check-compat.sh: RDMA_COMPAT_PGO=$PGO: expected 0, 1 or retrain" >&2; exit 2 ;;
esac
if [ "$PGO" != 0 ] && [ "$LTO" != 1 ]; then
    echo "check-compat.sh: RDMA_COMPAT_PGO needs RDMA_COMPAT_LTO=1 (the benchmark build)" >&2
    exit 2
fi
if [ "$LTO" = 1 ] && [ "$BUILD_ONLY" = 0 ]; then
    echo "check-compat.sh: RDMA_COMPAT_LTO=1 builds the benchmark programs only: use --build-only" >&2
    exit 2
fi

TREE=$(cd "$(dirname "$0")/.." && pwd -P)
LOGS=$CACHE/logs
mkdir -p "$LOGS" || { echo "check-compat.sh: cannot create $LOGS" >&2; exit 1; }
rm -f "$LOGS"/*.log

PASSED=0
FAILED=0
FAILED_NAMES=()
START=$(date +%s)
NS3_DIR=""

log() { echo "[check-compat $(date +%H:%M:%S)] $*"; }

record() {  # record NAME ok|fail [detail]
    if [ "$2" = ok ]; then
        PASSED=$((PASSED + 1))
        log "PASS $1${3:+ ($3)}"
    else
        FAILED=$((FAILED + 1))
        FAILED_NAMES+=("$1")
        log "FAIL $1${3:+ ($3)}"
    fi
}

finish() {
    local elapsed=$(( $(date +%s) - START ))
    echo
    echo "check-compat: ns-3 tree ${NS3_DIR:-(none)}, logs in $LOGS, wall time ${elapsed}s"
    if [ "$FAILED" -gt 0 ]; then
        echo "check-compat: failed: ${FAILED_NAMES[*]}"
    fi
    echo "$PASSED passed, $FAILED failed"
    if [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]; then
        exit 0
    fi
    exit 1
}

show_tail() {  # show_tail LOGFILE LINES
    echo "---- last lines of $1 ----"
    tail -n "$2" "$1"
    echo "----"
}

# step NAME COMMAND...: a preparation step, output in $LOGS/NAME.log.  A
# failure is recorded and ends the run: nothing later can work without it.
step() {
    local name=$1; shift
    local logfile=$LOGS/$name.log t0 rc=0
    t0=$(date +%s)
    log "$name: $*"
    STEP_LOG=$logfile
    "$@" >"$logfile" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then
        record "$name" ok "$(( $(date +%s) - t0 ))s"
        return 0
    fi
    show_tail "$logfile" 40
    record "$name" fail "exit $rc after $(( $(date +%s) - t0 ))s, see $logfile"
    finish
}

# run_check NAME COMMAND...: one checked item, run in the ns-3 tree, output in
# $LOGS/NAME.log.  Fails on a non-zero exit, on a "Usage:" text (ns-3.37's
# test-runner answers a flag it does not know with its usage and exit 0), and
# on a FAIL/CRASH line.
run_check() {
    local name=$1; shift
    local logfile=$LOGS/$name.log t0 rc=0 why=""
    t0=$(date +%s)
    log "$name: $*"
    (cd "$NS3_DIR" && "$@") >"$logfile" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
        why="exit $rc"
    elif grep -q 'Usage:' "$logfile"; then
        why="printed usage (unknown flag?)"
    elif grep -Eq '^(FAIL|CRASH)' "$logfile"; then
        why="FAIL line in output"
    fi
    if [ -z "$why" ]; then
        record "$name" ok "$(( $(date +%s) - t0 ))s"
        return 0
    fi
    show_tail "$logfile" 30
    record "$name" fail "$why, see $logfile"
    return 1
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        echo "needs root for: $* (no sudo)" >&2
        return 1
    fi
}

# module_list WHAT: one line per entry of module-files.txt's [WHAT]
# ("examples" gives the program names), read through module_files.py.
module_list() {
    "$PYTHON" - "$TREE/ns3-module/module_files.py" "$1" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location('module_files', sys.argv[1])
reader = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reader)
for entry in reader.read_module_files().as_dict()[sys.argv[2]]:
    print(entry)
PY
}

# --- 1. apt ------------------------------------------------------------------

have_deb_src() {
    # One-line format (sources.list, *.list) or deb822 (*.sources).
    grep -Eqs '^[[:space:]]*deb-src[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
    grep -Eqs '^[[:space:]]*Types:.*deb-src' /etc/apt/sources.list.d/*.sources && return 0
    return 1
}

apt_knows_ns3_source() {
    apt-cache showsrc ns3 2>/dev/null | grep -q '^Package: ns3$'
}

missing_packages() {
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
    done
}

prepare_apt() {
    local need_update=0 missing optional
    if ! have_deb_src; then
        echo "no deb-src line in apt's sources: writing $DEB_SRC_FILE"
        as_root tee "$DEB_SRC_FILE" >/dev/null <<'SOURCES' || return 1
# Added by rdma's ns3-module/check-compat.sh: Debian's ns-3.37 sources
# (apt-get source ns3).
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
        need_update=1
    fi
    # A fresh machine, or a deb-src line apt has not read yet, needs an update.
    apt_knows_ns3_source || need_update=1
    missing=$(missing_packages "${PACKAGES[@]}")
    optional=$(missing_packages "${OPTIONAL_PACKAGES[@]}")
    [ -z "$missing$optional" ] || need_update=1
    if [ "$need_update" -eq 1 ]; then
        as_root apt-get update || return 1
    fi
    apt_knows_ns3_source || { echo "apt knows no source package ns3 (check the deb-src lines)"; return 1; }
    if [ -n "$missing" ]; then
        # shellcheck disable=SC2086  # one word per package
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing \
            || return 1
    fi
    if [ -n "$optional" ]; then
        # shellcheck disable=SC2086
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $optional \
            || echo "optional packages not installed ($optional); going on without them"
    fi
    echo "apt ready: deb-src present, build packages installed"
}

# --- 2. ns-3 source ----------------------------------------------------------

find_ns3_tree() {
    # The Debian source package unpacks to ns3-<ver>/, ns-3's own tree being
    # ns3-<ver>/ns-<ver>/ (beside bundled extras).
    local dir
    for dir in "$CACHE"/ns3-3.37/ns-3.37 "$CACHE"/ns3-*/ns-3.*; do
        if [ -f "$dir/ns3" ] && [ -f "$dir/VERSION" ] && [ -d "$dir/contrib" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

fetch_ns3() {
    if find_ns3_tree >/dev/null; then
        echo "reusing $(find_ns3_tree)"
        return 0
    fi
    local dl=$CACHE/download dsc name version
    rm -rf "$dl" && mkdir -p "$dl" || return 1
    # apt downloads as its sandbox user, who must be able to write there.
    chown _apt "$dl" 2>/dev/null || true
    # bookworm's version (3.37) first, in case newer releases are configured.
    (cd "$dl" && { apt-get source --download-only ns3/bookworm || apt-get source --download-only ns3; }) \
        || return 1
    dsc=$(find "$dl" -maxdepth 1 -name 'ns3_*.dsc' | head -n 1)
    [ -n "$dsc" ] || { echo "no ns3_*.dsc downloaded"; return 1; }
    name=$(basename "$dsc" .dsc)            # ns3_3.37-1
    version=${name#ns3_}
    version=${version%%-*}
    # Extract beside, then rename: an interrupted run never looks complete.
    rm -rf "$CACHE/ns3-$version.partial"
    dpkg-source -x "$dsc" "$CACHE/ns3-$version.partial" || return 1
    mv "$CACHE/ns3-$version.partial" "$CACHE/ns3-$version" || return 1
    rm -rf "$dl"
    find_ns3_tree >/dev/null || { echo "no ns-3 tree (ns3, VERSION, contrib/) under $CACHE/ns3-$version"; return 1; }
    echo "extracted $(find_ns3_tree)"
}

# --- 2b. patches (make run's and make mpi's ns-3 only) -----------------------

patch_ns3() {
    # ns3-module/patch-ns3.sh (the tree records the patches it carries);
    # a tree carrying another set is extracted again.
    local rc=0
    "$TREE/ns3-module/patch-ns3.sh" "$TREE/ns3-module/patches" "$NS3_DIR" || rc=$?
    [ "$rc" -eq 3 ] || return "$rc"
    log "patch-ns3: the cached ns-3 tree carries another set of patches; extracting it again (a build from scratch follows)" >&3
    rm -rf "$(dirname "$NS3_DIR")" || return 1
    fetch_ns3 || return 1
    [ "$(find_ns3_tree)" = "$NS3_DIR" ] || { echo "ns-3 tree moved to $(find_ns3_tree)"; return 1; }
    "$TREE/ns3-module/patch-ns3.sh" "$TREE/ns3-module/patches" "$NS3_DIR"
}

# --- 3. install --------------------------------------------------------------

install_module() {
    # The cache's ns-3 tree belongs to this script: a symlink an earlier run
    # left (maybe to another checkout) is replaced.
    if [ -L "$NS3_DIR/contrib/rdma" ]; then
        rm -f "$NS3_DIR/contrib/rdma" || return 1
    fi
    "$TREE/ns3-module/install-into-ns3.sh" "$NS3_DIR"
}

# --- 4. configure ------------------------------------------------------------

configure_ns3() {
    if [ "$FRESH" -eq 1 ]; then
        echo "--fresh: removing cmake-cache/ and build/"
        rm -rf "$NS3_DIR/cmake-cache" "$NS3_DIR/build"
    fi
    # Every selection is passed, the empty ones too: CMake keeps a value in
    # its cache until told otherwise.
    local filter=""
    [ "$FILTER" = 1 ] && filter=rdma
    # With MPI, ns-3's mpi module is asked for by name: rdma's CMakeLists.txt
    # refers to it only through a computed variable name (ns-3's text scan
    # must not make it a dependency of the Debian-style, non-MPI build).
    local modules=rdma mpi_flag=--disable-mpi
    if [ "$MPI" = 1 ]; then
        modules="rdma;mpi"
        mpi_flag=--enable-mpi
    fi
    local args=(configure -d release "--enable-modules=$modules" --disable-modules= "$mpi_flag"
                "--filter-module-examples-and-tests=$filter" --enable-examples --enable-tests)
    if command -v ninja >/dev/null 2>&1 && [ ! -d "$NS3_DIR/cmake-cache" ]; then
        args+=(-G Ninja)
    fi
    if [ "$LTO" = 1 ]; then
        # GCC's LTO objects need ld.bfd (or gold): lld, which ns-3 picks when
        # installed, reads only LLVM's. USING_FAST_LINKER set skips that pick.
        # The profile flags are passed in every phase and mode, empty
        # without one: CMake keeps CMAKE_CXX_FLAGS in its cache.
        local pgo=""
        case "$PGO_PHASE" in
            generate) pgo="-fprofile-generate -fprofile-update=single" ;;
            # Functions the training never ran are compiled as without a
            # profile (partial training), not for size; a function changed
            # since the training has no profile (coverage mismatch), which
            # is not an error.
            use) pgo="-fprofile-use -fprofile-partial-training -Wno-missing-profile -Wno-coverage-mismatch" ;;
        esac
        args+=(--enable-static -- -DNS3_LINK_TIME_OPTIMIZATION=ON -DUSING_FAST_LINKER=BFD
               "-DCMAKE_CXX_FLAGS=$pgo" "-DCMAKE_EXE_LINKER_FLAGS=$pgo")
    else
        # (Empty: a cache once configured for a profile compiles without.)
        args+=(--disable-static -- -DNS3_LINK_TIME_OPTIMIZATION=OFF -UUSING_FAST_LINKER
               -DCMAKE_CXX_FLAGS= -DCMAKE_EXE_LINKER_FLAGS=)
    fi
    (cd "$NS3_DIR" && "$PYTHON" ./ns3 "${args[@]}") || return 1
    grep -q 'Processing contrib/rdma' "$STEP_LOG" || {
        echo "ns-3 did not process contrib/rdma"; return 1; }
}

# What ns-3 made of contrib/rdma/CMakeLists.txt.  ns-3 finds a module's
# dependencies by scanning that file's text for "{lib<name>}", so a stray
# match (in a comment, say) adds a module that does not exist, or one the
# module does not need; a missing reference leaves a dependency unbuilt.
configure_scan() {
    local logfile=$LOGS/configure.log bad=0 configured dep
    configured=$(sed -n '/^Modules configured to be built:/,/^$/p' "$logfile" | tail -n +2 | tr -s ' \t' '\n')
    echo "ns-3 configured: $(echo "$configured" | tr '\n' ' ')"
    for dep in $(module_list dependencies); do
        if ! grep -qx "$dep" <<<"$configured"; then
            echo "[dependencies] lists '$dep', which ns-3 did not configure"
            bad=1
        fi
    done
    if grep -q 'The CMakeLists.txt file for module .* was not found' "$logfile"; then
        echo "ns-3's dependency scan of contrib/rdma/CMakeLists.txt found module names that do not exist:"
        grep -o 'The CMakeLists.txt file for module .* was not found' "$logfile" | sort -u
        echo "(ns-3 takes every \"{lib<name>}\" in that file's text as a module, comments included)"
        bad=1
    fi
    return "$bad"
}

# --- 5. build ----------------------------------------------------------------

build_ns3() {
    # ns-3's own CMake build, driven through cmake rather than "./ns3 build":
    # ns-3.37's driver declares -j/--jobs as a flag (action="store_true"), so
    # "./ns3 build -j 2" runs "cmake --build . -j 1", and its default is one
    # job less than the cores (1 here).
    local targets=()
    if [ "$LTO" = 1 ]; then
        # The static build is for benchmarks only: ns-3 still links each
        # module's shared library for its test libraries, and rdma's cannot
        # take Boost's archive (not position-independent code).
        targets=(--target rdma-sim rdma-hop-floor)
    fi
    build_progress "$STEP_LOG" &
    local watcher=$! rc=0
    cmake --build "$NS3_DIR/cmake-cache" -j "$JOBS" "${targets[@]}" || rc=$?
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
    return "$rc"
}

# Every 30 s while ns-3 builds (15 minutes the first time), the build tool's
# last "[done/total]" count on the terminal.
build_progress() {
    local last
    while sleep 30; do
        last=$(grep -o '^\[ *[0-9]*/[0-9]*\]' "$1" | tail -n 1)
        [ -n "$last" ] && log "build: $last targets" >&3
    done
}

# ns-3 compiles with -Wall: the module's own files must be warning-free,
# including warnings that GCC places in an ns-3 header but raises from our
# code (a test macro's expansion, a template instantiated here): those name
# our file in a "note: in expansion of macro" or "required from here" line.
build_warnings() {
    local ours="(contrib/rdma|$TREE)/[^:]*:[0-9]+:"
    local pattern="${ours}([0-9]+:)? warning:|${ours}[0-9]+: +(note: in expansion of macro|required from here)"
    if grep -Eq "$pattern" "$LOGS/build.log"; then
        grep -E "$pattern" "$LOGS/build.log" | sort -u
        return 1
    fi
    echo "no warning in rdma's files; $(grep -c 'contrib/rdma/' "$LOGS/build.log") build lines name contrib/rdma"
}

# --- 6-7. runs ---------------------------------------------------------------

pick_example() {
    local names
    names=$(module_list examples) || return 1
    if grep -qx rdma-wire-example <<<"$names"; then
        echo rdma-wire-example
    else
        head -n 1 <<<"$names"
    fi
}

run_suites() {
    local listing=$LOGS/test-runner-list.log suites suite
    if ! run_check test-runner-list "$PYTHON" ./ns3 run --no-build "test-runner --list"; then
        return
    fi
    suites=$(sed -n "s/^[[:space:]]*\(${SUITE_PREFIX}[A-Za-z0-9_.+-]*\)[[:space:]]*$/\1/p" "$listing" | sort -u)
    if [ -z "$suites" ]; then
        record test-runner-rdma-suites fail "no TestSuite named ${SUITE_PREFIX}* in $listing"
        return
    fi
    log "rdma TestSuites: $(echo "$suites" | tr '\n' ' ')"
    for suite in $suites; do
        if run_check "suite-$suite" "$PYTHON" ./ns3 run --no-build "test-runner --suite=$suite --stop-on-failure"; then
            # It must really have run: test-runner prints "PASS <name> <time>".
            if ! grep -Eq "^PASS $suite( |$)" "$LOGS/suite-$suite.log"; then
                PASSED=$((PASSED - 1))
                record "suite-$suite" fail "no 'PASS $suite' line in $LOGS/suite-$suite.log"
            fi
        fi
    done
}

# The instrumented rdma-sim's training runs (ns3-module/pgo-train.sh).
pgo_train() {
    local sim
    sim=$(find "$NS3_DIR/build/contrib/rdma" -maxdepth 1 -type f -name 'ns3*-rdma-sim*' | head -n 1)
    [ -n "$sim" ] || { echo "no rdma-sim under $NS3_DIR/build/contrib/rdma"; return 1; }
    "$TREE/ns3-module/pgo-train.sh" "$sim" "$NS3_DIR/cmake-cache"
}

# --- main --------------------------------------------------------------------

log "tree $TREE, cache $CACHE, $JOBS jobs"
step apt prepare_apt
step fetch-ns3 fetch_ns3
NS3_DIR=$(find_ns3_tree)
log "ns-3 tree: $NS3_DIR (version $(cat "$NS3_DIR/VERSION"))"
if [ "$LTO" = 1 ] || [ "$MPI" = 1 ]; then
    step patch-ns3 patch_ns3
fi
step install install_module
if [ "$PGO" != 0 ]; then
    # The profile is kept in the cmake cache (the .gcda files beside the
    # objects, and this mark once the training ran whole): --fresh drops it.
    PGO_MARK=$NS3_DIR/cmake-cache/rdma-pgo-trained
    if [ "$PGO" = retrain ] || [ "$FRESH" = 1 ] || [ ! -f "$PGO_MARK" ]; then
        rm -f "$PGO_MARK"
        PGO_PHASE=generate
        log "profile-guided build: an instrumented build and its training runs first"
        step pgo-configure configure_ns3
        step pgo-build build_ns3
        step pgo-train pgo_train
        touch "$PGO_MARK"
        FRESH=0
    fi
    PGO_PHASE=use
fi
step configure configure_ns3
run_check configure-scan configure_scan
step build build_ns3
run_check build-warnings build_warnings

if [ "$BUILD_ONLY" -eq 1 ]; then
    SIM=$(find "$NS3_DIR/build/contrib/rdma" -maxdepth 1 -type f -name 'ns3*-rdma-sim*' | head -n 1)
    if [ -z "$SIM" ]; then
        record rdma-sim fail "no rdma-sim under $NS3_DIR/build/contrib/rdma"
    else
        record rdma-sim ok "$SIM"
        echo "$SIM" > "$CACHE/rdma-sim.path"
    fi
    finish
fi

EXAMPLE=$(pick_example)
if [ -z "$EXAMPLE" ]; then
    record example fail "module-files.txt lists no example"
else
    run_check "example-$EXAMPLE" "$PYTHON" ./ns3 run --no-build --cwd "$LOGS" "$EXAMPLE"
fi
run_suites
finish
