"""Collectives on an idle fabric (traffic.pattern = collective), against the
models that give their completion time, through rdma-sim as a user runs it.

The alpha-beta model (Hockney; Thakur, Rabenseifner and Gropp, IJHPCA 2005,
with their gamma term for the reduction): a ring all-reduce of S bytes on n
ranks takes 2(n-1) steps of alpha + S/(n B), plus (n-1) reductions of S/n
bytes at the accelerator's rate R: T = 2(n-1)(alpha + S/(n B)) +
(n-1) S/(n R); a pairwise all-to-all takes n-1 steps: T = (n-1)(alpha +
S/(n B)). B is a rank's goodput after headers, the link rate times the
payload share of a full frame (path MTU P, 82 bytes of Ethernet, IPv4, UDP,
BTH, ICRC, FCS, preamble and gap: B = R_link P / (P + 82)); alpha is one
step's latency, measured on the same fabric with one packet per step
(S/n = 1 KiB) and the model's other terms taken off. With
collective.chunkBytes = S/n each step is one WRITE, as the model assumes.
The ring runs on a k=4 fat-tree (ring neighbours are host neighbours, so
every link carries one flow each way); the all-to-all on a star, a fabric
that is non-blocking for any permutation (a fat-tree's ECMP can put two
of a step's flows on one uplink).

nccl-tests' bus bandwidth (busbw = algbw x 2(n-1)/n for all-reduce, (n-1)/n
for all-gather) of a large message, pipelined in 512 KiB chunks, is the
link's payload efficiency P / (P + 82) of its rate, within 3 %.
"""

import csv
import json
import os

import pytest

from conftest import TOP

RING_INI = os.path.join(TOP, 'examples', 'configs', 'collective-ring.ini')
LINK_BPS = 100e9
MTU = 1024
B = LINK_BPS * MTU / (MTU + 82)  # goodput after headers, bit/s
REDUCE_BPS = 4000e9              # collective.ReduceRate's default
N = 16


def run(run_example, out, *args):
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % out,
                    '--traffic.pattern=collective', *args)
    assert r.returncode == 0, r.stderr
    return list(csv.DictReader(open(out / 'collectives.csv')))


def cct_s(rows):
    assert len(rows) == 1 and rows[0]['status'] == 'done', rows
    return int(rows[0]['cct_ns']) * 1e-9


def step(per_rank_bytes, *args):
    """The run's arguments for S = n x per_rank_bytes, one WRITE per step."""
    return ('--collective.bytes=%d' % (N * per_rank_bytes),
            '--collective.chunkBytes=%d' % per_rank_bytes) + args


def ring_model(alpha, s):
    n = N
    return 2 * (n - 1) * (alpha + s * 8 / (n * B)) + (n - 1) * s * 8 / (n * REDUCE_BPS)


def a2a_model(alpha, s):
    return (N - 1) * (alpha + s * 8 / (N * B))


def check_against_model(run_example, tmp_path, name, fabric, model, steps, per_rank):
    """The CCT of S = n x per_rank bytes within 2 % of model(alpha, S), alpha
    (the model being linear in it, over steps steps) solved from a run with
    one packet per step."""
    small = 1024
    t_small = cct_s(run(run_example, tmp_path / 'alpha', *step(small, *fabric)))
    alpha = (t_small - model(0, N * small)) / steps
    assert 0.5e-6 < alpha < 10e-6, alpha  # a few hops of 1 us links
    s = N * per_rank
    t = cct_s(run(run_example, tmp_path / 'run', *step(per_rank, *fabric)))
    expected = model(alpha, s)
    assert abs(t - expected) <= 0.02 * expected, \
        '%s of %d B: %.2f us simulated, model %.2f us (alpha %.3f us)' % (
            name, s, t * 1e6, expected * 1e6, alpha * 1e6)


@pytest.mark.parametrize('per_rank', [16 * 1024, 256 * 1024])
def test_ring_all_reduce_within_2_percent_of_the_alpha_beta_model(run_example, tmp_path,
                                                                  per_rank):
    check_against_model(run_example, tmp_path, 'ring all-reduce',
                        ('--topology.type=fat-tree', '--topology.k=4'), ring_model,
                        2 * (N - 1), per_rank)


@pytest.mark.parametrize('per_rank', [16 * 1024, 256 * 1024])
def test_all_to_all_within_2_percent_of_the_alpha_beta_model(run_example, tmp_path, per_rank):
    check_against_model(run_example, tmp_path, 'all-to-all',
                        ('--topology.type=star', '--topology.hosts=%d' % N,
                         '--collective.type=all-to-all'), a2a_model, N - 1, per_rank)


@pytest.mark.parametrize('collective', ['all-reduce', 'all-gather'])
def test_busbw_of_a_large_message_is_the_payload_efficiency(run_example, tmp_path, collective):
    rows = run(run_example, tmp_path / 'big', '--topology.type=fat-tree', '--topology.k=4',
               '--collective.type=%s' % collective, '--collective.bytes=16MiB')
    assert rows[0]['status'] == 'done'
    busbw = float(rows[0]['busbw_gbps']) * 1e9
    algbw = float(rows[0]['algbw_gbps']) * 1e9
    factor = 2 * (N - 1) / N if collective == 'all-reduce' else (N - 1) / N
    assert busbw == pytest.approx(algbw * factor, rel=1e-5)  # nccl-tests' definition
    assert algbw == pytest.approx(16 * 2**20 * 8 / (int(rows[0]['cct_ns']) * 1e-9), rel=1e-5)
    efficiency = MTU / (MTU + 82)
    assert abs(busbw / LINK_BPS - efficiency) <= 0.03 * efficiency, \
        '%s busbw %.2f Gb/s, payload efficiency %.2f Gb/s' % (collective, busbw / 1e9,
                                                              efficiency * LINK_BPS / 1e9)


def test_shipped_example_iterations_and_outputs(run_example, tmp_path):
    out = tmp_path / 'ring'
    r = run_example('rdma-sim', '-c', RING_INI, '--quiet', '--output.dir=%s' % out)
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(open(out / 'collectives.csv')))
    assert [(row['iteration'], row['collective'], row['algorithm'], row['status'])
            for row in rows] == [(str(i), 'all-reduce', 'ring', 'done') for i in range(3)]
    jobs = list(csv.DictReader(open(out / 'jobs.csv')))
    assert len(jobs) == 3
    for row, it in zip(rows, jobs):
        # One all-reduce and 100 us of compute, nothing overlapped.
        assert int(it['compute_ns']) == 100000
        assert int(it['time_ns']) == int(it['compute_ns']) + int(it['comm_ns'])
        assert int(it['comm_ns']) >= int(row['cct_ns'])
        assert float(it['exposed_comm_share']) == pytest.approx(
            int(it['comm_ns']) / int(it['time_ns']), abs=1e-6)
    summary = json.load(open(out / 'summary.json'))
    block = summary['collectives']
    assert (block['total'], block['completed'], block['failed']) == (3, 3, 0)
    assert block['by_size'][0]['done'] == 3
    assert block['jobs'][0]['iterations_done'] == 3
    assert summary['flows']['total'] == 0
    assert 'collectives: 3 of 3 done' in r.stdout
    # A sweep's row: the block as columns, by name and, one collective a run, without.
    from sweep_helpers import load_script
    row = load_script('rdmasim_analysis').flatten_summary(summary)
    assert row['collectives.completed'] == 3
    assert row['collectives.all-reduce.ring.busbw_gbps'] == row['collectives.busbw_gbps'] > 50
    assert row['collectives.cct_ns.p99'] == block['by_size'][0]['cct_ns']['p99']
    assert row['jobs.exposed_comm_share'] == pytest.approx(block['jobs'][0]['exposed_comm_share'])
    # The same config and seed give the same files.
    again = tmp_path / 'again'
    r = run_example('rdma-sim', '-c', RING_INI, '--quiet', '--output.dir=%s' % again)
    for f in ('collectives.csv', 'jobs.csv', 'pfc.csv'):
        assert (out / f).read_bytes() == (again / f).read_bytes(), f


def test_keys_a_sequence_overrides_are_reported_unused(run_example, tmp_path):
    r = run_example('rdma-sim', '-c', RING_INI, '--check', '--output.dir=%s' % (tmp_path / 'x'),
                    '--job.sequence=all-gather 1MiB ring', '--collective.type=broadcast')
    assert r.returncode == 0, r.stderr
    for key in ('collective.type = broadcast', 'collective.bytes = 4194304',
                'collective.algorithm = ring'):
        assert 'rdma-sim: warning: ' in r.stderr and key + ' is not used' in r.stderr, r.stderr
    r = run_example('rdma-sim', '-c', RING_INI, '--check', '--output.dir=%s' % (tmp_path / 'y'))
    assert r.returncode == 0 and 'warning' not in r.stderr, r.stderr


def test_two_jobs_random_placement_use_distinct_hosts(run_example, tmp_path):
    out = tmp_path / 'two'
    rows = run(run_example, out, '--topology.type=star', '--topology.hosts=8', '--job.count=2',
               '--job.placement=random', '--job.stagger=10us',
               '--job.sequence=all-gather 256KiB, compute 5us, all-to-all 64KiB',
               '--job.iterations=2')
    assert [(r['job'], r['iteration'], r['collective'], r['algorithm'], r['ranks'])
            for r in rows] == [
        (j, i, c, a, '4') for j in '01' for i in '01'
        for c, a in (('all-gather', 'ring'), ('all-to-all', 'pairwise'))]
    assert all(r['status'] == 'done' for r in rows)
    assert min(int(r['start_ns']) for r in rows if r['job'] == '1') == 10000  # job.stagger
    summary = json.load(open(out / 'summary.json'))
    assert [j['ranks'] for j in summary['collectives']['jobs']] == [4, 4]


@pytest.mark.parametrize('algorithm', ['tree', 'halving-doubling'])
def test_other_all_reduce_algorithms_complete(run_example, tmp_path, algorithm):
    rows = run(run_example, tmp_path / algorithm, '--topology.type=star', '--topology.hosts=8',
               '--collective.algorithm=%s' % algorithm, '--collective.bytes=1MiB',
               '--collective.channels=2', '--collective.chunkBytes=64KiB')
    assert rows[0]['status'] == 'done' and rows[0]['algorithm'] == algorithm
    assert float(rows[0]['busbw_gbps']) > 10


def test_bindings_return_the_collectives(build_dir, tmp_path):
    import sys
    path = os.path.join(build_dir, 'python')
    if not os.path.isdir(path):
        pytest.fail('no bindings at %s (RDMA_BUILD_PYTHON)' % path)
    sys.path.insert(0, path)
    import rdmasim
    # Into a folder of the test's own: the ini names out/collective-ring of the working folder.
    r = rdmasim.run(RING_INI, **{'job.iterations': 1, 'output.dir': str(tmp_path / 'out')})
    c = r.collectives
    assert list(c['collective']) == ['all-reduce'] and list(c['status']) == ['done']
    assert c['busbw_gbps'][0] == pytest.approx(c['algbw_gbps'][0] * 2 * 15 / 16)
    assert r.summary['collectives']['completed'] == 1


def test_plot_collectives_draws_busbw_per_size_and_algorithm(run_example, tmp_path):
    from sweep_helpers import load_script
    plot = load_script('plot_collectives')
    runs = []
    for size in ('256KiB', '1MiB'):
        out = tmp_path / size
        run(run_example, out, '--topology.type=star', '--topology.hosts=4',
            '--collective.bytes=%s' % size, '--job.iterations=2')
        runs.append(str(out))
    busbw, spread = plot.series(runs)
    key = ('all-reduce', 'ring')
    assert list(busbw) == [key]
    assert sorted(busbw[key]) == [256 * 1024, 1024 * 1024]
    for size, values in busbw[key].items():
        rows = [r for r in csv.DictReader(open(tmp_path / ('256KiB' if size < 2**20 else '1MiB')
                                               / 'collectives.csv'))]
        assert values == [float(r['busbw_gbps']) for r in rows]
    assert len(spread[key]) == 4 and sum(spread[key]) == pytest.approx(4)
    import rdmasim_plotting as rp
    assert rp.run_main(plot.build_parser, plot.draw,
                       ['-o', str(tmp_path / 'fig'), '--link-gbps', '100'] + runs) == 0
    assert (tmp_path / 'fig.png').stat().st_size > 1000
    assert rp.run_main(plot.build_parser, plot.draw,
                       ['-o', str(tmp_path / 'none'), str(tmp_path / 'missing')]) == 2
