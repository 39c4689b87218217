"""A census: every way to place a puzzle's blockers on any of its cells (not only the
placements its dice can roll), one per class of placements the board's symmetries make
alike, each solved (or counted) on one grounding per worker under assumptions.

The placements are split into units by their first cells (a unit is every sorted
placement that starts with its prefix); a class is solved in the unit of its smallest
image, so each class is solved exactly once whatever the order or the number of
workers. A unit's figures go to a results store (sqlite) as they come, so a killed
census resumes where it stopped. Units run on a local process pool, or on a Dask
cluster (``scheduler``: its real scheduler and workers; a killed worker's units are
run again by Dask); a unit is plain data in and out, so both run the same function.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, TypeVar

from .capabilities import CensusSpace, Sweep
from .driver import Session
from .errors import InputError
from .paths import special_file
from .puzzle import Puzzle
from .registry import get_puzzle
from .spread import kept_when_stopped, spread, worker_state
from .sweep import show_progress

Read = TypeVar("Read")

#: How many first cells name a unit: units small enough to lose little to a kill, many
#: enough to spread over thousands of workers (40,920 for 36 cells, 148,995 for 48).
PREFIX = 4


def census_space(game: Puzzle[Any, Any], options: dict[str, Any]) -> tuple[Sweep[Any], CensusSpace]:
    """The puzzle's sweep slot and what its census covers, or a one-line error."""
    swept = game.sweep()
    space = None if swept is None else swept.census(options)
    if swept is None or space is None:
        raise InputError(f"puzzle '{game.name}' has no census")
    return swept, space


def units(space: CensusSpace) -> list[tuple[int, ...]]:
    """Every unit's prefix, in a fixed order: the first ``PREFIX`` cells (from 1) of
    the sorted placements that start with them."""
    length = min(PREFIX, space.chosen)
    last = space.cells - (space.chosen - length)
    return [
        prefix for prefix in combinations(range(1, space.cells + 1), length) if prefix[-1] <= last
    ]


@dataclass
class UnitResult:
    """What one unit found: plain data, for a pool's or Dask's transport and the store."""

    prefix: tuple[int, ...]
    placements: int = 0
    classes: int = 0
    solvable: int = 0
    unsolvable: list[str] = field(default_factory=list)
    #: With counting: each class's number of solutions, by the class's key (with a
    #: cap, at most the cap: the cap means that many or more).
    counts: dict[str, int] = field(default_factory=dict)
    #: With a cap: how many placements each counted class holds, by its key.
    sizes: dict[str, int] = field(default_factory=dict)


def _grounded(puzzle: str, options: dict[str, Any]) -> tuple[Sweep[Any], CensusSpace, Session]:
    """A worker's census: the puzzle's sweep slot and census, and one grounding."""
    game = get_puzzle(puzzle)
    swept, space = census_space(game, options)
    return swept, space, Session(game, swept.base(options))


def solve_unit(
    puzzle: str,
    options: dict[str, Any],
    prefix: tuple[int, ...],
    count: bool,
    cap: int | None = None,
) -> UnitResult:
    """Solve (or count) each class whose smallest placement starts with ``prefix``; the
    worker's grounding is made on its first unit and kept (``spread.worker_state``).
    With ``cap``, each class is counted up to ``cap`` solutions only (by the compiled
    search where the encoding is the shipped one, as ``--count`` counts, else clingo)."""
    swept, space, grounded = worker_state(
        json.dumps(["census", puzzle, options], sort_keys=True),
        lambda: _grounded(puzzle, options),
    )
    result = UnitResult(tuple(prefix))
    classes = []  # each class whose smallest placement starts with the prefix, its size
    start = prefix[-1] + 1
    for rest in combinations(range(start, space.cells + 1), space.chosen - len(prefix)):
        placement = (*prefix, *rest)
        size = class_size(placement, space.symmetries)
        if size is not None:  # else solved in the unit of its smallest image
            classes.append((placement, size))
    variants = [space.variant(placement) for placement, _ in classes]
    for (placement, size), variant, found in zip(
        classes, variants, grounded.firsts_of(swept, variants), strict=True
    ):
        result.classes += 1
        result.placements += size
        result.solvable += found
        if not found:
            result.unsolvable.append(space.key(placement))
        if count:
            key = space.key(placement)
            result.counts[key] = grounded.count_of(swept, variant, most=cap or 0) if found else 0
            if cap is not None:
                result.sizes[key] = size
    return result


def warm_census(puzzle: str, options: dict[str, Any], count: bool = False) -> None:
    """One class of the census solved (and counted up to one) before any limit applies."""
    swept, space, grounded = _grounded(puzzle, options)
    grounded.load_for(swept, space.variant(tuple(range(1, space.chosen + 1))), count)


def class_size(placement: tuple[int, ...], symmetries: tuple[tuple[int, ...], ...]) -> int | None:
    """How many placements the class of ``placement`` holds, or None when another of
    them is smaller (the class is solved where that one is): most placements are not
    their class's smallest, and the first smaller image found settles it."""
    images = set()
    for symmetry in symmetries:
        image = tuple(sorted(symmetry[cell - 1] for cell in placement))
        if image < placement:
            return None
        images.add(image)
    return len(images)


#: What to do with a store that is not this census's (the file is left as it is).
ANOTHER_STORE = "give another --store, or move this one away to start afresh"


#: How often the store commits the units given it, in seconds: each commit waits for
#: the disk (0.6 ms here), and a commit a unit held the command up for some 90 s of
#: the star's 148,995 units. A kill loses the units of the last quarter second at most.
COMMIT_EVERY = 0.25


class Store:
    """The results of the units done so far, in sqlite: a kill loses at most the units
    running and those of the last ``COMMIT_EVERY`` seconds. A file that is not a census
    store (another program's database, any other file) or a store of another census
    is refused and left unchanged; a store that cannot be written (read-only, a full
    disk) is a one-line error that keeps the units stored so far."""

    def __init__(self, path: Path, header: str) -> None:
        self.path = path
        self._committed = 0.0  # the first unit is committed at once
        if special_file(path):  # a device, a FIFO: sqlite needs a file
            raise InputError(
                f"not a regular file: a census store is a file; {ANOTHER_STORE}", str(path)
            )
        if path.exists() and path.stat().st_size:
            self._inspect(header)  # read-only: nothing is written to a file not ours
        try:
            self.connection = sqlite3.connect(path)
        except sqlite3.Error as error:
            raise self.failed(error) from None
        try:
            self.connection.execute("CREATE TABLE IF NOT EXISTS meta (header TEXT NOT NULL)")
            self.connection.execute(
                "CREATE TABLE IF NOT EXISTS units (prefix TEXT PRIMARY KEY, placements INTEGER, "
                "classes INTEGER, solvable INTEGER, unsolvable TEXT, counts TEXT)"
            )
            if self.connection.execute("SELECT header FROM meta").fetchone() is None:
                self.connection.execute("INSERT INTO meta VALUES (?)", (header,))
                self.connection.commit()
        except sqlite3.Error as error:
            self.connection.close()
            raise self.failed(error) from None

    def _inspect(self, header: str) -> None:
        """Refuse an existing file that is not this census's store, opened read-only."""
        try:
            reader = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True)
        except sqlite3.Error as error:
            raise self.failed(error) from None
        try:
            try:
                query = "SELECT name FROM sqlite_master WHERE type='table'"
                tables = {name for (name,) in reader.execute(query)}
            except sqlite3.OperationalError as error:  # a database, unreadable here
                raise self.failed(error) from None
            except sqlite3.DatabaseError as error:  # "file is not a database"
                raise InputError(
                    f"not a census store ({error}); {ANOTHER_STORE}", str(self.path)
                ) from None
            row = None  # (a store a kill left with one table made, or none, is ours)
            try:
                if "units" in tables:
                    reader.execute("SELECT prefix, counts FROM units LIMIT 1").fetchall()
                if "meta" in tables:
                    row = reader.execute("SELECT header FROM meta").fetchone()
            except sqlite3.DatabaseError:
                row = ()  # tables of these names, but not the census's
            if tables - {"meta", "units"} or row == ():
                named = ", ".join(sorted(tables)[:5])
                raise InputError(
                    f"not a census store: another program's database (tables {named}); "
                    + ANOTHER_STORE,
                    str(self.path),
                )
        finally:
            reader.close()
        if row is not None and row[0] != header:
            raise InputError(
                f"holds another census ({row[0]!r}, not {header!r}); {ANOTHER_STORE}",
                str(self.path),
            )

    def failed(self, error: sqlite3.Error) -> InputError:
        """A store that cannot be opened, read or written (read-only, a full disk), in
        one line that says what to do; the units stored so far stay."""
        return InputError(
            f"cannot use the results store: {error}; the units done are kept: make room or "
            "make it writable (or give another --store), then the same command resumes",
            str(self.path),
        )

    def read(self, reading: Callable[[], Read]) -> Read:
        """What ``reading`` reads from the store, or the one-line error of a store that
        cannot be read."""
        try:
            return reading()
        except sqlite3.Error as error:
            raise self.failed(error) from None

    def done(self) -> set[tuple[int, ...]]:
        return {
            tuple(json.loads(prefix))
            for (prefix,) in self.connection.execute("SELECT prefix FROM units")
        }

    def add(self, result: UnitResult) -> None:
        try:
            self._add(result)
        except sqlite3.Error as error:
            raise self.failed(error) from None

    def _add(self, result: UnitResult) -> None:
        self.connection.execute(
            "INSERT OR REPLACE INTO units VALUES (?, ?, ?, ?, ?, ?)",
            (
                json.dumps(list(result.prefix)),
                result.placements,
                result.classes,
                result.solvable,
                json.dumps(result.unsolvable),
                json.dumps(
                    {key: [value, result.sizes[key]] for key, value in result.counts.items()}
                    if result.sizes
                    else result.counts
                ),
            ),
        )
        if time.monotonic() - self._committed >= COMMIT_EVERY:
            self.commit()

    def commit(self) -> None:
        """What was added made durable (a store that cannot take it: the one-line
        error)."""
        try:
            self.connection.commit()
        except sqlite3.Error as error:
            raise self.failed(error) from None
        self._committed = time.monotonic()

    def totals(self, wanted: list[tuple[int, ...]]) -> Totals:
        """The figures of the stored units of ``wanted``, summed a unit at a time as
        they are read: a class's count is kept only in the tally of its number (the
        star's capped census has millions of classes, 1.8 GB held as a dict by key)."""
        keep = {json.dumps(list(prefix)) for prefix in wanted}
        summed = Totals()
        for prefix, placements, classes, solvable, unsolvable, counts in self.connection.execute(
            "SELECT * FROM units"
        ):
            if prefix in keep:
                failed, counted = json.loads(unsolvable), json.loads(counts)
                summed.add(placements, classes, solvable, failed, counted)
        return summed

    def close(self) -> None:
        """Commit what is left and close; on the way out of a stop (Ctrl-C, a limit)
        a store that cannot take it loses only its last units, which the next run
        answers again."""
        with contextlib.suppress(sqlite3.Error):
            self.connection.commit()
        self.connection.close()


@dataclass
class Totals:
    """Stored units summed (``Store.totals``): with counting, how many classes have
    each number of solutions, and under a cap how many placements they hold."""

    units: int = 0
    placements: int = 0
    classes: int = 0
    solvable: int = 0
    unsolvable: list[str] = field(default_factory=list)
    classes_by_count: dict[int, int] = field(default_factory=dict)
    placements_by_count: dict[int, int] = field(default_factory=dict)

    def add(
        self,
        placements: int,
        classes: int,
        solvable: int,
        unsolvable: list[str],
        counts: dict[str, int | list[int]],
    ) -> None:
        """One unit's figures; ``counts`` as stored, by class: a count, or under a cap
        a count and the placements the class holds."""
        self.units += 1
        self.placements += placements
        self.classes += classes
        self.solvable += solvable
        self.unsolvable += unsolvable
        by_count, held = self.classes_by_count, self.placements_by_count
        for stored in counts.values():
            count, size = stored if isinstance(stored, list) else (stored, None)
            by_count[count] = by_count.get(count, 0) + 1
            if size is not None:
                held[count] = held.get(count, 0) + size


@dataclass
class CensusSummary:
    """The census's figures over the units done (all of them, unless ``partial``)."""

    puzzle: str
    placements: int
    classes: int
    solvable: int
    unsolvable: int
    units_done: int
    units_asked: int
    units: int
    seconds: float
    unsolvable_keys: list[str]
    #: With counting: how many classes have each number of solutions.
    classes_by_count: dict[int, int] | None = None
    #: ``--count-cap``: each class counted up to it; how many placements the classes
    #: of each number hold.
    count_cap: int | None = None
    placements_by_count: dict[int, int] = field(default_factory=dict)

    @property
    def partial(self) -> bool:
        return self.units_done < self.units

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "puzzle": self.puzzle,
            "placements": self.placements,
            "classes": self.classes,
            "solvable": self.solvable,
            "unsolvable": self.unsolvable,
            "units": self.units,
            "units_asked": self.units_asked,
            "units_done": self.units_done,
        }
        if self.classes_by_count is not None and self.count_cap is not None:
            data["count_cap"] = self.count_cap
            data["counts"] = self.capped()
        elif self.classes_by_count is not None:
            data["counts"] = _distribution(self.classes_by_count)
        return data

    def capped(self) -> dict[str, dict[str, int]]:
        """Under ``--count-cap N``: how many classes, and how many placements (each
        class weighted by the placements it holds), have each number of solutions, the
        last ``N+`` for N or more, in order of the number."""
        assert self.classes_by_count is not None and self.count_cap is not None
        cap = self.count_cap

        def named(values: dict[int, int]) -> dict[str, int]:
            return {(f"{n}+" if n >= cap else str(n)): values[n] for n in sorted(values)}

        return {
            "classes_by_count": named(self.classes_by_count),
            "placements_by_count": named(self.placements_by_count),
        }

    def lines(self) -> list[str]:
        scope = f" ({self.units_done} of {self.units} units)" if self.partial else ""
        lines = [
            f"{self.puzzle} census{scope}: {self.placements} placements, {self.classes} classes, "
            f"{self.solvable} solvable, {self.unsolvable} unsolvable"
        ]
        if self.classes_by_count and self.count_cap is not None:
            shown = self.capped()["placements_by_count"]
            lines.append(
                f"placements by solutions (counted up to {self.count_cap}): "
                + ", ".join(f"{n.replace('+', ' or more')}: {many}" for n, many in shown.items())
            )
        elif self.classes_by_count:
            shape = _distribution(self.classes_by_count)
            lines.append(
                f"solutions per class: fewest {shape['fewest']}, most {shape['most']}, "
                f"median {shape['median']:g}, mean {shape['mean']:.1f}"
            )
        return lines


def _distribution(by_count: dict[int, int]) -> dict[str, Any]:
    """The classes' counts summed up from how many classes have each: fewest, most,
    median and mean (as ``statistics.median`` and ``fmean`` give them over the
    classes' counts), and the tally itself, in order of the count."""
    values = sorted(by_count)
    total = sum(by_count.values())
    if not total:
        return {"fewest": 0, "most": 0, "median": 0, "mean": 0.0, "classes_by_count": {}}

    def at(place: int) -> int:
        """The count of the class at ``place`` in order of the counts."""
        for value in values:
            place -= by_count[value]
            if place < 0:
                return value
        raise IndexError(place)

    middle = total // 2
    median = at(middle) if total % 2 else (at(middle - 1) + at(middle)) / 2
    return {
        "fewest": values[0],
        "most": values[-1],
        "median": median,
        "mean": float(sum(value * by_count[value] for value in values)) / total,
        "classes_by_count": {str(value): by_count[value] for value in values},
    }


def census(
    game: Puzzle[Any, Any],
    options: dict[str, Any],
    store_path: Path,
    *,
    count: bool = False,
    jobs: int = 2,
    scheduler: str | None = None,
    limit: int | None = None,
    shard: tuple[int, int] = (1, 1),
    progress: bool = True,
    timeout: float | None = None,
    memory: int | None = None,
    count_cap: int | None = None,
) -> CensusSummary:
    """Run every unit not yet in the store (the first ``limit``, of shard ``k`` of
    ``n``); return the figures over the units asked for that the store holds.
    ``timeout`` stops it with TimeLimit, the units done kept for the same command.
    ``count_cap`` counts each class up to that many solutions (``count`` implied)."""
    count = count or count_cap is not None
    started = time.perf_counter()
    deadline = None if timeout is None else started + timeout
    _, space = census_space(game, options)
    chosen = units(space)
    index, shards = shard
    wanted = chosen[index - 1 :: shards][:limit]
    header = f"# census {game.name} " + " ".join(
        sorted(
            [
                *(k for k, v in options.items() if v),
                *(["count"] if count else []),
                *([f"count-cap={count_cap}"] if count_cap is not None else []),
            ]
        )
    )
    store = Store(store_path, header.strip())
    try:
        stored = store.read(store.done)
        todo = [prefix for prefix in wanted if prefix not in stored]
        tasks = [(game.name, options, prefix, count, count_cap) for prefix in todo]
        finished = 0
        spreading = spread(
            _unit_task,
            tasks,
            jobs=jobs,
            scheduler=scheduler,
            memory=memory,
            deadline=deadline,
            warm=lambda: warm_census(game.name, options, count),
        )
        with kept_when_stopped(lambda: _kept(store_path)), spreading as results:
            for result in results:
                store.add(result)
                finished += 1
                if progress:
                    show_progress(finished, len(todo), started, " units")
        if progress and todo:
            print(file=sys.stderr)
        store.commit()
        done = store.read(lambda: store.totals(wanted))
    finally:
        store.close()
    return CensusSummary(
        puzzle=game.name,
        placements=done.placements,
        classes=done.classes,
        solvable=done.solvable,
        unsolvable=done.classes - done.solvable,
        units_done=done.units,
        units_asked=len(wanted),
        units=len(chosen),
        seconds=time.perf_counter() - started,
        unsolvable_keys=sorted(done.unsolvable),
        classes_by_count=done.classes_by_count if count else None,
        count_cap=count_cap,
        placements_by_count=done.placements_by_count,
    )


def _kept(store: Path) -> str:
    return f"{store}: the units done are kept; the same command resumes the census"


def _unit_task(
    task: tuple[str, dict[str, Any], tuple[int, ...], bool, int | None],
) -> UnitResult:
    return solve_unit(*task)
