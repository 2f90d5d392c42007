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


@pytest.mark.parametrize('limit, message', [
    ('--cache.mtt.memory.Capacity=2',
     'traffic: host 0: ibv_reg_mr of 262144 bytes failed: the NIC\'s MPT or MTT store is full'),
    ('--cache.qpc.memory.Capacity=1',
     'traffic: job 0: ibv_create_qp for rank 1 -> 2 on host 1 failed: the NIC\'s QP context '
     'memory is full'),
])
def test_a_nic_too_small_for_the_job_is_an_error_not_a_crash(run_example, tmp_path, limit,
                                                              message):
    """Regression: a job whose regions or QPs its NICs' tables cannot hold
    aborted the process (SIGABRT, a core) when it started. The regions are
    now registered before the run and a QP that cannot be made stops it:
    exit 2 naming the host or job, nothing written."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', RING_INI, '--output.dir=%s' % out, '--nic.pipeline=true',
                    limit)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert 'rdma-sim: ' + message in r.stderr, r.stderr
    assert not out.exists()


def test_a_failed_job_says_so_and_not_that_its_collectives_are_still_running(run_example,
                                                                          tmp_path):
    """Regression: when a job stopped at a failed collective (host 0's link
    down: IBV_WC_RETRY_EXC_ERR after 8 timeouts), the summary counted the
    collectives after it as still running and the warning said a later
    sim.stopTime would measure them; none of them can ever run."""
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '-c', RING_INI, '--output.dir=%s' % out,
                    '--topology.failLinks=0-16@10us', '--sim.stopTime=1s')
    assert r.returncode == 0, r.stderr
    summary = json.load(open(out / 'summary.json'))
    s = summary['collectives']
    assert (s['total'], s['completed'], s['failed'], s['not_run'], s['incomplete']) == \
        (3, 0, 1, 2, 0), s
    from sweep_helpers import load_script
    row = load_script('rdmasim_analysis').flatten_summary(summary)
    assert (row['collectives.not_run'], row['collectives.incomplete']) == (2, 0), row
    warnings = json.load(open(out / 'summary.json'))['warnings']
    assert 'still running' not in r.stdout and not any('still running' in w for w in warnings)
    assert ('warning: 1 of 3 collectives failed' in r.stdout
            and '2 others of their jobs did not finish' in r.stdout), r.stdout
    assert any(w.startswith('1 of 3 collectives failed') for w in warnings), warnings


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


def test_the_slowest_pair_is_the_last_step_of_a_pairwise_all_to_all(run_example, tmp_path):
    """On an idle star every step of the pairwise all-to-all takes as long,
    so the pair that lands last is one of step n-1's (rank r to r + n-1,
    that is r - 1), and it lands before the CCT, which also waits for that
    WRITE's ACK to come back (a few hops, well under a step of 16 KiB)."""
    n = 8
    rows = run(run_example, tmp_path / 'a2a', '--topology.type=star', '--topology.hosts=%d' % n,
               '--collective.type=all-to-all', '--collective.bytes=%d' % (n * 16384))
    row = rows[0]
    assert row['status'] == 'done'
    src, dst = int(row['slowest_src']), int(row['slowest_dst'])
    assert dst == (src + n - 1) % n, row
    last, cct = int(row['slowest_pair_ns']), int(row['cct_ns'])
    assert 0 < cct - last < 5000, row  # the ACK's way back: a few us
    assert last > (n - 2) / (n - 1) * cct, row  # the last step's, not an earlier one's
    # A ring all-reduce's last WRITE is an all-gather step's: rank r to r + 1.
    rows = run(run_example, tmp_path / 'ring', '--topology.type=star', '--topology.hosts=%d' % n,
               '--collective.bytes=1MiB')
    assert int(rows[0]['slowest_dst']) == (int(rows[0]['slowest_src']) + 1) % n, rows[0]


def import_rdmasim(build_dir):
    import sys
    path = os.path.join(build_dir, 'python')
    if not os.path.isdir(path):
        pytest.fail('no bindings at %s (RDMA_BUILD_PYTHON)' % path)
    sys.path.insert(0, path)
    import rdmasim
    return rdmasim


def test_bindings_return_the_collectives(build_dir, tmp_path):
    rdmasim = import_rdmasim(build_dir)
    # Into a folder of the test's own: the ini names out/collective-ring of the working folder.
    out = tmp_path / 'out'
    r = rdmasim.run(RING_INI, **{'job.iterations': 1, 'output.dir': str(out)})
    c = r.collectives
    assert list(c['collective']) == ['all-reduce'] and list(c['status']) == ['done']
    assert c['busbw_gbps'][0] == pytest.approx(c['algbw_gbps'][0] * 2 * 15 / 16)
    assert r.summary['collectives']['completed'] == 1
    # The same numbers as the files, column by column.
    rows = list(csv.DictReader(open(out / 'collectives.csv')))
    for col in ('job', 'iteration', 'bytes', 'ranks', 'start_ns', 'end_ns', 'cct_ns',
                'slowest_src', 'slowest_dst', 'slowest_pair_ns'):
        assert list(c[col]) == [int(row[col]) for row in rows], col
    assert list(c['busbw_gbps']) == pytest.approx([float(row['busbw_gbps']) for row in rows],
                                                  rel=1e-5)


def test_bindings_return_the_jobs_iterations(build_dir, tmp_path):
    rdmasim = import_rdmasim(build_dir)
    out = tmp_path / 'two'
    r = rdmasim.run({'topology.type': 'star', 'topology.hosts': 8, 'traffic.pattern': 'collective',
                     'job.count': 2, 'job.sequence': 'all-reduce 256KiB, compute 20us',
                     'job.iterations': 2, 'output.dir': str(out)})
    j = r.jobs
    rows = list(csv.DictReader(open(out / 'jobs.csv')))
    assert len(rows) == 4 and len(j['time_ns']) == 4
    for col in ('job', 'iteration', 'ranks', 'start_ns', 'end_ns', 'time_ns', 'compute_ns',
                'comm_ns'):
        assert list(j[col]) == [int(row[col]) for row in rows], col
    assert list(j['exposed_comm_share']) == pytest.approx(
        [float(row['exposed_comm_share']) for row in rows], abs=1e-6)
    assert list(j['status']) == ['done'] * 4 and list(j['ranks']) == [4] * 4
    assert list(j['compute_ns']) == [20000] * 4
    # A run without jobs has empty tables.
    flows = rdmasim.run({'topology.type': 'star', 'topology.hosts': 4, 'traffic.duration': '20us'})
    assert len(flows.jobs['time_ns']) == 0 and len(flows.collectives['cct_ns']) == 0


def test_sweep_and_plot_over_collective_keys(build_dir, tmp_path):
    """scripts/sweep.py over collective.bytes and collective.algorithm: each
    row of results.csv carries its run's CCT, busbw and iteration time, and
    plot_metric.py draws busbw against the size (a numeric axis from
    '256KiB', '1MiB') with a line per algorithm."""
    from sweep_helpers import load_script, read_results, run_sweep
    sim = os.path.join(build_dir, 'examples', 'rdma-sim')
    root = tmp_path / 'sweep'
    r = run_sweep('-o', root, '--sim', sim, '-c', RING_INI, '-j', '1', '--timeout', '120',
                  '--set', 'topology.type=star', '--set', 'topology.hosts=8',
                  '--set', 'job.ranks=8', '--set', 'job.iterations=1',
                  '--set', 'collective.chunkBytes=64KiB',
                  '--grid', 'collective.bytes=256KiB,1MiB', '--grid', 'collective.algorithm=ring,tree')
    assert r.returncode == 0, r.stdout + r.stderr
    rows = read_results(root)
    assert len(rows) == 4 and {row['status'] for row in rows} == {'ok'}, rows
    for row in rows:
        done = list(csv.DictReader(open(root / row['point'] / 'collectives.csv')))
        iters = list(csv.DictReader(open(root / row['point'] / 'jobs.csv')))
        assert len(done) == 1 and done[0]['algorithm'] == row['collective.algorithm']
        assert float(row['collectives.cct_ns.mean']) == int(done[0]['cct_ns'])
        assert float(row['collectives.busbw_gbps']) == pytest.approx(
            float(done[0]['busbw_gbps']), rel=1e-5)
        assert float(row['jobs.iteration_time_ns']) == int(iters[0]['time_ns'])
    plot_metric = load_script('plot_metric')
    args = plot_metric.build_parser().parse_args(
        ['-o', str(tmp_path / 'fig'), str(root / 'results.csv'), '--metric',
         'collectives.busbw_gbps', '--x', 'collective.bytes', '--logx'])
    fig = plot_metric.draw(args)
    ax = fig.axes[0]
    lines = [ln for ln in ax.get_lines() if ln.get_marker() == 'o']
    assert sorted(ln.get_label() for ln in lines) == ['collective.algorithm=ring',
                                                     'collective.algorithm=tree']
    assert ax.get_xscale() == 'log'
    for ln in lines:
        algorithm = ln.get_label().split('=')[1]
        assert list(ln.get_xdata()) == [256 * 1024, 1024 * 1024]
        assert list(ln.get_ydata()) == pytest.approx(
            [float(row['collectives.busbw_gbps']) for size in ('256KiB', '1MiB') for row in rows
             if row['collective.bytes'] == size and row['collective.algorithm'] == algorithm])



def test_a_failed_node_stops_its_job_with_a_record_and_the_other_job_goes_on(run_example,
                                                                            tmp_path):
    """topology.failNodes: host 2 (job 0's third rank) fails at 10 us. Job 0
    stops at the first work request that completes in error, and the record
    says which rank saw it, when and with what status; job 1, on hosts 4-7,
    finishes every collective."""
    out = tmp_path / 'out'
    rows = run(run_example, out, '--topology.type=star', '--topology.hosts=8', '--job.count=2',
               '--job.sequence=all-gather 256KiB, all-to-all 64KiB', '--topology.failNodes=2@10us',
               '--sim.stopTime=1s')
    assert [(r['job'], r['status']) for r in rows if r['status'] != 'done'] == [('0', 'failed')]
    assert [r['status'] for r in rows if r['job'] == '1'] == ['done', 'done']
    summary = json.load(open(out / 'summary.json'))
    failures = summary['collectives']['failures']
    assert len(failures) == 1, failures
    f = failures[0]
    assert (f['job'], f['iteration'], f['item']) == (0, 0, 0), f
    assert f['rank'] in range(4) and f['host'] == f['rank'], f  # contiguous: rank r on host r
    assert f['status'] == 'IBV_WC_RETRY_EXC_ERR' and f['at_ns'] > 10000, f
    assert any(w.startswith('1 of 4 collectives failed') and
               'job 0 stopped at %g ms, iteration 0 item 0: rank %d (host %d) saw '
               'IBV_WC_RETRY_EXC_ERR' % (f['at_ns'] / 1e6, f['rank'], f['host']) in w
               for w in summary['warnings']), summary['warnings']


@pytest.mark.parametrize('value,message', [
    ('99@1ms', "'99@1ms': no node 99 (the topology has 9 nodes, 0 to 8"),
    ('2@1ms,2@2ms', "'2@2ms': node 2 is named twice"),
    ('2-8@1ms', "'2-8@1ms' is not ID@time"),
    ('2@1', "'2@1': the time '1': expected a duration with its unit"),
])
def test_bad_failed_node_exits_2_naming_the_key(run_example, tmp_path, value, message):
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--output.dir=%s' % out, '--traffic.pattern=collective',
                    '--topology.type=star', '--topology.hosts=8',
                    '--topology.failNodes=%s' % value)
    assert r.returncode == 2, r.stderr
    assert "topology.failNodes = '%s': %s" % (value, message) in r.stderr, r.stderr
    assert not out.exists()
