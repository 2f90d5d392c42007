"""The shipped experiments give the same answers as before the memory work
of doc/large-fabrics.rst (RdmaFifo, the shared-group route tables, the
route computer without stored next hops): each run's fct.csv and pfc.csv
are byte-identical to those of main at 66ef423, recorded here as SHA-256
digests (Release build, x86-64, Debian's libns3 3.37).

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
        'fct.csv': 'c3c7c4a0f9f361fe04a747cfd693ec8cfac246f9e6470abaa3cf269d0f29e71e',
        'pfc.csv': '78988dac35c59e6eafbcb69e201dcb48b90d142aaa8f0f738b5d38b40959d294'}),
    'k=8 permutation, 200 kB': (
        ['-c', os.path.join(CONFIGS, 'fat-tree-k8-permutation.ini'), '--traffic.size=200000'], {
            'fct.csv': '06f9c40277829bed1fef4ae4c929139ac7e9119aff2f073898c86e7385b4823d',
            'pfc.csv': 'a82fff27fddfd7325c050dd35fe97e4d7138649efb25136e3c1b17e516c98378'}),
    'tiny': (['-c', os.path.join(CONFIGS, 'tiny.ini')], {
        'fct.csv': '59f6e9a2cf3c0238610e60f4804e17b3537149f0968225acd610b3c0beff8ace'}),
    'incast': (['-c', os.path.join(CONFIGS, 'incast.ini')], {
        'fct.csv': 'd67cd232f3f0e4fec1f4aaad6d54601e7224ff4f821539275db79bd0ca08ff5c',
        'pfc.csv': '371a7416c7eb6117b92e7ee99b7988eb797933ab8cc7251c0f5c332841cd4b9a'}),
    'slow receiver (NIC caches)': (['-c', os.path.join(CONFIGS, 'slow-receiver.ini')], {
        'fct.csv': '5df8ad2e9c726388a69f3e1115b05520cd2cc5d880377c5ab827cddb0cdbe897',
        'pfc.csv': 'f5623f7d1e55eadeee946957d27685dc51e27ceb8ca78c64c3964c0baa1e3f5f'}),
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
