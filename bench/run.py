"""``make bench``: the speed goals of each puzzle, measured in one run.

Each ``bench/<puzzle>.py`` defines ``run() -> None`` printing its table (``common`` holds
helpers; the plain searches compared against live in ``tests/oracles``). Pass puzzle
names to run only those: ``make bench ARGS="haunted cake"``.
"""

from __future__ import annotations

import importlib
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# The benchmarks import each other's helpers, and the reference searches they time the
# solver against from tests/oracles.
sys.path[:0] = [str(HERE), str(HERE.parent)]


def main(argv: list[str]) -> int:
    available = sorted(
        p.stem
        for p in HERE.glob("*.py")
        if p.stem != "run" and "\ndef run() -> None:" in p.read_text()
    )
    chosen = argv or available
    unknown = [name for name in chosen if name not in available]
    if unknown:
        print(f"bench: unknown benchmark(s) {unknown}; available: {available}", file=sys.stderr)
        return 2
    import clingo

    print(
        f"# aspuzzles benchmark — clingo {clingo.__version__}, Python "
        f"{platform.python_version()}, {platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    for name in chosen:
        print(f"\n## {name}")
        importlib.import_module(name).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
