"""Flows beside training jobs (traffic.pattern = collective with
traffic.background = poisson or flow-file), through rdma-sim as a user runs
them: each with its own outputs (fct.csv for the flows, collectives.csv and
jobs.csv for the jobs), the run ending when both are done.

Sharing a link: a background WRITE of F bytes from ring rank 0 to rank 1,
started with the ring, shares host 0's link with the ring's own hop 0 -> 1.
Without congestion control the NIC serves its two QPs in turn, so while
both have data each gets half the link: the flow's FCT is about twice its
ideal. The ring loses at most the link time the flow takes, F / B (B the
link's goodput after headers, rate x P / (P + 82)), and less where the
flow fills the gaps the ring leaves (its latency and reduction steps).
"""

import csv
import json
import os


from conftest import TOP

RING_INI = os.path.join(TOP, 'examples', 'configs', 'collective-ring.ini')
MTU = 1024
B = 100e9 * MTU / (MTU + 82)  # bit/s


def run(run_example, out, *args, ini=RING_INI):
    r = run_example('rdma-sim', '--quiet', '-c', ini, '--output.dir=%s' % out, *args)
    assert r.returncode == 0, r.stderr
    summary = json.load(open(out / 'summary.json'))
    collectives = list(csv.DictReader(open(out / 'collectives.csv')))
    flows = list(csv.DictReader(open(out / 'fct.csv')))
    return summary, collectives, flows, r


def flow_file(path, lines):
    path.write_text('%d\n%s\n' % (len(lines), '\n'.join(lines)))
    return path


def test_a_flow_on_a_ring_hop_takes_half_the_link_and_delays_the_ring_by_at_most_its_bytes(
        run_example, tmp_path):
    f_bytes = 2000000
    ff = flow_file(tmp_path / 'one.txt', ['0 1 3 100 %d 0' % f_bytes])
    common = ('--job.iterations=1', '--cc.algorithm=none')
    _, idle, none, _ = run(run_example, tmp_path / 'idle', *common)
    assert none == []
    summary, shared, flows, _ = run(run_example, tmp_path / 'shared', *common,
                                    '--traffic.background=flow-file',
                                    '--traffic.flowFile=%s' % ff)
    assert summary['flows'] == {'total': 1, 'completed': 1, 'failed': 0, 'incomplete': 0}
    assert summary['collectives']['completed'] == 1
    (flow,) = flows
    assert (flow['src'], flow['dst'], int(flow['size'])) == ('0', '1', f_bytes)
    # Half the link while the ring's hop 0 -> 1 also has data.
    assert 1.9 < float(flow['slowdown']) < 2.1, flow
    cct0 = int(idle[0]['cct_ns']) * 1e-9
    cct = int(shared[0]['cct_ns']) * 1e-9
    flow_time = f_bytes * 8 / B
    # The ring loses at most the flow's link time, and here most of it.
    assert 0.5 * flow_time < cct - cct0 <= 1.02 * flow_time, (cct0, cct, flow_time)


def test_poisson_background_draws_the_flows_a_poisson_run_draws(run_example, tmp_path):
    load = ('--traffic.duration=300us', '--traffic.cdf=alistorage', '--job.iterations=1')
    summary, collectives, beside, r = run(run_example, tmp_path / 'beside', *load,
                                          '--traffic.background=poisson',
                                          '--traffic.backgroundLoad=0.4')
    alone = tmp_path / 'alone'
    r2 = run_example('rdma-sim', '--quiet', '--output.dir=%s' % alone, '--topology.type=fat-tree',
                     '--topology.k=4', '--traffic.pattern=poisson', '--traffic.load=0.4',
                     '--traffic.duration=300us', '--traffic.cdf=alistorage',
                     '--cc.algorithm=dcqcn')
    assert r2.returncode == 0, r2.stderr
    drawn = list(csv.DictReader(open(alone / 'fct.csv')))
    key = lambda f: (f['src'], f['dst'], f['op'], f['size'], f['start_ns'])
    assert len(beside) > 20 and [key(f) for f in beside] == [key(f) for f in drawn]
    assert all(f['status'] == 'IBV_WC_SUCCESS' for f in beside)
    assert collectives[0]['status'] == 'done'
    # Both are in the terminal summary, and nothing is called unused.
    assert 'flows beside the jobs: %d of %d done' % (len(beside), len(beside)) in r.stdout
    assert 'all-reduce ring' in r.stdout and 'is not used' not in r.stderr
    # The same config and seed give the same outputs.
    again = tmp_path / 'again'
    run(run_example, again, *load, '--traffic.background=poisson', '--traffic.backgroundLoad=0.4')
    for name in ('fct.csv', 'collectives.csv', 'jobs.csv'):
        assert (again / name).read_bytes() == (tmp_path / 'beside' / name).read_bytes(), name


def test_a_flow_after_the_job_still_runs_to_its_end(run_example, tmp_path):
    ff = flow_file(tmp_path / 'late.txt', ['2 3 3 100 100000 0.002'])
    summary, collectives, flows, _ = run(run_example, tmp_path / 'o', '--job.iterations=1',
                                         '--traffic.background=flow-file',
                                         '--traffic.flowFile=%s' % ff)
    assert collectives[0]['status'] == 'done' and int(collectives[0]['end_ns']) < 2000000
    (flow,) = flows
    assert flow['status'] == 'IBV_WC_SUCCESS' and int(flow['start_ns']) == 2000000
    assert summary['sim_time_s'] * 1e9 >= int(flow['start_ns']) + int(flow['fct_ns'])


def test_on_a_rail_fabric_background_flows_go_between_nics(run_example, tmp_path):
    rail = ('--traffic.pattern=collective', '--topology.type=rail',
            '--topology.rail.Servers=2', '--topology.rail.GpusPerServer=2', '--job.ranks=4',
            '--collective.bytes=1MiB', '--traffic.duration=200us', '--traffic.cdf=alistorage')
    out = tmp_path / 'rail'
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % out, *rail,
                    '--traffic.background=poisson', '--traffic.backgroundLoad=0.5')
    assert r.returncode == 0, r.stderr
    flows = list(csv.DictReader(open(out / 'fct.csv')))
    assert len(flows) > 5
    # Hosts 0-3 are the GPUs' NICs; 4-7 their NVLink ports.
    assert all(int(f['src']) < 4 and int(f['dst']) < 4 for f in flows)
    assert all(f['status'] == 'IBV_WC_SUCCESS' for f in flows)
    # The NICs' links all run at one rate: no warning of mixed host rates
    # (the NVLink ports draw no flows).
    assert "hosts' links run at" not in r.stderr, r.stderr
    # A flow file naming an NVLink port (node 5) is refused.
    ff = flow_file(tmp_path / 'nvl.txt', ['0 5 3 100 1000 0'])
    out = tmp_path / 'bad'
    r = run_example('rdma-sim', '--output.dir=%s' % out, *rail, '--traffic.background=flow-file',
                    '--traffic.flowFile=%s' % ff)
    assert r.returncode == 2 and '%s: flow 0 names node 5, a GPU\'s NVLink port' % ff \
        in r.stderr, r.stderr
    assert not out.exists()


def test_bad_background_inputs_exit_2_naming_the_key(run_example, tmp_path):
    ring = ('-c', RING_INI)
    cases = [
        (ring + ('--traffic.background=flow-file',),
         'traffic.background = flow-file needs traffic.flowFile'),
        (('--traffic.pattern=incast', '--traffic.background=flow-file'),
         "traffic.background = 'flow-file': expected none or poisson beside an incast"),
        (ring + ('--traffic.background=storage',), 'traffic.background'),
        (ring + ('--traffic.background=flow-file', '--traffic.flowFile=%s' % (tmp_path / 'no')),
         'traffic.flowFile'),
    ]
    for args, message in cases:
        out = tmp_path / 'out'
        r = run_example('rdma-sim', '--output.dir=%s' % out, *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.returncode, r.stderr)
        assert not out.exists(), 'nothing written'
    # The pattern's load key in place of the background's: named, with the right one.
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % (tmp_path / 'l'), *ring,
                    '--traffic.background=poisson', '--traffic.load=0.5',
                    '--traffic.duration=100us', '--job.iterations=1')
    assert r.returncode == 0 and 'traffic.load = 0.5 is not used: traffic.pattern = collective ' \
        '(the flows beside it take traffic.backgroundLoad)' in r.stderr, r.stderr
    # Beside a permutation it is not used, and says so.
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % (tmp_path / 'p'),
                    '--traffic.pattern=permutation', '--traffic.background=poisson')
    assert r.returncode == 0 and \
        'traffic.background = poisson is not used: traffic.pattern = permutation' in r.stderr, \
        r.stderr


def test_fast_forward_beside_flows_replays_nothing_and_says_why(run_example, tmp_path):
    summary, collectives, flows, r = run(run_example, tmp_path / 'ff', '--job.iterations=3',
                                         '--sim.fastForward=on', '--traffic.background=poisson',
                                         '--traffic.duration=1ms')
    assert summary['fast_forward']['collectives_replayed'] == 0
    why = 'flows run beside the job (traffic.background)'
    assert any(why in w for w in summary['warnings']), summary.get('warnings')
    assert 'warning: ' in r.stderr and why in r.stderr, r.stderr
    assert [c['status'] for c in collectives] == ['done'] * 3 and flows
