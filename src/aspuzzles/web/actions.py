"""What the web board asks, answered as the command line answers it: each function
takes a request's fields and returns JSON data (with the board drawn as SVG). They run
in the engine's guard, one worker process a request (``server``), so that a request's
time and memory are bounded and the server's own memory stays as it was.

An instance is named by a shipped instance's name or given as its text (a Tatham game
ID, a roll, a file's text); text is written to a file of the worker's own, never a
path the page names, so a page cannot read the server's files.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from clingo import Symbol, SymbolType

from ..asp import term_or_none
from ..capabilities import PlanHints
from ..errors import InputError
from ..paths import instance_files
from ..puzzle import Puzzle, Solution, render
from ..registry import get_puzzle
from .play import panel

if TYPE_CHECKING:
    from ..hinting import reports as hinting_reports
    from ..hinting.grounding import Grounded

#: The longest progress the page may send, in entries.
MOST_ENTRIES = 10_000
#: A walkthrough on the page stops taking steps this share of the request's time
#: before its limit, left for drawing a board a step (a bare encoding's frames take
#: from a tenth to two fifths of the time its steps do), and draws them up to
#: ``HAND_OVER`` seconds before it: the steps found and drawn by then are the
#: answer, not a 504.
DRAWING_SHARE = 0.3
HAND_OVER = 0.5

#: The folder a request's pasted text is written to: set by the web worker to a
#: folder the server makes and removes around the request (``web.work``); elsewhere
#: (a test calling these functions) a folder of the process's own, removed at exit.
scratch: Path | None = None


def _scratch() -> Path:
    global scratch
    if scratch is None:
        import atexit
        import shutil

        scratch = Path(tempfile.mkdtemp(prefix="aspuzzles-web-"))
        atexit.register(shutil.rmtree, scratch, True)
    return scratch


def _instance_reference(game: Puzzle[Any, Any], instance: str) -> str | None:
    """A shipped instance's file (named exactly, with or without its extension), or
    the text in a file of the request's own (the page's paste); None for the puzzle's
    default instance. Text holding a directive (``#include``, ``#script``, ...) is
    refused: it is read as facts, and never names a file."""
    from .gate import directive_problem

    if not instance.strip():
        return None
    shipped = instance_files(game.name)
    for file in [file for file in shipped if file.name == instance] + [
        file for file in shipped if file.stem == instance
    ]:
        return str(file)
    if (problem := directive_problem(instance)) is not None:
        raise InputError(f"instance: {problem}")
    path = _scratch() / "pasted.txt"
    path.write_text(instance if instance.endswith("\n") else instance + "\n")
    return str(path)


def _entries(progress: list[str]) -> list[Symbol]:
    """The progress (or marked atoms) as symbols: each an atom, its numbers ones
    clingo holds (a larger one would wrap around to another entry)."""
    from .gate import number_problem

    if len(progress) > MOST_ENTRIES:
        raise InputError(f"progress: more than {MOST_ENTRIES} entries")
    entries = []
    for text in progress:
        if (problem := number_problem(text)) is not None:
            raise InputError(f"progress: '{text[:60]}': {problem}")
        symbol = term_or_none(text)
        if symbol is None or symbol.type != SymbolType.Function or not symbol.name:
            raise InputError(f"progress: '{text[:60]}' is not an atom")
        entries.append(symbol)
    return entries


def _progress_text(game: Puzzle[Any, Any], progress: list[str]) -> str | None:
    """The progress as the puzzle reads it: the entries as a fact file, or a planning
    puzzle's moves one a line (each one line, holding no directive)."""
    if _plans(game) is not None:
        from .gate import directive_problem

        if len(progress) > MOST_ENTRIES:
            raise InputError(f"progress: more than {MOST_ENTRIES} moves")
        for move in progress:
            problem = directive_problem(move)
            if "\n" in move or "\r" in move or problem is not None:
                raise InputError(f"progress: '{move[:60]}' is not a move")
        return "".join(f"{move}\n" for move in progress) or None
    return "".join(f"{entry}.\n" for entry in _entries(progress)) or None


def _plans(game: Puzzle[Any, Any]) -> PlanHints[Any, Any] | None:
    """The planning slot of a puzzle played by moves (capture), not by entries."""
    return game.plan_hints() if game.hints() is None else None


def _played_board(
    game: Puzzle[Any, Any], plans: PlanHints[Any, Any], parsed: Any, progress: list[str]
) -> dict[str, Any]:
    """A planning puzzle's moves so far, each with the board after it (the last one
    the board as it stands, its cells to point at), and the moves a player may make
    next (``moves``: a place to the places its swaps reach)."""
    text = _progress_text(game, progress)
    if text is None:
        after, played = parsed, game.unsolved(parsed)
    else:
        after = plans.board_after(parsed, text, "progress")
        played = game.parse_solution(parsed, text, "progress")
    moves: dict[str, list[dict[str, str]]] = {}
    data: dict[str, Any] = {"svg": render(game, parsed, played, "svg"), "moves": moves}
    if after is None:
        count = len(progress)
        return data | {"message": f"cleared in {count} move{'s' * (count != 1)}", "solved": True}
    for move in plans.moves(after):
        moves.setdefault(move.place, []).append({"to": move.to, "move": move.text})
    return data


def board(
    name: str, instance: str, progress: list[str], marked: list[str] | None = None
) -> dict[str, Any]:
    """The board with the player's entries, and what a player may set in each place:
    ``cells`` maps a place (``"R,C"``, or a side ``"R,C|R,C"``) to the values an entry
    there can take (each with its atom).
    A planning puzzle is played by moves (``moves``, see `_played_board`); one whose
    entries are not set in one place is shown, not played. ``marked``
    atoms (a clue the player pointed at) are drawn marked, and named in ``message``
    (a Haunted border clue shows its line of sight)."""
    from ..driver import load_instance

    game = get_puzzle(name)
    parsed, label = load_instance(game, _instance_reference(game, instance))
    hints = game.hints()
    data: dict[str, Any] = {"puzzle": game.name, "instance": label, "cells": {}}
    if (plans := _plans(game)) is not None:
        return data | _played_board(game, plans, parsed, progress)
    if hints is None:
        return data | _played_without_hints(game, parsed, progress)
    from ..hinting import ground_instance

    ground = ground_instance(game, parsed, None)
    cells: dict[str, list[dict[str, str]]] = {}
    given = set()  # the places a given entry fills: the player sets nothing there
    for entry in ground.given:
        if (place := hints.entry_place(ground.instance, entry)) is not None:
            given.add(place[0])
    for entry in ground.reasoner.entries:
        place = hints.entry_place(ground.instance, entry)
        if place is not None and place[0] not in given:
            cells.setdefault(place[0], []).append({"value": place[1], "atom": str(entry)})
    # A cell no entry can fill at all (a die's) is not the player's: every value a
    # player might wrongly try elsewhere stays offered, for Check to find.
    seen = ground.reasoner.propagate([])
    ruled_out = set() if seen is None else {str(entry) for entry in seen.false}
    cells = {
        key: options
        for key, options in cells.items()
        if not all(option["atom"] in ruled_out for option in options)
    }
    data["cells"] = cells
    pointed = _entries(marked or [])
    entries = _entries(progress)
    data["svg"] = hints.draw_progress(ground.instance, entries, pointed, "svg")
    data["play"] = panel(game, ground.instance, entries)
    data["solved"] = _solved(ground, cells, entries)
    clues = set(ground.reasoner.clues)
    named = [hints.clue_text(ground.instance, atom) for atom in pointed if atom in clues]
    if named:
        data["message"] = "; ".join(named)
    return data


def _played_without_hints(
    game: Puzzle[Any, Any], parsed: Any, progress: list[str]
) -> dict[str, Any]:
    """A puzzle without hints: played where its ``Play`` names the places (the
    template), else only shown."""
    play = game.play()
    places = None if play is None else play.places(parsed)
    if play is None or places is None:
        return {"svg": render(game, parsed, game.unsolved(parsed), "svg")}
    entries = _entries(progress)
    drawn, solved = play.played(parsed, entries)
    return {
        "cells": places,
        "svg": render(game, parsed, drawn, "svg"),
        "play": play.panel(parsed, entries),
        "solved": solved,
    }


def _solved(
    ground: Grounded, cells: dict[str, list[dict[str, str]]], entries: list[Symbol]
) -> bool:
    """Whether the entries set every place the player sets and the board is then a
    solution (the clues all hold): the page's "Solved!"."""
    made = {str(entry) for entry in entries}
    if not cells or not all(any(o["atom"] in made for o in options) for options in cells.values()):
        return False
    reasoner = ground.reasoner
    return reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues)


def question(kind: str, name: str, instance: str, progress: list[str]) -> dict[str, Any]:
    """``check``, ``hint``, ``explain`` or ``grade``, as the CLI's JSON, with the board
    drawn (``svg``) and a line for the page (``message``). ``check`` is a hint's
    mistakes, drawn on the board with the player's entries."""
    from .. import hinting

    game = get_puzzle(name)
    reference = _instance_reference(game, instance)
    progress_text = _progress_text(game, progress)
    if kind == "grade":
        graded = hinting.grade(game, reference)
        return {**graded.to_dict(), "message": graded.summary(), "svg": ""}
    if kind == "explain":
        report = hinting.explain(game, reference, progress=progress_text)
    else:
        report = hinting.hint(game, reference, progress=progress_text)
    if isinstance(report, hinting.PlanReport):
        return _plan_answer(kind, report, game, name, instance, progress)
    data = report.to_dict()
    if kind == "check":
        data["svg"] = report.draw_mistakes("svg")
        data["message"] = _checked(report)
        return data
    lines = report.lines()
    data["message"] = " ".join(line.strip() for line in lines[1:]) or lines[0]
    data["svg"] = report.svg()
    return data


def walkthrough(name: str, instance: str, progress: list[str]) -> dict[str, Any]:
    """``walkthrough --format json``'s answer from the board as the player has it, with
    ``frames``: the start and the board after each step, each drawn with the step's
    entries highlighted and its reason marked (``hinting.walkthrough_views``), its
    sentence, the places it sets, and the entries set after it; ``message`` the
    walkthrough's first line. Under the request's time limit (``time_left``), a long
    walkthrough answers with the steps it found and drew before it (status
    ``timeout``, as ``walkthrough --timeout`` does), not with the limit's error."""
    from .. import hinting
    from ..driver.guard import time_left
    from ..hinting.walkthrough_views import frames

    game = get_puzzle(name)
    reference = _instance_reference(game, instance)
    left = time_left()
    reserve = None if left is None else DRAWING_SHARE * left
    until = None if left is None else time.monotonic() + left - min(HAND_OVER, left / 10)
    progress_text = _progress_text(game, progress)
    walk = hinting.walkthrough(game, reference, progress=progress_text, reserve=reserve)
    drawn = [frame.to_dict() for frame in frames(walk, until)]
    data = walk.to_dict()  # after drawing, which may have kept fewer steps
    data["frames"] = drawn
    data["message"] = walk.lines()[0]
    return data


def fix(name: str, instance: str, progress: list[str]) -> dict[str, Any]:
    """``fix``'s JSON for the player's progress: the fewest entries to take back
    (``changes``, each with its reason) and every repair of that size found, with the
    board (``svg``: the progress, those entries marked), ``take_back`` (their atoms)
    and ``places`` (where they are on the board), and a line for the page."""
    from ..hinting.fixing import fix as fixed

    game = get_puzzle(name)
    reference = _instance_reference(game, instance)
    text = _progress_text(game, progress)
    if text is None:
        return {
            "puzzle": game.name,
            "status": "correct",
            "changes": [],
            "repairs": [],
            "take_back": [],
            "places": [],
            "message": "nothing to fix: no entries made yet",
        }
    report = fixed(game, reference, progress=text)
    data = report.to_dict()
    hints = game.hints()
    taken = [change.entry for change in report.changes]
    data["take_back"] = [str(entry) for entry in taken]
    data["places"] = [
        where[0]
        for entry in taken
        if hints is not None and (where := hints.entry_place(report.instance, entry)) is not None
    ]
    data["svg"] = report.svg()
    lines = report.lines()
    data["message"] = " ".join(line.strip() for line in lines[1:] if line.strip()) or lines[0]
    if report.status != "mistakes":
        data["message"] = lines[0] if report.status == "correct" else " ".join(lines)
    return data


def _checked(report: hinting_reports.Report) -> str:
    """Check's line: the mistakes (entries no solution shares), then entries that
    cannot all hold together (each possible alone), never "no mistakes" for those."""
    if report.status == "unsolvable":
        return "the puzzle has no solution"
    found = len(report.mistakes)
    said = [f"{found} mistake{'s' * (found != 1)}"] if found else []
    if together := report.contradicting():
        named = ", ".join(report.puzzle.entry_text(report.instance, e) for e in together)
        said.append(f"these entries cannot all hold together: {named}")
    return "; ".join(said) or "no mistakes"


def _plan_answer(
    kind: str,
    report: hinting_reports.PlanReport,
    game: Puzzle[Any, Any],
    name: str,
    instance: str,
    progress: list[str],
) -> dict[str, Any]:
    """A planning puzzle's check (can the board still be cleared, in how many moves at
    best) or hint (the first move of a shortest plan, marked, and the board after it)."""
    data = report.to_dict()
    lines = report.lines()
    said = " ".join(line.strip() for line in lines[1:]) or report.status
    if kind == "check":
        data["svg"] = board(name, instance, progress)["svg"]
        left = report.moves_left
        data["message"] = (
            f"no mistakes: {left} move{'s' * (left != 1)} left at best"
            if report.status == "hint" and left is not None
            else said
        )
        return data
    data["svg"], data["message"] = report.svg(), said
    return data


def solve(name: str, instance: str, progress: list[str] | None = None) -> dict[str, Any]:
    """The puzzle solved and checked, as ``solve --format json``, with its board. A
    planning puzzle is solved from the board after the player's moves, and ``entries``
    is the whole move list that clears it (the player's moves, then the plan's)."""
    from ..driver import load_instance, solve_instance

    game = get_puzzle(name)
    parsed, label = load_instance(game, _instance_reference(game, instance))
    made = list(progress or [])
    plans = _plans(game)
    if plans is not None and made:
        after = plans.board_after(parsed, _progress_text(game, made) or "", "progress")
        if after is None:
            return {
                "puzzle": game.name,
                "status": "solved",
                "entries": made,
                "plan": True,
                "svg": "",
                "message": "already cleared",
            }
        parsed = after
    result = solve_instance(game, parsed, label)
    data = result.to_dict()
    if result.solution is None:
        data["svg"], data["message"] = "", f"{result.status}"
        return data
    data["svg"] = result.solution.svg()
    data["message"] = f"solved ({'checked' if result.checked else 'not checked'})"
    if plans is not None:
        data["entries"], data["plan"] = made + plans.progress_of(result.solution.data), True
    else:
        data["entries"] = _solution_entries(game, parsed, result.solution)
    return data


def _solution_entries(game: Puzzle[Any, Any], parsed: Any, solution: Solution) -> list[str]:
    """The solution as a player enters it: the entries that hold in it (the cake's
    sides, the cells the dice puzzles' pieces cover), as the board's ``cells`` name
    them; a puzzle without hints gives its shown atoms."""
    hints = game.hints()
    if hints is None:
        return [str(atom) for atom in solution.atoms]
    from ..hinting import ground_instance

    ground = ground_instance(game, parsed, None)
    held = [
        e for e in ground.reasoner.entries if hints.entry_holds(ground.instance, solution.data, e)
    ]
    return [str(entry) for entry in held]


def generate(name: str, instance: str, difficulty: str | None, seed: int | None) -> dict[str, Any]:
    """A new instance as text: a bare encoding's from the current instance as its
    skeleton, a shipped puzzle's from its generator's defaults."""
    from ..api import generate as generated

    game = get_puzzle(name)
    generator = game.generator()
    if generator is None:
        raise InputError(f"puzzle '{game.name}' {game.without('generator')}")
    declared = {option.name for option in generator.options}
    options: dict[str, Any] = {}
    if "skeleton" in declared:
        options["skeleton"] = _instance_reference(game, instance) or game.default_instance
    if "seed" in declared and seed is not None:
        options["seed"] = seed
    if difficulty and "difficulty" in declared:
        options["difficulty"] = difficulty
    text = generated(game, **options)
    return {"puzzle": game.name, "text": text, "message": "a new puzzle"}
