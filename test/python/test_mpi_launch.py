"""A launch on N MPI ranks as a cluster user types it (scripts/launch_mpi.py;
doc/mpi.rst, "On a cluster"): checked first in one process as the N ranks
will run it (rdma-sim --check with sim.ranks = N: the partition, each
rank's part of the memory estimate against the memory one rank gets), then
a Slurm batch script written, or mpirun run on this machine's cores.

The check needs no MPI build: these tests run it with make build's
rdma-sim. The mpirun launch needs make mpi's, and is skipped without it as
test_mpi's are."""

import os
import subprocess
import sys

import pytest

from conftest import TOP
from test_mpi import MISSING, MPIRUN, SIM as MPI_SIM, assert_same_answers, needs_mpi

LAUNCH = os.path.join(TOP, 'scripts', 'launch_mpi.py')
K8 = ['-c', os.path.join(TOP, 'examples', 'configs', 'fat-tree-k8-permutation.ini'),
      '--traffic.size=100000']


def launch(*args, sim):
    return subprocess.run([sys.executable, LAUNCH, '--sim', sim] + list(args),
                          capture_output=True, text=True, timeout=600)


@pytest.fixture
def sim(build_dir):
    return os.path.join(build_dir, 'examples', 'rdma-sim')


def test_a_batch_script_asks_slurm_for_what_was_checked(sim, tmp_path):
    script = tmp_path / 'run.sbatch'
    r = launch('-n', '4', '--mem-per-rank', '2GiB', '--sbatch', str(script), '--nodes', '2',
               '--time', '01:00:00', '--partition', 'short', '--', *K8,
               '--output.dir=%s' % (tmp_path / 'out'), sim=sim)
    assert r.returncode == 0, r.stderr
    # The check ran as the 4 ranks will: by pod on the k=8 fat tree, each
    # rank's part against the 2 GiB one rank gets.
    assert 'configuration checked as a launch of 4 MPI ranks' in r.stdout, r.stdout
    assert "'s part of this run (the largest of 4 ranks) needs about" in r.stdout
    assert 'within the limit of 2.00 GiB (sim.maxMemory = 2GiB' in r.stdout
    text = script.read_text()
    for line in ('#SBATCH --ntasks=4', '#SBATCH --cpus-per-task=1', '#SBATCH --nodes=2',
                 '#SBATCH --mem-per-cpu=2G', '#SBATCH --time=01:00:00',
                 '#SBATCH --partition=short'):
        assert line + '\n' in text, (line, text)
    srun = [l for l in text.splitlines() if l.startswith('exec srun')]
    assert len(srun) == 1, text
    assert srun[0].startswith('exec srun --ntasks=4 --mpi=pmix %s ' % sim)
    assert srun[0].endswith('--sim.ranks=4 --sim.maxMemory=2GiB'), srun[0]
    assert not (tmp_path / 'out').exists()  # checked, not run


def test_a_launch_its_check_refuses_exits_2_and_writes_nothing(sim, tmp_path):
    script = tmp_path / 'run.sbatch'
    parts = tmp_path / 'parts.txt'
    # The k=4 default fabric's 36 nodes, node 20 put on rank 5 of a 2-rank launch.
    parts.write_text(''.join('%d %d\n' % (n, 5 if n == 20 else n % 2) for n in range(36)))
    cases = [
        (['-n', '2', '--sbatch', str(script), '--', '--sim.partition=%s' % parts],
         '%s:21' % parts, 'rank 5'),
        # 1 MiB per rank: below a rank's part of the fabric alone.
        (['-n', '2', '--mem-per-rank', '1MiB', '--sbatch', str(script), '--'],
         "sim.maxMemory: a rank's part of this fabric alone (2 ranks) needs about",
         'more than the limit of 1.00 MiB (sim.maxMemory = 1MiB'),
    ]
    for args, where, why in cases:
        r = launch(*args, '--output.dir=%s' % (tmp_path / 'out'), sim=sim)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert where in r.stderr and why in r.stderr, (args, r.stderr)
        assert 'the launch was refused by its check' in r.stderr
        assert not script.exists() and not (tmp_path / 'out').exists()
    # The script's own mistakes: a usage error naming the option.
    for args, why in ((['-n', '1', '--'], 'a launch of one rank is rdma-sim itself'),
                      (['-n', '2', '--mem-per-rank', '6 gigs', '--'], '--mem-per-rank 6 gigs'),
                      (['-n', '2', '--nodes', '2', '--'], "--nodes is a batch script's setting"),
                      (['-n', '2', '--', '--sim.ranks=2'], 'the launch sets it from -n')):
        r = launch(*args, sim=sim)
        assert r.returncode == 2 and why in r.stderr, (args, r.stderr)


def test_mpirun_and_srun_lines(sim, tmp_path):
    r = launch('-n', '3', '--print', '--', *K8, sim=sim)
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith('mpirun -np 3 '), line
    assert line.endswith('--sim.ranks=3'), line
    if (os.cpu_count() or 1) < 3:
        assert '--oversubscribe --bind-to none' in line
    r = launch('-n', '3', '--srun', '--mpi', 'pmi2', '--print', '--', *K8, sim=sim)
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith('srun --ntasks=3 --mpi=pmi2 %s ' % sim), line


@needs_mpi
def test_the_launch_on_this_machine_gives_the_sequential_answers(tmp_path):
    seq = tmp_path / 'seq'
    r = subprocess.run([MPI_SIM, '--quiet', '--output.dir=%s' % seq] + K8, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    out = tmp_path / 'mpi'
    r = launch('-n', '2', '--', '--quiet', '--output.dir=%s' % out, *K8, sim=MPI_SIM)
    assert r.returncode == 0, r.stdout + r.stderr
    assert 'configuration checked as a launch of 2 MPI ranks' in r.stdout
    assert_same_answers(out, seq)
