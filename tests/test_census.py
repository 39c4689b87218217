"""The census: every placement of the blockers on any cells, up to the board's symmetry,
on a local pool and on a real Dask scheduler and workers over loopback."""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import random
import signal
import sqlite3
import subprocess
import time
from itertools import combinations
from pathlib import Path

import pytest

from aspuzzles.census import census, census_space, class_size, solve_unit, units
from aspuzzles.driver import Session
from aspuzzles.puzzles.geniussquare import PUZZLE
from aspuzzles.registry import get_puzzle
from aspuzzles.spread import spread
from aspuzzles.sweep import SweepSummary, _chunks, sweep

from .conftest import ROOT, command_process, interrupted_run
from .oracles import geniusstar_algx

#: A sample of the square's census: 20 units spread over the range (2,852 classes, 6 of
#: them unsolvable), a few seconds on two cores.
SAMPLE = ("--shard", "500/1000", "--limit", "20")


def _sample_units() -> list[tuple[int, ...]]:
    space = census_space(get_puzzle("geniussquare"), {})[1]
    return units(space)[499::1000][:20]


def test_the_units_cover_every_placement_once():
    """Each sorted placement starts with exactly one unit's prefix."""
    space = census_space(get_puzzle("geniussquare"), {})[1]
    prefixes = units(space)
    assert len(prefixes) == len(set(prefixes))
    covered = sum(
        math.comb(space.cells - prefix[-1], space.chosen - len(prefix)) for prefix in prefixes
    )
    assert covered == math.comb(36, 7) == 8_347_680
    assert len(space.symmetries) == 8


def test_a_census_sample_on_the_local_pool(cli, tmp_path):
    store, unsolvable = tmp_path / "census.sqlite", tmp_path / "unsolvable.txt"
    sample = ("census", "geniussquare", *SAMPLE, "--store", store, "--unsolvable", unsolvable)
    run = cli(*sample, "--format", "json")
    assert run.code == 0, run.err
    figures = json.loads(run.out)
    assert (figures["classes"], figures["solvable"], figures["unsolvable"]) == (2852, 2846, 6)
    assert (figures["units"], figures["units_done"]) == (40920, 20)
    page = (ROOT / "docs" / "census.md").read_text()  # the page shows this sample
    assert "$ aspuzzles census geniussquare --shard 500/1000 --limit 20 --quiet\n" in page
    assert "22804 placements, 2852 classes, 2846 solvable, 6 unsolvable" in page
    # The figures again, by a plain count over the sample's placements: every placement
    # in one class, each class once, whatever unit it falls in.
    space = census_space(get_puzzle("geniussquare"), {})[1]
    placements = classes = 0
    for prefix in _sample_units():
        for rest in combinations(range(prefix[-1] + 1, 37), 7 - len(prefix)):
            placement = (*prefix, *rest)
            images = {tuple(sorted(s[c - 1] for c in placement)) for s in space.symmetries}
            if min(images) == placement:
                classes, placements = classes + 1, placements + len(images)
    assert (figures["placements"], figures["classes"]) == (placements, classes)
    # Each class called unsolvable has no tiling by a plain exact-cover search.
    keys = unsolvable.read_text().splitlines()
    assert len(keys) == 6
    for key in keys:
        assert (
            geniusstar_algx.count_tilings(PUZZLE.parse_roll(key, "<census>").blocked, PUZZLE) == 0
        )
    again = cli(*sample, "--format", "json")
    assert json.loads(again.out) == figures  # resumed: nothing left to do, the same figures


def test_a_census_past_its_time_limit_keeps_its_units_to_resume(cli, tmp_path):
    store = tmp_path / "census.sqlite"
    # 400 of the star's first units: half a minute of work, past the limit on any machine.
    args = ("census", "geniusstar", "--shard", "1/100", "--limit", "400", "--store", store)
    run = cli(*args, "--timeout", "1.5", "--unsolvable", tmp_path / "u.txt")
    assert run.code == 3 and "the same command resumes the census" in run.err
    with sqlite3.connect(store) as kept:
        assert kept.execute("SELECT header FROM meta").fetchone() == ("# census geniusstar",)
    counted = cli(*args, "--count", "--unsolvable", tmp_path / "u.txt")
    assert counted.code == 2 and "holds another census" in counted.err


def _first_roll(puzzle: str):
    game = get_puzzle(puzzle)
    swept = game.sweep()
    base = swept.base({})
    return game, swept, base, base._replace(blocked=game.all_rolls()[0])


@pytest.mark.parametrize("puzzle", ["geniussquare", "geniusstar"])
def test_the_search_in_python_answers_first_with_checked_tilings(puzzle, monkeypatch):
    """With the shipped encoding a sweep's or census's first try is the search in
    Python; its tilings pass the checker, and clingo is not asked."""
    game, swept, base, _ = _first_roll(puzzle)
    session = Session(game, base)
    monkeypatch.setattr(session, "solutions", lambda *_a, **_k: pytest.fail("clingo asked"))
    rolls = game.all_rolls()[::997][:40]
    found = 0
    for blocked in rolls:
        roll = base._replace(blocked=blocked)
        atoms = swept.first_in_python(roll)
        if atoms is None:
            continue  # left to clingo
        found += 1
        assert game.check(roll, game.decode(roll, atoms)) == []
        solution = session.first_of(swept, roll)
        assert solution is not None
    assert found >= len(rolls) // 2


def test_an_edited_encoding_is_searched_and_counted_by_clingo_alone(tmp_path, monkeypatch):
    """The search in Python restates the shipped rules, so an edited encoding never
    gets its answers: here the edit bans the monomino, and no roll has a tiling, though
    the shipped rules' search finds tilings and counts them."""
    (tmp_path / "encodings").mkdir()
    for name in ("geniussquare", "geniusstar"):
        text = (ROOT / "encodings" / f"{name}.lp").read_text()
        (tmp_path / "encodings" / f"{name}.lp").write_text(text)
    with (tmp_path / "encodings" / "geniussquare.lp").open("a") as encoding:
        encoding.write(":- use(m1,_).\n")
    monkeypatch.chdir(tmp_path)
    game, swept, base, roll = _first_roll("geniussquare")
    assert swept.first_in_python(roll) is not None  # Python tiles it by the old rules
    assert swept.count_in_python(roll)
    session = Session(game, base)
    assert not session.shipped
    assert session.first_of(swept, roll) is None
    assert session.count_of(swept, roll) == 0


def test_a_units_counts_agree_with_algorithm_x():
    """A unit of four classes, counted: each class's tilings as a plain search counts them."""
    space = census_space(get_puzzle("geniussquare"), {})[1]
    prefix = units(space)[299 + 5 * 1000]
    result = solve_unit("geniussquare", {}, prefix, count=True)
    assert result.classes == len(result.counts) == 4
    for key, count in result.counts.items():
        blocked = PUZZLE.parse_roll(key, "<census>").blocked
        assert count == geniusstar_algx.count_tilings(blocked, PUZZLE), key


def test_a_census_without_dask_installed_says_how_to_get_it(cli, tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def without_distributed(name, *args, **kwargs):
        if name == "distributed":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_distributed)
    run = cli(
        "census",
        "geniussquare",
        "--scheduler",
        "tcp://127.0.0.1:1",
        "--store",
        tmp_path / "s.sqlite",
    )
    assert run.code == 2 and "pip install 'aspuzzles[distributed]'" in run.err


def test_bad_census_requests_get_one_line(cli, tmp_path):
    run = cli("census", "haunted", "--store", tmp_path / "s.sqlite")
    assert (run.code, run.err) == (2, "aspuzzles: error: puzzle 'haunted' has no census\n")
    (tmp_path / "text.sqlite").write_text("some notes\n")
    run = cli("census", "geniussquare", "--store", tmp_path / "text.sqlite", "--limit", "1")
    assert run.code == 2 and run.err == (
        f"aspuzzles: error: {tmp_path / 'text.sqlite'}: not a census store (file is not a "
        "database); give another --store, or move this one away to start afresh\n"
    )
    assert (tmp_path / "text.sqlite").read_text() == "some notes\n"  # left as it was
    run = cli("census", "geniussquare", "--shard", "6/5")
    assert run.code == 2 and "--shard: expected K/N with 1 <= K <= N, not '6/5'" in run.err


def test_a_scheduler_address_that_is_none_is_refused_in_one_line(cli, tmp_path):
    pytest.importorskip("distributed")
    store = tmp_path / "s.sqlite"
    run = cli("census", "geniussquare", "--scheduler", "nonsense", "--store", store, "--limit", "1")
    assert run.code == 2
    assert run.err == (
        "aspuzzles: error: --scheduler nonsense: missing port number in address 'nonsense'\n"
    )


@pytest.fixture(scope="module")
def cluster():
    """Dask's real scheduler and two worker processes, on 127.0.0.1 only."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as running:
        assert running.scheduler_address.startswith("tcp://127.0.0.1:")
        yield running


@pytest.mark.slow
def test_the_census_on_a_loopback_dask_cluster_gives_the_local_figures(cluster, tmp_path):
    """The same figures on one local process, on two, and on the cluster."""
    game = get_puzzle("geniussquare")
    options = {"shard": (500, 1000), "limit": 20, "progress": False}
    local = census(game, {}, tmp_path / "local.sqlite", **options)
    alone = census(game, {}, tmp_path / "alone.sqlite", jobs=1, **options)
    remote = census(
        game, {}, tmp_path / "dask.sqlite", scheduler=cluster.scheduler_address, **options
    )
    assert remote.to_dict() == local.to_dict() == alone.to_dict()
    assert remote.unsolvable_keys == local.unsolvable_keys and len(local.unsolvable_keys) == 6


@pytest.mark.slow
def test_a_sweep_on_a_loopback_dask_cluster_writes_the_local_results(cluster, tmp_path):
    game = get_puzzle("geniussquare")
    local = sweep(game, {"count": True}, tmp_path / "local.tsv", limit=6, progress=False)
    remote = sweep(
        game,
        {"count": True},
        tmp_path / "dask.tsv",
        limit=6,
        progress=False,
        scheduler=cluster.scheduler_address,
    )
    assert remote.counts == local.counts and len(local.counts) == 6
    lines = sorted((tmp_path / "dask.tsv").read_text().splitlines())
    assert lines == sorted((tmp_path / "local.tsv").read_text().splitlines())


def _dies_the_first_time(task: tuple[str, int]) -> int:
    """A unit whose first run kills its worker (as the kernel's OOM killer would)."""
    marker, value = Path(task[0]), task[1]
    if value == 3 and not marker.exists():
        marker.write_text("died once")
        os.kill(os.getpid(), signal.SIGKILL)
    return value * value


def test_a_killed_workers_units_are_run_again(tmp_path):
    tasks = [(str(tmp_path / "marker"), value) for value in range(8)]
    with spread(_dies_the_first_time, tasks, jobs=2) as results:
        assert sorted(results) == [value * value for value in range(8)]
    assert (tmp_path / "marker").read_text() == "died once"


def _square(value: int) -> int:
    return value * value


def test_a_pool_is_stopped_when_its_block_is_left_while_a_result_is_handled():
    """Ctrl-C (here raised by hand) while the caller stores a result, not while it
    waits for one: the workers and the pool's manager thread are gone as the block is
    left, with the exception still held, not when the interpreter ends (where the
    manager thread raced the pool's exit hook and printed a traceback)."""
    import multiprocessing
    import threading

    threads, children = set(threading.enumerate()), set(multiprocessing.active_children())
    with (
        pytest.raises(KeyboardInterrupt) as stopped,
        spread(_square, list(range(50)), jobs=2) as results,
    ):
        for _ in results:
            raise KeyboardInterrupt
    assert stopped.traceback  # the frames, and the generator they hold, are kept
    assert set(multiprocessing.active_children()) <= children  # (a Dask cluster's stay)
    assert set(threading.enumerate()) <= threads


@pytest.mark.slow
def test_ctrl_c_stops_a_census_at_once_keeping_its_units(tmp_path):
    """Ctrl-C reaches the census and its pool workers alike: the census says what it
    kept, exits 130, and no worker is left; the same command then goes on."""
    store = tmp_path / "census.sqlite"
    # The star's first units: 15 s of work on a fast two-core machine, where a shard's
    # sample of them ended in 0.8 s, before the Ctrl-C.
    args = ("census", "geniusstar", "--limit", "100", "--store", str(store))
    run = interrupted_run(
        *args, "--unsolvable", str(tmp_path / "u.txt"), after=1.0, until=store.exists
    )
    assert run.returncode == 130 and "Traceback" not in run.stderr
    assert "the units done are kept; the same command resumes the census" in run.stderr
    left = subprocess.run(["pgrep", "-f", str(store)], capture_output=True, text=True)
    assert left.stdout == ""  # no worker outlives the command


# ------------------------------------------------- results files and stores under faults
def _swept(output: Path, puzzle: str = "geniusstar", **options) -> tuple[SweepSummary, list[str]]:
    """A counting sweep of the first 12 variants into ``output``: its summary and the
    file's lines, sorted (workers finish in any order)."""
    summary = sweep(
        get_puzzle(puzzle), {"count": True, **options}, output, limit=12, progress=False
    )
    return summary, sorted(output.read_text().splitlines())


def _same_figures(resumed: SweepSummary, whole: SweepSummary) -> None:
    assert (resumed.total, resumed.solvable, resumed.counts) == (
        whole.total,
        whole.solvable,
        whole.counts,
    )


def _resumed_after_cuts(tmp_path: Path, cuts, puzzle: str = "geniusstar", **options) -> None:
    """Cut the whole results file's last ``cut`` bytes (a full disk, a kill), resume:
    the file's rows and the figures are the uninterrupted run's. ``cuts`` are given the
    file's lines."""
    whole_file = tmp_path / "whole.tsv"
    whole, rows = _swept(whole_file, puzzle, **options)
    data = whole_file.read_bytes()
    for cut in cuts(data.splitlines(keepends=True)):
        output = tmp_path / f"cut{cut}.tsv"
        output.write_bytes(data[:-cut])
        resumed, resumed_rows = _swept(output, puzzle, **options)
        assert resumed_rows == rows, cut
        _same_figures(resumed, whole)
        assert resumed.solved_now >= 1, cut  # the torn line's variant, solved again


def test_a_torn_last_line_is_solved_again_and_the_figures_are_an_uninterrupted_runs(tmp_path):
    """A last line cut short (`truncate -s -2` took '192' to '19') was read as a result
    and then cut from the file: a wrong count, exit 0, and the roll lost from the file."""
    _resumed_after_cuts(
        tmp_path, lambda lines: [1, 2, len(lines[-1]) - 1, len(lines[-1]), len(lines[-1]) + 2]
    )


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (0, []),
        (1, [1]),
        (5, [2, 2, 1]),
        (6, [2, 2, 2]),
        (7, [2, 2, 2, 1]),
        (14, [2, 2, 2, 4, 4]),
        (15, [2, 2, 2, 4, 4, 1]),
    ],
)
def test_a_sweeps_chunks_hand_out_every_variant_once_the_first_ones_small(count, sizes):
    """Three chunks of two (each worker's first answers come soon), then of four."""
    items = list(range(100, 100 + count))
    chunks = list(_chunks(items, 4, 2, 3))
    assert [item for chunk in chunks for item in chunk] == items
    assert [len(chunk) for chunk in chunks] == sizes


def test_a_torn_line_of_a_reduced_sweep_has_its_class_solved_again(tmp_path):
    """With --reduce one solve writes its class's every roll: the class is solved again
    when any of its lines is missing, not only its representative's."""
    _resumed_after_cuts(tmp_path, lambda _: [3], "geniussquare", reduce=True)


@pytest.mark.slow
def test_a_sweep_resumes_right_whatever_the_last_lines_lost(tmp_path):
    """Every cut from 1 byte to the whole last line, and into the line before it."""

    def cuts(lines: list[bytes]) -> list[int]:
        last, before = len(lines[-1]), len(lines[-2])
        return [*range(1, last + 2), last + before // 2, last + before, last + before + 1]

    _resumed_after_cuts(tmp_path, cuts)


def _refused_unchanged(cli, run_args, path: Path, data: bytes, expected: str) -> None:
    path.write_bytes(data)
    run = cli(*run_args)
    assert run.code == 2, run.err
    assert run.err.startswith(f"aspuzzles: error: {path}: ") and expected in run.err
    assert run.err.count("\n") == 1 and len(run.err) < 300 and "move this one away" in run.err
    assert path.read_bytes() == data  # left as it was


def test_a_results_file_that_is_not_the_sweeps_is_refused_unchanged(cli, tmp_path):
    """Random bytes were an internal error (exit 4) echoing 250 raw bytes."""
    output = tmp_path / "c.tsv"
    args = ("sweep", "geniusstar", "--count", "--limit", "2", "-o", output)
    noise = random.Random(68).randbytes(250)
    _refused_unchanged(cli, args, output, noise, "not a results file of this sweep")
    ours = b"# sweep geniusstar count\n"
    for middle in (
        b"notes\n",
        b"1 2 10 12 18 19 26\t1e3\n",
        b"\xff\xfe\t3\n",
        b"no such roll\t3\n",
    ):
        data = ours + middle + b"1 2 10 12 18 19 25\t979\n"
        _refused_unchanged(cli, args, output, data, "line 2 is not a result of this sweep")
    _refused_unchanged(
        cli, args, output, b"# sweep geniusstar\n", "holds another sweep ('# sweep geniusstar'"
    )


def test_a_results_file_or_store_that_is_no_file_is_refused(cli, tmp_path):
    """A sweep reads its results file back to resume: a FIFO (or ``-o /dev/full``,
    which reads as zeros without end) held the command forever, past ``--timeout``.
    Now refused at once; ``/dev/null`` stays a way to keep no results."""
    fifo = tmp_path / "results"
    os.mkfifo(fifo)
    process = command_process(
        "sweep", "geniussquare", "--limit", "2", "--timeout", "20", "-o", str(fifo)
    )
    try:
        _, err = process.communicate(timeout=60)
    finally:
        process.kill()
    assert process.returncode == 2, err
    assert err == (
        f"aspuzzles: error: {fifo}: not a regular file: a sweep's results file is read "
        "back to resume it; give a file's name\n"
    )
    run = cli("sweep", "geniussquare", "--limit", "2", "-o", os.devnull)
    assert run.code == 0, run.err
    assert "geniussquare: 2 of 2 solvable" in run.out + run.err
    run = cli("census", "geniussquare", *SAMPLE, "--store", fifo)
    assert run.code == 2 and run.err == (
        f"aspuzzles: error: {fifo}: not a regular file: a census store is a file; give "
        "another --store, or move this one away to start afresh\n"
    )


def test_a_store_that_is_not_a_census_store_is_refused_unchanged(cli, tmp_path):
    """Another program's database had the census's tables added to it."""
    store = tmp_path / "theirs.sqlite"
    with sqlite3.connect(store) as theirs:
        theirs.execute("CREATE TABLE people (name TEXT)")
        theirs.execute("INSERT INTO people VALUES ('ann')")
    theirs.close()
    args = ("census", "geniussquare", *SAMPLE, "--store", store, "--unsolvable", tmp_path / "u")
    _refused_unchanged(cli, args, store, store.read_bytes(), "another program's database")
    store.unlink()
    with sqlite3.connect(store) as theirs:  # the census's table names, not its tables
        theirs.execute("CREATE TABLE meta (x INTEGER)")
        theirs.execute("CREATE TABLE units (y INTEGER)")
    theirs.close()
    _refused_unchanged(cli, args, store, store.read_bytes(), "(tables meta, units)")
    noise = random.Random(68).randbytes(4096)
    _refused_unchanged(cli, args, store, noise, "not a census store (file is not a database)")
    assert not (tmp_path / "u").exists()


def _full_disk_after(writes: int, real_write):
    """``sweep._write`` as on a disk that fills up: ``writes`` whole chunks, then half
    of the next and ENOSPC (as a short write on a full disk leaves a torn line)."""
    calls = []

    def write(sink, data: bytes) -> None:
        calls.append(data)
        if len(calls) <= writes:
            return real_write(sink, data)
        real_write(sink, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    return write


def test_a_full_disk_stops_a_sweep_in_one_line_keeping_its_results(cli, tmp_path, monkeypatch):
    import aspuzzles.sweep as sweeping

    whole, rows = _swept(tmp_path / "whole.tsv")
    output = tmp_path / "c.tsv"
    args = ("sweep", "geniusstar", "--count", "--limit", "12", "-o", output)
    monkeypatch.setattr(sweeping, "_write", _full_disk_after(3, sweeping._write))
    run = cli(*args)
    assert run.code == 2 and run.err.count("\n") == 1 and "Traceback" not in run.err
    assert run.err.startswith(f"aspuzzles: error: {output}: cannot write: No space left on device")
    assert "then the same command resumes" in run.err
    kept = output.read_text().splitlines()
    assert len(kept) > 2 and set(kept[1:-1]) <= set(rows)  # the header, results, a torn line
    monkeypatch.undo()
    resumed, resumed_rows = _swept(output)
    assert resumed_rows == rows
    _same_figures(resumed, whole)


def test_a_results_file_that_cannot_be_written_is_one_line(cli, tmp_path, monkeypatch):
    """As a read-only file or folder answers (tested so, since root may write anyway)."""
    import aspuzzles.sweep as sweeping

    def read_only(*_args, **_kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(sweeping, "open", read_only, raising=False)
    output = tmp_path / "c.tsv"
    run = cli("sweep", "geniusstar", "--limit", "2", "-o", output)
    assert run.code == 2 and run.err == (
        f"aspuzzles: error: {output}: cannot write: Permission denied; 0 results kept: make "
        "room or make it writable (or give another results file, -o), then the same "
        "command resumes\n"
    )
    assert not output.exists()


def _store_connect(monkeypatch, store: Path, how: str) -> None:
    """The census's store opened as on a full disk (small pages, five at most: room for
    a few units) or on a read-only one; other connections as they are."""
    real = sqlite3.connect

    def connect(database, *args, **kwargs):
        if database != store:
            return real(database, *args, **kwargs)
        if how == "read-only":
            return real(f"{store.as_uri()}?mode=ro", uri=True)
        connection = real(database, *args, **kwargs)
        connection.execute("PRAGMA page_size = 512")  # (a new file's)
        connection.execute("PRAGMA max_page_count = 5")
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect)


@pytest.mark.parametrize(
    ("how", "said"),
    [("full", "database or disk is full"), ("read-only", "attempt to write a readonly database")],
)
def test_a_store_that_cannot_be_written_stops_a_census_in_one_line(
    cli, tmp_path, monkeypatch, how, said
):
    store = tmp_path / "census.sqlite"
    args = ("census", "geniussquare", "--store", store, "--unsolvable", tmp_path / "u")
    if how == "full":
        _store_connect(monkeypatch, store, how)
    first = cli(*args, "--shard", "500/1000", "--limit", "2")  # the store's first units
    assert first.code == 0, first.err
    _store_connect(monkeypatch, store, how)
    run = cli(*args, *SAMPLE)
    assert run.code == 2 and run.err.count("\n") == 1 and "Traceback" not in run.err
    assert run.err.startswith(f"aspuzzles: error: {store}: cannot use the results store: {said}")
    assert "the units done are kept" in run.err
    monkeypatch.undo()
    with sqlite3.connect(store) as kept:
        assert kept.execute("SELECT count(*) FROM units").fetchone()[0] >= 2
    kept.close()


@pytest.mark.slow
def test_ctrl_c_of_a_counting_sweep_ends_it_at_once_every_time(tmp_path):
    """Ctrl-C hung one counting sweep in a few (after 'interrupted', three threads
    waiting on a lock the interrupted main thread held inside the pool's code), and a
    second Ctrl-C printed a traceback. Fifty tries, every other one pressed twice, each
    on a fresh results file (resuming one file, a fast machine finished the whole count
    by the 37th try, before its Ctrl-C)."""
    draw = random.Random(68)
    for attempt in range(50):
        output = tmp_path / f"x{attempt}.tsv"
        process = command_process("sweep", "geniussquare", "--count", "-o", str(output))
        time.sleep(draw.uniform(0.5, 2.5))
        os.killpg(process.pid, signal.SIGINT)
        pressed = time.perf_counter()
        if attempt % 2:
            time.sleep(draw.uniform(0, 0.1))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)
        try:
            _, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            pytest.fail(f"try {attempt}: still running 10 s after Ctrl-C")
        took = time.perf_counter() - pressed
        assert process.returncode == 130 and took < 3, (attempt, took, err)
        assert "Traceback" not in err and err.endswith("aspuzzles: interrupted\n"), err
        lines = output.read_text().splitlines() if output.exists() else []
        assert all(line.count("\t") == 1 for line in lines[1:])  # every result whole
    left = subprocess.run(["pgrep", "-f", str(tmp_path)], capture_output=True, text=True)
    assert left.stdout == ""  # no worker outlives the command


def test_a_capped_count_says_n_or_more_and_weighs_classes_by_their_placements(cli, tmp_path):
    """`--count-cap N`: each class counted up to N (N: N or more), and how many classes
    and placements (each class weighted by the placements it holds) have each count,
    as a plain count of the same unit gives them."""
    space = census_space(get_puzzle("geniussquare"), {})[1]
    index = 299 + 5 * 1000  # the unit of four classes counted above
    prefix = units(space)[index]
    shard = ("--shard", f"{index + 1}/{len(units(space))}", "--limit", "1", "--quiet")
    files = ("--unsolvable", tmp_path / "u.txt", "--store", tmp_path / "capped.sqlite")
    plain = solve_unit("geniussquare", {}, prefix, count=True).counts
    cap = sorted(plain.values())[1] + 1  # two classes below it, two at it or above
    run = cli("census", "geniussquare", "--count-cap", cap, *shard, *files, "--format", "json")
    assert run.code == 0, run.err
    figures = json.loads(run.out)
    classes: dict[str, int] = {}
    placements: dict[str, int] = {}
    for rest in combinations(range(prefix[-1] + 1, 37), 7 - len(prefix)):
        size = class_size((*prefix, *rest), space.symmetries)
        if size is not None:
            count = plain[space.key((*prefix, *rest))]
            label = f"{cap}+" if count >= cap else str(count)
            classes[label] = classes.get(label, 0) + 1
            placements[label] = placements.get(label, 0) + size
    assert figures["count_cap"] == cap and figures["counts"] == {
        "classes_by_count": classes,
        "placements_by_count": placements,
    }
    assert classes[f"{cap}+"] == 2 and sum(placements.values()) == figures["placements"]
    again = cli("census", "geniussquare", "--count-cap", cap, *shard, *files)  # resumed
    assert again.code == 0 and f"placements by solutions (counted up to {cap}): " in again.out
    assert f"{cap} or more: {placements[f'{cap}+']}" in again.out


def test_the_counts_summed_from_their_tally_are_statistics_over_every_class():
    """A census keeps how many classes have each count, not each class's count: its
    fewest, most, median and mean are what ``statistics`` gives over the classes'
    counts themselves (an even number of classes: the mean of the middle two)."""
    import statistics

    from aspuzzles.census import Totals, _distribution

    rng = random.Random(5)
    for size in [1, 2, 3, 4, 7, 10, 101, 1000]:
        counts = [rng.choice([0, 1, 2, 3, rng.randrange(10**6)]) for _ in range(size)]
        totals = Totals()
        for start in range(0, size, 3):  # units of three classes each
            unit = {f"c{n}": counts[n] for n in range(start, min(start + 3, size))}
            totals.add(1, len(unit), len(unit), [], dict(unit))
        found = _distribution(totals.classes_by_count)
        median = statistics.median(counts)
        assert found["fewest"] == min(counts) and found["most"] == max(counts)
        assert found["median"] == median and type(found["median"]) is type(median)
        assert found["mean"] == statistics.fmean(counts)
        assert found["classes_by_count"] == {
            str(value): counts.count(value) for value in sorted(set(counts))
        }
        assert totals.classes == size and not totals.placements_by_count
    capped = Totals()
    capped.add(5, 2, 2, ["a b"], {"x": [3, 4], "y": [3, 1]})
    capped.add(2, 1, 0, [], {"z": [0, 2]})
    assert capped.classes_by_count == {3: 2, 0: 1}
    assert capped.placements_by_count == {3: 5, 0: 2}
    assert (capped.units, capped.placements, capped.unsolvable) == (2, 7, ["a b"])
