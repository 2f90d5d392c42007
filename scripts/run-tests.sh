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

if [ $ctest_rc -ne 0 ] || [ $pytest_rc -ne 0 ]; then
    echo "run-tests: FAILED (ctest exit $ctest_rc, pytest exit $pytest_rc)"
    exit 1
fi
echo "run-tests: all passed"
