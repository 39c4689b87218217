"""What handing out work costs the command's own process (issue #70, item 1): units
spread over the local pool (``aspuzzles.spread.spread``, as a sweep and a census
spread theirs), each unit doing next to nothing, so that what is measured is the
dispatch: the main process's CPU time for 1,000, 4,000 and 16,000 units, and per unit.
Linear means the per-unit figure stays flat. ``make bench ARGS=dispatch``.
"""

from __future__ import annotations

import resource
import time

from aspuzzles.spread import spread

from common import table

COUNTS = (1000, 4000, 16000)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run() -> None:
    rows = []
    for count in COUNTS:
        tasks = list(range(count))
        started, cpu = time.perf_counter(), _cpu()
        with spread(abs, tasks, jobs=2) as results:
            done = sum(1 for _ in results)
        wall, used = time.perf_counter() - started, _cpu() - cpu
        assert done == count
        rows.append([count, f"{wall:.2f} s", f"{used:.2f} s", f"{1e6 * used / count:.0f} µs"])
    table(["units (2 local workers)", "wall", "main process CPU", "CPU a unit"], rows)
