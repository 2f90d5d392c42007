#!/usr/bin/python3
"""Run rdma-sim over a grid of configuration keys and seeds; collect results.csv.

  scripts/sweep.py -c examples/configs/tiny.ini -o out/sweep \\
      --grid traffic.load=0.3,0.5 --grid cc.algorithm=dcqcn,hpcc --seeds 1,2

Every point of the grid (the product of the --grid values, times the seeds)
is one rdma-sim process with its own output folder under the output root,
named from its parameters (sorted keys, then the seed), so the same point
always lands in the same folder. The first line printed (save with --list,
which runs nothing) names the rdma-sim binary: --sim, else the rule of
rdmasim_binary.py ($RDMA_SIM, else `make run`'s build named in
$RDMA_LTO_DIR/rdma-sim.path, else build/examples/rdma-sim). Before any point
runs, each distinct configuration (seeds aside) is checked with rdma-sim
--check; if one is refused (or the check outlives --timeout or cannot be
run), its error is printed in full, nothing is run or written (no folder, no
results.csv) and the exit status is 2. Points run in parallel: on local
cores by default (-j), on a Dask cluster with --scheduler ADDRESS, or on a
Dask LocalCluster started here with --local-cluster N (the checks run there
too). A --grid key that rdma-sim says it does not use (its "is not used"
warning: a key of IRN under go-back-N, of a traffic pattern under another)
in every configuration is refused the same way, for its points would all be
the same run; one unused in some configurations only is noted. A point whose folder already holds a complete run of the same point
(the same rdma-sim build, base config contents and keys: its point.json) is
not run again, so an interrupted sweep is resumed by running the same
command; a folder from another build or configuration is run again. A
point that fails (non-zero exit, timeout, no summary) is printed with the
tail of its stderr, recorded, and the sweep goes on. results.csv (in the
output root, rewritten at the end) has one row per point: the point's
folder, its parameters and seed, status (ok/failed), whether it was reused,
the error, and the metrics of its summary.json flattened
(rdmasim_analysis.flatten_summary).

A grid file (--grid-file, JSON) holds the same:
  {"grid": {"traffic.load": [0.3, 0.5]}, "seeds": [1, 2], "set": {"traffic.duration": "1ms"}}
Exit status: 0 if every point is ok, 1 if some failed, 2 for bad arguments
or a configuration rdma-sim --check refuses.
"""

import argparse
import concurrent.futures
import csv
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rdmasim_analysis as ra  # noqa: E402
import rdmasim_binary  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = 'results.csv'
POINT_LOG = 'sweep-point.log'
POINT_IDENTITY = 'point.json'  # what the point's run was: point_identity
SEED_KEY = 'sim.seed'
#: characters kept as they are in a point's folder name
_SAFE = re.compile(r'[^A-Za-z0-9._+-]')
_MAX_NAME = 150
_STDERR_TAIL = 600


def value_text(v):
    """A grid value as the text rdma-sim gets: JSON true/false as true/false, else str()."""
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def parse_assignment(text, what):
    """'group.key=a,b' -> ('group.key', ['a', 'b']); raises ValueError naming what is wrong."""
    key, sep, values = text.partition('=')
    key = key.strip()
    if not sep or not re.fullmatch(r'[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+', key):
        raise ValueError('%s %r: expected group.key=value[,value...]' % (what, text))
    vals = [v.strip() for v in values.split(',')]
    if not values.strip() or any(v == '' for v in vals):
        raise ValueError('%s %r: empty value' % (what, text))
    return key, vals


def point_name(params, seed):
    """The folder of a point: 'key=value' for the sorted keys, then 'seed=N', joined by '_'.

    Characters other than letters, digits and ._+- become '-'; when that
    changed anything or the name is long, a hash of the exact parameters is
    appended so two points never share a folder.
    """
    items = sorted(params.items())
    if seed is not None:
        items.append(('seed', str(seed)))
    exact = '_'.join('%s=%s' % kv for kv in items) or 'default'
    name = '_'.join('%s=%s' % (k, _SAFE.sub('-', v)) for k, v in items) or 'default'
    if name != exact or len(name) > _MAX_NAME:
        digest = hashlib.sha1(exact.encode()).hexdigest()[:10]
        name = name[:_MAX_NAME] + '_' + digest
    return name


def expand(grid, seeds):
    """Every point of the grid: a list of (params dict, seed or None), seeds innermost."""
    keys = list(grid)
    points = []
    for combo in itertools.product(*(grid[k] for k in keys)):
        for seed in (seeds or [None]):
            points.append((dict(zip(keys, combo)), seed))
    return points


def point_command(sim, base_config, overrides, out_dir):
    """rdma-sim's command line (a list) for one point: the base config, the
    overrides ({key: value text}), its folder (with --force when an earlier
    attempt left files there), --quiet."""
    cmd = [sim]
    if base_config:
        cmd += ['-c', base_config]
    cmd += ['--%s=%s' % kv for kv in overrides.items()]
    cmd += ['--output.dir=' + out_dir, '--quiet']
    if os.path.isdir(out_dir) and os.listdir(out_dir):  # what an earlier failed attempt left
        cmd.append('--force')
    return cmd


def execute(cmd, timeout_s):
    """Run cmd (timeout_s seconds at most, None: no limit); return (exit
    status or None, stdout, stderr, error, wall_s): error says why there is
    no exit status (the timeout, or why cmd could not be started), else ''."""
    start = time.monotonic()
    error = ''
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        rc, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as e:
        rc, stdout, stderr = None, _text(e.stdout), _text(e.stderr)
        error = 'timeout after %gs' % timeout_s
    except OSError as e:
        rc, stdout, stderr = None, '', ''
        error = 'cannot run %s: %s' % (cmd[0], e.strerror)
    return rc, stdout, stderr, error, time.monotonic() - start


def build_identity(sim):
    """sha256 of the rdma-sim program and of the rdma module's shared library
    it loads (ldd), so a rebuilt module counts as another build."""
    digest = hashlib.sha256()
    files = [sim]
    try:
        out = subprocess.run(['ldd', sim], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        out = ''
    files += sorted(set(re.findall(r'=>\s*(\S*rdma\S*\.so\S*)', out)))
    for path in files:
        digest.update(path.encode() + b'\0')
        try:
            with open(path, 'rb') as f:
                for chunk in iter(lambda: f.read(1 << 20), b''):
                    digest.update(chunk)
        except OSError:
            pass
    return digest.hexdigest()


def point_identity(build, base_config, overrides):
    """What makes a point's outputs its own: the build (build_identity), the
    base config file's name and contents, and the overrides."""
    contents = ''
    if base_config:
        with open(base_config, 'rb') as f:
            contents = hashlib.sha256(f.read()).hexdigest()
    return {'build': build, 'config': base_config or '', 'config_sha256': contents,
            'overrides': sorted([k, v] for k, v in overrides.items())}


def reusable(out_dir, identity):
    """Whether out_dir holds a complete run of this very point: a complete
    summary.json and the point.json its run wrote, equal to identity. A
    folder from another configuration or build is run again, never reused."""
    if not ra.has_complete_summary(out_dir):
        return False
    try:
        with open(os.path.join(out_dir, POINT_IDENTITY)) as f:
            return json.load(f) == identity
    except (OSError, ValueError):
        return False


#: a key rdma-sim says it does not use: "<origin>: <key> = <value> is not used: <why>"
_UNUSED = re.compile(r'(?:^|: )([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)+) = .*? is not used: ')


def unused_keys(warnings):
    """{key (lower case): the warning} of the keys rdma-sim's warnings say it
    does not use (RdmaUnusedKeys: printed as 'rdma-sim: warning: ...' and
    listed in summary.json's warnings)."""
    found = {}
    for w in warnings:
        m = _UNUSED.search(w)
        if m:
            found.setdefault(m.group(1).lower(), w.strip())
    return found


def check_config(sim, base_config, points, timeout_s):
    """rdma-sim --check of one configuration (in a worker, as run_point).

    points: the (overrides, out_dir, identity) of the points that share the
    configuration (they differ in seed only). The first whose folder is not
    reusable is checked with its own command line (point_command) plus
    --check, which runs every check of a run and writes nothing; when every
    folder is, the first folder's summary.json stands for the check. Returns
    (error, unused): error '' if the check passed or was not needed, else
    'exit N: ' and rdma-sim's whole stderr, or the timeout, or why rdma-sim
    could not be run; unused the keys the configuration sets and rdma-sim
    does not use (unused_keys).
    """
    unrun = [(overrides, d) for overrides, d, identity in points if not reusable(d, identity)]
    if not unrun:
        try:
            with open(os.path.join(points[0][1], 'summary.json')) as f:
                return '', unused_keys(json.load(f).get('warnings', []))
        except (OSError, ValueError):
            return '', {}
    rc, _, stderr, error, _ = execute(point_command(sim, base_config, *unrun[0]) + ['--check'], timeout_s)
    if rc is None:
        return error, {}
    if rc:
        return 'exit %d: %s' % (rc, stderr.strip() or '(no stderr)'), {}
    return '', unused_keys(stderr.splitlines())


def run_point(sim, base_config, overrides, out_dir, timeout_s, identity):
    """Run one point (in a worker: a local thread or a Dask worker) and return its record.

    Skips the run if out_dir holds this point's complete run (reusable:
    the same identity, point_identity); a run writes point.json. Returns a
    dict: status ('ok'/'failed'), resumed (bool), error (text), metrics
    (summary.json flattened, with derived_metrics; empty for a failed
    point), wall_s (seconds this call spent running rdma-sim). Runs where
    the point's folder is (a Dask worker on another machine returns the
    metrics, so the output root need not be shared).
    """
    if reusable(out_dir, identity):
        return _finished(out_dir, ra.read_summary(out_dir), True, 0.0)
    cmd = point_command(sim, base_config, overrides, out_dir)
    os.makedirs(out_dir, exist_ok=True)
    rc, stdout, stderr, error, wall = execute(cmd, timeout_s)
    with open(os.path.join(out_dir, POINT_LOG), 'w') as log:
        log.write('command: %s\nexit: %s\nwall_s: %.3f\n--- stdout\n%s--- stderr\n%s' %
                  (' '.join(cmd), rc, wall, stdout, stderr))
    if rc == 0:
        try:
            record = _finished(out_dir, ra.read_summary(out_dir), False, wall)
            with open(os.path.join(out_dir, POINT_IDENTITY), 'w') as f:
                json.dump(identity, f)
            return record
        except ra.OutputError as e:
            error = 'exit 0 but %s' % e
    elif rc is not None:
        tail = stderr.strip()[-_STDERR_TAIL:] or '(no stderr)'
        error = 'exit %d: %s' % (rc, ' / '.join(tail.splitlines()))
    return {'status': 'failed', 'resumed': False, 'error': error, 'metrics': {}, 'wall_s': wall}


def _finished(out_dir, summary, resumed, wall):
    """The record of a point with a complete summary: its flattened metrics."""
    metrics = ra.flatten_summary(summary)
    try:
        metrics.update(ra.derived_metrics(out_dir, summary))
    except ra.OutputError as e:
        return {'status': 'failed', 'resumed': resumed, 'error': str(e), 'metrics': metrics,
                'wall_s': wall}
    return {'status': 'ok', 'resumed': resumed, 'error': '', 'metrics': metrics, 'wall_s': wall}


def _text(b):
    if b is None:
        return ''
    return b.decode(errors='replace') if isinstance(b, bytes) else b


def results_rows(points, names, records, param_keys):
    """results.csv's rows (dicts) and columns, in point order."""
    rows, metric_cols = [], {}
    for (params, seed), name, rec in zip(points, names, records):
        row = {'point': name, **params}
        metrics = rec['metrics']
        row['seed'] = seed if seed is not None else metrics.get('seed', '')
        row.update(status=rec['status'], resumed=int(rec['resumed']), error=rec['error'])
        for col, value in metrics.items():
            if col == 'seed':
                continue
            if col in row:  # a config key named like a summary path
                col = 'summary.' + col
            metric_cols.setdefault(col, True)
            row[col] = value
        rows.append(row)
    columns = ['point'] + list(param_keys) + ['seed', 'status', 'resumed', 'error'] + list(metric_cols)
    return rows, columns


def write_results(path, rows, columns):
    """Write results.csv atomically (a reader never sees half a file)."""
    tmp = path + '.tmp'
    with open(tmp, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=columns, restval='', extrasaction='raise')
        w.writeheader()
        w.writerows(rows)
    os.replace(tmp, path)


def make_executor(args):
    """(submit(fn, *args) -> future, as_completed(futures), close()) for the chosen backend."""
    if args.scheduler or args.local_cluster:
        import cloudpickle
        from distributed import Client, LocalCluster, as_completed
        # Dask workers elsewhere need not have these scripts on their path.
        cloudpickle.register_pickle_by_value(ra)
        if args.scheduler:
            client, cluster = Client(args.scheduler), None
        else:
            cluster = LocalCluster(n_workers=args.local_cluster, threads_per_worker=1,
                                   processes=False, dashboard_address=None)
            client = Client(cluster)

        def close():
            client.close()
            if cluster is not None:
                cluster.close()

        return (lambda fn, *a: client.submit(fn, *a, pure=False)), as_completed, close
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs)
    return pool.submit, concurrent.futures.as_completed, pool.shutdown


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split('\n\n', 1)[1])
    p.add_argument('-c', '--config', help='base INI configuration for every point')
    p.add_argument('-o', '--output', required=True, help='output root: one folder per point, results.csv')
    p.add_argument('--grid', action='append', default=[], metavar='KEY=V1,V2',
                   help='a key and its values (repeat for more keys)')
    p.add_argument('--grid-file', help='JSON grid file {"grid": {...}, "seeds": [...], "set": {...}}')
    p.add_argument('--seeds', help='comma-separated seeds (each sets %s)' % SEED_KEY)
    p.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                   help='a key set the same for every point')
    p.add_argument('--sim', help="rdma-sim binary (default: $RDMA_SIM, else make run's build named in "
                   "$RDMA_LTO_DIR/rdma-sim.path, else build/examples/rdma-sim)")
    p.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1, help='local parallel runs (default: cores)')
    p.add_argument('--scheduler', help='Dask scheduler address (tcp://host:8786): run the points there')
    p.add_argument('--local-cluster', type=int, metavar='N', help='start a Dask LocalCluster of N workers')
    p.add_argument('--timeout', type=float, help='seconds a point may run before it is recorded as failed')
    p.add_argument('--list', action='store_true', help='print the points and their folders, run nothing')
    p.add_argument('--no-progress', action='store_true', help='no tqdm progress bar')
    args = p.parse_args(argv)
    if args.scheduler and args.local_cluster:
        p.error('--scheduler and --local-cluster exclude each other')
    if args.jobs < 1 or (args.local_cluster is not None and args.local_cluster < 1):
        p.error('-j and --local-cluster need at least 1')

    grid, fixed, seeds = {}, {}, None
    try:
        if args.grid_file:
            with open(args.grid_file) as f:
                spec = json.load(f)
            if not isinstance(spec, dict) or set(spec) - {'grid', 'seeds', 'set'}:
                raise ValueError('%s: expected a JSON object with only grid, seeds and set' %
                                 args.grid_file)
            for key, vals in spec.get('grid', {}).items():
                vals = vals if isinstance(vals, list) else [vals]
                parse_assignment('%s=%s' % (key, ','.join(value_text(v) for v in vals)), args.grid_file)
                grid[key] = [value_text(v) for v in vals]
            fixed.update({k: value_text(v) for k, v in spec.get('set', {}).items()})
            if 'seeds' in spec:
                seeds = [int(s) for s in spec['seeds']]
        for text in args.grid:
            key, vals = parse_assignment(text, '--grid')
            grid[key] = vals
        for text in args.set:
            key, vals = parse_assignment(text, '--set')
            fixed[key] = ','.join(vals)
        if args.seeds:
            seeds = [int(s) for s in args.seeds.split(',')]
    except OSError as e:
        p.error('%s: %s' % (e.filename, e.strerror))
    except ValueError as e:
        p.error(str(e))
    if seeds is not None and (SEED_KEY in grid or SEED_KEY in fixed):
        p.error('seeds given both as --seeds and as the key %s' % SEED_KEY)
    both = set(grid) & set(fixed)
    if both:
        p.error('keys both in the grid and set: %s' % ', '.join(sorted(both)))
    if args.config and not os.path.isfile(args.config):
        p.error('base config %s: no such file' % args.config)
    args.grid_keys, args.fixed, args.seed_list = grid, fixed, seeds
    return args


def worker_result(fut):
    """(a future's result, '') or (None, 'worker error: ...') when its worker was lost."""
    try:
        return fut.result(), ''
    except Exception as e:  # a worker lost, not an rdma-sim failure
        return None, 'worker error: %s: %s' % (type(e).__name__, e)


def refused_configs(submit, as_completed, sim, base, runs, timeout_s):
    """Check each distinct configuration of runs ([(overrides, out_dir)] in
    point order; seeds aside) with check_config, in parallel. Returns
    ({index of the configuration's first point: error} for those that did
    not pass, the number of configurations, {index of the configuration's
    first point: its unused keys})."""
    groups = {}
    for i, (overrides, _, _) in enumerate(runs):
        key = tuple(sorted((k, v) for k, v in overrides.items() if k != SEED_KEY))
        groups.setdefault(key, []).append(i)
    futures = {submit(check_config, sim, base, [runs[i] for i in idx], timeout_s): idx[0]
               for idx in groups.values()}
    refused = {}
    unused = {}
    for fut in as_completed(list(futures)):
        result, lost = worker_result(fut)
        error, unused[futures[fut]] = result if result else ('', {})
        if error or lost:
            refused[futures[fut]] = error or lost
    return refused, len(groups), unused


def unused_grid_keys(grid_keys, unused, names):
    """The sweep's verdict on grid keys that rdma-sim does not use.

    grid_keys: the --grid keys; unused: {first point index: {key: warning}}
    per configuration (refused_configs); names: the points' names. Returns
    (errors, notes): an error for each grid key no configuration uses (its
    points would all be the same run), a note for each that some do not
    use (say which point first)."""
    errors, notes = [], []
    for key in grid_keys:
        where = {i: u[key.lower()] for i, u in unused.items() if key.lower() in u}
        if not where:
            continue
        first = min(where)
        if len(where) == len(unused):
            errors.append('--grid %s: rdma-sim does not use %s in any point of this sweep, so its '
                          'points would be the same run: %s' % (key, key, where[first]))
        else:
            notes.append('sweep: note: %s is not used in %d of %d configurations (first: point '
                         '%s: %s)' % (key, len(where), len(unused), names[first], where[first]))
    return errors, notes


def add_study_options(parser, figure):
    """A study's options for its sweeps (--set, --sim, -j, --timeout) and its
    figure (--figure, default OUTPUT/FIGURE), as run_study_sweep reads them."""
    parser.add_argument('--set', action='append', default=[], metavar='KEY=VALUE',
                        help='a key set for every run (repeatable)')
    parser.add_argument('--sim', help='rdma-sim binary (default: as scripts/sweep.py)')
    parser.add_argument('-j', '--jobs', type=int, default=2, help='runs at a time (default 2)')
    parser.add_argument('--timeout', type=float, help='seconds a run may take')
    parser.add_argument('--figure', help='figure path without extension (default OUTPUT/%s)'
                                         % figure)


def run_study_sweep(config, output, grid, options):
    """Run (or resume) a study's sweep of CONFIG into OUTPUT with these --grid
    (and --seeds) arguments and the study's options (.jobs, .set, .sim,
    .timeout); return its results.csv rows. A sweep that is not all ok ends
    the study with its exit status."""
    argv = ['-c', config, '-o', output, '-j', str(options.jobs), '--no-progress'] + grid
    for kv in options.set:
        argv += ['--set', kv]
    if options.sim:
        argv += ['--sim', options.sim]
    if options.timeout:
        argv += ['--timeout', str(options.timeout)]
    status = main(argv)
    if status != 0:
        raise SystemExit(status)
    with open(os.path.join(output, RESULTS), newline='') as f:
        return list(csv.DictReader(f))


def main(argv=None):
    args = parse_args(argv)
    points = expand(args.grid_keys, args.seed_list)
    names = [point_name(params, seed) for params, seed in points]
    root = os.path.abspath(args.output)
    if args.list:
        for name in names:
            print(os.path.join(root, name))
        return 0
    sim, why = (args.sim, '--sim') if args.sim else rdmasim_binary.default_sim()
    sim = os.path.abspath(sim) if os.path.exists(sim) else sim
    print('sweep: rdma-sim %s (%s)' % (sim, why), flush=True)
    base = os.path.abspath(args.config) if args.config else None
    build = build_identity(sim)
    runs = []
    for (params, seed), name in zip(points, names):
        overrides = dict(args.fixed, **params)
        if seed is not None:
            overrides[SEED_KEY] = str(seed)
        runs.append((overrides, os.path.join(root, name), point_identity(build, base, overrides)))

    from tqdm import tqdm
    submit, as_completed, close = make_executor(args)
    records = [None] * len(points)
    try:
        refused, configs, unused = refused_configs(submit, as_completed, sim, base, runs,
                                                   args.timeout)
        errors, notes = unused_grid_keys(list(args.grid_keys), unused, names)
        for note in notes:
            print(note, file=sys.stderr)
        if errors:
            print('sweep: nothing run, nothing written:\n' + '\n'.join(errors), file=sys.stderr)
            return 2
        if refused:
            first = min(refused)
            print('sweep: %d of %d configurations did not pass rdma-sim --check; nothing run, '
                  'nothing written. The first, point %s:\n%s' % (len(refused), configs, names[first],
                                                                refused[first]), file=sys.stderr)
            return 2
        os.makedirs(root, exist_ok=True)
        futures = {submit(run_point, sim, base, overrides, out_dir, args.timeout, identity): i
                   for i, (overrides, out_dir, identity) in enumerate(runs)}
        failed = 0
        with tqdm(total=len(points), desc='sweep', unit='run', disable=args.no_progress) as bar:
            for fut in as_completed(list(futures)):
                i = futures[fut]
                records[i], lost = worker_result(fut)
                if lost:
                    records[i] = {'status': 'failed', 'resumed': False, 'metrics': {},
                                  'error': lost, 'wall_s': 0.0}
                if records[i]['status'] != 'ok':
                    failed += 1
                    tqdm.write('sweep: point %s failed: %s' % (names[i], records[i]['error']),
                               file=sys.stderr)
                bar.set_postfix(failed=failed)
                bar.update(1)
    finally:
        close()
    rows, columns = results_rows(points, names, records, list(args.grid_keys))
    write_results(os.path.join(root, RESULTS), rows, columns)
    reused = sum(r['resumed'] for r in records)
    print('sweep: %d points, %d run, %d reused, %d failed; %s' %
          (len(points), len(points) - reused, reused, failed, os.path.join(root, RESULTS)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
