#!/bin/sh
# Runs every test, one stage after another, each stage's own output as it
# runs, then one summary line per stage (the fuzz stage: one per harness)
# with its wall time; exits 1 if any stage failed.
#   ctest             the Release build's CTest: one test per ns-3 TestSuite
#                     and one per example program
#   pytest            test/python with Debian's pytest (/usr/bin/python3),
#                     test_mpi.py with the MPI build of make mpi
# With RDMA_SANITIZE_DIR (make test sets it to the clang build of
# make sanitize-build: -fsanitize=address,undefined -fno-sanitize-recover=all):
#   sanitized ctest   every CTest test of the Release stage again, all of
#                     them: the whole set takes about 3 minutes on 2 cores
#   sanitized pytest  the Python tests that run the example programs on user
#                     input (SANITIZED_PYTEST below), against the sanitized
#                     programs
#   fuzz <harness>    each libFuzzer harness for FUZZ_SECONDS
#                     (scripts/run-fuzz.sh: its regression inputs first)
set -u
BUILD_DIR=${RDMA_BUILD_DIR:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR="$(cd "$BUILD_DIR" && pwd)"
JOBS=$(nproc 2>/dev/null || echo 2)
LOGS=$(mktemp -d "${TMPDIR:-/tmp}/rdma-tests.XXXXXX")
trap 'rm -rf "$LOGS"' EXIT
SUMMARY="$LOGS/summary"
: >"$SUMMARY"
failed=""

# The Python tests that need no Python bindings (the sanitizer build has
# none: the interpreter is not instrumented) and feed the programs what a
# user types or a wire carries: bad values per key family, SIGINT/SIGTERM
# and full disks mid-run, every rdma-sim output and error, malformed
# topology files, rdma-hop-floor's inputs, and the pcaps read back by
# tshark and scapy, Chakra traces (the protobuf reader on real and damaged
# traces) and flows beside jobs (two runners ending one run). Left out: test_slow_receiver.py and
# test_hpcc_fidelity.py (about a minute together under ASan; their code
# paths are the sanitized rdma-slow-receiver, rdma-hpcc-config and
# example/rdma-sim CTest tests), the bindings', sweep and plot tests (the
# rdmasim module), and the build-mode tests (no program run).
SANITIZED_PYTEST="test_bad_values.py test_faults.py test_rdma_sim.py
test_topology_example.py test_hop_floor.py test_pcap_oracles.py test_pfc_pcap.py
test_transport_pcap.py test_fast_forward.py test_trim.py test_planes.py test_chakra.py
test_background.py"

# stage NAME PATTERN COMMAND...: runs COMMAND with its output shown and kept;
# the summary line names NAME, PASS or FAIL (COMMAND's exit status), the
# last output line matching the extended regex PATTERN, and the wall time.
stage() {
    name=$1
    pattern=$2
    shift 2
    log="$LOGS/$(echo "$name" | tr ' ' '-')"
    echo "== $name: $*"
    t0=$(date +%s)
    { "$@"; echo $? >"$log.rc"; } 2>&1 | tee "$log.out"
    rc=$(cat "$log.rc")
    seconds=$(($(date +%s) - t0))
    result=$(grep -E "$pattern" "$log.out" | tail -1 | sed 's/^[= ]*//; s/[= ]*$//')
    if [ "$rc" -eq 0 ]; then
        status=PASS
    else
        status=FAIL
        failed="$failed, $name"
    fi
    printf '%-18s %s  %s (%d s)\n' "$name" "$status" "${result:-exit $rc}" "$seconds" >>"$SUMMARY"
}

stage "ctest" "tests passed" \
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS"
# -rs: each skipped test's reason (test_mpi.py without the MPI build, unless
# RDMA_REQUIRE_MPI=1, which make test sets: it builds the MPI build first).
stage "pytest" " (passed|failed|error)" \
    env RDMA_BUILD_DIR="$BUILD_DIR" /usr/bin/python3 -m pytest -p no:cacheprovider -q -rs "$TOP/test/python"

if [ -n "${RDMA_SANITIZE_DIR:-}" ]; then
    SAN_DIR="$(cd "$RDMA_SANITIZE_DIR" && pwd)"
    # The first report ends the program with a non-zero exit: the test
    # fails. LeakSanitizer is off: ns-3's singletons and the TypeId registry
    # are alive at exit by design; use-after-free, overflows and UB stay
    # fatal. detect_stack_use_after_return is off for ns-3's callbacks'
    # speed (the module's stack objects outlive no call they are passed to).
    export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    stage "sanitized ctest" "tests passed" \
        ctest --test-dir "$SAN_DIR" --output-on-failure -j "$JOBS"
    files=""
    for f in $SANITIZED_PYTEST; do
        files="$files $TOP/test/python/$f"
    done
    # shellcheck disable=SC2086
    stage "sanitized pytest" " (passed|failed|error)" \
        env RDMA_BUILD_DIR="$SAN_DIR" /usr/bin/python3 -m pytest -p no:cacheprovider -q $files
    echo "== fuzz: each libFuzzer harness for ${FUZZ_SECONDS:-20} s"
    { "$TOP/scripts/run-fuzz.sh" "$SAN_DIR" "${FUZZ_SECONDS:-20}"; echo $? >"$LOGS/fuzz.rc"; } 2>&1 |
        tee "$LOGS/fuzz.out"
    fuzz_rc=$(cat "$LOGS/fuzz.rc")
    # One summary line per harness (run-fuzz.sh prints "fuzz NAME: ...").
    sed -n 's/^fuzz \([^:]*\): \(.*\)$/\1 \2/p' "$LOGS/fuzz.out" | while read -r harness text; do
        case "$text" in
            *"no crash"*) status=PASS ;;
            *) status=FAIL ;;
        esac
        printf '%-18s %s  %s\n' "fuzz $harness" "$status" "$text" >>"$SUMMARY"
    done
    if [ $fuzz_rc -ne 0 ]; then
        failed="$failed, fuzz"
        grep -q '^fuzz ' "$SUMMARY" || echo "fuzz               FAIL  $(tail -1 "$LOGS/fuzz.out")" >>"$SUMMARY"
    fi
fi

echo "== summary"
cat "$SUMMARY"
if [ -n "$failed" ]; then
    echo "run-tests: FAILED (${failed#, })"
    exit 1
fi
echo "run-tests: all passed"
