#!/bin/sh
# Runs every test of the standalone build: the ns-3 TestSuites and examples
# through CTest (one test per suite), then the Python tests with Debian's
# pytest under /usr/bin/python3. Prints both runners' summary lines and exits
# non-zero if either failed.
set -u
BUILD_DIR=${RDMA_BUILD_DIR:-build}
TOP=$(cd "$(dirname "$0")/.." && pwd)
export RDMA_BUILD_DIR="$(cd "$BUILD_DIR" && pwd)"
JOBS=$(nproc 2>/dev/null || echo 2)

echo "== CTest: ns-3 TestSuites and examples ($RDMA_BUILD_DIR)"
(cd "$RDMA_BUILD_DIR" && ctest --output-on-failure -j "$JOBS")
ctest_rc=$?

echo "== pytest: Python tests (test/python)"
/usr/bin/python3 -m pytest -p no:cacheprovider -q "$TOP/test/python"
pytest_rc=$?

# The sanitizer build (make sanitize-build): the same CTest suites under
# AddressSanitizer + UBSan (any report fails its test), then each fuzz
# harness for FUZZ_SECONDS.
san_rc=0
fuzz_rc=0
if [ -n "${RDMA_SANITIZE_DIR:-}" ]; then
    SAN_DIR="$(cd "$RDMA_SANITIZE_DIR" && pwd)"
    echo "== CTest under AddressSanitizer + UndefinedBehaviorSanitizer ($SAN_DIR)"
    # LeakSanitizer is off: ns-3's singletons and the TypeId registry are
    # alive at exit by design; use-after-free, overflows and UB stay fatal.
    (cd "$SAN_DIR" && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_stack_use_after_return=0 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --output-on-failure -j "$JOBS")
    san_rc=$?
    echo "== fuzz: each libFuzzer harness for ${FUZZ_SECONDS:-20} s"
    "$TOP/scripts/run-fuzz.sh" "$SAN_DIR" "${FUZZ_SECONDS:-20}"
    fuzz_rc=$?
fi

if [ $ctest_rc -ne 0 ] || [ $pytest_rc -ne 0 ] || [ $san_rc -ne 0 ] || [ $fuzz_rc -ne 0 ]; then
    echo "run-tests: FAILED (ctest exit $ctest_rc, pytest exit $pytest_rc, sanitized ctest exit" \
         "$san_rc, fuzz exit $fuzz_rc)"
    exit 1
fi
echo "run-tests: all passed"
