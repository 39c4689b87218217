"""Solve every variant of a puzzle (every dice roll, say) on one grounding per process.

A puzzle that can be swept fills in its sweep slot (``Puzzle.sweep()``, a
:class:`~aspuzzles.capabilities.Sweep`): what a sweep covers (``variants``) and how a
variant is assumed (``assumptions``); this module spreads the variants over worker processes, each
holding one :class:`~aspuzzles.driver.Session`, and appends ``key<TAB>value`` lines to
a results file as they come (the value 1 or 0 for solvable or not; with ``count``, the
number of solutions), so that an interrupted sweep resumes where it stopped.
"""

from __future__ import annotations

import multiprocessing
import signal
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .capabilities import Sweep, offered
from .driver import Session
from .driver.limits import die_with_parent, limit_memory
from .errors import InputError, TimeLimit
from .puzzle import Puzzle
from .registry import get_puzzle

#: A sweep worker's grounding, puzzle and sweep slot, set up once per worker.
_SESSION: Session | None = None
_GAME: Any = None
_SWEEP: Any = None


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


def _start_worker(puzzle: str, options: dict[str, Any], memory: int | None = None) -> None:
    """Ground the puzzle once in this worker, within its share of the memory limit.
    Ctrl-C is left to the parent, which stops the pool and says how to resume."""
    global _SESSION, _GAME, _SWEEP
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()
    limit_memory(memory)
    _GAME = get_puzzle(puzzle)
    _SWEEP = sweepable(_GAME)
    _SESSION = Session(_GAME, _SWEEP.base(options))


def _solve_chunk(chunk: list[tuple[str, Any]]) -> list[tuple[str, int]]:
    """Each variant's value: 1 or 0 (it has a solution, found and checked, or none)."""
    assert _SESSION is not None and _GAME is not None
    return [
        (key, int(_SESSION.first(variant, _SWEEP.assumptions(variant)) is not None))
        for key, variant in chunk
    ]


def _count_chunk(chunk: list[tuple[str, Any]]) -> list[tuple[str, int]]:
    """Each variant's number of solutions; where there is one, a first solution is
    found and checked too, so no count stands on an unchecked answer."""
    assert _SESSION is not None and _GAME is not None
    counted = []
    for key, variant in chunk:
        assumed = _SWEEP.assumptions(variant)
        count = _SESSION.count(assumed)
        if count and _SESSION.first(variant, assumed) is None:
            raise RuntimeError(f"{key}: {count} solutions counted, none found")
        counted.append((key, count))
    return counted


def _start_method() -> str:
    """Fork where the system has it (Linux, macOS): the workers start at once. Windows
    has only spawn, which starts each worker as a new Python that imports the package
    before grounding; everything a worker is handed (puzzle name, options, chunks of
    variants) is plain data, so both work."""
    return "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"


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
) -> SweepSummary:
    """Solve every variant not yet in ``output``; return the totals over the file.
    ``options["count"]`` counts each variant's solutions instead. ``timeout`` (seconds)
    stops the sweep with TimeLimit, the results so far kept for the same command to
    resume; ``memory`` (bytes) is shared among the workers."""
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
    context = multiprocessing.get_context(_start_method())
    share = None if memory is None else memory // jobs
    finished = 0
    with (
        output.open("a") as sink,
        context.Pool(jobs, initializer=_start_worker, initargs=(game.name, options, share)) as pool,
    ):
        work = _count_chunk if counting else _solve_chunk
        answers = pool.imap_unordered(work, _chunks(todo, chunk))
        try:
            for results in until_deadline(answers, deadline):
                for key, value in results:
                    for same in equivalents.get(key, [key]):
                        sink.write(f"{same}\t{value}\n")
                        done[same] = value
                sink.flush()
                finished += len(results)
                if progress:
                    show_progress(finished, len(todo), started)
        except KeyboardInterrupt:
            print(f"\n{_kept(output, len(done))}", file=sys.stderr)
            raise
        except TimeLimit:
            raise TimeLimit(f"time limit reached; {_kept(output, len(done))}") from None
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


def until_deadline(answers: Any, deadline: float | None) -> Iterator[Any]:
    """A pool's answers (``imap_unordered``) as they come, until ``deadline``
    (``time.perf_counter``) passes: then TimeLimit."""
    while True:
        wait = None if deadline is None else max(0.0, deadline - time.perf_counter())
        try:
            yield answers.next(timeout=wait)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            raise TimeLimit("time limit reached") from None


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
