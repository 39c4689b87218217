"""Solve every variant of a puzzle (every dice roll, say) on one grounding per process.

A puzzle that can be swept fills in its sweep slot (``Puzzle.sweep()``, a
:class:`~aspuzzles.capabilities.Sweep`): what a sweep covers (``variants``) and how a
variant is assumed (``assumptions``); this module spreads the variants over worker processes, each
holding one :class:`~aspuzzles.driver.Session`, and appends ``key<TAB>value`` lines to
a results file as they come (the value 1 or 0 for solvable or not; with ``count``, the
number of solutions), so that an interrupted sweep resumes where it stopped.
"""

from __future__ import annotations

import errno
import json
import os
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from .capabilities import Sweep, Variants, offered
from .driver import Session
from .errors import InputError
from .paths import special_file
from .puzzle import Puzzle
from .registry import get_puzzle
from .spread import kept_when_stopped, spread, worker_state


def sweepable(game: Puzzle[Any, Any]) -> Sweep[Any]:
    """The puzzle's sweep slot, or a one-line error for a puzzle without one."""
    return offered(game.sweep(), game.name, "has no sweep")


@dataclass
class SweepSummary:
    total: int
    solvable: int
    solved_now: int
    seconds: float
    #: With ``count``: each variant's number of solutions, by key.
    counts: dict[str, int] | None = None

    def extremes(self) -> list[str]:
        """The fewest, most and median counts and the variants that reach them (the
        median of an even number of counts is the mean of the middle two)."""
        if not self.counts:
            return []
        values = sorted(self.counts.values())
        median = statistics.median(values)
        lines = []
        for name, value in (("fewest", values[0]), ("most", values[-1]), ("median", median)):
            reached = sorted(key for key, count in self.counts.items() if count == value)
            shown = ", ".join(reached[:3]) + (
                f" and {len(reached) - 3} more" if len(reached) > 3 else ""
            )
            lines.append(f"{name} {value:g}" + (f": {shown}" if reached else ""))
        return lines


def _grounded(puzzle: str, options: dict[str, Any]) -> tuple[Sweep[Any], Session, Variants[Any]]:
    """A worker's sweep: the puzzle's sweep slot, one grounding, and the variants (a
    task names them by their places, the same in every process)."""
    game = get_puzzle(puzzle)
    swept = sweepable(game)
    return swept, Session(game, swept.base(options)), _variants(swept, puzzle, options)


#: The variants of a sweep made in this process, by puzzle and options: the command
#: makes them once, and its forked workers start with them.
_VARIANTS: dict[str, Variants[Any]] = {}


def _variants(swept: Sweep[Any], puzzle: str, options: dict[str, Any]) -> Variants[Any]:
    key = json.dumps([puzzle, {k: v for k, v in options.items() if k != "count"}], sort_keys=True)
    if key not in _VARIANTS:
        _VARIANTS.clear()
        _VARIANTS[key] = swept.variants(options)
    return _VARIANTS[key]


#: A task: the puzzle, the sweep's options, the places of its variants, and whether
#: the worker writes their results' lines itself.
SweepTask = tuple[str, dict[str, Any], list[int], bool]


def solve_chunk(task: SweepTask) -> tuple[int, list[int], bytes]:
    """The first place a task names, the values of the variants at its places of the
    sweep's list, and, where the task says so, their lines for the results file.
    With ``options["count"]`` a value is a variant's number of solutions (where it has
    one, a first solution is found and checked too, so that no count stands on an
    unchecked answer), otherwise 1 or 0 (a solution found and checked, or none).
    The worker's grounding and variants are made on its first chunk and kept; a task
    carries numbers only, so handing it out costs the command next to nothing, and
    naming the variants (a string each) is the workers' work where the lines need
    nothing the command alone knows."""
    puzzle, options, places, writes_lines = task
    swept, grounded, variants = worker_state(
        json.dumps(["sweep", puzzle, options], sort_keys=True), lambda: _grounded(puzzle, options)
    )
    values = _values(swept, grounded, variants, options, places)
    text = _lines(zip(variants.keys(places), values, strict=True)) if writes_lines else b""
    return places[0], values, text


def _lines(results: Iterable[tuple[str, int]]) -> bytes:
    """Results as the results file holds them: a variant's key and its value a line."""
    return "".join(f"{key}\t{value}\n" for key, value in results).encode()


def _values(
    swept: Sweep[Any],
    grounded: Session,
    variants: Variants[Any],
    options: dict[str, Any],
    places: list[int],
) -> list[int]:
    """The values of the variants at ``places`` (see ``solve_chunk``)."""
    chosen = variants.instances(places)
    if not options.get("count"):
        return [int(found) for found in grounded.firsts_of(swept, chosen)]
    counts = [grounded.count_of(swept, variant) for variant in chosen]
    counted = [place for place, count in zip(places, counts, strict=True) if count]
    found = grounded.firsts_of(swept, variants.instances(counted))
    for place, tiled in zip(counted, found, strict=True):
        if not tiled:
            raise RuntimeError(f"{variants.keys([place])[0]}: solutions counted, none found")
    return counts


def warm_sweep(puzzle: str, options: dict[str, Any], place: int) -> None:
    """The variant at ``place`` solved (and counted up to one) before any limit applies."""
    swept, grounded, variants = _grounded(puzzle, options)
    grounded.load_for(swept, variants.instances([place])[0], bool(options.get("count")))


def _chunks(items: list[int], size: int, first: int, firsts: int) -> Iterator[list[int]]:
    """``items`` in ``firsts`` chunks of ``first`` (for the first answers to come
    soon), then in chunks of ``size``."""
    opening = min(len(items), first * firsts)
    for start in range(0, opening, first):
        yield items[start : min(start + first, opening)]
    for start in range(opening, len(items), size):
        yield items[start : start + size]


#: What to do with a results file that is not this sweep's (the file is left as it is).
ANOTHER_FILE = "give another results file (-o), or move this one away to start afresh"


def read_results(path: Path, header: str, keys: set[str] | None = None) -> dict[str, int]:
    """Results already in a file (for resuming); a torn or unreadable last line is left
    out (see ``resumable``)."""
    return resumable(path, header, keys)[0]


def resumable(
    path: Path, header: str, keys: set[str] | None = None, counting: bool = True
) -> tuple[dict[str, int], int]:
    """The results in ``path``, read as bytes, and how many of its bytes hold the header
    and those results (0: start the file afresh). A last line that is torn (no line end:
    a kill or a full disk cut it short) or unreadable is left out, so its variant is
    solved again; a file that is not this sweep's (another sweep's, another program's,
    or one with an unreadable line before its last) is refused and left unchanged.
    ``keys``, when given, are every key the sweep can write; without ``counting`` a
    value is 0 or 1. A device (but ``/dev/null``: results thrown away) or a FIFO is
    refused: read back, ``/dev/zero`` never ends and a FIFO waits for a writer."""
    if special_file(path) and path.resolve() != Path(os.devnull):
        raise InputError(
            "not a regular file: a sweep's results file is read back to resume it; "
            "give a file's name",
            str(path),
        )
    try:
        data = path.read_bytes() if path.exists() else b""
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", str(path)) from None
    head = (header + "\n").encode()
    if head.startswith(data):  # empty, or a header a kill cut short
        return {}, 0
    if not data.startswith(head):
        first = data.split(b"\n", 1)[0]
        if first.startswith(b"# sweep ") and first.isascii() and len(first) < 200:
            found = first.decode()
            raise InputError(
                f"holds another sweep ({found!r}, not {header!r}); {ANOTHER_FILE}", str(path)
            )
        raise InputError(
            f"not a results file of this sweep (its first line is not {header!r}); {ANOTHER_FILE}",
            str(path),
        )
    done: dict[str, int] = {}
    lines = data[len(head) :].split(b"\n")
    kept = len(head)
    for number, line in enumerate(lines[:-1], start=2):
        result = _result(line, keys, counting)
        if result is None:
            if number == len(lines) and not lines[-1]:
                break  # the last line, unreadable: left out like a torn one
            raise InputError(
                f"line {number} is not a result of this sweep (KEY<TAB>NUMBER); {ANOTHER_FILE}",
                str(path),
            )
        done[result[0]] = result[1]
        kept += len(line) + 1
    return done, kept


def _result(line: bytes, keys: set[str] | None, counting: bool) -> tuple[str, int] | None:
    """A line's key and value, or None for a line no sweep writes."""
    if not line.isascii():
        return None
    key, tab, value = line.decode().partition("\t")
    if not tab or not value.isdigit() or (keys is not None and key not in keys):
        return None
    if not counting and value not in ("0", "1"):
        return None
    return key, int(value)


def _cannot_write(error: OSError, output: Path, results: int) -> InputError:
    return InputError(
        f"cannot write: {error.strerror or error}; {results} results kept: make room or "
        "make it writable (or give another results file, -o), then the same command resumes",
        str(output),
    )


def _opened(output: Path, header: str, kept: int, results: int) -> BinaryIO:
    """The results file, opened to append, with only its first ``kept`` bytes (what
    follows, a torn or unreadable last line, is cut; nothing at all: the header is
    written)."""
    try:
        sink = open(output, "r+b" if output.exists() else "w+b", buffering=0)  # noqa: SIM115
    except OSError as error:
        raise _cannot_write(error, output, results) from None
    try:
        size = sink.seek(0, os.SEEK_END)
        if size > kept:
            sink.truncate(kept)
            if kept:
                print(
                    f"{output}: its last line, cut short or unreadable, was set aside; "
                    "that variant is solved again",
                    file=sys.stderr,
                )
        sink.seek(kept)
        if not kept:
            _write(sink, (header + "\n").encode())
    except OSError as error:
        sink.close()
        raise _cannot_write(error, output, results) from None
    return sink


def _write(sink: BinaryIO, data: bytes) -> None:
    """All of ``data``, in as many writes as the file takes."""
    view = memoryview(data)
    while view:
        written = sink.write(view)
        if not written:
            raise OSError(errno.EIO, "the file took none of the bytes written")
        view = view[written:]


def sweep(
    game: Puzzle[Any, Any],
    options: dict[str, Any],
    output: Path,
    jobs: int = 2,
    limit: int | None = None,
    progress: bool = True,
    timeout: float | None = None,
    memory: int | None = None,
    scheduler: str | None = None,
) -> SweepSummary:
    """Solve every variant not yet in ``output``; return the totals over the file.
    ``options["count"]`` counts each variant's solutions instead. ``timeout`` (seconds)
    stops the sweep with TimeLimit, the results so far kept for the same command to
    resume; ``memory`` (bytes) is shared among the local workers; ``scheduler`` runs
    the chunks of variants on that Dask cluster instead (see ``spread``)."""
    started = time.perf_counter()
    deadline = None if timeout is None else started + timeout
    swept = sweepable(game)  # a puzzle without a sweep says so here, not in every worker
    swept.base(options)
    every = _variants(swept, game.name, options)
    covered = len(every) if limit is None else min(limit, len(every))  # variants asked for
    equivalents = swept.equivalents(options)
    header = f"# sweep {game.name} " + " ".join(sorted(k for k, v in options.items() if v))
    counting = bool(options.get("count"))
    # Every variant's key, and every key the sweep can write, to check a results
    # file's lines against: made only where the file has lines (a set of the star's
    # 165,888 keys is some 10 MB).
    named = None if _empty(output) else every.keys(range(len(every)))
    known = None if named is None else set(named).union(*equivalents.values())
    # Read and checked before anything is written: a file that is not this sweep's is
    # left as it was; a torn last line is cut before its results are counted.
    done, kept = resumable(output, header.strip(), known, counting)
    # A variant is solved again when any key it stands for is missing (a torn line
    # may have been one of its equivalents'). On a fresh file every variant is, and
    # each is named only as its result is written.
    todo = (
        [
            place
            for place, key in enumerate(named[:covered])
            if key not in done or any(same not in done for same in equivalents.get(key, ()))
        ]
        if done and named is not None
        else list(range(covered))
    )
    del known, named
    # A count takes a few milliseconds a variant: chunks of 32 keep the bar moving,
    # lose little to a kill, and cost the command about 1% of the workers' time in
    # handing them out (chunks of 4 cost 8%). A first solution takes some 50
    # microseconds: each worker's first chunk is of 500 (its first answers within a
    # few hundredths of a second), the rest of up to 2,000 (a chunk handed out and
    # its results taken in cost the command about half a millisecond).
    chunk = max(1, min(32 if counting else 2000, len(todo) // (jobs * 20) or 1))
    parts = list(_chunks(todo, chunk, min(chunk, 500), jobs))
    # Where a line needs no more than a variant's key and value (no equivalents to
    # write beside it, nothing in the file to leave out, no count to keep by key), the
    # workers write the lines and the command only appends them.
    by_workers = not (counting or equivalents or done)
    tasks: list[SweepTask] = [(game.name, options, part, by_workers) for part in parts]
    # Each task's result comes back as its values (and the workers' lines), told
    # apart by the first place it names (tasks name distinct places).
    part_of = {part[0]: part for part in parts}
    finished = 0
    # Without a count, what is solved now is only counted: each key is written once
    # (tasks name distinct variants, whose keys are distinct), so ``done`` stays what
    # the file held, and no dict of every key is kept to the end.
    solvable_now = 0
    written = len(done)  # the results in the file
    # Nothing to solve and nothing to cut: the file is only read (it may be read-only).
    idle = not todo and output.exists() and kept == output.stat().st_size
    sink = nullcontext(None) if idle else _opened(output, header.strip(), kept, len(done))
    chunks = spread(
        solve_chunk,
        tasks,
        jobs=jobs,
        scheduler=scheduler,
        memory=memory,
        deadline=deadline,
        warm=lambda: warm_sweep(game.name, options, todo[0]) if todo else None,
    )
    with (
        sink as results_file,
        kept_when_stopped(lambda: _kept(output, written)),
        chunks as solved,
    ):
        for first, values, text in solved:
            results, solvable = len(values), sum(values)  # the lines the workers wrote
            if not by_workers:  # a class solved again has only its missing keys written
                lines = [
                    (same, value)
                    for key, value in zip(every.keys(part_of[first]), values, strict=True)
                    for same in equivalents.get(key, [key])
                    if same not in done
                ]
                text = _lines(lines)
                results, solvable = len(lines), sum(value for _, value in lines)
            assert results_file is not None  # there are results: the file was opened
            try:
                _write(results_file, text)
            except OSError as error:
                raise _cannot_write(error, output, written) from None
            written += results
            if counting:  # never written by the workers: the counts are kept by key
                done.update(lines)
            else:
                solvable_now += solvable
            finished += len(values)
            if progress:
                show_progress(finished, len(todo), started)
    if progress and todo:
        print(file=sys.stderr)
    # Every key the totals are over, named only where the file held results before
    # or a count was kept, or where a variant stands for others.
    keys = (
        [same for key in every.keys(range(covered)) for same in equivalents.get(key, [key])]
        if done or equivalents
        else []
    )
    return SweepSummary(
        total=len(keys) if keys else covered,
        solvable=solvable_now + sum(1 for key in keys if done.get(key)),
        solved_now=finished,
        seconds=time.perf_counter() - started,
        counts={key: done[key] for key in keys if key in done} if counting else None,
    )


def _empty(output: Path) -> bool:
    """Whether a results file holds nothing yet (missing, or empty); one that cannot be
    looked at is left for ``resumable`` to say so."""
    try:
        return output.stat().st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _kept(output: Path, results: int) -> str:
    return f"{output}: {results} results kept; the same command resumes the sweep"


def show_progress(finished: int, total: int, started: float, unit: str = "") -> None:
    """A bar on standard error, rewritten in place: done, rate, time left."""
    elapsed = time.perf_counter() - started
    rate = finished / elapsed if elapsed else 0.0
    left = (total - finished) / rate if rate else 0.0
    width = 30
    filled = int(width * finished / total) if total else width
    bar = "#" * filled + "." * (width - filled)
    print(
        f"\r[{bar}] {finished}/{total}{unit} {rate:.0f}/s, {left:.0f}s left",
        end="",
        file=sys.stderr,
        flush=True,
    )
