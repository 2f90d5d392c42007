"""Training jobs (traffic.pattern = collective) on several MPI ranks
(doc/mpi.rst): rdma-sim of the MPI build under mpirun -np 2 and -np 4 gives
the sequential run's collectives.csv, jobs.csv, fct.csv and the summary's
collectives block byte for byte.

Each rank runs the collective runner for the job ranks on its hosts; a
step's dependencies are completions at the rank's own hosts, the data
crosses ranks as frames. The runner's records (each collective's start, end
and last pair to land, each iteration's start and end) are merged at rank 0
(RdmaRankShare); of two last landings at one time on two ranks the merge
keeps the one a sequential run runs last (the larger event key). A job
rank starts in its host's context (RdmaEventScheduler's origin), as a flow
in its requester's: started from the job's start event, in no node's
context, its first WRITEs' frames carried keys each rank numbered on its
own, and on 4 ranks the rail case's all-to-all ended 690 ns late (its last
pair 39 -> 38, not 7 -> 6).

The cases: two jobs of 8 ranks on a k=4 fat tree, each rank of a job on
every other host, so each job spans both pods' ranks (by-pod partition), each
iteration a ring all-reduce, a compute gap and an all-to-all; and the GPT-7B
rail study's fabric (examples/configs/collective-gpt7b-rail.ini: 8 servers
of 8 GPUs, NVLink ports and rails) with one 64-rank job in place of the
workload, partitioned by server (a GPU's NIC and NVLink port on one rank).

Skipped, with the reason, without the MPI build (test_mpi.py's rules:
RDMA_MPI_DIR, RDMA_MPI_SIM; RDMA_REQUIRE_MPI=1 makes a missing build fail
there)."""

import json
import os

import pytest

from conftest import TOP
from test_mpi import needs_mpi, run

TWO_JOBS = ['--traffic.pattern=collective', '--topology.k=4', '--job.count=2',
            '--job.ranks=8', '--job.placement=random', '--job.iterations=2',
            '--job.sequence=all-reduce 256KiB ring, compute 5us, all-to-all 128KiB',
            '--collective.chunkBytes=16KiB', '--cc.algorithm=dcqcn',
            '--output.qlenInterval=0s']
RAIL_INI = os.path.join(TOP, 'examples', 'configs', 'collective-gpt7b-rail.ini')
# The study's file without its workload (1,049 collectives): one job on its
# 64 GPUs instead.
RAIL = ['--job.ranks=64', '--job.iterations=1',
        '--job.sequence=all-reduce 4MiB ring, compute 2us, all-to-all 2MiB',
        '--output.qlenInterval=0s']
CASES = {'fat-tree-two-jobs': TWO_JOBS, 'rail-gpt7b-fabric': RAIL}


def rail_ini(tmp_path):
    """collective-gpt7b-rail.ini without its job.workload lines."""
    with open(RAIL_INI) as f:
        every = f.readlines()
    lines = [l for l in every if not l.startswith('workload')]
    assert len(lines) == len(every) - 2, every
    path = tmp_path / 'rail.ini'
    path.write_text(''.join(lines))
    return ['-c', str(path)]


def args_of(name, tmp_path):
    return (rail_ini(tmp_path) if name.startswith('rail') else []) + CASES[name]
# The outputs that must not move (fct.csv: a collective run's header only).
FILES = ('collectives.csv', 'jobs.csv', 'fct.csv')


def outputs(out):
    texts = {}
    for name in FILES:
        with open(out / name) as f:
            texts[name] = f.read()
    with open(out / 'summary.json') as f:
        summary = json.load(f)
    return texts, summary


@needs_mpi
@pytest.mark.parametrize('ranks', [2, 4])
@pytest.mark.parametrize('name', sorted(CASES))
def test_collectives_on_ranks_give_the_sequential_answers(tmp_path, name, ranks):
    seq, dist = tmp_path / 'seq', tmp_path / 'mpi'
    args = args_of(name, tmp_path)
    r = run(1, args, seq)
    assert r.returncode == 0, r.stderr
    r = run(ranks, args, dist)
    assert r.returncode == 0, r.stdout + r.stderr
    (ref_files, ref), (got_files, got) = outputs(seq), outputs(dist)
    rows = ref_files['collectives.csv'].splitlines()
    # Every collective of every iteration ran to the end, on two ranks' hosts.
    assert len(rows) > 2 and all(l.endswith(',done') for l in rows[1:]), rows
    for f in FILES:
        assert got_files[f] == ref_files[f], f
    assert got['collectives'] == ref['collectives']
    assert got['sim_time_s'] == ref['sim_time_s']
    mpi = got['mpi']
    assert mpi['ranks'] == ranks and mpi['links_between_ranks'] > 0
    # Both ranks had events: the jobs ran on both.
    assert all(p['events'] > 0 for p in mpi['per_rank'])


@needs_mpi
def test_a_gpu_split_across_ranks_exits_2(tmp_path):
    """A rail GPU's NIC and NVLink port on two ranks (metis cuts host
    links: hosts stay with their switch, NICs on rails, ports on their
    NVSwitch) is refused, naming the key."""
    out = tmp_path / 'out'
    r = run(2, args_of('rail-gpt7b-fabric', tmp_path) + ['--sim.partitionRule=metis'], out)
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'sim.partitionRule (metis' in r.stderr and "rank 0's NIC" in r.stderr \
        and 'must share a rank' in r.stderr, r.stderr
    assert not out.exists()
