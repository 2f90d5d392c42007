#!/bin/bash
# The training runs of make run's profile-guided build (check-compat.sh with
# RDMA_COMPAT_PGO=1): an rdma-sim built with GCC's -fprofile-generate runs
# each of the shipped configurations below, and every run adds its counts
# (which branches were taken, which calls are hot) to the .gcda files beside
# the build's objects; the build that follows (-fprofile-use) lays its code
# out and inlines by them.
#
#   ns3-module/pgo-train.sh RDMA_SIM CMAKE_CACHE
#
# RDMA_SIM is the instrumented rdma-sim; CMAKE_CACHE the ns-3 build folder
# holding its objects (the counts of an earlier training there are removed
# first: GCC adds to them). The configurations cover what the model does in
# a few seconds each: go-back-N with PFC and DCQCN, IRN, trimming with NSCC,
# spraying a fat-tree permutation, HPCC's workload files, collectives and a
# training job beside storage flows, a PFC storm from a slow receiver and
# the NIC's context caches. None is a benchmark case (scripts/bench*.py),
# so a benchmark does not measure its own training. Outputs go to a
# temporary folder, removed at the end. Exit 1 if a run fails (its output
# is shown), 2 on a usage error.
set -u -o pipefail

if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
    echo "usage: pgo-train.sh RDMA_SIM CMAKE_CACHE (an instrumented rdma-sim, its build folder)" >&2
    exit 2
fi
SIM=$1
CACHE_DIR=$2
CONFIGS=$(cd "$(dirname "$0")/../examples/configs" && pwd -P)
TRAINING=(tiny incast incast-trim irn-vs-roce-roce irn-vs-roce-irn multipath-permutation
          hpcc-fat-ws-dcqcn collective-ring storage-beside-training slow-receiver qp-scaling)

find "$CACHE_DIR" -name '*.gcda' -delete
OUT=$(mktemp -d "${TMPDIR:-/tmp}/rdma-pgo-train.XXXXXX") || {
    echo "pgo-train.sh: cannot create a temporary folder under ${TMPDIR:-/tmp}" >&2
    exit 1
}
trap 'rm -rf "$OUT"' EXIT
for name in "${TRAINING[@]}"; do
    t0=$SECONDS
    if ! "$SIM" -c "$CONFIGS/$name.ini" --output.dir="$OUT/$name" --force --quiet \
            >"$OUT/$name.log" 2>&1; then
        echo "pgo-train.sh: $name.ini failed:" >&2
        tail -n 20 "$OUT/$name.log" >&2
        exit 1
    fi
    echo "pgo-train.sh: $name.ini ($((SECONDS - t0)) s)"
done
count=$(find "$CACHE_DIR" -name '*.gcda' | wc -l)
if [ "$count" -eq 0 ]; then
    echo "pgo-train.sh: the runs wrote no .gcda file under $CACHE_DIR (not an instrumented build?)" >&2
    exit 1
fi
echo "pgo-train.sh: ${#TRAINING[@]} runs, $count profile files"
