"""Chakra execution traces as a job (job.chakra), through rdma-sim as a user
runs them: the traces Chakra's own generator writes (src/generator/
generator.py --num_npus 4, in data/chakra/generator/), traces written here
with Chakra's schema (protoc's Python output of et_def.proto), and the same
iteration as a SimAI file.

A rank's nodes run one at a time in an order of their dependencies: a
COMP_NODE takes its duration_micros, a COMM_COLL_NODE is a collective of
every rank. A collective starts when its first rank enters it (nccl-tests'
and this module's CCT), so with rank r computing for (r + 1) x 10 us before
an all-reduce, the all-reduce starts at 10 us and the iteration's compute is
the longest rank's, 40 us.
"""

import csv
import importlib
import json
import os
import subprocess
import sys

import pytest

from conftest import TOP

GENERATED = os.path.join(TOP, 'data', 'chakra', 'generator')
PROTO_DIR = os.path.join(TOP, 'helper', 'workload', 'chakra')


@pytest.fixture(scope='module')
def et(tmp_path_factory):
    """Chakra's et_def.proto as Python (protoc), to write traces with."""
    out = tmp_path_factory.mktemp('et_def')
    subprocess.run(['protoc', '--python_out=%s' % out, '-I%s' % PROTO_DIR,
                    os.path.join(PROTO_DIR, 'et_def.proto')], check=True)
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module('et_def_pb2')
    finally:
        sys.path.remove(str(out))


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7f
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def write_trace(et, prefix, ranks):
    """Write <prefix>.<r>.et per rank as Chakra's protolib.encodeMessage does:
    GlobalMetadata, then the nodes, each after its length as a varint.
    ranks: per rank, a list of (id, kind, fields) with kind 'comp' (us),
    'coll' (type, bytes), 'send' (dst, bytes, tag) or 'recv' (src, bytes,
    tag); fields['deps'] lists data_deps."""
    for r, nodes in enumerate(ranks):
        with open('%s.%d.et' % (prefix, r), 'wb') as f:
            meta = et.GlobalMetadata(version='0.0.4').SerializeToString()
            f.write(varint(len(meta)) + meta)
            for node_id, kind, fields in nodes:
                n = et.Node(id=node_id, name='%s%d' % (kind, node_id))
                n.data_deps.extend(fields.get('deps', []))
                if kind == 'comp':
                    n.type = et.COMP_NODE
                    n.duration_micros = fields['us']
                elif kind == 'coll':
                    n.type = et.COMM_COLL_NODE
                    n.attr.append(et.AttributeProto(name='comm_type',
                                                    int64_val=getattr(et, fields['type'])))
                    n.attr.append(et.AttributeProto(name='comm_size', int64_val=fields['bytes']))
                elif kind in ('send', 'recv'):
                    # As Chakra's converters write them: both ends, the size and a tag.
                    n.type = et.COMM_SEND_NODE if kind == 'send' else et.COMM_RECV_NODE
                    src, dst = (r, fields['dst']) if kind == 'send' else (fields['src'], r)
                    n.attr.append(et.AttributeProto(name='comm_src', int32_val=src))
                    n.attr.append(et.AttributeProto(name='comm_dst', int32_val=dst))
                    n.attr.append(et.AttributeProto(name='comm_size', int64_val=fields['bytes']))
                    n.attr.append(et.AttributeProto(name='comm_tag',
                                                    int32_val=fields.get('tag', 0)))
                data = n.SerializeToString()
                f.write(varint(len(data)) + data)
    return prefix


def run(run_example, out, *args):
    r = run_example('rdma-sim', '--quiet', '--output.dir=%s' % out,
                    '--traffic.pattern=collective', *args)
    return r


def rows(path):
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize('name,collective,size', [
    ('ALL_REDUCE', 'all-reduce', 65536), ('ALL_GATHER', 'all-gather', 65536),
    ('REDUCE_SCATTER', 'reduce-scatter', 65536), ('BROADCAST', 'broadcast', 65536),
    ('ALL_TO_ALL', 'all-to-all', 65536),
    # PyTorch's ProcessGroupNCCL::barrier: an all-reduce of one float32.
    ('BARRIER', 'all-reduce', 4)])
def test_the_generators_collective_traces_run_as_that_collective(run_example, tmp_path, name,
                                                                 collective, size):
    out = tmp_path / 'chakra'
    r = run(run_example, out, '--job.chakra=%s' % os.path.join(GENERATED, name))
    assert r.returncode == 0, r.stderr
    (c,) = rows(out / 'collectives.csv')
    assert (c['collective'], int(c['bytes']), c['ranks'], c['status']) == (
        collective, size, '4', 'done')
    assert c['layer'] == name  # the node's name
    # The same collective given by job.sequence: the same schedule, the same CCT.
    ref = tmp_path / 'sequence'
    r = run(run_example, ref, '--job.ranks=4', '--job.sequence=%s %d' % (collective, size))
    assert r.returncode == 0, r.stderr
    (s,) = rows(ref / 'collectives.csv')
    assert s['cct_ns'] == c['cct_ns'] and s['end_ns'] == c['end_ns']


def test_the_generators_other_traces_run_or_are_refused_for_their_reason(run_example, tmp_path):
    # One GPU runs one compute node at a time (ASTRA-sim's too): 5 us, then 10 us for two.
    for name, us in (('one_comp_node', 5), ('two_comp_nodes_dependent', 10),
                     ('two_comp_nodes_independent', 10)):
        out = tmp_path / name
        r = run(run_example, out, '--job.chakra=%s' % os.path.join(GENERATED, name))
        assert r.returncode == 0, r.stderr
        (it,) = rows(out / 'jobs.csv')
        assert (int(it['time_ns']), int(it['compute_ns']), it['status']) == (us * 1000,
                                                                          us * 1000, 'done')
    for name, why in (('one_metadata_node_all_types', 'no compute and no collective'),
                      ('one_remote_mem_load_node', 'no compute and no collective'),
                      ('one_remote_mem_store_node', 'no compute and no collective'),
                      # The generator's send and receive name no peer (no comm_dst, comm_src).
                      ('one_comm_send_node', 'a COMM_SEND_NODE without comm_dst'),
                      ('one_comm_recv_node', 'a COMM_RECV_NODE without comm_src')):
        out = tmp_path / name
        r = run(run_example, out, '--job.chakra=%s' % os.path.join(GENERATED, name))
        assert r.returncode == 2 and why in r.stderr, (name, r.stderr)
        assert '%s.0.et' % name in r.stderr
        assert not out.exists()


def test_a_trace_of_a_simai_micro_file_gives_its_ccts(et, run_example, tmp_path):
    # AICB's all-reduce micro test, its first 8 sizes (4 KiB to 512 KiB).
    lines = open(os.path.join(TOP, 'data', 'aicb', 'all_reduce.txt')).read().splitlines()
    micro = tmp_path / 'all_reduce.txt'
    micro.write_text('\n'.join([lines[0], '8'] + lines[2:10]) + '\n')
    sizes = [int(line.split()[10]) for line in lines[2:10]]
    assert sizes == [4096 << k for k in range(8)]
    # One ALL_REDUCE node per line, each waiting for the one before.
    nodes = [(i + 1, 'coll', {'type': 'ALL_REDUCE', 'bytes': s, 'deps': [i] if i else []})
             for i, s in enumerate(sizes)]
    prefix = write_trace(et, str(tmp_path / 'micro'), [nodes] * 8)
    r = run(run_example, tmp_path / 'chakra', '--job.chakra=%s' % prefix)
    assert r.returncode == 0, r.stderr
    r = run(run_example, tmp_path / 'simai', '--job.workload=%s' % micro, '--job.ranks=8')
    assert r.returncode == 0, r.stderr
    chakra = rows(tmp_path / 'chakra' / 'collectives.csv')
    simai = rows(tmp_path / 'simai' / 'collectives.csv')
    assert [int(c['bytes']) for c in chakra] == [int(s['bytes']) for s in simai] == sizes
    for c, s in zip(chakra, simai):
        assert abs(int(c['cct_ns']) - int(s['cct_ns'])) <= 0.01 * int(s['cct_ns']), (c, s)


def test_ranks_computing_for_different_times_enter_the_collective_at_their_own(et, run_example,
                                                                             tmp_path):
    ranks = [[(1, 'comp', {'us': 10 * (r + 1)}),
              (2, 'coll', {'type': 'ALL_REDUCE', 'bytes': 1 << 20, 'deps': [1]}),
              (3, 'comp', {'us': 5, 'deps': [2]})] for r in range(4)]
    prefix = write_trace(et, str(tmp_path / 'skew'), ranks)
    r = run(run_example, tmp_path / 'o', '--job.chakra=%s' % prefix, '--job.iterations=2')
    assert r.returncode == 0, r.stderr
    colls = rows(tmp_path / 'o' / 'collectives.csv')
    assert int(colls[0]['start_ns']) == 10000  # rank 0 enters first
    its = rows(tmp_path / 'o' / 'jobs.csv')
    assert [int(i['compute_ns']) for i in its] == [45000, 45000]  # the longest rank's
    # Rank 3 enters 30 us after rank 0: against every rank entering at 10 us,
    # the all-reduce ends later, but at most 30 us later (as if all had
    # entered at 40 us; what the others do before rank 3 enters only helps).
    same = tmp_path / 'same'
    write_trace(et, str(tmp_path / 'even'), [[(1, 'comp', {'us': 10}), *ranks[0][1:]]] * 4)
    r = run(run_example, same, '--job.chakra=%s' % (tmp_path / 'even'))
    assert r.returncode == 0, r.stderr
    even = rows(same / 'collectives.csv')[0]
    assert int(even['end_ns']) < int(colls[0]['end_ns']) <= int(even['end_ns']) + 30000
    # job.workloadCommScale scales the trace's sizes as a SimAI file's.
    r = run(run_example, tmp_path / 'half', '--job.chakra=%s' % prefix,
            '--job.workloadCommScale=0.5')
    assert r.returncode == 0, r.stderr
    assert rows(tmp_path / 'half' / 'collectives.csv')[0]['bytes'] == str(1 << 19)


def test_what_the_trace_allows_and_is_not_taken_is_said(et, run_example, tmp_path):
    # The compute and the all-gather do not depend on each other.
    prefix = write_trace(et, str(tmp_path / 'free'), [[
        (1, 'comp', {'us': 50}), (2, 'coll', {'type': 'ALL_GATHER', 'bytes': 65536})]] * 4)
    r = run(run_example, tmp_path / 'o', '--job.chakra=%s' % prefix)
    assert r.returncode == 0, r.stderr
    assert '4 communication node(s) could run beside other nodes' in r.stderr, r.stderr
    summary = json.load(open(tmp_path / 'o' / 'summary.json'))
    assert any('could run beside other nodes' in w for w in summary['warnings'])


def test_bad_traces_and_keys_exit_2_naming_the_file_node_or_key(et, run_example, tmp_path):
    ar = {'type': 'ALL_REDUCE', 'bytes': 4096}
    differ = write_trace(et, str(tmp_path / 'differ'), [
        [(1, 'coll', ar)], [(1, 'coll', dict(ar, bytes=8192))]])
    missing = write_trace(et, str(tmp_path / 'missing'), [[(1, 'comp', {'us': 1, 'deps': [9]})]] * 2)
    gather = write_trace(et, str(tmp_path / 'gather'), [[(1, 'coll', {'type': 'GATHER',
                                                                       'bytes': 4096})]] * 2)
    send = write_trace(et, str(tmp_path / 'send'), [[(1, 'send', {'dst': 1, 'bytes': 64})],
                                                    [(1, 'comp', {'us': 1})]])
    outside = write_trace(et, str(tmp_path / 'outside'), [[(1, 'send', {'dst': 2, 'bytes': 64})],
                                                          [(1, 'recv', {'src': 0, 'bytes': 64})]])
    ok = write_trace(et, str(tmp_path / 'ok'), [[(1, 'coll', ar)]] * 2)
    cases = [
        (('--job.chakra=%s' % differ,),
         '%s.1.et: node 1 (coll1): collective 1 of rank 1 is ALL_REDUCE of 8192 bytes' % differ),
        (('--job.chakra=%s' % missing,),
         '%s.0.et: node 1 (comp1) depends on node 9, which the file does not have' % missing),
        (('--job.chakra=%s' % gather,), 'comm_type GATHER has no schedule here'),
        (('--job.chakra=%s' % send,),
         '%s.0.et: node 1 (send1): COMM_SEND_NODE to rank 1 (comm_tag 0) has no match' % send),
        (('--job.chakra=%s' % outside,),
         '%s.0.et: node 1 (send1): comm_dst 2: not a rank of the job' % outside),
        (('--job.chakra=%s' % (tmp_path / 'none'),), 'none.0.et: cannot open'),
        (('--job.chakra=%s' % GENERATED,), 'expected one set of Chakra traces'),
        (('--job.chakra=%s' % ok, '--job.ranks=4'), 'job.ranks = 4: job.chakra has 2 ranks'),
        (('--job.chakra=%s' % ok, '--job.sequence=all-reduce'),
         'job.sequence = all-reduce: job.chakra gives the iteration'),
    ]
    for args, message in cases:
        out = tmp_path / 'out'
        r = run(run_example, out, *args)
        assert r.returncode == 2 and message in r.stderr, (args, r.stderr)
        assert not out.exists()
    r = run_example('rdma-sim', '--output.dir=%s' % (tmp_path / 'p'),
                    '--job.chakra=%s' % differ)
    assert r.returncode == 2 and 'take effect with traffic.pattern = collective' in r.stderr


def test_schedules_past_sim_max_memory_exit_2_naming_the_node(et, run_example, tmp_path):
    # 64 ranks' all-to-all of 64 MiB in 4 KiB chunks: 64 x 63 pairs x 256
    # WRITEs, over 40 MiB of schedule, refused once built against 64 MiB.
    prefix = write_trace(et, str(tmp_path / 'a2a'), [[(1, 'coll', {
        'type': 'ALL_TO_ALL', 'bytes': 64 << 20})]] * 64)
    out = tmp_path / 'o'
    r = run(run_example, out, '--job.chakra=%s' % prefix, '--topology.k=8',
            '--collective.chunkBytes=4096', '--sim.maxMemory=64MiB')
    assert r.returncode == 2, r.stderr
    assert 'sim.maxMemory: ' in r.stderr and '%s.0.et: node 1 (coll1): its all-to-all' % prefix \
        in r.stderr, r.stderr
    assert not out.exists()


def gpipe(stages, micro, fwd_us, bwd_us, size):
    """A GPipe iteration (Huang et al., NeurIPS'19) as Chakra traces: each
    stage runs every microbatch forward (receive the activation, compute,
    send it on), then every one backward (receive the gradient, compute,
    send it back); each node waits for the one before it."""
    ranks = []
    for s in range(stages):
        nodes = []

        def add(kind, fields):
            if nodes:
                fields['deps'] = [nodes[-1][0]]
            nodes.append((len(nodes) + 1, kind, fields))
        for m in range(micro):
            if s > 0:
                add('recv', {'src': s - 1, 'bytes': size, 'tag': m})
            add('comp', {'us': fwd_us})
            if s < stages - 1:
                add('send', {'dst': s + 1, 'bytes': size, 'tag': m})
        for m in range(micro):
            if s < stages - 1:
                add('recv', {'src': s + 1, 'bytes': size, 'tag': 100 + m})
            add('comp', {'us': bwd_us})
            if s > 0:
                add('send', {'dst': s - 1, 'bytes': size, 'tag': 100 + m})
        ranks.append(nodes)
    return ranks


def program_time(ranks, transfer_ns):
    """Each rank's nodes in turn: a compute takes its time, a send
    transfer_ns (until it is acknowledged), a receive waits until its send
    has landed, transfer_ns after the send began. Returns the last rank's end."""
    now = [0] * len(ranks)
    at = [0] * len(ranks)
    landed = {}  # (src, dst, tag) -> when
    while any(at[r] < len(ranks[r]) for r in range(len(ranks))):
        moved = False
        for r, nodes in enumerate(ranks):
            while at[r] < len(nodes):
                _, kind, f = nodes[at[r]]
                if kind == 'comp':
                    now[r] += f['us'] * 1000
                elif kind == 'send':
                    landed[(r, f['dst'], f['tag'])] = now[r] + transfer_ns
                    now[r] += transfer_ns
                else:
                    key = (f['src'], r, f['tag'])
                    if key not in landed:
                        break
                    now[r] = max(now[r], landed[key])
                at[r] += 1
                moved = True
        assert moved, 'the program deadlocks'
    return max(now)


def test_a_pipeline_of_sends_and_receives_takes_its_programs_time(et, run_example, tmp_path):
    # 4 stages, 4 microbatches of 4 MiB activations; 100 us forward, 200 us
    # backward. One hop's time T is a 2-rank send-recv's CCT (nccl-tests'
    # sendrecv, job.sequence) on the same fabric.
    size = 4 << 20
    ref = tmp_path / 'hop'
    r = run(run_example, ref, '--job.ranks=2', '--job.sequence=send-recv %d' % size)
    assert r.returncode == 0, r.stderr
    (hop,) = rows(ref / 'collectives.csv')
    assert (hop['collective'], hop['algorithm'], hop['ranks']) == ('send-recv', 'direct', '2')
    assert hop['busbw_gbps'] == hop['algbw_gbps']  # nccl-tests: busbw = algbw for sendrecv
    transfer = int(hop['cct_ns'])
    ranks = gpipe(4, 4, 100, 200, size)
    prefix = write_trace(et, str(tmp_path / 'gpipe'), ranks)
    out = tmp_path / 'o'
    r = run(run_example, out, '--job.chakra=%s' % prefix)
    assert r.returncode == 0, r.stderr
    (it,) = rows(out / 'jobs.csv')
    assert it['status'] == 'done'
    expected = program_time(ranks, transfer)
    assert abs(int(it['time_ns']) - expected) <= 0.02 * expected, (it['time_ns'], expected)
    sends = rows(out / 'collectives.csv')
    assert {c['collective'] for c in sends} == {'send-recv'}
    assert all(int(c['bytes']) == size for c in sends)
    # Each stage computes 4 x (100 + 200) us, at its own times: the
    # iteration's compute is the busiest stage's, the rest is transfers and
    # the pipeline's bubbles.
    assert int(it['compute_ns']) == 1200000
    # A send starts when its sender comes to it: stage 0's first activation
    # goes after its 100 us of compute, though stage 1 waits from 0.
    assert int(sends[0]['start_ns']) == 100000, sends[0]
    assert abs(int(sends[0]['cct_ns']) - transfer) <= 0.02 * transfer
