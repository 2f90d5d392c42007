"""scripts/bench_mpi.py without an MPI build: how it reports a distributed
run's answers against the sequential run's (doc/mpi.rst, "Same answers":
identical, or which outputs differ; flows that differ, the largest per-flow
difference, the distribution)."""

import os
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import bench_mpi  # noqa: E402

def rows(fcts):
    """fct.csv rows (no header) with these FCTs, sorted by flow id as run() keeps them."""
    return ['%d,0,1,WRITE,1000,0,%d,900,1.0,%d,IBV_WC_SUCCESS' % (i, f, 256 + i)
            for i, f in enumerate(fcts)]

def test_fct_difference_names_flows_largest_and_distribution():
    seq = rows([1000, 2000, 3000, 4000])
    par = rows([1000, 2100, 3000, 3800])  # flow 1 +5 %, flow 3 -5 %
    text = bench_mpi.fct_difference(seq, par)
    assert text.startswith('2 of 4 flows differ, at most 5.0 %;'), text
    # p50 is the 2nd of 4 sorted (2000 -> 2100); the total 10000 -> 9900.
    assert 'p50 1.0500' in text and 'total 0.9900' in text, text

def test_fct_difference_other_flows():
    assert bench_mpi.fct_difference(rows([1, 2]), rows([1])) == \
        'different flows completed (2 and 1)'


def test_answers_identical_or_names_what_differs():
    seq = {'flows': {'total': 4}, 'ecn_marks': 10, 'events': 100, 'pfc.csv': ['1,2,3,3,pause']}
    fct = rows([1000, 2000])
    par = dict(seq, events=180)  # the ranks' sum: not compared
    assert bench_mpi.answers(seq, fct, par, list(fct)) == 'identical'
    par = dict(seq, ecn_marks=11, **{'pfc.csv': []})
    assert bench_mpi.answers(seq, fct, par, rows([1000, 2001])) == \
        'DIFFER (fct.csv, pfc.csv, ecn_marks)'


def test_answers_compare_a_collective_runs_outputs():
    seq = {'flows': {'total': 0}, 'pfc.csv': [], 'collectives.csv': 'job,...\n0,0,0,9\n',
           'jobs.csv': 'job\n0\n', 'collectives': {'done': 1}}
    assert bench_mpi.answers(seq, [], dict(seq), []) == 'identical'
    par = dict(seq, **{'collectives.csv': 'job,...\n0,0,0,8\n', 'collectives': {'done': 0}})
    assert bench_mpi.answers(seq, [], par, []) == 'DIFFER (collectives.csv, collectives)'
