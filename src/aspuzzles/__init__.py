"""aspuzzles: logic puzzles solved with clingo, every answer checked in plain Python.

In a notebook::

    import aspuzzles
    result = aspuzzles.solve("haunted", "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2")
    result.solution          # draws itself as SVG
"""

from .driver import Result, load_instance, solve, solve_instance
from .errors import AspuzzlesError, CheckFailed, ExitCode, InputError
from .puzzle import Puzzle, Solution
from .registry import get_puzzle, puzzle_names

__all__ = [
    "AspuzzlesError",
    "CheckFailed",
    "ExitCode",
    "InputError",
    "Puzzle",
    "Result",
    "Solution",
    "get_puzzle",
    "load_instance",
    "puzzle_names",
    "solve",
    "solve_instance",
]
__version__ = "0.1.0"
