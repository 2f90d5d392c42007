"""One simulation across processes (doc/mpi.rst): rdma-sim of the MPI build
(make mpi) under mpirun -np 2 and -np 4 against the sequential run.

Every run gives the sequential outputs byte for byte: fct.csv (after
sorting by flow id), fct.txt, pfc.csv, qlen.csv, cache.csv and the
summary's counters, at 2 and 4 ranks, with any synchronization, on the
k=4 default, the HPCC simulator's 1 ms file (METIS partition) and a k=16
permutation (1024 hosts, by-pod). RdmaEventScheduler orders the events of
one time by the node that scheduled them and its own count, the same on
any partition (doc/mpi.rst, "Event order"). Under ns-3's insertion order
(before it) the 1 ms file differed in 293 of 405 FCTs at 2 ranks.
Bad rank input exits 2 with the reason.

Skipped, with the reason, when there is no MPI build (make mpi writes the
path of its rdma-sim to /var/tmp/rdma-compat-mpi/rdma-sim.path, or set
RDMA_MPI_SIM) or no mpirun."""

import json
import os
import shutil
import subprocess

import pytest

from conftest import TOP

MPI_DIR = os.environ.get('RDMA_MPI_DIR', '/var/tmp/rdma-compat-mpi')
CONFIGS = {
    'k4-default': [],
    'hpcc-1ms': ['-c', os.path.join(TOP, 'examples', 'configs', 'hpcc-fat-ws-hpcc.ini')],
    # bench_mpi.py's k16-permutation with 100 kB WRITEs (it runs 2 MB ones).
    'k16-permutation': ['-c', os.path.join(TOP, 'examples', 'configs',
                                           'fat-tree-k8-permutation.ini'),
                        '--topology.k=16', '--traffic.size=100000'],
}

# Switches and links of each config's fabric: fat tree k: 5k^2/4 switches,
# k^3/4 hosts and 3k^3/4 links; fat.txt: its header (376 nodes, 56
# switches, 480 links).
FABRIC = {'k4-default': (20, 48), 'hpcc-1ms': (56, 480), 'k16-permutation': (320, 3072)}


def mpi_sim():
    """The MPI build's rdma-sim, or None."""
    path = os.environ.get('RDMA_MPI_SIM')
    if not path:
        try:
            with open(os.path.join(MPI_DIR, 'rdma-sim.path')) as f:
                path = f.read().strip()
        except OSError:
            return None
    return path if os.access(path, os.X_OK) else None


SIM = mpi_sim()
MPIRUN = shutil.which('mpirun')
MISSING = ('no MPI build (run "make mpi"; looked for %s/rdma-sim.path and RDMA_MPI_SIM) '
           'or no mpirun' % MPI_DIR)
# make test builds the MPI build and sets RDMA_REQUIRE_MPI=1: then a missing
# build fails (test_mpi_build_is_there) instead of skipping.
REQUIRED = os.environ.get('RDMA_REQUIRE_MPI') == '1'
needs_mpi = pytest.mark.skipif(SIM is None or MPIRUN is None, reason=MISSING)


def test_mpi_build_is_there():
    if (SIM is None or MPIRUN is None) and not REQUIRED:
        pytest.skip(MISSING)
    assert SIM is not None and MPIRUN is not None, MISSING


def run(ranks, args, out, timeout=1800):
    """rdma-sim on `ranks` processes (1: no mpirun); the CompletedProcess."""
    cmd = [SIM, '--quiet', '--force', '--output.dir=%s' % out] + args
    if ranks > 1:
        # Oversubscribed on small machines; root in containers.
        cmd = [MPIRUN, '-np', str(ranks), '--oversubscribe', '--allow-run-as-root',
               '--bind-to', 'none'] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def rows(path, key=None):
    with open(path) as f:
        lines = f.read().splitlines()
    return lines[0], sorted(lines[1:], key=key)


def flow_id(line):
    return int(line.split(',')[0])


@pytest.fixture(scope='module')
def sequential(tmp_path_factory):
    outs = {}
    for name, args in CONFIGS.items():
        out = tmp_path_factory.mktemp('seq-' + name)
        r = run(1, args, out)
        assert r.returncode == 0, r.stderr
        outs[name] = out
    return outs


def assert_same_answers(out, seq):
    """Byte-identical outputs (rows sorted) and summary counters."""
    assert rows(out / 'fct.csv', flow_id) == rows(seq / 'fct.csv', flow_id)
    with open(out / 'fct.txt') as a, open(seq / 'fct.txt') as b:
        assert sorted(a.read().splitlines()) == sorted(b.read().splitlines())
    for f in ('pfc.csv', 'qlen.csv', 'cache.csv'):
        assert rows(out / f) == rows(seq / f), f
    with open(out / 'summary.json') as a, open(seq / 'summary.json') as b:
        dist, ref = json.load(a), json.load(b)
    for key in ('flows', 'fct_slowdown', 'sim_time_s', 'data_packets_delivered', 'pfc',
                'ecn_marks', 'retransmissions', 'drops'):
        assert dist[key] == ref[key], key


@needs_mpi
@pytest.mark.parametrize('ranks', [2, 4])
@pytest.mark.parametrize('name', sorted(CONFIGS))
def test_ranks_give_the_sequential_answers(sequential, tmp_path, name, ranks):
    out = tmp_path / 'mpi'
    r = run(ranks, CONFIGS[name], out)
    assert r.returncode == 0, r.stdout + r.stderr
    seq = sequential[name]
    assert_same_answers(out, seq)
    with open(out / 'summary.json') as a, open(seq / 'summary.json') as b:
        dist, ref = json.load(a), json.load(b)
    assert dist['flows'] == ref['flows']
    mpi = dist['mpi']
    assert mpi['ranks'] == ranks
    assert len(mpi['per_rank']) == ranks
    assert sum(r['flows'] for r in mpi['per_rank']) == ref['flows']['total']
    assert 'mpi' not in ref
    # Each rank builds its part only: every switch and every port on
    # exactly one rank (a link between two other ranks' switches is not
    # built there, and of a link between two ranks each keeps its own end's
    # device and the other end as a QbbRemotePort; RdmaTopologyHelper).
    switches, links = FABRIC[name]
    assert sum(r['switches_built'] for r in mpi['per_rank']) == switches
    assert sum(r['ports_built'] for r in mpi['per_rank']) == 2 * links
    for row in mpi['per_rank']:
        assert 0 < row['ports_built'] < 2 * links, row


@needs_mpi
def test_four_ranks_repeat(sequential, tmp_path):
    """Four ranks: the same outputs on every run (MPI completes messages
    from several ranks in an order that varies; the event order does not
    depend on it)."""
    a, b = tmp_path / 'a', tmp_path / 'b'
    for out in (a, b):
        r = run(4, CONFIGS['k4-default'], out)
        assert r.returncode == 0, r.stdout + r.stderr
    for f in ('fct.csv', 'pfc.csv', 'qlen.csv'):
        with open(a / f) as x, open(b / f) as y:
            assert x.read() == y.read(), f


@needs_mpi
def test_patched_ns3_draws_debians_numbers(sequential, build_dir, tmp_path):
    """make mpi's (and make run's) ns-3 carries
    ns3-module/patches/rng-stream-power-table.patch: MRG32k3a's table of the
    transition matrices to the powers 2^1 ... 2^190, each the square of the
    one before (190 squarings a component, not 18,145). The same squarings
    give the same streams: the default experiment, whose flow sizes and
    arrivals are drawn from ns-3's random streams, gives byte for byte the
    flows it gives with Debian's libns3 (the standalone build)."""
    debian = tmp_path / 'debian'
    r = subprocess.run([os.path.join(build_dir, 'examples', 'rdma-sim'), '--quiet', '--force',
                        '--output.dir=%s' % debian] + CONFIGS['k4-default'],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    patched = sequential['k4-default']
    assert rows(patched / 'fct.csv', flow_id) == rows(debian / 'fct.csv', flow_id)
    with open(patched / 'summary.json') as a, open(debian / 'summary.json') as b:
        assert json.load(a)['flows'] == json.load(b)['flows']


def run_patched_and_debian(build_dir, tmp_path, args, env=None):
    """rdma-sim of make mpi's build (patched ns-3) and of the standalone
    build (Debian's libns3), one process each, with the same arguments;
    {'patched': out dir, 'debian': out dir}."""
    outs = {}
    for name, sim in (('patched', SIM),
                      ('debian', os.path.join(build_dir, 'examples', 'rdma-sim'))):
        outs[name] = tmp_path / name
        r = subprocess.run([sim, '--quiet', '--force', '--output.dir=%s' % outs[name]] + args,
                           capture_output=True, text=True, timeout=600, env=env)
        assert r.returncode == 0, r.stderr
    return outs


@needs_mpi
def test_patched_ns3_reads_ns_attribute_default(sequential, build_dir, tmp_path):
    """ns3-module/patches/construct-self-no-copies.patch builds an
    attribute's full name only when NS_ATTRIBUTE_DEFAULT gives values: with
    one given (each switch's ECMP seed), make mpi's build still takes it, as
    Debian's libns3 does, and the flows move the same way in both."""
    env = dict(os.environ, NS_ATTRIBUTE_DEFAULT='ns3::RdmaSwitch::EcmpSeed=12345')
    outs = run_patched_and_debian(build_dir, tmp_path, CONFIGS['k4-default'], env)
    moved = rows(outs['patched'] / 'fct.csv', flow_id)
    assert moved == rows(outs['debian'] / 'fct.csv', flow_id)
    assert moved != rows(sequential['k4-default'] / 'fct.csv', flow_id)


@needs_mpi
def test_patched_ns3_registers_a_type_named_first_on_the_command_line(build_dir, tmp_path):
    """ns3-module/patches/typeid-registration-at-first-use.patch registers a
    type when it is first looked up by name, not before main. A scheduler
    nothing else uses, named by sim.scheduler, is found (and checked to be a
    Scheduler) by make mpi's build as by Debian's libns3, and the run is the
    same; a name no type has still exits 2 naming the key, after every
    pending type has registered."""
    args = CONFIGS['k4-default'] + ['--sim.scheduler=ns3::CalendarScheduler']
    outs = run_patched_and_debian(build_dir, tmp_path, args)
    assert rows(outs['patched'] / 'fct.csv', flow_id) == rows(outs['debian'] / 'fct.csv', flow_id)
    r = run(1, ['--sim.scheduler=ns3::NoSuchScheduler'], tmp_path / 'bad')
    assert r.returncode == 2
    assert "sim.scheduler = 'ns3::NoSuchScheduler'" in r.stderr


@needs_mpi
@pytest.mark.parametrize('name', ['k4-default', 'hpcc-1ms'])
def test_null_message_sync_gives_the_same_answers(sequential, tmp_path, name):
    out = tmp_path / 'mpi'
    r = run(2, CONFIGS[name] + ['--sim.mpiSync=null-message'], out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert_same_answers(out, sequential[name])
    with open(out / 'summary.json') as f:
        assert json.load(f)['mpi']['sync'] == 'null-message'


@needs_mpi
@pytest.mark.parametrize('ranks', [2, 4])
def test_granted_time_sends_one_message_per_window_and_rank(sequential, tmp_path, ranks):
    """Granted-time windows (RdmaDistributedSimulatorImpl): the frames a
    rank sends to one other rank within one window go as one MPI message
    (RdmaWindowMpiInterface), so a rank sends at most windows x (ranks - 1)
    messages, far fewer than its frames; every rank ends the same windows
    (the exchange is collective). ns-3's per-frame engine
    (sim.mpiSync = granted-time-per-frame) gives the same answers and sends
    no batch."""
    out = tmp_path / 'mpi'
    r = run(ranks, CONFIGS['hpcc-1ms'], out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert_same_answers(out, sequential['hpcc-1ms'])
    with open(out / 'summary.json') as f:
        mpi = json.load(f)['mpi']
    assert mpi['sync'] == 'granted-time'
    rows = mpi['per_rank']
    assert len({row['windows'] for row in rows}) == 1, rows
    for row in rows:
        assert row['windows'] > 0, row
        assert 0 < row['mpi_messages_sent'] <= row['windows'] * (ranks - 1), row
        # Batched: many frames a message on the HPCC 1 ms file.
        assert row['frames_sent_to_other_ranks'] > 10 * row['mpi_messages_sent'], row
    if ranks == 2:
        out = tmp_path / 'per-frame'
        r = run(2, CONFIGS['hpcc-1ms'] + ['--sim.mpiSync=granted-time-per-frame'], out)
        assert r.returncode == 0, r.stdout + r.stderr
        assert_same_answers(out, sequential['hpcc-1ms'])
        with open(out / 'summary.json') as f:
            mpi = json.load(f)['mpi']
        assert mpi['sync'] == 'granted-time-per-frame'
        for row in mpi['per_rank']:
            assert row['frames_sent_to_other_ranks'] > 0, row
            assert row['mpi_messages_sent'] == 0 and row['windows'] == 0, row


@needs_mpi
@pytest.mark.parametrize('ranks', [2, 4])
def test_responders_close_on_their_rank(sequential, tmp_path, ranks):
    """A requester's completion closes its QP pair; when the responder is on
    another rank, the requester's rank sends that rank a notice in the
    window's batch and the responder's QP closes there one lookahead later
    (RdmaFlowRunner::CloseResponder), so no QP is left open at the end on
    any rank (before, each rank kept the QPs of its responders to other
    ranks' requesters to the end). The answers stay the sequential run's."""
    out = tmp_path / 'mpi'
    r = run(ranks, CONFIGS['k16-permutation'], out)
    assert r.returncode == 0, r.stdout + r.stderr
    assert_same_answers(out, sequential['k16-permutation'])
    with open(out / 'summary.json') as f:
        mpi = json.load(f)['mpi']
    assert mpi['sync'] == 'granted-time'
    for row in mpi['per_rank']:
        assert row['qps_open_at_end'] == 0, row


@pytest.mark.parametrize('args,ranks,reason', [
    (['--sim.ranks=3'], 2, 'sim.ranks = 3 but the run has 2 process(es)'),
    (['--sim.scheduler=ns3::HeapScheduler'], 2, '2 ranks (sim.ranks) need '
     'ns3::RdmaEventScheduler'),
    (['--topology.type=star', '--topology.hosts=2'], 4, 'more ranks than the 3 nodes'),
    (['--topology.linkDelay=0s'], 2, 'with a delay of 0'),
    (['--sim.fastForward=on'], 2, 'sim.fastForward = on: its replays are kept per process'),
])
@needs_mpi
def test_bad_rank_input_exits_2(tmp_path, args, ranks, reason):
    r = run(ranks, args, tmp_path / 'out', timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    assert reason in r.stderr


@needs_mpi
def test_memory_check_takes_a_ranks_part(tmp_path):
    """sim.maxMemory is checked against what a process builds: the whole
    fabric sequentially (75.5 MiB estimated for the k=16 permutation), the
    largest rank's part on 2 ranks (56.4 MiB: its hosts and switches, the
    links with an end on the rank, every flow), so 70 MiB refuses the one
    and runs the other, and 50 MiB refuses both, naming the part."""
    args = CONFIGS['k16-permutation'] + ['--sim.stopTime=1ns']
    r = run(1, args + ['--sim.maxMemory=70MiB'], tmp_path / 'seq', timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'this run needs about' in r.stderr
    assert not (tmp_path / 'seq').exists()
    r = run(2, args + ['--sim.maxMemory=70MiB'], tmp_path / 'two', timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run(2, args + ['--sim.maxMemory=50MiB'], tmp_path / 'small', timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "s part of this run (the largest of 2 ranks) needs about" in r.stderr
    assert not (tmp_path / 'small').exists()


@needs_mpi
def test_partition_file_naming_unknown_nodes_exits_2(tmp_path):
    part = tmp_path / 'part.txt'
    part.write_text(''.join('%d %d\n' % (u, u % 2) for u in range(36)) + '99 1\n')
    r = run(2, ['--sim.partition=%s' % part], tmp_path / 'out', timeout=300)
    assert r.returncode == 2, r.stdout + r.stderr
    assert 'part.txt:37: node 99 is not in fat-tree k=4' in r.stderr
