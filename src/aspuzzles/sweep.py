"""Solve every variant of a puzzle (every dice roll, say) on one grounding per process.

A puzzle that can be swept fills in its sweep slot (``Puzzle.sweep()``, a
:class:`~aspuzzles.capabilities.Sweep`): what a sweep covers (``variants``) and how a
variant is assumed (``assumptions``); this module spreads the variants over worker processes, each
holding one :class:`~aspuzzles.driver.Session`, and appends ``key<TAB>value`` lines to
a results file as they come (the value 1 or 0 for solvable or not; with ``count``, the
number of solutions), so that an interrupted sweep resumes where it stopped.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .capabilities import Sweep, offered
from .driver import Session
from .errors import InputError
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


def _grounded(puzzle: str, options: dict[str, Any]) -> tuple[Sweep[Any], Session]:
    """A worker's sweep: the puzzle's sweep slot and one grounding."""
    game = get_puzzle(puzzle)
    swept = sweepable(game)
    return swept, Session(game, swept.base(options))


def solve_chunk(task: tuple[str, dict[str, Any], list[tuple[str, Any]]]) -> list[tuple[str, int]]:
    """Each variant's value: with ``options["count"]`` its number of solutions (where
    it has one, a first solution is found and checked too, so that no count stands on
    an unchecked answer), otherwise 1 or 0 (a solution found and checked, or none).
    The worker's grounding is made on its first chunk and kept."""
    puzzle, options, chunk = task
    swept, session = worker_state(
        json.dumps(["sweep", puzzle, options], sort_keys=True), lambda: _grounded(puzzle, options)
    )
    values = []
    for key, variant in chunk:
        if not options.get("count"):
            values.append((key, int(session.first_of(swept, variant) is not None)))
            continue
        count = session.count_of(swept, variant)
        if count and session.first_of(swept, variant) is None:
            raise RuntimeError(f"{key}: {count} solutions counted, none found")
        values.append((key, count))
    return values


def _chunks(items: list[tuple[str, Any]], size: int) -> Iterator[list[tuple[str, Any]]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def read_results(path: Path, header: str) -> dict[str, int]:
    """Results already in a file (for resuming); a torn last line is ignored. A file
    written by a sweep of another puzzle or mode is refused rather than mixed in."""
    done: dict[str, int] = {}
    if path.exists() and path.stat().st_size:
        lines = path.read_text().splitlines()
        if lines[0] != header:
            raise InputError(f"holds another sweep ({lines[0]!r}, not {header!r})", str(path))
        for line in lines[1:]:
            key, _, value = line.partition("\t")
            if value.isdigit():
                done[key] = int(value)
    return done


def drop_torn_line(path: Path) -> None:
    """Cut a last line that a kill left unfinished (no line end), so that the results
    appended next start on a line of their own; its variant is solved again."""
    with path.open("rb+") as results:
        data = results.read()
        if data and not data.endswith(b"\n"):
            results.truncate(data.rfind(b"\n") + 1)


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
    variants = swept.variants(options)[:limit]
    equivalents = swept.equivalents(options)
    header = f"# sweep {game.name} " + " ".join(sorted(k for k, v in options.items() if v))
    done = read_results(output, header.strip())
    if not done and (not output.exists() or not output.stat().st_size):
        output.write_text(header.strip() + "\n")
    drop_torn_line(output)
    todo = [(key, variant) for key, variant in variants if key not in done]
    counting = bool(options.get("count"))
    # A count takes long per variant: small chunks keep the bar moving and lose little
    # to a kill.
    chunk = max(1, min(4 if counting else 500, len(todo) // (jobs * 20) or 1))
    tasks = [(game.name, options, part) for part in _chunks(todo, chunk)]
    finished = 0
    chunks = spread(
        solve_chunk, tasks, jobs=jobs, scheduler=scheduler, memory=memory, deadline=deadline
    )
    with (
        output.open("a") as sink,
        kept_when_stopped(lambda: _kept(output, len(done))),
        chunks as solved,
    ):
        for results in solved:
            for key, value in results:
                for same in equivalents.get(key, [key]):
                    sink.write(f"{same}\t{value}\n")
                    done[same] = value
            sink.flush()
            finished += len(results)
            if progress:
                show_progress(finished, len(todo), started)
    if progress and todo:
        print(file=sys.stderr)
    keys = {same for key, _ in variants for same in equivalents.get(key, [key])}
    return SweepSummary(
        total=len(keys),
        solvable=sum(1 for key in keys if done.get(key)),
        solved_now=finished,
        seconds=time.perf_counter() - started,
        counts={key: done[key] for key in keys if key in done} if counting else None,
    )


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
