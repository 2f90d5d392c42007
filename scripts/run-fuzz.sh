#!/bin/sh
# Runs every libFuzzer harness of a RDMA_FUZZ build (<build>/fuzz/fuzz-*):
# first on its regression inputs (test/fuzz/regressions/<name>/, inputs
# that once crashed it: each must now pass), then for FUZZ_SECONDS seconds
# from its seed corpus (test/fuzz/corpus/<name>/, copied so the tree is not
# touched). One summary line per harness; exits non-zero if any crashed,
# leaking, timing out or sanitizer-reported input was found (libFuzzer
# writes it to $FUZZ_OUT/<name>/, the line names it).
#   scripts/run-fuzz.sh BUILD_DIR [SECONDS]
set -u
BUILD_DIR=${1:?usage: run-fuzz.sh BUILD_DIR [SECONDS]}
SECONDS_EACH=${2:-${FUZZ_SECONDS:-20}}
# FUZZ_SEED and FUZZ_RUNS (make test sets both) make the run reproducible:
# the same mutations in the same order on every machine, at most FUZZ_RUNS
# of them (a slower machine stops at the time bound, part-way through the
# same sequence). Unset (make fuzz): a random seed and only the time bound.
LIMITS=""
[ -n "${FUZZ_SEED:-}" ] && LIMITS="$LIMITS -seed=$FUZZ_SEED"
[ -n "${FUZZ_RUNS:-}" ] && LIMITS="$LIMITS -runs=$FUZZ_RUNS"
TOP=$(cd "$(dirname "$0")/.." && pwd)
OUT=${FUZZ_OUT:-$BUILD_DIR/fuzz-out}
# ns-3's own singletons are alive at exit; leaks are not what these look for.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

failed=0
found=0
for exe in "$BUILD_DIR"/fuzz/fuzz-*; do
    [ -x "$exe" ] || continue
    found=$((found + 1))
    name=$(basename "$exe" | sed 's/^fuzz-//')
    work="$OUT/$name"
    rm -rf "$work"
    mkdir -p "$work/corpus"
    cp "$TOP/test/fuzz/corpus/$name"/* "$work/corpus/" 2>/dev/null
    regressions="$TOP/test/fuzz/regressions/$name"
    nreg=0
    if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
        nreg=$(ls "$regressions" | wc -l)
        if ! "$exe" "$regressions"/* >"$work/regressions.log" 2>&1; then
            echo "fuzz $name: FAILED on a regression input (see $work/regressions.log)"
            failed=1
            continue
        fi
    fi
    # shellcheck disable=SC2086 # LIMITS holds separate options
    "$exe" -max_total_time="$SECONDS_EACH" $LIMITS -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" \
        >"$work/fuzz.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log" | tail -1)
    size=$(ls "$work/corpus" | wc -l)
    if [ $rc -ne 0 ]; then
        artifact=$(ls "$work" | grep -E '^(crash|leak|timeout|oom|slow-unit)-' | head -1)
        echo "fuzz $name: FOUND A BUG after ${runs:-?} runs: $work/$artifact (log $work/fuzz.log)"
        failed=1
    else
        echo "fuzz $name: ${runs:-?} inputs (at most ${SECONDS_EACH} s${FUZZ_SEED:+, seed $FUZZ_SEED}), corpus ${size}, ${nreg} regression inputs pass, no crash"
    fi
done
if [ $found -eq 0 ]; then
    echo "fuzz: no harness in $BUILD_DIR/fuzz (configure with -DRDMA_FUZZ=ON, CXX=clang++)"
    exit 1
fi
exit $failed
