"""`--cluster`: sweeps on a Dask cluster, a LocalCluster of 2 worker processes shared by the
module, reached by its address as a remote scheduler would be."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import flowsat.generate.run
from flowsat.bench import Settings, bench, load_puzzles, write_report
from flowsat.bench.meta import where
from flowsat.bench.records import RESULTS, read_records
from flowsat.bench.report import ms
from flowsat.generate.run import make_one
from flowsat.puzzle.rules import Rules
from tests.conftest import ROOT
from tests.test_bench import EXAMPLES, FLOW5, ONE_SAT, key, lines, run_cli, test_backends
from tests.test_generate import files_of, generate

distributed = pytest.importorskip("distributed")

__all__ = ["test_backends"]  # the fixture, used here by name

SAT_AND_ASTAR = dict(backends=["sat", "astar"], encodings=["edges-binary"],
                     solvers=["cadical195"], baselines=False, timeout=30)


@pytest.fixture(scope="module")
def address():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def client(address):
    with distributed.Client(address) as client:
        yield client


def worker_pids(client) -> set[int]:
    return set(client.run(os.getpid).values())


def answers(folder) -> dict[tuple, tuple]:
    """Per run, what does not depend on the clock: its answer and the size of its work."""
    return {key(r): (r["status"], r["rows"], r["colors"], r["stats"].get("variables"),
                     r["stats"].get("clauses"), r["stats"].get("nodes"))
            for r in read_records(folder)}


def test_the_cluster_makes_the_records_of_the_local_pool(tmp_path, address):
    puzzles = load_puzzles([EXAMPLES])[0]
    for name, options in (("pool", {"workers": 2}), ("cluster", {"cluster": address})):
        bench(Settings([str(EXAMPLES)], out=str(tmp_path / name), **SAT_AND_ASTAR,
                       **options), puzzles, progress=False)
    pool, cluster = answers(tmp_path / "pool"), answers(tmp_path / "cluster")
    assert len(cluster) == len(lines(tmp_path / "cluster")) == 7 * 2
    assert cluster == pool
    assert {s for s, *_ in cluster.values()} == {"solved"}
    for r in read_records(tmp_path / "cluster"):
        assert (r["host"], r["machine"]) == (where()["host"], where()["machine"])
        assert r["time_s"] > 0 and r["load"] is not None
    report = write_report(tmp_path / "cluster", plots=False)[0].read_text()
    assert f"on the Dask cluster `{address}` (the machine above" in report
    assert f"runs on {where()['host']}" in report and "## By machine" not in report


def test_a_hanging_run_is_killed_and_a_dying_one_spares_its_dask_worker(
        tmp_path, address, client, test_backends):
    before = worker_pids(client)
    result = run_cli("bench", FLOW5, "--backends", "hang,dies", "--repeat", "2", "--timeout",
                     "0.2", "--cluster", address, "--out", str(tmp_path))
    assert result.exit_code == 4, result.output  # the run that died is an error
    records = lines(tmp_path)
    assert sorted((r["config"], r["repeat"]) for r in records) == [
        ("dies/default", 1), ("dies/default", 2), ("hang/default", 1), ("hang/default", 2)]
    for r in records:
        if r["config"] == "hang/default":
            assert (r["status"], r["time_s"]) == ("timeout", None)
            assert "worker killed" in r["error"]
            assert r["wall_s"] >= 1.2  # the timeout and the grace, then killed
        else:
            assert (r["status"], r["error"]) == ("error", "worker died: exit status 3")
    assert worker_pids(client) == before  # no Dask worker went down with its run


def test_a_dask_worker_killed_mid_sweep_loses_no_run_and_counts_none_twice(
        tmp_path, address, client, test_backends):
    settings = Settings([str(EXAMPLES)], backends=["slow"], repeat=2, timeout=30,
                        out=str(tmp_path), cluster=address)
    puzzles = load_puzzles([EXAMPLES])[0]
    victim = min(worker_pids(client))
    done: list = []
    sweep = threading.Thread(target=lambda: done.append(bench(settings, puzzles,
                                                               progress=False)))
    sweep.start()
    wait_for_lines(tmp_path / RESULTS, 3)
    os.kill(victim, signal.SIGKILL)  # busy: two runs are in flight per worker
    sweep.join(timeout=120)
    assert done and done[0]["limit"] == 7 * 2
    records = lines(tmp_path)
    assert len(records) == 7 * 2 == len({key(r) for r in records})
    assert {r["status"] for r in records} == {"limit"}  # rerun elsewhere, not lost
    assert victim not in worker_pids(client)
    client.wait_for_workers(2, timeout=60)  # the nanny's fresh worker, for the next tests


def test_the_client_killed_and_resumed_completes_each_run_once(tmp_path, address,
                                                               test_backends):
    args = ["bench", str(EXAMPLES), "--backends", "naps", "--repeat", "4", "--timeout", "5",
            "--cluster", address, "--out", str(tmp_path)]
    code = ("import sys; from flowsat.backend import REGISTRY; "
            "REGISTRY['naps'] = 'tests.bench_backends.naps'; "
            "from flowsat.commands import app; app(sys.argv[1:])")
    child = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT,
                             stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    wait_for_lines(tmp_path / RESULTS, 5)
    child.send_signal(signal.SIGKILL)
    child.wait()
    before = lines(tmp_path)
    assert 5 <= len(before) < 28

    settings = Settings([str(EXAMPLES)], backends=["naps"], repeat=4, timeout=5,
                        out=str(tmp_path), cluster=address)
    assert bench(settings, load_puzzles([EXAMPLES])[0], resume=True, progress=False) == {
        "limit": 28 - len(before)}
    records = lines(tmp_path)
    assert records[:len(before)] == before
    assert len(records) == 28 == len({key(r) for r in records})


def wait_for_lines(path, count: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (
            not path.exists() or path.read_text().count("\n") < count):
        time.sleep(0.01)


def test_generate_on_the_cluster_makes_the_same_files(tmp_path, address):
    args = ["--size", "6x6", "--count", "3", "--seed", "40", "--max-nodes", "200"]
    assert generate(*args, "--out", str(tmp_path / "here")).exit_code == 0
    result = generate(*args, "--cluster", address, "--out", str(tmp_path / "there"))
    assert result.exit_code == 0, result.output
    here = files_of(tmp_path / "here")
    assert len(here) == 3 and files_of(tmp_path / "there") == here


def test_experiment_on_the_cluster_says_so_in_its_command(tmp_path, address):
    result = run_cli("experiment", FLOW5, "--encodings", "edges-binary", "--solvers",
                     "cadical195", "--repeat", "1", "--cluster", address, "--out",
                     str(tmp_path))
    assert result.exit_code == 0, result.output
    assert [r["status"] for r in lines(tmp_path)] == ["solved"]
    assert f"--cluster {address}" in (tmp_path / "encodings.md").read_text()


@pytest.mark.parametrize(("args", "message"), [
    (["--cluster", "local:0"], "expected local:N"),
    (["--cluster", "somewhere"], "expected local:N"),
    (["--cluster", "local:2", "--workers", "2"], "--workers is for the local pool"),
])
def test_cluster_usage_errors_exit_2(tmp_path, args, message):
    result = run_cli("bench", FLOW5, *ONE_SAT, *args, "--out", str(tmp_path))
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / RESULTS).exists()


def test_without_cluster_dask_is_not_imported(tmp_path):
    code = ("import sys; from flowsat.commands import app\n"
            "try: app(sys.argv[1:])\n"
            "except SystemExit as done: assert done.code == 0, done.code\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    done = subprocess.run([sys.executable, "-c", code, "bench", FLOW5, "--backends", "sat",
                           *ONE_SAT, "--out", str(tmp_path)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    assert [r["status"] for r in lines(tmp_path)] == ["solved"]


def test_the_report_groups_timings_by_machine_and_says_when_tables_mix_them(tmp_path):
    """Host b is ten times slower than host a; on each, zucker2016 takes twice as long as
    edges-binary: each machine's speed-up is x2.00 whatever the other's times."""
    settings = Settings([FLOW5], backends=["sat"], encodings=["edges-binary", "zucker2016"],
                        solvers=["cadical195"], baselines=False, repeat=2, timeout=30,
                        out=str(tmp_path))
    bench(settings, load_puzzles(settings.paths)[0], progress=False)
    records = lines(tmp_path)
    for r in records:
        host, slower = ("a", 1) if r["repeat"] == 1 else ("b", 10)
        r.update(host=host, machine=f"CPU {host}", time_s=0.001 * slower *
                 (2 if "zucker2016" in r["config"] else 1))
    (tmp_path / RESULTS).write_text("".join(json.dumps(r) + "\n" for r in records))
    text = write_report(tmp_path, baseline="sat/zucker2016/cadical195", plots=False)[0] \
        .read_text()
    assert "**runs on 2 machines**" in text and "## By machine" in text
    for host in ("a", "b"):
        part = text.split(f"### {host} (CPU {host})", 1)[1].split("\n#", 1)[0]
        rows = {cells[0]: cells[1:] for ln in part.splitlines() if ln.startswith("| `")
                for cells in [[c.strip() for c in ln.strip("|").split("|")]]}
        runs, total, _cpu, speedup = rows["`sat/edges-binary/cadical195`"]
        assert (runs, total, speedup) == ("1", ms(0.001 * (1 if host == "a" else 10)),
                                          "\u00d72.00")


class Workers:
    """Stands for a Client whose workers answer `client.run(version)` with these."""

    def __init__(self, answer):
        self.answer = answer

    def run(self, function):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_workers_with_another_flowsat_are_refused():
    from flowsat.bench.cluster import same_flowsat, version
    from flowsat.result import UsageError

    same_flowsat(Workers({"tcp://a:1": version(), "tcp://b:1": version()}), "tcp://s:8786")
    with pytest.raises(UsageError, match=r"another flowsat .*tcp://b:1 0\.0\.1"):
        same_flowsat(Workers({"tcp://a:1": version(), "tcp://b:1": "0.0.1"}), "tcp://s:8786")
    with pytest.raises(UsageError, match=r"cannot run flowsat .*No module named 'flowsat'"):
        same_flowsat(Workers(ModuleNotFoundError("No module named 'flowsat'")), "tcp://s:8786")


def test_no_scheduler_or_no_dask_is_a_usage_error(tmp_path, monkeypatch):
    from flowsat.bench import cluster

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    nowhere = ["--cluster", "tcp://127.0.0.1:9"]  # the discard port: nothing listens
    result = run_cli("bench", FLOW5, *ONE_SAT, *nowhere, "--out", str(tmp_path / "b"))
    assert result.exit_code == 2 and "no Dask scheduler answers" in result.output
    result = generate("--size", "5x5", *nowhere)
    assert result.exit_code == 2 and "no Dask scheduler answers" in result.output
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    result = run_cli("bench", FLOW5, *ONE_SAT, "--cluster", "local:2", "--out",
                     str(tmp_path / "c"))
    assert result.exit_code == 2 and "pip install 'flowsat[cluster]'" in result.output


def test_a_task_replaces_a_worker_process_that_died_between_runs():
    """What a Dask task does, run here: its thread's worker process, killed while idle, is
    replaced by the next run rather than failing it."""
    from flowsat.bench import cluster
    from flowsat.bench.plan import plan

    settings = Settings([FLOW5], backends=["sat"], encodings=["edges-binary"],
                        solvers=["cadical195"], baselines=False)
    run = plan(load_puzzles([FLOW5])[0], "none", settings.configs(), 1)[0]
    first = cluster.solve_run(run, 30, Rules(), cluster.version())
    worker = cluster.local.worker
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.join()
    second = cluster.solve_run(run, 30, Rules(), cluster.version())
    assert (first["status"], second["status"]) == ("solved", "solved")
    assert cluster.local.worker is not worker and second["host"] == where()["host"]
    cluster.local.worker.stop()
    assert cluster.solve_run(run, 30, Rules(), "0.0.1")["error"] == (
        f"this worker runs flowsat {cluster.version()}, the bench 0.0.1")


def fails_on_41(order, seed, rated=True):
    """Stands for a generating task that fails on the cluster (seed 41 only)."""
    if seed == 41:
        raise RuntimeError("the task failed")
    return make_one(order, seed, rated)


def test_generate_reports_a_failed_task_and_makes_the_other_seeds(tmp_path, address,
                                                                     monkeypatch):
    monkeypatch.setattr(flowsat.generate.run, "make_one", fails_on_41)
    result = generate("--size", "5x5", "--count", "3", "--seed", "40", "--max-nodes", "200",
                      "--cluster", address, "--out", str(tmp_path))
    assert result.exit_code == 4
    assert "seed 41: on the cluster: RuntimeError: the task failed" in result.output
    assert sorted(files_of(tmp_path)) == ["5x5-0040.txt", "5x5-0042.txt"]


def test_a_run_given_back_twice_is_recorded_once(tmp_path, monkeypatch):
    """Should a cluster hand a run's outcome back twice, the bench appends the first only."""
    from flowsat.bench import sweep

    given = sweep.runs

    def twice(settings, todo):
        for run, got in given(settings, todo):
            yield run, got
            yield run, got | {"status": "error"}

    monkeypatch.setattr(sweep, "runs", twice)
    settings = Settings([str(EXAMPLES)], backends=["sat"], encodings=["edges-binary"],
                        solvers=["cadical195"], baselines=False, out=str(tmp_path))
    statuses = bench(settings, load_puzzles([EXAMPLES])[0], progress=False)
    assert statuses == {"solved": 7} and [r["status"] for r in lines(tmp_path)] == ["solved"] * 7
