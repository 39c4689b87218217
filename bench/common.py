"""Helpers shared by the benchmarks: timing and table printing."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED_DATA = ROOT.parent / "shared" / "data"


def best_of(repeat: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (seconds) and the last run's value."""
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = action()
        times.append(time.perf_counter() - started)
    return min(times), value


def median_time(action: Callable[[], Any], repeat: int) -> float:
    """The median of ``repeat`` runs of ``action``, in seconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def round_robin(commands: dict[str, list[str]], rounds: int) -> dict[str, float]:
    """Median wall time of each command as a fresh process, the commands run in turn once
    per round, so that a change in the machine's load reaches every command alike."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            started = time.perf_counter()
            subprocess.run(command, capture_output=True, check=False, cwd=ROOT)
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(values) for name, values in times.items()}


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def installed_command(*args: str) -> list[str]:
    """``aspuzzles ARGS`` as a user runs it: the venv's script (``python -m`` would load
    runpy too)."""
    return [str(Path(sys.executable).parent / "aspuzzles"), *args]


def wall_time_of_command(args: list[str], repeat: int = 3) -> float:
    """Best wall time of running ``aspuzzles ARGS`` as a fresh process."""
    command = [sys.executable, "-m", "aspuzzles", *args]
    best, _ = best_of(repeat, lambda: subprocess.run(command, capture_output=True, check=True))
    return best


def table(headers: list[str], rows: list[list[Any]]) -> None:
    """A Markdown table, so that the output pastes into the README as it is."""
    cells = [[_fmt(value) for value in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells:
        print("| " + " | ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) + " |")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    return str(value)


class TimeLimit(Exception):
    """Raised inside a pure-Python baseline when its time is up."""


def limited(seconds: float, action: Callable[[], Any]) -> tuple[float | None, Any]:
    """Run a pure-Python action with a time limit: (seconds taken or None, value)."""
    import signal

    def expire(_signum: int, _frame: Any) -> None:
        raise TimeLimit

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.perf_counter()
    try:
        value = action()
        return time.perf_counter() - started, value
    except TimeLimit:
        return None, None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def seconds(value: float | None, limit: float) -> str:
    return f"> {limit:g} s" if value is None else _fmt(value)


def ratio(slow: float | None, fast: float | None, limit: float) -> str:
    if fast is None:
        return "-"
    if slow is None:
        return f"> {limit / fast:.0f}x"
    return f"{slow / fast:.1f}x"
