"""The shipped experiments give the same answers as before the memory work
of doc/large-fabrics.rst (RdmaFifo, the shared-group route tables, the
route computer without stored next hops): each run's fct.csv and pfc.csv
are byte-identical to those of main at 66ef423, recorded here as SHA-256
digests (Release build, x86-64, Debian's libns3 3.37), as moved since by
the model event order (RdmaEventScheduler, doc/mpi.rst "Event order":
simultaneous events by the node that scheduled them, not by insertion;
measured against ns-3's insertion order, --sim.scheduler=ns3::HeapScheduler,
which still gives the old digests): default 1 of 59 FCTs by a few ps, its
pfc.csv unchanged; k=8 permutation 2 of 128 FCTs, at most 0.19 %; incast
every FCT, at most 4.5 % (mean slowdown 61.32 -> 61.37, PAUSE 336 -> 341);
slow receiver 77 of 79 FCTs, one by 205 % (mean slowdown 71.53 -> 71.45,
PAUSE 4910 -> 4879); tiny and QP scaling unchanged.

A change that is meant to change results (a model fix) updates the digests
in the same commit and says why in its message; any other change must
leave them alone."""

import hashlib
import os

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
CONFIGS = os.path.join(TOP, 'examples', 'configs')

# name: (rdma-sim arguments, {file: sha256})
RUNS = {
    'default (k=4 WebSearch, DCQCN)': ([], {
        'fct.csv': 'c6904bd2bb2b4eb15506b0fb97be6d10e85ddabd71ab512de1924b9f67193230',
        'pfc.csv': '78988dac35c59e6eafbcb69e201dcb48b90d142aaa8f0f738b5d38b40959d294'}),
    'k=8 permutation, 200 kB': (
        ['-c', os.path.join(CONFIGS, 'fat-tree-k8-permutation.ini'), '--traffic.size=200000'], {
            'fct.csv': '9a8d10daa6d12693a5cf8ea6ef89d6fbe11ac39752aa5e5aeb62e538a56bf696',
            'pfc.csv': 'a82fff27fddfd7325c050dd35fe97e4d7138649efb25136e3c1b17e516c98378'}),
    'tiny': (['-c', os.path.join(CONFIGS, 'tiny.ini')], {
        'fct.csv': '59f6e9a2cf3c0238610e60f4804e17b3537149f0968225acd610b3c0beff8ace'}),
    'incast': (['-c', os.path.join(CONFIGS, 'incast.ini')], {
        'fct.csv': '441eb235390fc5fc0753ec0879fc916e2388933c037e878736a79f95ec8e40a7',
        'pfc.csv': 'bd8386a4e21b38526458e4dd1267504c68965e636d5bdc62555095430b6d0f68'}),
    'slow receiver (NIC caches)': (['-c', os.path.join(CONFIGS, 'slow-receiver.ini')], {
        'fct.csv': '4a773bb2e1e9bd3875475130856adbd9e487990dab61a17c239ca206fbb860f9',
        'pfc.csv': '4396323b12d7c8ab61caf28850b6cdf60fd007c595aebb478099823713b156ad'}),
    'QP scaling (QPC cache)': (['-c', os.path.join(CONFIGS, 'qp-scaling.ini')], {
        'fct.csv': 'd194cf0f62ae8fbd3f98205709dab6646ee8d54ced74576fd66af71b294f669e'}),
}


@pytest.mark.parametrize('name', list(RUNS))
def test_same_results_as_before(run_example, tmp_path, name):
    args, digests = RUNS[name]
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-q', *args, '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    for f, digest in digests.items():
        got = hashlib.sha256((out / f).read_bytes()).hexdigest()
        assert got == digest, '%s: %s changed (sha256 %s)' % (name, f, got)
