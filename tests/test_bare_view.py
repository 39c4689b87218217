"""A bare encoding's board: its ``#program view.`` part drawn (areas, marks, givens),
the default drawing without one (numbers, shading, regions), and instances that give
a grid as a picture in their comments (``% grid NAME``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import clingo
import pytest

from aspuzzles.errors import ExitCode

from .conftest import bare_workspace

SVG = "{http://www.w3.org/2000/svg}"

#: Star Battle with a view part: regions as areas, stars (given ones too) as marks.
STARS = """\
{ star(R,C) } :- region(R,C,_).
:- region(R,_,_), #count { C : star(R,C) } != 1.
:- region(_,C,_), #count { R : star(R,C) } != 1.
:- region(_,_,G), #count { R,C : star(R,C), region(R,C,G) } != 1.
:- star(R,C), star(R+DR,C+DC), DR = -1..1, DC = -1..1, (DR,DC) != (0,0).
:- given(R,C), not star(R,C).
#defined given/2.
#show star/2.

#program hints.
structure(region,3).
empty(R,C) :- region(R,C,_), not star(R,C).
#show star/2.
#show empty/2.

#program view.
place(R,C) :- region(R,C,_).
area(R,C,G) :- region(R,C,G).
mark(R,C,star) :- star(R,C).
mark(R,C,star) :- given(R,C).
fixed(R,C) :- given(R,C).
shade(R,C,light) :- given(R,C).
mark(R,C,dot) :- empty(R,C).
"""

#: The regions as a picture, a star given at (1,2).
STARS_5 = """\
% grid region
% dabee
% dabee
% dabbe
% dbbbb
% dbbcb
given(1,2).
"""

#: Hitori without a view part: black(R,C) shown, the numbers given as number(R,C,N).
HITORI = """\
place(R,C) :- number(R,C,_).
next(R,C,R+DR,C+DC) :- place(R,C), place(R+DR,C+DC), DR = -1..1, DC = -1..1, |DR|+|DC| = 1.
{ black(R,C) } :- place(R,C).
:- number(R,C,V), number(R,C2,V), C < C2, not black(R,C), not black(R,C2).
:- number(R,C,V), number(R2,C,V), R < R2, not black(R,C), not black(R2,C).
:- black(R,C), black(R2,C2), next(R,C,R2,C2).
first(R,C) :- place(R,C), not black(R,C),
    #count { R2,C2 : place(R2,C2), not black(R2,C2), (R2,C2) < (R,C) } = 0.
reach(R,C) :- first(R,C).
reach(R2,C2) :- reach(R,C), next(R,C,R2,C2), not black(R2,C2).
:- place(R,C), not black(R,C), not reach(R,C).
#show black/2.
"""

HITORI_4 = """\
number(1,1,2). number(1,2,4). number(1,3,1). number(1,4,1).
number(2,1,4). number(2,2,1). number(2,3,2). number(2,4,3).
number(3,1,2). number(3,2,1). number(3,3,4). number(3,4,1).
number(4,1,1). number(4,2,3). number(4,3,2). number(4,4,3).
"""


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return bare_workspace(
        tmp_path,
        monkeypatch,
        {"stars": STARS, "hitori": HITORI},
        {"stars": {"five.lp": STARS_5}, "hitori": {"four.lp": HITORI_4}},
    )


def _solution(encoding: str, instance: str) -> set[str]:
    """The one answer, found by clingo directly (shown atoms)."""
    control = clingo.Control(["0"])
    control.add("base", [], encoding.split("#program")[0] + instance)
    control.ground([("base", [])])
    found: list[list[str]] = []
    control.solve(on_model=lambda m: found.append([str(s) for s in m.symbols(shown=True)]))
    assert len(found) == 1
    return set(found[0])


def _regions() -> dict[tuple[int, int], str]:
    rows = [line[2:] for line in STARS_5.splitlines()[1:6]]
    return {(r, c): ch for r, row in enumerate(rows, 1) for c, ch in enumerate(row, 1)}


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text)  # well-formed, or this raises


# -- a view part ------------------------------------------------------------------------
def test_a_view_part_draws_areas_with_thick_borders_and_a_star_in_every_solution_cell(
    workspace: Path, cli
) -> None:
    run = cli("solve", "stars", "five.lp", "--format", "svg")
    assert run.code == ExitCode.SOLVED
    root = _svg(run.out)
    size, x0, y0 = 32, 10, 10
    # one star a solution cell, at the cell's centre
    stars = set()
    for polygon in root.iter(f"{SVG}polygon"):
        assert polygon.get("data-mark-kind") == "star"
        xs = [float(p.split(",")[0]) for p in polygon.get("points").split()]
        ys = [float(p.split(",")[1]) for p in polygon.get("points").split()]
        col = int((sum(xs) / len(xs) - x0) // size) + 1
        row = int((max(ys) + min(ys)) / 2 - y0) // size + 1
        stars.add(f"star({row},{col})")
    solution = _solution(STARS, _picture_facts())
    assert stars == solution
    # thick borders exactly between places of different regions (and around the board)
    regions = _regions()
    thick = set()
    for line in root.iter(f"{SVG}line"):
        if line.get("stroke-width") != "3":
            continue
        x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
        if y1 == y2:  # horizontal: between rows
            thick.add(("h", int((y1 - y0) / size), int((min(x1, x2) - x0) / size) + 1))
        else:
            thick.add(("v", int((min(y1, y2) - y0) / size) + 1, int((x1 - x0) / size)))
    for (r, c), region in regions.items():
        below = regions.get((r + 1, c))
        right = regions.get((r, c + 1))
        assert (("h", r, c) in thick) == (below != region), (r, c)
        assert (("v", r, c) in thick) == (right != region), (r, c)
    # the given is visible: its place shaded, and it is a star
    given = root.find(f".//{SVG}rect[@data-cell='1,2']")
    assert given is not None and given.get("fill") != "white"
    assert "star(1,2)" in stars


def _picture_facts() -> str:
    return "".join(f"region({r},{c},{ch})." for (r, c), ch in _regions().items()) + "given(1,2)."


def test_a_view_part_draws_the_same_board_as_text(workspace: Path, cli) -> None:
    text = cli("solve", "stars", "five.lp").out
    board = text.splitlines()[:11]
    solution = _solution(STARS, _picture_facts())
    for atom in solution:
        r, c = (int(a) for a in atom[5:-1].split(","))
        assert board[2 * r - 1][4 * c - 2] == "*", (atom, board)
    assert board[0] == "+---+---+---+---+---+"
    assert board[1] == "| . | * | . | .   . |"  # regions d, a, b, e
    assert sum(line.count("*") for line in board) == 5


def test_progress_marks_and_empty_places_on_a_view_board(workspace: Path, cli) -> None:
    run = cli("hint", "stars", "five.lp", "--progress", "empty(1,2).", "--format", "svg")
    root = _svg(run.out)
    kinds = [e.get("data-mark-kind") for e in root.iter() if e.get("data-mark-kind")]
    assert "dot" in kinds and "star" in kinds  # the empty place marked; the given star
    assert root.find(f".//{SVG}rect[@data-cell='5,5']") is not None  # every place drawn
    text = cli("hint", "stars", "five.lp", "--progress", "empty(1,2).").out
    assert "\u00b7" in text.splitlines()[-10]  # the dot: not '-', which a line is written


def test_the_web_board_of_a_view_keeps_its_places_and_values(workspace: Path) -> None:
    from aspuzzles.web import actions

    board = actions.board("stars", "five.lp", ["star(3,4)"])
    assert {o["value"] for o in board["cells"]["2,2"]} == {"s", "e"}
    root = _svg(board["svg"])
    place = root.find(f".//{SVG}rect[@data-cell='3,4']")
    assert place is not None and place.get("data-value") == "s"
    entries = actions.solve("stars", "five.lp")["entries"]
    assert actions.board("stars", "five.lp", entries)["solved"] is True


# -- the default drawing ------------------------------------------------------------------
def test_the_default_draws_numbers_with_black_cells_shaded_not_hidden(workspace: Path, cli) -> None:
    [answer] = [_solution(HITORI, HITORI_4)]
    black = {tuple(int(a) for a in atom[6:-1].split(",")) for atom in answer}
    root = _svg(cli("solve", "hitori", "four.lp", "--format", "svg").out)
    numbers = {}
    for fact in HITORI_4.split():
        r, c, v = (int(a) for a in fact[7:-2].split(","))
        numbers[(r, c)] = str(v)
    texts = {}
    for text in root.iter(f"{SVG}text"):
        col = int((float(text.get("x")) - 10) // 32) + 1
        row = int((float(text.get("y")) - 10) // 32) + 1
        texts[(row, col)] = (text.text, text.get("fill"), text.get("font-weight"))
    for cell, value in numbers.items():
        assert texts[cell][0] == value  # every given number shown
        assert texts[cell][2] == "bold"  # as a given
        assert (texts[cell][1] == "white") == (cell in black)
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("data-cell"):
            cell = tuple(int(a) for a in rect.get("data-cell").split(","))
            assert (rect.get("fill") == "#222222") == (cell in black)
    lines = cli("solve", "hitori", "four.lp").out.splitlines()[:4]
    for (r, c), value in numbers.items():
        field = lines[r - 1].ljust(12)[3 * (c - 1) : 3 * c]
        assert field == (f"#{value}#" if (r, c) in black else f" {value} "), lines


def test_the_default_draws_region_facts_as_areas_and_two_argument_givens(
    workspace: Path, cli
) -> None:
    plain = STARS.split("#program view.")[0]
    (workspace / "encodings" / "stars.lp").write_text(plain)
    text = cli("solve", "stars", "five.lp").out
    assert text.startswith("+---+---+---+---+---+\n")  # regions drawn as areas
    assert "given" not in text and "region" not in text  # nothing left unplaced
    root = _svg(cli("solve", "stars", "five.lp", "--format", "svg").out)
    assert root.find(f".//{SVG}rect[@data-cell='1,2']").get("fill") == "#e4e4e4"
    assert sum(1 for e in root.iter() if e.get("data-mark-kind") == "star") == 5


def test_the_default_draws_a_wall_fact_black_and_other_givens_of_a_place_light(
    workspace: Path, cli
) -> None:
    """A Light Up's ``wall(R,C)`` is a black place; a given place of another name is
    light grey, ``:`` on the text board, not an empty place's ``.``."""
    (workspace / "encodings" / "lamp.lp").write_text(
        "cell(1,1..3).\n"
        "1 { bulb(R,C) : cell(R,C), not wall(R,C), not hole(R,C) } 1.\n"
        "#defined wall/2. #defined hole/2.\n#show bulb/2.\n"
    )
    (workspace / "instances" / "lamp").mkdir()
    (workspace / "instances" / "lamp" / "x.lp").write_text("wall(1,2).\nhole(1,3).\n")
    solved = cli("solve", "lamp", "x.lp")
    assert solved.code == ExitCode.SOLVED, solved.err
    assert solved.out.splitlines()[0] == " @ ### :"
    root = _svg(cli("solve", "lamp", "x.lp", "--format", "svg").out)
    fills = {rect.get("data-cell"): rect.get("fill") for rect in root.iter(f"{SVG}rect")}
    assert fills["1,2"] == "#222222" and fills["1,3"] == "#e4e4e4", fills


def test_atoms_that_name_no_place_are_listed_under_the_board(workspace: Path, cli) -> None:
    (workspace / "encodings" / "odd.lp").write_text(
        "cell(1,1,a). cell(1,2,b). done. #show.\n#show cell/3. #show done/0.\n"
    )
    (workspace / "instances" / "odd").mkdir()
    (workspace / "instances" / "odd" / "x.lp").write_text("")
    text = cli("solve", "odd", "x.lp").out
    assert text.splitlines()[:2] == ["a b", "done"]
    root = _svg(cli("solve", "odd", "x.lp", "--format", "svg").out)
    assert "done" in [t.text for t in root.iter(f"{SVG}text")]


def test_the_notebook_draws_an_instance_before_it_is_solved(workspace: Path) -> None:
    from aspuzzles.driver import load_instance
    from aspuzzles.puzzle import render
    from aspuzzles.registry import get_puzzle

    game = get_puzzle("stars")
    parsed, _ = load_instance(game, "five.lp")
    text = render(game, parsed, game.unsolved(parsed), "txt")
    assert text.count("*") == 1 and text.startswith("+---")


# -- the grid reader ------------------------------------------------------------------------
def test_the_grid_reader_turns_a_picture_into_facts(workspace: Path) -> None:
    from aspuzzles.asp import split_facts
    from aspuzzles.registry import get_puzzle

    game = get_puzzle("stars")
    parsed = game.parse("% grid value\n% 1.a\n% B-3\n% grid w\n% 10 x\nfoo.\n", "p.lp")
    facts = [str(fact.symbol) for fact in split_facts(parsed.program, "p.lp")[0]]
    assert facts == [
        "value(1,1,1)",
        "value(1,3,a)",
        'value(2,1,"B")',
        'value(2,2,"-")',
        "value(2,3,3)",
        "w(1,1,10)",
        "w(1,2,x)",
        "foo",
    ]
    assert parsed.program.count("\n") == 6  # lines stay the file's


def test_a_ragged_picture_is_refused_at_its_row(workspace: Path, cli) -> None:
    (workspace / "instances" / "stars" / "ragged.lp").write_text(
        "% five by five\n% grid region\n% aabbb\n% aabb\n% ddbcc\n"
    )
    run = cli("solve", "stars", "ragged.lp")
    assert run.code == ExitCode.BAD_INPUT
    assert run.err.count("\n") == 1
    assert run.err.startswith("aspuzzles: error: ")
    assert "ragged.lp:4:" in run.err and "row 2 of the grid 'region' has 4 columns" in run.err
    (workspace / "instances" / "stars" / "nameless.lp").write_text("% grid Region\n% ab\n")
    run = cli("solve", "stars", "nameless.lp")
    assert run.code == ExitCode.BAD_INPUT and "nameless.lp:1:" in run.err


def test_a_generated_puzzle_keeps_the_picture(workspace: Path, cli) -> None:
    (workspace / "encodings" / "stars.lp").write_text(
        STARS + "\n#program generate.\ngiven(R,C) :- star(R,C).\n"
    )
    (workspace / "instances" / "stars" / "bare.lp").write_text(STARS_5.replace("given(1,2).\n", ""))
    made = cli("generate", "stars", "bare.lp", "--seed", "1")
    assert made.code == 0, made.err
    assert "% grid region\n% dabee\n" in made.out and "region(1,1" not in made.out
    (workspace / "instances" / "stars" / "made.lp").write_text(made.out)
    assert cli("solve", "stars", "made.lp", "--unique").code == ExitCode.SOLVED


EVERY = """\
{ on }.
#show on/0.
#program view.
place(1..3,1..3).
text(1,1,7). fixed(1,1).
text(1,2,5). shade(1,2).
shade(2,1,yellow).
mark(2,2,circle). mark(2,3,disc). mark(3,3,cross). mark(3,2,star). mark(1,3,dot).
area(R,C,a) :- place(R,C), R < 3.
area(3,C,b) :- place(3,C).
wall(2,1,right).
edge(top,1,3). edge(left,2,"1"). edge(right,3,2). edge(bottom,2,4).
line(2,2,2,3).
segment(0,0,0,1). point(0..3,0..3).
between(3,1,3,2,"<").
note(2,1,12).
"""


def test_every_atom_of_the_vocabulary_is_drawn(workspace: Path, cli) -> None:
    (workspace / "encodings" / "every.lp").write_text(EVERY)
    (workspace / "instances" / "every").mkdir()
    (workspace / "instances" / "every" / "x.lp").write_text("")
    text = cli("solve", "every", "x.lp", "-n", "1").out
    assert text.splitlines()[:9] == [
        "    3",
        "  +---+---+---+",
        "  | 7  #5#  \u00b7 |",
        "  +   +   .   +",
        "1 | : | o - @ |",
        "  +---+---+---+",
        "  | . < *   x | 2",
        "  +---+---+---+",
        "        4",
    ]
    root = _svg(cli("solve", "every", "x.lp", "-n", "1", "--format", "svg").out)
    kinds = {e.get("data-mark-kind") for e in root.iter() if e.get("data-mark-kind")}
    assert kinds == {"star", "circle", "disc", "cross", "dot"}
    texts = {t.text: t for t in root.iter(f"{SVG}text")}
    assert {"7", "5", "3", "1", "2", "4", "<", "12"} <= set(texts)
    assert texts["7"].get("font-weight") == "bold" and texts["5"].get("fill") == "white"
    fills = {r.get("data-cell"): r.get("fill") for r in root.iter(f"{SVG}rect")}
    assert fills["1,2"] == "#222222" and fills["2,1"] == "#f3dd6d" and fills["3,3"] == "white"
    widths = [line.get("stroke-width") for line in root.iter(f"{SVG}line")]
    assert widths.count("4") == 2  # the line between centres and the segment
    assert len(list(root.iter(f"{SVG}circle"))) == 16 + 3  # points, circle, disc, dot


def _view(program: str):
    """A view read from the atoms of a program's one answer (its facts)."""
    from aspuzzles.bare.view import from_atoms

    control = clingo.Control()
    control.add("base", [], program)
    control.ground([("base", [])])
    found: list[clingo.Symbol] = []
    control.solve(on_model=lambda m: found.extend(m.symbols(atoms=True)))
    return from_atoms(found)


def test_a_dot_is_written_apart_from_a_line_an_empty_place_and_the_other_marks() -> None:
    from aspuzzles.bare.view import MARK_TEXT, draw_text

    view = _view("place(1,1..4). mark(1,1,dot). line(1,2,1,3). mark(1,4,cross).")
    assert draw_text(view).splitlines()[1] == "  \u00b7   . - .   x"
    others = {mark for kind, mark in MARK_TEXT.items() if kind != "dot"}
    assert MARK_TEXT["dot"] not in {"-", "|", ".", "+", "#", " ", *others}


def test_a_plain_board_is_blank_where_no_place_is() -> None:
    from aspuzzles.bare.view import default_view, draw_text

    # a gap between places (as Slitherlink's between its corners and edges) is blank;
    # a place with nothing in it is '.'
    view = _view('place(1,1). place(1,3). place(2,2). text(1,1,7). text(1,2,"+").')
    assert view.is_plain()
    assert draw_text(view) == "7 + .\n  .\n"
    # without a view part, the board knows only the places facts and atoms name: a
    # cell between them (a Hitori's given no number) is an empty place, no gap
    facts = [clingo.parse_term(f) for f in ("number(1,1,2)", "number(1,3,1)", "number(2,2,4)")]
    assert draw_text(default_view(facts, set(), [])) == "2 . 1\n. 4 .\n"


def test_an_open_place_has_no_box_yet_is_a_place_to_set_and_mark() -> None:
    from aspuzzles.bare.view import MARKED_FILL, draw_text, geometry, with_values
    from aspuzzles.render import render_template

    view = _view("place(1,1). place(1,2,open). place(1,3,open). place(1,4,open). text(1,3,5).")
    assert view.places == {(1, 1), (1, 2), (1, 3), (1, 4)}
    assert draw_text(view) == ". . 5 .\n"  # on the text board, a place as any other
    view = with_values(view, [clingo.parse_term("cross(1,2)")])
    view.marked = {(1, 4)}
    root = _svg(render_template("bare.svg.j2", board=geometry(view, progress=True)))
    rects = {r.get("data-cell"): r for r in root.iter(f"{SVG}rect") if r.get("data-cell")}
    assert set(rects) == {"1,1", "1,2", "1,3", "1,4"}  # each a place the web board clicks
    assert (rects["1,1"].get("fill"), rects["1,1"].get("stroke")) == ("white", "#444")
    for key in ("1,2", "1,3"):  # no box: no fill, no stroke
        assert (rects[key].get("fill"), rects[key].get("stroke")) == ("none", "none"), key
    assert rects["1,2"].get("data-value") == "c"
    # a question's mark shows on an open place as on any other
    assert (rects["1,4"].get("fill"), rects["1,4"].get("stroke")) == (MARKED_FILL, "#444")
