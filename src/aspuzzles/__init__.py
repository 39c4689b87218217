"""aspuzzles: logic puzzles solved with clingo, every answer checked in plain Python.

In a notebook::

    import aspuzzles
    result = aspuzzles.solve("haunted", "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2")
    result.solution          # draws itself as SVG

The names below are imported on first use (PEP 562), not with the package: importing
clingo, jinja2 and the puzzles takes a tenth of a second or more, and the ``aspuzzles``
command wants to be able to answer Ctrl-C in that time (see ``entry``).
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # not typing's: importing typing alone takes 17 ms
if TYPE_CHECKING:
    from typing import Any

    from .api import Instance, explain, fix, generate, grade, hint, load, solve, walkthrough
    from .driver import Result, load_instance, solve_instance
    from .errors import AspuzzlesError, CheckFailed, ExitCode, InputError
    from .puzzle import Puzzle, Solution
    from .registry import get_puzzle, puzzle_names

#: The modules that define the public names, looked through in this order.
_HOMES = ("errors", "puzzle", "registry", "driver", "api")

__all__ = [
    "AspuzzlesError",
    "CheckFailed",
    "ExitCode",
    "InputError",
    "Instance",
    "Puzzle",
    "Result",
    "Solution",
    "explain",
    "fix",
    "generate",
    "get_puzzle",
    "grade",
    "hint",
    "load",
    "load_instance",
    "puzzle_names",
    "solve",
    "solve_instance",
    "walkthrough",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in __all__:
        for home in _HOMES:
            module = importlib.import_module(f".{home}", __name__)
            if hasattr(module, name):
                globals()[name] = value = getattr(module, name)  # looked up once
                return value
    raise AttributeError(f"module 'aspuzzles' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
