#!/bin/bash
# patch-ns3.sh PATCH_DIR NS3_DIR: puts PATCH_DIR/*.patch (make run's and make
# mpi's changes to ns-3, each one's header says what and why) into the ns-3
# tree NS3_DIR, once.
#
# The tree is reused from build to build (check-compat.sh keeps it in its
# cache), so it records the set of patches it carries: their checksums, in
# NS3_DIR/.rdma-patches. The same set is in already. A tree from before that
# record counts a patch that reverses cleanly as in already and takes the
# others in order (a patch may change a later one's context).
#
# Exit status: 0 when the tree carries the set (now or already); 3 when it
# carries another set (an earlier checkout's version of a patch, or a patch
# since removed), which patching over would fail or build the wrong ns-3:
# the caller extracts ns-3 again and calls this again (a tree left half
# patched is one to extract again too); 2 on bad arguments.

set -u -o pipefail

if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
    echo "usage: patch-ns3.sh PATCH_DIR NS3_DIR (both directories)" >&2
    exit 2
fi
PATCHES=$(cd "$1" && pwd -P)
NS3_DIR=$2
STAMP=$NS3_DIR/.rdma-patches

shopt -s nullglob
ALL=("$PATCHES"/*.patch)
want=$(cd "$PATCHES" && for p in "${ALL[@]}"; do sha256sum -- "$(basename "$p")"; done)

in_already() { patch -d "$NS3_DIR" -p1 -R --dry-run -s -f <"$1" >/dev/null 2>&1; }

if [ -f "$STAMP" ]; then
    if [ "$(cat "$STAMP")" = "$want" ]; then
        echo "in already: every patch (.rdma-patches)"
        exit 0
    fi
    echo "the tree carries another set of patches (.rdma-patches differs): extract it again"
    exit 3
fi
# In order: a patch may change what a later one's context is.
for p in "${ALL[@]}"; do
    if in_already "$p"; then
        echo "in already: $(basename "$p")"
    elif ! patch -d "$NS3_DIR" -p1 -N -f <"$p"; then
        echo "$(basename "$p") is neither in the tree nor applies to it: extract it again"
        exit 3
    fi
done
echo "$want" >"$STAMP"
