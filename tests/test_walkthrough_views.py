"""A walkthrough drawn (``hinting.walkthrough_views``): one board a step, each the
position after the step, its new entries highlighted where the puzzle's board shows
them, the values it rules out outlined, its reason's clues tagged; as one SVG, as an
HTML page and a notebook's cell, for shipped puzzles and for a Latin square written
here (a bare encoding)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape

import aspuzzles
from aspuzzles.hinting.reports import hintable
from aspuzzles.hinting.walkthrough_views import SVG, frames

from .conftest import bare_workspace
from .test_bare_hints import LATIN, LATIN_4

NS = {"svg": SVG}


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder with a Latin square encoding of the test's own."""
    files = {"four.lp": LATIN_4, "clash.lp": LATIN_4 + "given(4,2,1).\n"}
    return bare_workspace(tmp_path, monkeypatch, {"latin": LATIN}, {"latin": files})


def _places(board: ET.Element, walk: str) -> dict[str, str | None]:
    """The places of a board tagged ``data-walk=walk``, with their values."""
    found: dict[str, str | None] = {}
    for element in board.iter():
        key = element.get("data-cell") or element.get("data-side")
        if key is not None and element.get("data-walk") == walk:
            found[key] = element.get("data-value")
    return found


def _boards_match_steps(walk: Any) -> None:
    """One board a step (and the start), well-formed; in each, the places the step
    sets are highlighted and show their values, those where it only rules values out
    are outlined, and the clues of its reason are tagged."""
    hints = hintable(walk.game)
    drawn = frames(walk)
    assert len(drawn) == len(walk.steps) + 1
    assert [frame.number for frame in drawn] == list(range(len(walk.steps) + 1))
    for frame, step in zip(drawn[1:], walk.steps, strict=True):
        board = ET.fromstring(frame.svg)  # well-formed XML
        assert frame.text == walk.step_text(step)
        new = _places(board, "new")
        set_here = [
            place
            for symbol, value in step.concluded
            if value and (place := hints.entry_place(walk.instance, symbol)) is not None
        ]
        for key, value in set_here:
            assert new.get(key) == value, (frame.number, key, value, new)
        assert set(new) == set(frame.new)
        out = _places(board, "out")
        for symbol, value in step.literals:
            place = hints.entry_place(walk.instance, symbol)
            if not value and place is not None and place[0] not in new:
                assert place[0] in out, (frame.number, symbol)
        # the highlight is drawn over each new place: one mark a place
        marks = [e for e in board.iter() if e.get("data-walk-mark") == "new"]
        assert len(marks) == len(new)
        tagged = {e.get("data-mark") for e in board.iter() if e.get("data-walk") == "reason"}
        reason = step.cases[0].reason if step.cases else step.reason
        for clue in reason.clues:
            if any(e.get("data-mark") == str(clue) for e in board.iter()):
                assert str(clue) in tagged
        assert set(frame.reasons) == {str(c) for c in reason.clues} | {
            str(s) for s, _ in reason.after
        }


def _svg_boards(document: str) -> list[ET.Element]:
    root = ET.fromstring(document)
    return [child for child in root if child.get("data-frame") is not None]


def test_haunted_walkthrough_is_one_board_a_step_with_the_steps_entries_marked():
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    assert walk.status == "solved" and len(walk.steps) > 5
    _boards_match_steps(walk)
    # Step 1 sets a vampire at (4,4) from the clue 0 at the bottom of column 3.
    first = frames(walk)[1]
    assert first.new == ["4,4"] and first.reasons == ["clue(9,0)"]
    board = ET.fromstring(first.svg)
    [clue] = [e for e in board.iter() if e.get("data-mark") == "clue(9,0)"]
    assert clue.get("data-walk") == "reason" and clue.get("fill") == "#d00"  # Haunted's red
    # The SVG: a board a frame, each with its sentence under it.
    document = walk.svg()
    boards = _svg_boards(document)
    assert len(boards) == len(walk.steps) + 1
    texts = " ".join("".join(t.itertext()) for t in ET.fromstring(document).iter(f"{{{SVG}}}text"))
    assert "step 1 of" in texts and "because of the clue 0 at the" in texts
    for board in boards:
        assert board.get("viewBox") and board.get("x") and board.get("y")


def test_the_grid_of_boards_lies_inside_the_drawing():
    """Boards and lines of text are placed inside the outer drawing's width and height,
    in rows that do not overlap (their sizes are the boards' own)."""
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    root = ET.fromstring(walk.svg())
    width, height = float(root.get("width")), float(root.get("height"))
    boxes = []
    for board in _svg_boards(ET.tostring(root, encoding="unicode")):
        x, y = float(board.get("x")), float(board.get("y"))
        w, h = float(board.get("width")), float(board.get("height"))
        assert x >= 0 and x + w <= width and y >= 0 and y + h <= height
        boxes.append((x, y, x + w, y + h))
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])
    for text in root.findall("svg:text", NS):
        assert 0 < float(text.get("y")) <= height and float(text.get("x")) < width


def test_a_bare_latin_square_walkthrough_draws_each_step(workspace, cli):
    walk = aspuzzles.walkthrough("latin", "four.lp")
    assert walk.status == "solved"
    _boards_match_steps(walk)
    drawn = frames(walk)
    # Givens stay givens (bold, not entries) on every board.
    start = ET.fromstring(drawn[0].svg)
    assert _places(start, "new") == {}
    given = [e for e in start.iter(f"{{{SVG}}}text") if e.get("font-weight") == "bold"]
    assert len(given) == LATIN_4.count("given(")
    # Each step's entries are on every later board, the last one the whole solution.
    last = ET.fromstring(drawn[-1].svg)
    values = {e.get("data-cell") for e in last.iter() if e.get("data-value")}
    assert len(values) == 16
    # The command line: --format svg and html.
    shown = cli("walkthrough", "latin", "four.lp", "--format", "svg")
    assert len(_svg_boards(shown.out)) == len(walk.steps) + 1
    page = cli("walkthrough", "latin", "four.lp", "--format", "html").out
    assert page.startswith("<!DOCTYPE html>") and page.count('class="walk-frame"') == len(drawn)


def test_an_unsolvable_walkthrough_marks_what_cannot_all_hold(workspace):
    walk = aspuzzles.walkthrough("latin", "clash.lp")
    assert walk.status == "unsolvable"
    [frame] = frames(walk)
    assert "no solution" in frame.text
    board = ET.fromstring(frame.svg)
    assert {e.get("data-cell") for e in board.iter() if e.get("data-walk") == "reason"}


def test_the_html_is_self_contained_and_scoped(workspace):
    walk = aspuzzles.walkthrough("latin", "four.lp")
    one, two = walk._repr_html_(), walk._repr_html_()
    ids = [re.search(r'class="aspuzzles-walk" id="([^"]+)"', cell).group(1) for cell in (one, two)]
    assert ids[0] != ids[1]  # two cells of a notebook do not share an id
    for cell, scope in zip((one, two), ids, strict=True):
        assert "<!DOCTYPE" not in cell and cell.count("<script>") == 1
        style = re.search(r"<style>(.*?)</style>", cell, re.S).group(1)
        rules = [line for line in style.splitlines() if line.strip()]
        assert all(line.startswith(f"#{scope}") for line in rules), rules
        assert f'getElementById("{scope}")' in cell
        assert not re.search(r"(src|href)=\"(https?:)?//", cell)  # nothing from the network
        assert " id=" not in cell.replace(f'id="{scope}"', "")  # no other id
        assert cell.count('class="walk-frame"') == len(walk.steps) + 1


@pytest.mark.slow
@pytest.mark.parametrize(
    ("puzzle", "instance"),
    [("cake", "unique-4x4-4-pieces"), ("tiles", "seed-big-cats-3x3")],
)
def test_shipped_puzzles_draw_their_walkthroughs(puzzle: str, instance: str):
    walk = aspuzzles.walkthrough(puzzle, instance)
    _boards_match_steps(walk)
    assert len(_svg_boards(walk.svg())) == len(walk.steps) + 1


@pytest.mark.parametrize("puzzle", ["geniusstar", "geniussquare"])
def test_a_walkthrough_stuck_at_the_start_draws_the_start(puzzle: str):
    walk = aspuzzles.walkthrough(puzzle)
    drawn = frames(walk)
    assert len(drawn) == len(walk.steps) + 1
    if walk.status == "stuck" and not walk.steps:
        assert "logic stops here" in drawn[0].text
    ET.fromstring(walk.svg())


def test_the_web_action_answers_with_frames_from_the_progress():
    from aspuzzles.web import actions

    data = actions.walkthrough("haunted", "gen-4x4-s2", ["monster(4,4,vampire)"])
    assert data["status"] == "solved" and data["message"].startswith("haunted gen-4x4-s2")
    assert len(data["frames"]) == len(data["steps"]) + 1
    assert "monster(4,4,vampire)" in data["frames"][0]["entries"]
    assert all(
        f["text"] == s["text"] for f, s in zip(data["frames"][1:], data["steps"], strict=True)
    )
    assert len(set(data["frames"][-1]["entries"])) == 2 + 3 + 6  # the board's totals


def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The frames' clock made a counter: each look at it is a second later."""
    import itertools
    import types

    from aspuzzles.hinting import walkthrough_views

    ticks = itertools.count()
    monkeypatch.setattr(
        walkthrough_views, "time", types.SimpleNamespace(monotonic=lambda: next(ticks))
    )


def test_frames_drawn_up_to_a_deadline_keep_the_steps_drawn(monkeypatch: pytest.MonkeyPatch):
    """A web request draws its walkthrough up to its deadline: the steps not drawn by
    then are taken off, what they concluded is open again, and the walkthrough says it
    was cut by the time limit (no difficulty), each title counting the steps shown."""
    whole = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    assert walk.status == "solved" and not walk.open and len(walk.steps) > 3
    _clock(monkeypatch)
    shown = frames(walk, until=3)  # the clock reads 0, 1, 2 before steps 1-3, then 3
    assert [frame.title.split(" (")[0] for frame in shown] == [
        "the start",
        "step 1 of 3",
        "step 2 of 3",
        "step 3 of 3",
    ]
    assert [whole.step_text(step) for step in whole.steps[:3]] == [
        walk.step_text(step) for step in walk.steps
    ]
    reopened = {entry for step in whole.steps[3:] for entry, _ in step.concluded}
    assert walk.status == "timeout" and set(walk.open) == reopened
    known = {entry for step in walk.steps for entry, _ in step.concluded}
    assert not known & reopened
    data = walk.to_dict()
    assert "difficulty" not in data and data["open"] == [str(entry) for entry in walk.open]
    assert shown[-1].text.startswith(walk.step_text(walk.steps[-1]) + "; the time limit stopped")
    assert all(ET.fromstring(frame.svg) is not None for frame in shown)


def test_frames_past_their_deadline_are_the_start_alone(monkeypatch: pytest.MonkeyPatch):
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    _clock(monkeypatch)
    [start] = frames(walk, until=0)
    assert walk.status == "timeout" and walk.steps == [] and walk.open
    assert "; the time limit stopped the walkthrough here; still open: " in start.text


def test_a_case_splits_chain_is_listed_under_its_step(monkeypatch: pytest.MonkeyPatch):
    """A case split's chain, a link a line, under the step's sentence in the HTML and in
    the frames the web board steps through."""
    import importlib

    walking = importlib.import_module("aspuzzles.hinting.walkthrough")
    monkeypatch.setattr(walking, "CASE_THRESHOLD", 6)
    walk = aspuzzles.walkthrough("haunted", "gen-4x4-s2")
    chained = [
        (n, step) for n, step in enumerate(walk.steps, 1) if step.cases[:1] and step.cases[0].chain
    ]
    assert chained
    drawn = frames(walk)
    page = walk._repr_html_()
    for number, step in chained:
        links = [walk.link_text(link) for link in step.cases[0].chain]
        assert drawn[number].chain == links and drawn[number].to_dict()["chain"] == links
        listed = re.search(
            rf'data-frame="{number}".*?<ol class="walk-chain" data-walk-role="chain">(.*?)</ol>',
            page,
            re.S,
        )
        assert listed is not None
        assert re.findall(r"<li>(.*?)</li>", listed.group(1)) == [
            str(escape(link)) for link in links
        ]
    assert all(not frame.chain for n, frame in enumerate(drawn) if n not in dict(chained))
