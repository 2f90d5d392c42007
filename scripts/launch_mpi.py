#!/usr/bin/python3
"""Launch one rdma-sim simulation on N MPI ranks (doc/mpi.rst, "On a
cluster"): check it first on this machine, then run it with mpirun, run it
with srun inside a Slurm allocation, or write a Slurm batch script.

    scripts/launch_mpi.py -n 4 -- -c my.ini --output.dir=out/run
    scripts/launch_mpi.py -n 64 --mem-per-rank 6GiB --sbatch run.sbatch \\
        --nodes 4 --time 02:00:00 -- -c my.ini --sim.partition=parts.txt \\
        --output.dir=/shared/out/run
    sbatch run.sbatch

Everything after `--` is rdma-sim's command line. First, on this machine and
in one process, `rdma-sim ... --sim.ranks=N --check` checks the launch as
the N ranks will run it: every key and input, the partition (a
sim.partition file naming a rank outside the launch, a node twice or a
node left out exits 2 with its file and line), and each rank's part of the
memory estimate against the memory one rank gets (--mem-per-rank, passed
to every rank as sim.maxMemory; without it, this machine's available
memory shared by the N ranks). A launch that would be refused is refused
here, exit 2, before it waits in a queue; nothing is written.

Then:

* default: mpirun -np N [--hostfile FILE] (with --allow-run-as-root as
  root, and --oversubscribe --bind-to none when N is above this machine's
  cores), rdma-sim's exit status returned;
* --srun: srun --ntasks=N --mpi=MPI (inside an allocation: salloc, or a
  batch script of your own);
* --sbatch FILE: a batch script with #SBATCH --ntasks=N (one core each),
  --nodes, --mem-per-cpu (--mem-per-rank), --time, --partition and
  --job-name as given, that runs the srun line; submit it with sbatch.

--print prints the launch line (or the batch script) instead. The rdma-sim
is --sim, else $RDMA_SIM, else the MPI build's (`make mpi`: the path in
/var/tmp/rdma-compat-mpi/rdma-sim.path, or $RDMA_MPI_DIR's); every machine
of the launch needs it and the inputs at the same paths.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

#: the Makefile's MPI tree when $RDMA_MPI_DIR is not set
MPI_DIR = '/var/tmp/rdma-compat-mpi'
#: sim.maxMemory's sizes: a number, an optional exponent and unit (as rdma-sim reads them)
SIZE = re.compile(r'^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?([A-Za-z]*)$')
#: their units, in bytes
UNITS = {'': 1, 'B': 1, 'kB': 10 ** 3, 'KB': 10 ** 3, 'MB': 10 ** 6, 'GB': 10 ** 9,
         'TB': 10 ** 12, 'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30, 'TiB': 1 << 40}
#: Slurm's --mem-per-cpu units, largest first
SLURM_UNITS = (('T', 1 << 40), ('G', 1 << 30), ('M', 1 << 20))


def default_sim(environ=None):
    """The rdma-sim to launch when --sim is not given: $RDMA_SIM, else the
    path `make mpi` wrote. Returns the path, or None when there is none."""
    environ = os.environ if environ is None else environ
    if environ.get('RDMA_SIM'):
        return environ['RDMA_SIM']
    path_file = os.path.join(environ.get('RDMA_MPI_DIR') or MPI_DIR, 'rdma-sim.path')
    try:
        with open(path_file) as f:
            return f.read().strip() or None
    except OSError:
        return None


def slurm_memory(size):
    """A size as sim.maxMemory reads it ('6GiB', '500MB') as Slurm's
    --mem-per-cpu value ('6G', '476M'): whole units, mebibytes at least,
    rounded down (a rank is never granted more than it was checked with)."""
    m = SIZE.match(size.strip())
    if not m or m.group(3) not in UNITS:
        raise ValueError('%s: expected a size such as 6GiB or 500MB' % size)
    total = int(float(m.group(1) + (m.group(2) or '')) * UNITS[m.group(3)])
    for letter, scale in SLURM_UNITS:
        if total >= scale and total % scale == 0:
            return '%d%s' % (total // scale, letter)
    return '%dM' % max(1, total // (1 << 20))


def rank_args(args):
    """rdma-sim's arguments with the launch's keys added (every rank gets them)."""
    out = list(args.sim_args) + ['--sim.ranks=%d' % args.ranks]
    if args.mem_per_rank:
        out.append('--sim.maxMemory=%s' % args.mem_per_rank)
    return out


def check(args):
    """rdma-sim --check as the launch's N ranks: its status, and its lines printed."""
    r = subprocess.run([args.sim] + rank_args(args) + ['--check'], capture_output=True,
                       text=True)
    sys.stdout.write(r.stdout)
    sys.stderr.write(r.stderr)
    return r.returncode


def mpirun_line(args):
    """The mpirun command line of the launch."""
    line = ['mpirun', '-np', str(args.ranks)]
    if args.hostfile:
        line += ['--hostfile', args.hostfile]
    if os.geteuid() == 0:
        line.append('--allow-run-as-root')
    if not args.hostfile and args.ranks > (os.cpu_count() or 1):
        line += ['--oversubscribe', '--bind-to', 'none']
    return line + [args.sim] + rank_args(args)


def srun_line(args):
    """The srun command line of the launch (inside an allocation)."""
    return ['srun', '--ntasks=%d' % args.ranks, '--mpi=%s' % args.mpi, args.sim] + rank_args(args)


def batch_script(args):
    """The Slurm batch script of the launch, as text."""
    lines = ['#!/bin/bash',
             '# Written by scripts/launch_mpi.py; the launch was checked with',
             '#   ' + ' '.join(shlex.quote(a) for a in [args.sim] + rank_args(args) + ['--check']),
             '#SBATCH --job-name=%s' % args.job_name,
             '#SBATCH --ntasks=%d' % args.ranks,
             '#SBATCH --cpus-per-task=1']
    if args.nodes:
        lines.append('#SBATCH --nodes=%d' % args.nodes)
    if args.mem_per_rank:
        lines.append('#SBATCH --mem-per-cpu=%s' % slurm_memory(args.mem_per_rank))
    if args.time:
        lines.append('#SBATCH --time=%s' % args.time)
    if args.partition:
        lines.append('#SBATCH --partition=%s' % args.partition)
    lines += ['', 'exec ' + ' '.join(shlex.quote(a) for a in srun_line(args)), '']
    return '\n'.join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if '--' in argv:
        split = argv.index('--')
        own, sim_args = argv[:split], argv[split + 1:]
    else:
        own, sim_args = argv, []
    p = argparse.ArgumentParser(
        description='Check, then launch one rdma-sim simulation on N MPI ranks: mpirun, srun, '
                    'or a Slurm batch script. rdma-sim\'s own arguments go after --.')
    p.add_argument('-n', '--ranks', type=int, required=True, help='MPI ranks (2 or more)')
    p.add_argument('--sim', help='the MPI build\'s rdma-sim (default: $RDMA_SIM, else the '
                                 'path make mpi wrote)')
    p.add_argument('--mem-per-rank', help='memory one rank may take, as 6GiB or 500MB: '
                                          'sim.maxMemory of every rank, checked here first, '
                                          'and the batch script\'s --mem-per-cpu')
    p.add_argument('--hostfile', help='mpirun: the machines and their slots')
    p.add_argument('--srun', action='store_true', help='launch with srun (inside an allocation)')
    p.add_argument('--sbatch', metavar='FILE', help='write a Slurm batch script instead of '
                                                    'launching')
    p.add_argument('--nodes', type=int, help='--sbatch: machines (#SBATCH --nodes)')
    p.add_argument('--time', help='--sbatch: time limit, as Slurm reads it (02:00:00)')
    p.add_argument('--partition', help='--sbatch: the Slurm partition (queue)')
    p.add_argument('--job-name', default='rdma-sim', help='--sbatch: the job\'s name')
    p.add_argument('--mpi', default='pmix', help='srun\'s --mpi plugin (default pmix, what '
                                                  'Open MPI 4 and later use)')
    p.add_argument('--print', action='store_true', help='print the launch line or batch '
                                                       'script instead of running or writing it')
    args = p.parse_args(own)
    args.sim_args = sim_args
    if args.ranks < 2:
        p.error('-n %d: a launch of one rank is rdma-sim itself' % args.ranks)
    if args.mem_per_rank:
        try:
            slurm_memory(args.mem_per_rank)
        except ValueError as e:
            p.error('--mem-per-rank %s' % e)
    if args.srun and args.sbatch:
        p.error('--srun and --sbatch: the batch script runs srun itself; give one')
    if args.hostfile and (args.srun or args.sbatch):
        p.error('--hostfile is mpirun\'s; Slurm places the ranks on its nodes')
    for flag in ('nodes', 'time', 'partition'):
        if getattr(args, flag) and not args.sbatch:
            p.error('--%s is a batch script\'s setting (--sbatch FILE)' % flag)
    if any(a.startswith('--sim.ranks') for a in sim_args):
        p.error('rdma-sim\'s --sim.ranks: the launch sets it from -n')
    args.sim = args.sim or default_sim()
    if not args.sim:
        p.error('no rdma-sim: build the MPI one with make mpi, or give --sim PATH')
    status = check(args)
    if status != 0:
        print('launch_mpi: the launch was refused by its check (above); nothing launched',
              file=sys.stderr)
        return status
    if args.sbatch:
        text = batch_script(args)
        if args.print:
            sys.stdout.write(text)
            return 0
        with open(args.sbatch, 'w') as f:
            f.write(text)
        print('launch_mpi: wrote %s; submit it with: sbatch %s' % (args.sbatch, args.sbatch))
        return 0
    line = srun_line(args) if args.srun else mpirun_line(args)
    if args.print:
        print(' '.join(shlex.quote(a) for a in line))
        return 0
    if not shutil.which(line[0]):
        print('launch_mpi: %s is not on PATH' % line[0], file=sys.stderr)
        return 2
    return subprocess.run(line).returncode


if __name__ == '__main__':
    sys.exit(main())
