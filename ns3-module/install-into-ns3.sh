#!/bin/sh
# Place this rdma tree into an ns-3 source tree as contrib/rdma, where ns-3's
# own build picks it up: CMakeLists.txt (build_lib) for ns-3 >= 3.36, wscript
# for waf-era trees (<= 3.35).
#
#   ns3-module/install-into-ns3.sh NS3_DIR [--copy]
#
# Default: a symlink, so edits here are what ns-3 builds.  --copy copies the
# tree instead (without .git and build folders), for a tree that must stand
# alone; a copy is marked so that a later run may replace it.
#
# Refuses (non-zero exit, nothing changed) if NS3_DIR is not an ns-3 source
# tree or if contrib/rdma already exists and is not this install.
set -eu

MARKER=.rdma-installed-copy

usage() {
    echo "usage: $0 NS3_DIR [--copy]" >&2
    exit 2
}

die() {
    echo "install-into-ns3.sh: $*" >&2
    exit 1
}

ns3_dir=""
mode=symlink
for arg in "$@"; do
    case "$arg" in
        --copy) mode=copy ;;
        -h|--help) usage ;;
        -*) echo "install-into-ns3.sh: unknown option $arg" >&2; usage ;;
        *) [ -z "$ns3_dir" ] || usage; ns3_dir=$arg ;;
    esac
done
[ -n "$ns3_dir" ] || usage

# This tree: the parent of the folder holding this script.
tree=$(cd "$(dirname "$0")/.." && pwd -P)
[ -f "$tree/ns3-module/module-files.txt" ] || die "$tree does not look like the rdma tree"

[ -d "$ns3_dir" ] || die "$ns3_dir: no such directory"
ns3_dir=$(cd "$ns3_dir" && pwd -P)
# An ns-3 source tree has its driver (./ns3 since 3.36, ./waf before) and
# VERSION at the top, and the contrib/ folder it scans for modules.
if [ ! -f "$ns3_dir/ns3" ] && [ ! -f "$ns3_dir/waf" ]; then
    die "$ns3_dir is not an ns-3 source tree (no ns3 or waf script at its top)"
fi
[ -f "$ns3_dir/VERSION" ] || die "$ns3_dir is not an ns-3 source tree (no VERSION file)"
[ -d "$ns3_dir/contrib" ] || die "$ns3_dir is not an ns-3 source tree (no contrib/ folder)"

target="$ns3_dir/contrib/rdma"
case "$tree/" in
    "$ns3_dir/contrib/"*) die "this tree ($tree) is inside $ns3_dir/contrib already; nothing to install" ;;
esac

if [ -L "$target" ]; then
    current=$( (cd "$target" 2>/dev/null && pwd -P) || true)
    if [ "$mode" = symlink ] && [ "$current" = "$tree" ]; then
        echo "contrib/rdma already links to $tree"
        exit 0
    fi
    if [ "$current" = "$tree" ]; then
        die "$target is a symlink to this tree; remove it first to install a copy"
    fi
    die "$target exists and is a symlink to ${current:-a missing folder} (readlink: $(readlink "$target")); remove it first"
elif [ -e "$target" ]; then
    if [ -d "$target" ] && [ -f "$target/$MARKER" ]; then
        # A copy an earlier run made: safe to replace.
        rm -rf "$target"
    else
        die "$target exists and is not an install of this tree; move it away first"
    fi
fi

if [ "$mode" = symlink ]; then
    ln -s "$tree" "$target"
    echo "linked $target -> $tree"
else
    mkdir "$target"
    # Leave out version control and build outputs (the .gitignore's /build*/).
    (cd "$tree" && tar -cf - --exclude=./.git --exclude='./build*' --exclude=__pycache__ .) \
        | (cd "$target" && tar -xf -)
    echo "copied from $tree" > "$target/$MARKER"
    echo "copied $tree to $target"
fi
