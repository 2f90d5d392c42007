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
    'coll' (type, bytes) or 'send'; fields['deps'] lists data_deps."""
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
                elif kind == 'send':
                    n.type = et.COMM_SEND_NODE
                    n.attr.append(et.AttributeProto(name='comm_dst', int64_val=fields['dst']))
                    n.attr.append(et.AttributeProto(name='comm_size', int64_val=fields['bytes']))
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
                      ('one_comm_send_node', 'COMM_SEND_NODE: point-to-point nodes are not run'),
                      ('one_comm_recv_node', 'COMM_RECV_NODE: point-to-point nodes are not run')):
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
    assert '4 collective(s) could run beside other nodes' in r.stderr, r.stderr
    summary = json.load(open(tmp_path / 'o' / 'summary.json'))
    assert any('could run beside other nodes' in w for w in summary['warnings'])


def test_bad_traces_and_keys_exit_2_naming_the_file_node_or_key(et, run_example, tmp_path):
    ar = {'type': 'ALL_REDUCE', 'bytes': 4096}
    differ = write_trace(et, str(tmp_path / 'differ'), [
        [(1, 'coll', ar)], [(1, 'coll', dict(ar, bytes=8192))]])
    missing = write_trace(et, str(tmp_path / 'missing'), [[(1, 'comp', {'us': 1, 'deps': [9]})]] * 2)
    gather = write_trace(et, str(tmp_path / 'gather'), [[(1, 'coll', {'type': 'GATHER',
                                                                       'bytes': 4096})]] * 2)
    send = write_trace(et, str(tmp_path / 'send'), [[(1, 'send', {'dst': 1, 'bytes': 64})]] * 2)
    ok = write_trace(et, str(tmp_path / 'ok'), [[(1, 'coll', ar)]] * 2)
    cases = [
        (('--job.chakra=%s' % differ,),
         '%s.1.et: node 1 (coll1): collective 1 of rank 1 is ALL_REDUCE of 8192 bytes' % differ),
        (('--job.chakra=%s' % missing,),
         '%s.0.et: node 1 (comp1) depends on node 9, which the file does not have' % missing),
        (('--job.chakra=%s' % gather,), 'comm_type GATHER has no schedule here'),
        (('--job.chakra=%s' % send,), 'COMM_SEND_NODE: point-to-point nodes are not run'),
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
