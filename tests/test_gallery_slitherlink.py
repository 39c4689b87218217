"""The gallery's Slitherlink board (encodings/slitherlink.lp, its ``view`` part): the
solved Tatham instance drawn as text and as SVG (dots at the corners, the clues in
their cells, the loop along the edges, and no box around any place), a player's
progress drawn, the unsolved board, and the web board able to set every edge.

The expected drawing is worked out here from the doubled grid (corners at odd-odd
places, cells at even-even, edges at the others) and from the loop clingo finds with
the encoding's rules alone (its ``base`` part, the view left out).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import clingo
import pytest

from aspuzzles.errors import ExitCode

from . import test_web
from .conftest import ROOT
from .test_web import _cell, _no_console_errors, _open, _set, _wait, needs_browser
from .test_web_play import OVERLAPS

# The web tests' fixtures (a working folder, the server, Chromium), found by their names.
workspace = test_web.workspace
server = test_web.server
browser = test_web.browser

SVG = "{http://www.w3.org/2000/svg}"
ENCODING = ROOT / "encodings" / "slitherlink.lp"
TATHAM = ROOT / "instances" / "slitherlink" / "tatham-7x7-normal.lp"
LOOP_COLOUR = "#2f6f3e"  # the SVG's lines between centres (bare.svg.j2)

Place = tuple[int, int]


def _size() -> int:
    match = re.search(r"#const n = (\d+)\.", TATHAM.read_text())
    assert match is not None
    return int(match.group(1))


def _clues() -> dict[Place, str]:
    found = re.findall(r"^clue\((\d+),(\d+),(\d+)\)\.", TATHAM.read_text(), re.M)
    return {(int(r), int(c)): n for r, c, n in found}


def _edges(size: int) -> set[Place]:
    top = 2 * size + 1
    return {(r, c) for r in range(1, top + 1) for c in range(1, top + 1) if (r + c) % 2 == 1}


def _corners(size: int) -> set[Place]:
    return {(2 * i + 1, 2 * j + 1) for i in range(size + 1) for j in range(size + 1)}


def _ends(edge: Place) -> tuple[Place, Place]:
    """The corners an edge joins: along its row if its row is odd, else its column."""
    r, c = edge
    return ((r, c - 1), (r, c + 1)) if r % 2 else ((r - 1, c), (r + 1, c))


@pytest.fixture(scope="module")
def loop() -> set[Place]:
    """The instance's one loop, by clingo with the encoding's rules alone."""
    rules = ENCODING.read_text().split("#program")[0]
    control = clingo.Control(["0"])
    control.add("base", [], rules + TATHAM.read_text())
    control.ground([("base", [])])
    found: list[set[Place]] = []

    def keep(model: clingo.Model) -> None:
        lines = [s for s in model.symbols(shown=True) if s.name == "line"]
        found.append({(s.arguments[0].number, s.arguments[1].number) for s in lines})

    control.solve(on_model=keep)
    assert len(found) == 1
    assert len(found[0]) > 4
    return found[0]


def _svg(text: str) -> ET.Element:
    return ET.fromstring(text)  # well-formed, or this raises


def _places(root: ET.Element) -> dict[Place, ET.Element]:
    places = {}
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("data-cell"):
            r, c = (int(part) for part in rect.get("data-cell", "").split(","))
            places[(r, c)] = rect
    return places


def _grid(root: ET.Element) -> tuple[float, float, float]:
    """The SVG's place size and the top left corner of place (1,1), read from the
    places drawn (each rect at its row and column)."""
    places = _places(root)
    (r, c), rect = min(places.items())
    size = float(rect.get("width", "0"))
    return (
        size,
        float(rect.get("x", "0")) - (c - 1) * size,
        float(rect.get("y", "0")) - (r - 1) * size,
    )


def _at(root: ET.Element, x: float, y: float) -> Place:
    """The place whose square holds the point (x, y)."""
    size, x0, y0 = _grid(root)
    return int((y - y0) // size) + 1, int((x - x0) // size) + 1


# -- the solved board as SVG -----------------------------------------------------------
def test_the_solved_svg_draws_the_loop_through_each_of_its_edges(cli, loop: set[Place]) -> None:
    run = cli("solve", "slitherlink", str(TATHAM), "--format", "svg")
    assert run.code == ExitCode.SOLVED
    root = _svg(run.out)
    drawn = []
    for line in root.iter(f"{SVG}line"):
        if line.get("stroke") != LOOP_COLOUR:
            continue
        x1, y1, x2, y2 = (float(line.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
        drawn.append(frozenset({_at(root, x1, y1), _at(root, x2, y2)}))
    # one loop edge: a line from each corner at its end to the edge's own place
    expected = [frozenset({corner, edge}) for edge in loop for corner in _ends(edge)]
    assert len(drawn) == 2 * len(loop)
    assert sorted(map(sorted, drawn)) == sorted(map(sorted, expected))
    # and nothing besides the loop: no segments along the places' borders
    assert all(line.get("stroke") != "#000" for line in root.iter(f"{SVG}line"))


def test_the_solved_svg_writes_the_clues_bold_and_a_dot_at_every_corner(cli) -> None:
    root = _svg(cli("solve", "slitherlink", str(TATHAM), "--format", "svg").out)
    size = _size()
    written: dict[Place, ET.Element] = {}
    for text in root.iter(f"{SVG}text"):
        place = _at(root, float(text.get("x", "0")), float(text.get("y", "0")) - 5)
        assert place not in written, place
        written[place] = text
    clues = _clues()
    assert len(clues) == 25
    for place, number in clues.items():
        assert written[place].text == number, place
        assert written[place].get("font-weight") == "bold", place
    assert set(written) == set(clues)  # no other text: empty cells stay blank
    dots = {
        _at(root, float(circle.get("cx", "0")), float(circle.get("cy", "0")))
        for circle in root.iter(f"{SVG}circle")
        if circle.get("data-mark-kind") == "dot"
    }
    assert dots == _corners(size)


def test_the_solved_svg_draws_no_box_around_any_place(cli) -> None:
    """Edges and clues are places (set, marked by a hint), drawn open: no fill and no
    stroke, so that only the dots, the clues and the loop show (``place(R,C,open)``)."""
    root = _svg(cli("solve", "slitherlink", str(TATHAM), "--format", "svg").out)
    places = _places(root)
    assert places
    for place, rect in places.items():
        assert (rect.get("fill"), rect.get("stroke")) == ("none", "none"), place
    # nor any other box: the only rect without a place is the white ground
    assert [r for r in root.iter(f"{SVG}rect") if not r.get("data-cell")] == [
        root.find(f"{SVG}rect")
    ]


def test_the_view_makes_every_edge_a_place_the_board_can_set(cli, loop: set[Place]) -> None:
    root = _svg(cli("solve", "slitherlink", str(TATHAM), "--format", "svg").out)
    places = _places(root)
    edges = _edges(_size())
    assert len(edges) == 2 * 7 * 8
    # every edge, and every clue's cell; no corner (nothing is set there)
    assert set(places) == edges | set(_clues())
    # the solved board tells the web board which edges hold the loop
    lined = {place for place, rect in places.items() if rect.get("data-value") == "l"}
    assert lined == loop


# -- the solved board as text ----------------------------------------------------------
def _char(lines: list[str], row: int, col: int) -> str:
    line = lines[row] if row < len(lines) else ""
    return line[col] if col < len(line) else " "


def test_the_text_board_shows_clues_corners_and_the_loop(cli, loop: set[Place]) -> None:
    run = cli("solve", "slitherlink", str(TATHAM))
    assert run.code == ExitCode.SOLVED
    size = _size()
    top = 2 * size + 1
    # place (r, c): its field on line 2r-1, its content at column 4c-2; the line
    # between two rows of places is 2r (above row r: 2r-2)
    board = run.out.splitlines()[: 2 * top + 1]
    for (r, c), number in _clues().items():
        assert _char(board, 2 * r - 1, 4 * c - 2) == number, (r, c)
    for r, c in _corners(size):
        assert _char(board, 2 * r - 1, 4 * c - 2) == "\u00b7", (r, c)  # a dot
    for r, c in _edges(size):
        assert _char(board, 2 * r - 1, 4 * c - 2) == ".", (r, c)  # a place to set
        if r % 2:  # along its row: a '-' on either side of the edge's field
            beside = {_char(board, 2 * r - 1, 4 * c - 4), _char(board, 2 * r - 1, 4 * c)}
            assert beside == ({"-"} if (r, c) in loop else {" "}), (r, c, board)
        else:  # along its column: a '|' above and below it
            beside = {_char(board, 2 * r - 2, 4 * c - 2), _char(board, 2 * r, 4 * c - 2)}
            assert beside == ({"|"} if (r, c) in loop else {" "}), (r, c, board)
    unclued = {(2 * i, 2 * j) for i in range(1, size + 1) for j in range(1, size + 1)}
    for r, c in unclued - set(_clues()):
        assert _char(board, 2 * r - 1, 4 * c - 2) == " ", (r, c)


# -- progress: a hint's board and the web board ------------------------------------------
def test_a_progress_board_draws_lines_and_crosses_the_player_set(cli) -> None:
    progress = "line(1,2). cross(1,4). cross(2,5)."
    run = cli("hint", "slitherlink", str(TATHAM), "--progress", progress, "--format", "svg")
    root = _svg(run.out)
    places = _places(root)
    assert places[(1, 2)].get("data-value") == "l"
    assert places[(1, 4)].get("data-value") == "c"
    assert places[(2, 5)].get("data-value") == "c"
    crosses = set()
    for path in root.iter(f"{SVG}path"):
        if path.get("data-mark-kind") == "cross":
            x, y = (float(v) for v in re.findall(r"[\d.]+", path.get("d", ""))[:2])
            crosses.add(_at(root, x + 7, y + 7))  # the cross's centre
    assert {(1, 4), (2, 5)} <= crosses
    lines = [line for line in root.iter(f"{SVG}line") if line.get("stroke") == LOOP_COLOUR]
    halves = set()
    for line in lines:
        x1, y1, x2, y2 = (float(line.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
        halves.add(frozenset({_at(root, x1, y1), _at(root, x2, y2)}))
    # the line set at (1,2), from corner (1,1) to corner (1,3); the hinted entry may
    # be drawn besides
    assert {frozenset({(1, 1), (1, 2)}), frozenset({(1, 2), (1, 3)})} <= halves
    text = cli("hint", "slitherlink", str(TATHAM), "--progress", progress).out
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("\u00b7"))
    board = lines[first - 1 :]  # from the (empty) line above row 1, as in a solve
    assert _char(board, 1, 4) == _char(board, 1, 8) == "-"  # line(1,2)
    assert _char(board, 1, 14) == "x"  # cross(1,4)
    assert _char(board, 3, 18) == "x"  # cross(2,5)
    assert _char(board, 3, 6) == "3"  # clue(2,2,3)


def test_the_unsolved_board_is_blank_where_no_place_is() -> None:
    """The board before it is solved (``aspuzzles.load``'s text, a notebook's): a dot at
    every corner, a clue in its cell, '.' on every edge (a place to set), and blank in
    the cells without a clue (no place)."""
    from aspuzzles import api

    size = _size()
    lines = api.load("slitherlink", TATHAM.name).text().splitlines()[1:]
    assert len(lines) == 2 * size + 1
    # place (r, c): its field's middle at column 3c-2 (fields of three, side by side)
    for r in range(1, 2 * size + 2):
        for c in range(1, 2 * size + 2):
            if (r, c) in _corners(size):
                expected = "\u00b7"
            elif (r, c) in _edges(size):
                expected = "."
            else:
                expected = _clues().get((r, c), " ")
            assert _char(lines, r - 1, 3 * c - 2) == expected, (r, c, lines)


def test_the_web_board_offers_a_line_and_a_cross_on_every_edge(loop: set[Place]) -> None:
    from aspuzzles.web import actions

    board = actions.board("slitherlink", TATHAM.name, ["line(1,2)", "cross(1,4)"])
    keys = {f"{r},{c}" for r, c in _edges(_size())}
    assert set(board["cells"]) == keys
    for key, options in board["cells"].items():
        r, c = key.split(",")
        assert {(o["value"], o["atom"]) for o in options} == {
            ("l", f"line({r},{c})"),
            ("c", f"cross({r},{c})"),
        }
    # a click lands on a place: every key is a rect of the board drawn
    places = _places(_svg(board["svg"]))
    assert {f"{r},{c}" for r, c in places} >= keys
    assert places[(1, 2)].get("data-value") == "l"
    assert places[(1, 4)].get("data-value") == "c"
    assert board["solved"] is False
    entries = actions.solve("slitherlink", TATHAM.name)["entries"]
    assert {e for e in entries if e.startswith("line(")} == {f"line({r},{c})" for r, c in loop}
    assert actions.board("slitherlink", TATHAM.name, entries)["solved"] is True


@needs_browser
def test_the_page_sets_an_edge_by_a_click_on_its_open_place(server, browser) -> None:
    """An edge's place has no box, yet a click there sets its cross, then its line,
    then nothing; the board's texts lie inside it and apart."""
    _open(browser, server, f"puzzle=slitherlink&instance={TATHAM.name}", "slitherlink:")
    assert _cell(browser, "1,2").get_attribute("stroke") == "none"
    _set(browser, "1,2", "c")
    _wait(browser, lambda d: d.find_elements("css selector", "[data-mark-kind=cross]"))
    _set(browser, "1,2", "l")
    colour = f"[data-role=board] line[stroke='{LOOP_COLOUR}']"
    _wait(browser, lambda d: len(d.find_elements("css selector", colour)) == 2)
    _set(browser, "4,3", "c")  # an edge along a column, beside a clue
    assert browser.execute_script(OVERLAPS, "[data-role=board] svg") == []
    _no_console_errors(browser)
