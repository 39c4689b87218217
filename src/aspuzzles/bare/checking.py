"""``aspuzzles check`` for a bare encoding: a person's answer checked by clingo against
the encoding with the instance, and what is wrong with it named.

An answer is read as atoms (``cell(1,1,2). cell(1,2,1).``, one a line, or separated
by spaces as clingo prints them) or as the JSON ``solve --format json`` prints. It is
valid when some answer set of the encoding with the instance shows exactly these atoms
of their predicates (``driver.answers.check_answer``). Otherwise the problems say, as
far as the hint machinery can name them:

- an atom no answer set can hold (off the board, a value never taken, a predicate the
  encoding does not show);
- each entry no solution shares (a mistake), with a minimal set of clues that rules it
  out, as ``hint`` names mistakes;
- entries each possible alone that cannot all hold together, with the clues that make
  it so;
- the atoms the answer misses or has in excess compared with the solution, where the
  puzzle has one solution; else, where its atoms all hold in some answer, those that
  answer adds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from clingo import Symbol, parse_term

from ..asp import term_or_none
from ..errors import InputError
from ..puzzle import solution_json

if TYPE_CHECKING:
    from . import BareInstance, BarePuzzle, BareSolution

#: At most this many atoms are named in one problem's line.
NAMED = 12


def read_answer(puzzle: BarePuzzle, instance: BareInstance, text: str, source: str) -> BareSolution:
    """An answer written by a person: JSON (``solve --format json``'s, whole or one
    solution, or a list of atoms) or atoms as text; refused at its line otherwise."""
    if text.lstrip().startswith(("{", "[")):
        atoms = _json_atoms(solution_json(text, source), source)
    else:
        atoms = _text_atoms(text, source)
    solution = puzzle.decode(instance, atoms)
    return solution._replace(written=True)


def _json_atoms(data: Any, source: str) -> list[Symbol]:
    written = data.get("atoms") if isinstance(data, dict) else data
    if not isinstance(written, list) or not all(isinstance(atom, str) for atom in written):
        raise InputError("expected the JSON 'solve --format json' prints, with 'atoms'", source)
    return [_atom(atom, source, None) for atom in written]


def _atom(text: str, source: str, line: int | None) -> Symbol:
    symbol = term_or_none(text)
    if symbol is None or not str(symbol)[:1].isalpha() or str(symbol).startswith("("):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise InputError(f"'{shown}' is not an atom", source, line)
    return symbol


def _text_atoms(text: str, source: str) -> list[Symbol]:
    """Atoms separated by periods, spaces or lines; ``%`` starts a comment."""
    atoms = []
    for word, line in _words(text):
        atoms.append(_atom(word.rstrip("."), source, line))
    return atoms


def _words(text: str) -> list[tuple[str, int]]:
    """The text's atoms, each with its line: split at spaces and periods outside
    parentheses and strings, comments dropped."""
    found: list[tuple[str, int]] = []
    word, depth, line, start, index = "", 0, 1, 1, 0
    while index < len(text):
        char = text[index]
        if char == '"':  # a string, whole
            end = _string_end(text, index)
            start = start if word else line
            word += text[index:end]
            line += text.count("\n", index, end)
            index = end
            continue
        if char == "%":  # a comment, to the end of its line
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        if depth == 0 and (char.isspace() or char == "."):
            if word:
                found.append((word, start))
            word = ""
        else:
            start = start if word else line
            word += char
            depth += (char == "(") - (char == ")")
        line += char == "\n"
        index += 1
    if word:
        found.append((word, start))
    return found


def _string_end(text: str, index: int) -> int:
    """Where the string opening at ``index`` ends (after its closing quote)."""
    at = index + 1
    while at < len(text) and text[at] != '"':
        at += 2 if text[at] == "\\" else 1
    return min(at + 1, len(text))


def problems(puzzle: BarePuzzle, instance: BareInstance, solution: BareSolution) -> list[str]:
    """What is wrong with a person's answer (see the module's docstring); none when
    it is an answer of the encoding."""
    from ..driver.answers import check_answer
    from ..driver.loading import checked_encoding

    declared = puzzle.declared()
    atoms = [parse_term(atom) for atom in solution.atoms]
    kinds = {(atom.name, len(atom.arguments)) for atom in atoms}
    shown = set(kinds) if declared.shows_all else set(declared.shown)
    foreign = [atom for atom in atoms if (atom.name, len(atom.arguments)) not in shown]
    if foreign:
        listed = ", ".join(f"{name}/{arity}" for name, arity in sorted(shown)) or "none"
        return [f"{atom} is not an atom the answer shows (it shows {listed})" for atom in foreign]
    encoding = checked_encoding(puzzle, None).path
    checked = check_answer(
        encoding, instance.program, atoms, sorted(shown), puzzle.clingo_options, instance.source
    )
    if checked.valid:
        return []
    if checked.unknown:
        return [
            f"{atom} cannot hold in any answer (off the board, or a value no place takes)"
            for atom in checked.unknown
        ]
    found = _mistakes(puzzle, instance, atoms)
    found += _differences(puzzle, instance, atoms, checked.extended)
    return found or ["no answer of the encoding shows exactly these atoms"]


def _mistakes(puzzle: BarePuzzle, instance: BareInstance, atoms: list[Symbol]) -> list[str]:
    """The answer's entries no solution shares, each with a minimal set of clues that
    rules it out; then entries that cannot all hold together (``hint``'s mistakes and
    contradiction, on the same grounding)."""
    hints = puzzle.hints()
    if hints is None:
        return []
    from ..hinting import ground_instance

    ground = ground_instance(puzzle, instance, None)
    reasoner = ground.reasoner
    possible = set(reasoner.entries)
    entries = [atom for atom in atoms if atom in possible]
    if not reasoner.satisfiable([], reasoner.clues):
        return ["the puzzle has no solution: " + _reasons(reasoner.minimal([]), ground)]
    if reasoner.satisfiable([(entry, True) for entry in entries], reasoner.clues):
        return []
    said = []
    wrong = []
    for entry in entries:
        if not reasoner.satisfiable([(entry, True)], reasoner.clues):
            wrong.append(entry)
            because = _reasons(reasoner.minimal([(entry, True)]), ground)
            said.append(f"{entry} holds in no solution: {because}")
    kept = [entry for entry in entries if entry not in wrong]
    if not reasoner.satisfiable([(entry, True) for entry in kept], reasoner.clues):
        conflict = reasoner.minimal([], droppable=kept)
        named = ", ".join(str(atom) for atom in conflict if atom in set(kept))
        clues = [atom for atom in conflict if atom not in set(kept)]
        said.append(
            f"these cannot all hold together: {named}"
            + (f" ({_reasons(clues, ground)})" if clues else "")
        )
    return said


def _reasons(clues: list[Symbol], ground: Any) -> str:
    if not clues:
        return "the rules alone rule it out"
    return "because of " + ", ".join(f"the clue {clue}" for clue in clues)


def _differences(
    puzzle: BarePuzzle,
    instance: BareInstance,
    atoms: list[Symbol],
    extended: list[Symbol] | None,
) -> list[str]:
    """What the answer misses and has in excess against the one solution, where the
    puzzle has exactly one; else what an answer holding all its atoms adds."""
    from ..driver import solve_instance

    result = solve_instance(puzzle, instance, instance.source, unique=True)
    given = set(atoms)
    said = []
    if result.verdict == "unique" and result.solutions:
        solution = {parse_term(atom) for atom in result.solutions[0].data.atoms}
        if missing := sorted(solution - given):
            said.append(f"missing (the solution has them): {_listed(missing)}")
        if excess := sorted(given - solution):
            said.append(f"in excess (the solution has none of them): {_listed(excess)}")
    elif extended is not None and (missing := sorted(set(extended) - given)):
        said.append(f"incomplete: an answer with these atoms also holds {_listed(missing)}")
    return said


def _listed(atoms: list[Symbol]) -> str:
    named = ", ".join(str(atom) for atom in atoms[:NAMED])
    return named + (f" and {len(atoms) - NAMED} more" if len(atoms) > NAMED else "")
