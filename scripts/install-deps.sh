#!/bin/sh
# Installs, from Debian 12's packages, everything the rdma module needs to
# build and test: the compiler and CMake, ns-3.37 (libns3-dev, and ns3 whose
# files its CMake config names), zlib (ICRC), Boost.Program_options (the
# rdma-sim config and command line), METIS (the rank map of distributed runs),
# nlohmann-json (summary.json), Protocol Buffers (Chakra execution traces:
# libprotobuf-dev and protoc; python3-protobuf writes traces in the tests), the sweep and
# plot scripts' libraries (numpy, matplotlib, scipy for Student's t intervals,
# Dask's distributed, tqdm), and the
# tests' outside oracles (tshark, python3-scapy) and runner (python3-pytest), and clang with
# its sanitizer and libFuzzer runtimes (libclang-rt-14-dev) for the sanitizer build and the
# fuzz harnesses, Valgrind (scripts/bench_uec.py --instructions counts each
# side's instructions with callgrind), Sphinx for the documentation (make doc), and OpenMPI with
# the tools that unpack ns-3's source (make mpi, which make test builds; its
# ns3-module/check-compat.sh adds the deb-src line for Debian's ns3 source
# package when apt has none). Installs only what is
# missing, so a second run does not touch the network.
set -eu

PACKAGES="cmake g++ make libns3-dev ns3 libgsl-dev libsqlite3-dev libxml2-dev zlib1g-dev
libboost-program-options-dev libmetis-dev nlohmann-json3-dev libprotobuf-dev protobuf-compiler
python3-protobuf
pybind11-dev python3-dev
python3-numpy python3-matplotlib python3-scipy python3-distributed python3-tqdm
tshark python3-scapy python3-pytest clang libclang-rt-14-dev python3-sphinx valgrind
libopenmpi-dev openmpi-bin dpkg-dev xz-utils ninja-build"

missing=""
for p in $PACKAGES; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
else
    echo "install-deps: missing packages:$missing; run as root or install sudo" >&2
    exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# tshark asks whether non-root users may capture; the answer does not matter here.
echo "wireshark-common wireshark-common/install-setuid boolean false" | $SUDO debconf-set-selections
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
