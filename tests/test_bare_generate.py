"""A bare encoding's ``generate`` part is grounded with the encoding: it may derive clues
from any predicate the encoding derives, and its errors name the real cause. A kind of
clue it declares kept (``kept(p,n).``) is never dropped; heads the encoding never reads
are the part's helpers, never clues."""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest

from .conftest import bare_workspace

TOWERS = """\
% Skyscrapers: a Latin square of heights; a clue counts the buildings seen from its side.
h(1..n).
1 { cell(R,C,V) : h(V) } 1 :- h(R), h(C).
:- cell(R,C1,V), cell(R,C2,V), C1 < C2.
:- cell(R1,C,V), cell(R2,C,V), R1 < R2.
at(top,I,K,K,I) :- h(I), h(K).
at(bottom,I,K,n+1-K,I) :- h(I), h(K).
at(left,I,K,I,K) :- h(I), h(K).
at(right,I,K,I,n+1-K) :- h(I), h(K).
height(S,I,K,V) :- at(S,I,K,R,C), cell(R,C,V).
hidden(S,I,K) :- height(S,I,K,V), height(S,I,J,W), J < K, W > V.
seen(S,I,K) :- height(S,I,K,_), not hidden(S,I,K).
:- clue(S,I,N), #count { K : seen(S,I,K) } != N.
#show cell/3.

% A clue may be given on any side: the count the encoding derives (seen/3).
#program generate.
clue(S,I,N) :- at(S,I,1,_,_), N = #count { K : seen(S,I,K) }.
"""

FIRST_ROW = """\
val(1..n).
1 { cell(R,C,V) : val(V) } 1 :- val(R), val(C).
:- cell(R,C,V), cell(R,C2,V), C < C2.
:- cell(R,C,V), cell(R2,C,V), R < R2.
:- given(R,C,V), not cell(R,C,V).
#show cell/3.
% Too little: only the first row may be given.
#program generate.
given(1,C,V) :- cell(1,C,V).
"""

NOTHING = FIRST_ROW.replace("given(1,C,V) :- cell(1,C,V).", "given(R,C,V) :- cell(R,C,V), R > n.")
#: A generate part whose only head the encoding never reads (a misspelt clue).
UNREAD = FIRST_ROW.replace("given(1,C,V) :- cell(1,C,V).", "givn(R,C,V) :- cell(R,C,V).")

SIGNS = """\
% Futoshiki: a Latin square whose signs between neighbouring cells hold.
val(1..n).
1 { cell(R,C,V) : val(V) } 1 :- val(R), val(C).
:- cell(R,C,V), cell(R,C2,V), C < C2.
:- cell(R,C,V), cell(R2,C,V), R < R2.
:- given(R,C,V), not cell(R,C,V).
:- less(R1,C1,R2,C2), cell(R1,C1,V1), cell(R2,C2,V2), V1 >= V2.
#defined given/3.
#defined less/4.
#show cell/3.
% Every sign between neighbours is given; numbers where the signs need them. The signs
% are derived through a helper (bigger/4), which the encoding never reads: no clue.
#program generate.
given(R,C,V) :- cell(R,C,V).
bigger(R,C,R2,C2) :- cell(R,C,V), cell(R2,C2,W), V > W, |R-R2| + |C-C2| = 1.
less(R,C,R2,C2) :- bigger(R2,C2,R,C).
kept(less,4).
"""

#: The same signs, with no kept declaration: the skeleton may make it.
LOOSE = SIGNS.replace("kept(less,4).\n", "")
#: A declaration naming no clue: a misspelt predicate, and a helper.
MISSPELT = SIGNS.replace("kept(less,4).", "kept(lesser,4).")
HELPER = SIGNS.replace("kept(less,4).", "kept(bigger,4).")


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    programs = {
        "towers": TOWERS,
        "firstrow": FIRST_ROW,
        "nothing": NOTHING,
        "unread": UNREAD,
        "signs": SIGNS,
        "loose": LOOSE,
        "misspelt": MISSPELT,
        "helper": HELPER,
    }
    four = {name: {"four.lp": "#const n = 4.\n"} for name in programs}
    four["loose"]["kept.lp"] = "#const n = 4.\nkept(less,4).\n"
    return bare_workspace(tmp_path, monkeypatch, programs, four)


def _solutions(program: str) -> list[list[str]]:
    control = clingo.Control(["--models=0"])
    control.add("base", [], program)
    control.ground([("base", [])])
    found: list[list[str]] = []
    control.solve(on_model=lambda m: found.append(sorted(map(str, m.symbols(shown=True)))))
    return found


def _seen(grid: dict[tuple[int, int], int], side: str, line: int, n: int) -> int:
    """Buildings seen from a side, counted in Python (nothing shared with the encoding)."""
    order = range(1, n + 1) if side in ("top", "left") else range(n, 0, -1)
    cells = [(k, line) if side in ("top", "bottom") else (line, k) for k in order]
    tallest, seen = 0, 0
    for cell in cells:
        if grid[cell] > tallest:
            tallest, seen = grid[cell], seen + 1
    return seen


def test_a_generate_part_may_use_what_the_encoding_derives(workspace: Path, cli) -> None:
    run = cli("generate", "towers", "four.lp", "--seed", "3")
    assert run.code == 0, run.err
    clues = [line for line in run.out.splitlines() if line.startswith("clue(")]
    assert clues, run.out
    # The puzzle has one solution, and every clue is that solution's count.
    [solution] = _solutions(TOWERS.split("#program generate.")[0] + run.out)
    grid = {}
    for atom in solution:
        row, col, height = map(int, atom[len("cell(") : -1].split(","))
        grid[row, col] = height
    for clue in clues:
        side, line, count = clue[len("clue(") : -2].split(",")
        assert _seen(grid, side, int(line), 4) == int(count), clue
    # The same seed, the same puzzle.
    assert cli("generate", "towers", "four.lp", "--seed", "3").out == run.out


def test_a_generate_part_that_derives_too_little_is_named(workspace: Path, cli) -> None:
    run = cli("generate", "firstrow", "four.lp", "--seed", "1")
    assert run.code == 2
    assert "left more than one solution" in run.err
    assert "derive enough to single one out" in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_a_generate_part_that_derives_nothing_is_named(workspace: Path, cli) -> None:
    run = cli("generate", "nothing", "four.lp", "--seed", "1")
    assert run.code == 2
    assert "derives no clue (given/3) from a solution" in run.err


def test_a_whole_puzzle_given_as_the_skeleton_is_named(workspace: Path, cli) -> None:
    """Every clue a solution could give is in the "skeleton" already (a puzzle passed
    where its skeleton belongs): said so, not taken for a generate part that derives
    nothing."""
    whole = "#const n = 4.\ngiven(1,1,1). given(1,2,2). given(1,3,3). given(1,4,4).\n"
    (workspace / "instances" / "firstrow" / "whole.lp").write_text(whole)
    run = cli("generate", "firstrow", "whole.lp", "--seed", "1")
    assert run.code == 2
    assert run.err.startswith("aspuzzles: error: the skeleton gives every clue (given/3) already")
    assert "it is a puzzle, not a skeleton" in run.err and run.err.count("\n") == 1


def test_a_generate_part_deriving_nothing_the_encoding_reads_is_named(workspace: Path, cli) -> None:
    run = cli("generate", "unread", "four.lp", "--seed", "1")
    assert run.code == 2
    assert "derives no atom the encoding reads (givn/3)" in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_a_skeleton_given_inline_is_read_and_quoted_in_the_header(workspace: Path, cli) -> None:
    run = cli("generate", "towers", "#const n = 4.", "--seed", "3")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0] == "% aspuzzles generate towers '#const n = 4.' --seed 3"
    # The same puzzle as from the file holding the same line.
    from_file = cli("generate", "towers", "four.lp", "--seed", "3").out
    assert run.out.splitlines()[1:] == from_file.splitlines()[1:]


def test_a_mistyped_instance_name_is_not_read_as_a_program(workspace: Path, cli) -> None:
    run = cli("solve", "towers", "fuor")
    assert run.code == 2
    assert "fuor: no such instance file or shipped instance" in run.err


def _signs(run_out: str) -> tuple[list[str], list[str]]:
    """A generated Futoshiki's clues, the signs and the rest, checked unique by clingo and
    with every sign between neighbours of its one solution given."""
    clues = [line for line in run_out.splitlines() if line and line[0] not in "%#"]
    [solution] = _solutions(SIGNS.split("#program generate.")[0] + run_out)
    grid = {}
    for atom in solution:
        row, col, value = map(int, atom[len("cell(") : -1].split(","))
        grid[row, col] = value
    signs = [
        f"less({r},{c},{r2},{c2})."
        for (r, c), v in grid.items()
        for (r2, c2), w in grid.items()
        if abs(r - r2) + abs(c - c2) == 1 and v < w
    ]
    return clues, signs


def test_a_kind_of_clue_declared_kept_is_never_dropped(workspace: Path, cli) -> None:
    run = cli("generate", "signs", "four.lp", "--seed", "2")
    assert run.code == 0, run.err
    clues, signs = _signs(run.out)
    assert len(signs) == 2 * 4 * 3  # one sign between every two neighbours
    assert sorted(clue for clue in clues if clue.startswith("less(")) == sorted(signs)
    assert not [clue for clue in clues if clue.startswith("bigger(")]  # a helper: no clue
    assert cli("generate", "signs", "four.lp", "--seed", "2").out == run.out
    # Without the declaration, signs are dropped as any clue is.
    loose = cli("generate", "loose", "four.lp", "--seed", "2")
    assert loose.code == 0, loose.err
    assert len([line for line in loose.out.splitlines() if line.startswith("less(")]) < 24


def test_a_kind_of_clue_may_be_declared_kept_by_the_skeleton(workspace: Path, cli) -> None:
    run = cli("generate", "loose", "kept.lp", "--seed", "2")
    assert run.code == 0, run.err
    clues, signs = _signs(run.out)
    assert sorted(clue for clue in clues if clue.startswith("less(")) == sorted(signs)


@pytest.mark.parametrize(
    ("name", "named"),
    [("misspelt", "lesser/4"), ("helper", "bigger/4")],
    ids=["misspelt", "helper"],
)
def test_a_kept_declaration_naming_no_clue_is_refused(
    workspace: Path, cli, name: str, named: str
) -> None:
    run = cli("generate", name, "four.lp", "--seed", "1")
    assert run.code == 2
    assert f"kept({named.replace('/', ',')}) names no clue" in run.err
    assert "given/3, less/4" in run.err and f"not {named}" in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_the_generators_grading_reads_the_given_entries_as_grade_does(monkeypatch) -> None:
    """A Norinori region of two cells forces both shaded, but the board states neither:
    ``grade`` finds them as steps, and so does the generator's grading of a draw (it
    once counted every entry the board's shape forces as given)."""
    import aspuzzles.hinting as hinting
    from aspuzzles import generating
    from aspuzzles.hinting.grounding import ground_instance, loaded
    from aspuzzles.registry import get_puzzle

    game = get_puzzle("norinori")
    ground = ground_instance(game, loaded(game, "pzprjs-5x5")[0], None)
    forced = clingo.Function("shaded", [clingo.Number(1), clingo.Number(1)])
    assert forced in hinting.given_entries(ground.reasoner)  # the shape alone forces it
    assert forced not in ground.given  # but grade does not take it as given
    seen: list[set[clingo.Symbol]] = []

    def steps(grounded, deepest):
        seen.append(set(grounded.given))
        return iter(())

    monkeypatch.setattr(hinting, "unique_steps", steps)
    generating._graded(ground, [], "hard")
    assert seen == [ground.given]
