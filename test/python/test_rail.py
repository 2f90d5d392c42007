"""The rail-optimized fabric (topology.type = rail) and SimAI's workload
files (job.workload), through rdma-sim as a user runs them.

A transfer's time on an idle path is alpha + bytes x 8 / B (Hockney's
alpha-beta model), B the link's goodput after headers, rate x P / (P + 82)
for path MTU P (82 bytes of Ethernet, IPv4, UDP, BTH, ICRC, FCS, preamble
and gap a frame); alpha is measured with one small WRITE and the bytes
term taken off. Two ranks of one server exchange over their NVLink ports at
topology.rail.IntraServerRate, two of different servers over their NICs at
topology.hostRate, each within 3 % of its own model.

A data-parallel ring all-reduce of a workload (ranks t, t + TP, t + 2 TP,
... : GPU t of every server, all on rail t) runs on one rail switch per
group, every link carrying one flow each way: non-blocking, so the model of
test_collectives.py holds, T = 2(n-1)(alpha + S/(n B)) + (n-1) S/(n R),
within 2 %.
"""

import csv
import json
import os

import pytest

from conftest import TOP

MTU = 1024
NIC_BPS = 100e9
NVLINK_BPS = 3600e9  # topology.rail.IntraServerRate's default
REDUCE_BPS = 4000e9  # collective.ReduceRate's default
GPT7B = os.path.join(TOP, 'data', 'simai', 'workload_gpt7b_64g.txt')
STUDY_INI = os.path.join(TOP, 'examples', 'configs', 'collective-gpt7b-rail.ini')


def goodput(rate):
    return rate * MTU / (MTU + 82)


def run(run_example, out, *args):
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % out,
                    '--traffic.pattern=collective', '--topology.type=rail', *args)
    assert r.returncode == 0, r.stderr
    return list(csv.DictReader(open(out / 'collectives.csv'))), r


def pair_cct_s(run_example, out, per_rank, *fabric):
    """A 2-rank all-to-all: one WRITE of per_rank bytes each way."""
    rows, _ = run(run_example, out, '--job.ranks=2', '--collective.type=all-to-all',
                  '--collective.bytes=%d' % (2 * per_rank),
                  '--collective.chunkBytes=%d' % per_rank, *fabric)
    assert len(rows) == 1 and rows[0]['status'] == 'done', rows
    return int(rows[0]['cct_ns']) * 1e-9


@pytest.mark.parametrize('where,fabric,rate', [
    ('one server', ('--topology.rail.Servers=1', '--topology.rail.GpusPerServer=2'), NVLINK_BPS),
    ('two servers', ('--topology.rail.Servers=2', '--topology.rail.GpusPerServer=1'), NIC_BPS)])
def test_a_pair_takes_the_intra_server_link_in_a_server_and_the_nic_across(
        run_example, tmp_path, where, fabric, rate):
    b = goodput(rate)
    small = 1024
    alpha = pair_cct_s(run_example, tmp_path / 'alpha', small, *fabric) - small * 8 / b
    assert 0.5e-6 < alpha < 10e-6, alpha
    big = 4 * 2**20
    t = pair_cct_s(run_example, tmp_path / 'big', big, *fabric)
    expected = alpha + big * 8 / b
    assert abs(t - expected) <= 0.03 * expected, \
        '%s: %.2f us simulated, alpha-beta %.2f us (alpha %.3f us, B %.1f Gb/s)' % (
            where, t * 1e6, expected * 1e6, alpha * 1e6, b / 1e9)


def write_workload(path, tp, gpus, wg_bytes):
    """A workload of one layer whose only collective is a data-parallel
    all-reduce of wg_bytes (SimAI's format)."""
    path.write_text('HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: %d ep: 1 pp: 1 '
                    'vpp: 1 ga: 1 all_gpus: %d checkpoints: 0 checkpoint_initiates: 0 '
                    'pp_comm: 0\n1\ngrads\t-1\t0\tNONE\t0\t0\tNONE\t0\t0\tALLREDUCE\t%d\t0\n'
                    % (tp, gpus, wg_bytes))
    return str(path)


@pytest.mark.parametrize('per_rank', [16 * 1024, 256 * 1024])
def test_data_parallel_ring_on_the_rails_within_2_percent_of_the_alpha_beta_model(
        run_example, tmp_path, per_rank):
    servers, gpus_per_server = 8, 2
    n = servers  # a data-parallel group: GPU t of every server
    b = goodput(NIC_BPS)
    fabric = ('--topology.rail.Servers=%d' % servers,
              '--topology.rail.GpusPerServer=%d' % gpus_per_server, '--topology.spines=2')

    def cct(name, chunk):
        wl = write_workload(tmp_path / (name + '.txt'), gpus_per_server,
                            servers * gpus_per_server, n * chunk)
        rows, r = run(run_example, tmp_path / name, '--job.workload=%s' % wl,
                      '--collective.chunkBytes=%d' % chunk, *fabric)
        assert 'weight-gradient collectives run in turn' in r.stderr  # the one warning
        assert [(x['collective'], x['ranks'], x['status']) for x in rows] == [
            ('all-reduce', str(n), 'done')]
        return int(rows[0]['cct_ns']) * 1e-9

    def model(alpha, s):
        return 2 * (n - 1) * (alpha + s * 8 / (n * b)) + (n - 1) * s * 8 / (n * REDUCE_BPS)

    small = 1024
    alpha = (cct('alpha', small) - model(0, n * small)) / (2 * (n - 1))
    assert 0.5e-6 < alpha < 10e-6, alpha
    t = cct('run', per_rank)
    expected = model(alpha, n * per_rank)
    assert abs(t - expected) <= 0.02 * expected, \
        'ring of %d B: %.2f us simulated, model %.2f us (alpha %.3f us)' % (
            n * per_rank, t * 1e6, expected * 1e6, alpha * 1e6)


def test_rail_placement_keeps_each_job_on_its_rail(run_example, tmp_path):
    """job.placement = rail: rank r on GPU r / S of server r mod S, so two
    jobs of S ranks are rails 0 and 1: no byte crosses a spine and the two
    rings, alike and apart, take the same time. Contiguous placement of the
    same jobs (two servers each) crosses rails between servers, through the
    spines."""
    fabric = ('--topology.rail.Servers=4', '--topology.rail.GpusPerServer=2',
              '--topology.spines=2', '--job.count=2', '--job.ranks=4',
              '--collective.type=all-reduce', '--collective.bytes=256KiB')

    def spine_bytes(out):
        load = json.load(open(out / 'summary.json'))['link_load']
        return sum(t['tx_bytes'] for name, t in load.items() if name != 'tier0')

    rows, _ = run(run_example, tmp_path / 'rail', '--job.placement=rail', *fabric)
    assert [(x['job'], x['status']) for x in rows] == [('0', 'done'), ('1', 'done')]
    assert rows[0]['cct_ns'] == rows[1]['cct_ns']
    assert spine_bytes(tmp_path / 'rail') == 0
    run(run_example, tmp_path / 'contiguous', *fabric)
    assert spine_bytes(tmp_path / 'contiguous') > 256 * 1024


def test_nodes_csv_names_rails_servers_and_nvlink_ports(run_example, tmp_path):
    out = tmp_path / 'names'
    run(run_example, out, '--topology.rail.Servers=2', '--topology.rail.GpusPerServer=2',
        '--topology.spines=1', '--collective.bytes=64KiB')
    rows = list(csv.DictReader(open(out / 'nodes.csv')))
    assert [r['name'] for r in rows] == [
        's0.nic0', 's0.nic1', 's1.nic0', 's1.nic1', 's0.nvl0', 's0.nvl1', 's1.nvl0', 's1.nvl1',
        'rail0', 'rail1', 's0.nvswitch', 's1.nvswitch', 'spine0']


def test_bad_rail_and_workload_inputs_exit_2_naming_the_key_or_line(run_example, tmp_path):
    bad = tmp_path / 'bad.txt'
    bad.write_text('HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus: 4\n1\n'
                   'l\t-1\t5\tALLGATHER_TP\t64\t0\tNONE\t0\t0\tNONE\t0\t0\n')
    empty = tmp_path / 'empty.txt'
    empty.write_text('HYBRID_TRANSFORMER model_parallel_NPU_group: 2 all_gpus: 4\n3\n')
    rail = ('--traffic.pattern=collective', '--topology.type=rail',
            '--topology.rail.Servers=2', '--topology.rail.GpusPerServer=2')
    cases = [
        (rail + ('--job.ranks=3',), 'job.ranks = 3'),
        (rail + ('--job.ranks=6',), 'job.ranks = 6'),
        (rail + ('--job.workload=%s' % bad,), '%s:3: unknown collective \'ALLGATHER_TP\'' % bad),
        (rail + ('--job.workload=%s' % empty,), '%s:2: expected 3 layer lines' % empty),
        (rail + ('--job.workload=%s' % GPT7B,), '%s:1: all_gpus 64' % GPT7B),
        (rail + ('--job.placement=rail', '--job.ranks=3'), 'job.ranks = 3'),
        (rail + ('--job.placement=rail', '--job.workload=%s' % GPT7B),
         'job.placement = rail: rail placement would put'),
        (('--traffic.pattern=collective', '--job.placement=rail'),
         'it needs topology.type = rail, not fat-tree'),
        (('--topology.type=rail',), 'topology.type = rail carries collective traffic only'),
        # HPCC's INT records a hop's rate as one of 8 codes; NVLink's is none.
        (rail + ('--cc.algorithm=hpcc',), 'topology.rail.IntraServerRate = 3600Gbps: INT'),
        (('--topology.type=star', '--topology.hostRate=300Gbps', '--cc.algorithm=hpcc'),
         'topology.hostRate = 300Gbps: INT'),
    ]
    for args, message in cases:
        out = tmp_path / 'out'
        r = run_example('rdma-sim', '--output.dir=%s' % out, *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.returncode, r.stderr)
        assert not out.exists(), 'nothing written'
    # A tensor-parallel group that does not fit in a server.
    wide = tmp_path / 'wide.txt'
    wide.write_text('HYBRID_TRANSFORMER model_parallel_NPU_group: 4 all_gpus: 4\n1\n'
                    'l\t-1\t5\tALLGATHER\t64\t0\tNONE\t0\t0\tNONE\t0\t0\n')
    r = run_example('rdma-sim', '--output.dir=%s' % (tmp_path / 'w'), *rail,
                    '--job.workload=%s' % wide)
    assert r.returncode == 2 and '%s:1: model_parallel_NPU_group 4 does not divide' % wide \
        in r.stderr, r.stderr


def test_workload_chunks_past_the_immediates_range_exit_2(run_example, tmp_path):
    out = tmp_path / 'tiny-chunks'
    r = run_example('rdma-sim', '-c', STUDY_INI, '--check', '--output.dir=%s' % out,
                    '--collective.chunkBytes=1')
    assert r.returncode == 2 and 'collective.chunkBytes = 1' in r.stderr \
        and 'workload_gpt7b_64g.txt:3: ALLGATHER' in r.stderr, r.stderr
    assert not out.exists()


def test_simai_example_files_run_with_their_warnings(run_example, tmp_path):
    micro = os.path.join(TOP, 'data', 'simai', 'microAllReduce.txt')
    rows, r = run(run_example, tmp_path / 'micro', '--topology.rail.Servers=1',
                  '--topology.rail.GpusPerServer=8', '--job.workload=%s' % micro,
                  '--transport.pathMtu=4096', '--collective.chunkBytes=1MiB')
    # microAllReduce.txt: two layers, each 556 us of forward compute and a
    # tensor-parallel all-reduce (16 MiB, 64 MiB) over the server's 8 GPUs.
    assert [(x['collective'], x['bytes'], x['ranks'], x['status']) for x in rows] == [
        ('all-reduce', '16777216', '8', 'done'), ('all-reduce', '67108864', '8', 'done')]
    assert '%s:3: the update time after each collective' % micro in r.stderr
    jobs = list(csv.DictReader(open(tmp_path / 'micro' / 'jobs.csv')))
    # Compute: 556000 + 556000 forward, 1 + 1 + 1 + 1 backward (ns).
    assert int(jobs[0]['compute_ns']) == 2 * 556000 + 4
    # Over NVLink: busbw well above a 100 Gb/s NIC's.
    assert float(rows[1]['busbw_gbps']) > 1000


def test_comm_scale_without_a_workload_is_reported_unused(run_example, tmp_path):
    r = run_example('rdma-sim', '--check', '--output.dir=%s' % (tmp_path / 'x'),
                    '--traffic.pattern=collective', '--topology.type=rail',
                    '--topology.rail.Servers=2', '--topology.rail.GpusPerServer=2',
                    '--job.workloadCommScale=0.5')
    assert r.returncode == 0, r.stderr
    assert 'job.workloadCommScale = 0.5 is not used' in r.stderr, r.stderr


AICB = os.path.join(TOP, 'data', 'aicb')

#: The collectives of one iteration of each of AICB's workload/simAI files on
#: 16 GPUs (2 servers of 8), as SimAI's loader reads them: BROADCAST and
#: groups of one rank run nothing; MICRO runs each line's collective.
AICB_COLLECTIVES = {
    'G13B-M1-C01_GPT13B_megatron_tp8_pp1_mbs1_A100.txt': 173,
    'G13B-M1-C02_GPT13B_megatron_tp8_pp1_mbs1_sp_A100.txt': 333,
    'G175B-M1-C03_GPT175B_megatron_tp8_pp1_mbs1_A100.txt': 33,
    # Its line 2 says 839 layers and 33 follow: SimAI reads the rest as empty layers.
    'L65B-M1-C05_Llama65B_megatron_tp8_pp1_mbs1_A100.txt': 33,
    # ZeRO-3 as AICB writes it for SimAI: model_parallel_NPU_group 1, so the
    # input-gradient ALLGATHERs have a tensor-parallel group of one rank.
    'L65B_D1_C08_Llama65B_deepspeed_zero3_A100.txt': 1,
    'L7B-D1-C02_Llama7B_deepspeed_zero3_A100.txt': 1,
    'L7B-M1-C04_Llama7B_megatron_tp2_pp1_mbs1_A100.txt': 141,
    'all_gather.txt': 19,
    'all_reduce.txt': 19,
    'all_to_all.txt': 19,
    'muti_all_reduce.txt': 19,
}


def test_every_aicb_file_is_read_as_simai_reads_it(run_example, tmp_path):
    assert sorted(AICB_COLLECTIVES) == sorted(f for f in os.listdir(AICB) if f.endswith('.txt'))
    for name, count in AICB_COLLECTIVES.items():
        path = os.path.join(AICB, name)
        r = run_example('rdma-sim', '--check', '--output.dir=%s' % (tmp_path / 'x'),
                        '--traffic.pattern=collective', '--topology.type=rail',
                        '--topology.rail.Servers=2', '--topology.rail.GpusPerServer=8',
                        '--job.workload=%s' % path)
        assert r.returncode == 0, (name, r.stderr)
        said = r.stdout + r.stderr
        assert 'configuration checked, %d collectives' % count in said, (name, said)
        # No file of AICB's gives all_gpus: the job's 16 GPUs, said on screen.
        assert "%s:1: no all_gpus on line 1" % path in said, (name, said)
        if name.startswith(('G13B', 'L7B-M1')):
            # Their norm layer's BROADCAST, which SimAI's loader does not run.
            assert '%s:3: 1 BROADCAST collective(s) left out' % path in said, (name, said)


def test_an_aicb_micro_test_runs_each_size_over_every_gpu(run_example, tmp_path):
    """all_reduce.txt (MICRO): 19 all-reduces of 4 KiB to 1 GiB, one after another,
    each over the 16 GPUs; here at 1/1000 of the bytes (raised to ranks x channels)."""
    micro = os.path.join(AICB, 'all_reduce.txt')
    rows, r = run(run_example, tmp_path / 'm', '--topology.rail.Servers=2',
                  '--topology.rail.GpusPerServer=8', '--job.workload=%s' % micro,
                  '--job.workloadCommScale=0.001')
    sizes = [4096 << i for i in range(19)]
    assert [(x['collective'], x['group'], x['ranks'], x['status']) for x in rows] == \
        [('all-reduce', 'DP', '16', 'done')] * 19
    assert [int(x['bytes']) for x in rows] == [max(round(s * 0.001), 16) for s in sizes]
    assert [int(x['item']) for x in rows] == list(range(19)), 'in file order'
    warnings = json.load(open(tmp_path / 'm' / 'summary.json'))['warnings']
    assert any(w.startswith("%s:1: no all_gpus on line 1 (a MICRO file gives none): the job's 16 "
                            'GPUs are taken' % micro) for w in warnings), warnings


def test_schedules_past_sim_max_memory_exit_2_before_anything_is_built(run_example, tmp_path):
    """A workload's collective is copied to each of its groups: past sim.maxMemory
    the run stops at the collective that crosses it (SimAI's 9,216-GPU
    workload_analytical.txt would need 54 GiB of schedules on one machine)."""
    big = tmp_path / 'big.txt'
    big.write_text('HYBRID_TRANSFORMER_FWD_IN_BCKWD model_parallel_NPU_group: 1 all_gpus: 16\n1\n'
                   'l\t-1\t1\tNONE\t0\t1\tNONE\t0\t1\tALLREDUCE\t67108864\t0\n')
    out = tmp_path / 'out'
    r = run_example('rdma-sim', '--output.dir=%s' % out, '--traffic.pattern=collective',
                    '--topology.type=rail', '--topology.rail.Servers=2',
                    '--topology.rail.GpusPerServer=8', '--job.workload=%s' % big,
                    '--collective.chunkBytes=64KiB', '--sim.maxMemory=1MiB')
    assert r.returncode == 2, r.stderr
    assert ('sim.maxMemory: %s:3: ALLREDUCE of 67108864 bytes, run by 1 group(s) of 16 ranks'
            % big) in r.stderr, r.stderr
    assert 'more than the limit of 1.00 MiB (sim.maxMemory = 1MiB' in r.stderr, r.stderr
    assert not out.exists()


def test_several_tenants_run_their_own_workload_files_side_by_side(run_example, tmp_path):
    """job.workload lists two files, a job each: SimAI's microAllReduce.txt on
    its all_gpus (8) and AICB's all-to-all micro test on job.ranks (8), each
    on its own server; per-job rows in jobs.csv and collectives.csv."""
    micro = os.path.join(TOP, 'data', 'simai', 'microAllReduce.txt')
    a2a = os.path.join(AICB, 'all_to_all.txt')
    rows, r = run(run_example, tmp_path / 't', '--topology.rail.Servers=2',
                  '--topology.rail.GpusPerServer=8', '--job.workload=%s, %s' % (micro, a2a),
                  '--job.ranks=8', '--job.workloadCommScale=0.001')
    assert [(x['job'], x['collective'], x['ranks']) for x in rows] == \
        [('0', 'all-reduce', '8')] * 2 + [('1', 'all-to-all', '8')] * 19
    assert all(x['status'] == 'done' for x in rows)
    jobs = list(csv.DictReader(open(tmp_path / 't' / 'jobs.csv')))
    assert [(j['job'], j['ranks'], j['status']) for j in jobs] == [('0', '8', 'done'),
                                                                   ('1', '8', 'done')]
    # microAllReduce's compute (2 x 556 us forward, 4 x 1 ns backward) is job 0's only.
    assert (int(jobs[0]['compute_ns']), int(jobs[1]['compute_ns'])) == (2 * 556000 + 4, 0)
    bad = [
        (('--job.workload=%s,%s' % (micro, a2a),), 'all_to_all.txt:1: no all_gpus on line 1: '
         'with several workload files each gives its GPUs; set job.ranks'),
        (('--job.workload=%s,%s' % (micro, a2a), '--job.ranks=16'),
         'its 2 jobs need 24 GPUs (a rank per GPU); the topology has 16'),
        (('--job.workload=%s,%s' % (micro, a2a), '--job.ranks=8', '--job.count=2'),
         'job.count = 2: job.workload lists 2 files, a job each'),
        (('--job.workload=%s,%s' % (micro, tmp_path / 'nothing.txt'),),
         'nothing.txt: No such file or directory'),
    ]
    for args, message in bad:
        out = tmp_path / 'bad'
        r = run_example('rdma-sim', '--output.dir=%s' % out, '--traffic.pattern=collective',
                        '--topology.type=rail', '--topology.rail.Servers=2',
                        '--topology.rail.GpusPerServer=8', *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
        assert not out.exists()
