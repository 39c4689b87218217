"""A walkthrough drawn: one board a step, each the position after the step with the
step's new entries highlighted, the values it rules out outlined, and its reason (clues
and earlier entries) marked, with the step's sentence under it. As one SVG (a grid of
boards), as an HTML page or a notebook's cell (stepping forward and back), and as the
frames the web board steps through.

The boards are the puzzle's own: each position is drawn by its hints slot
(``Hints.draw_progress``, the drawing ``hint`` shows), its reason passed as the atoms
to mark. What is added here knows no puzzle: it reads the drawing's contract, the
places a player sets (``data-cell="R,C"``, ``data-side="R,C|R,C"``, with
``data-value`` once set) and the marks (``data-mark="ATOM"``), and lays a highlight
over the places the step sets (``data-walk="new"``), a dashed outline over those where
it only rules values out (``data-walk="out"``), and tags its reason's clues and places
(``data-walk="reason"``).
"""

from __future__ import annotations

import textwrap
import time
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from clingo import Symbol

from ..render import render_template
from .reports import hintable
from .walkthrough import STOPPED

if TYPE_CHECKING:
    from .plan_walk import PlanWalkthrough
    from .walkthrough import Step, Walkthrough

SVG = "http://www.w3.org/2000/svg"
ET.register_namespace("", SVG)

#: The highlight of a step's new entries, and the outline of the values it rules out:
#: colours no board uses for its marks (a hint's reasons are red, a bare grid's blue).
NEW_COLOUR = "#0f8a3c"
OUT_COLOUR = "#7b3fa0"
#: The sentences' type in the SVG, and the width a character takes (a little more than
#: sans-serif's average, so that a wrapped line never runs past its column).
FONT_SIZE = 12
CHAR_WIDTH = 7.0
LINE_HEIGHT = 15
#: The narrowest column of the SVG's grid, its gap, and the widest the grid grows.
MIN_COLUMN = 300
GAP = 24
MOST_WIDTH = 1000


@dataclass
class Frame:
    """One board of a walkthrough: the start (number 0) or the position after a step."""

    number: int
    title: str
    text: str
    svg: str
    #: The places the step sets (``R,C`` or ``R,C|R,C``), and those where it only rules
    #: values out.
    new: list[str] = field(default_factory=list)
    out: list[str] = field(default_factory=list)
    #: The step's reason as atoms (its clues, then its earlier literals' atoms).
    reasons: list[str] = field(default_factory=list)
    #: The entries set after it (the start's included), as atoms.
    entries: list[str] = field(default_factory=list)
    #: A case split's chain, a sentence a link (``Walkthrough.link_text``).
    chain: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "title": self.title,
            "text": self.text,
            "svg": self.svg,
            "new": self.new,
            "out": self.out,
            "reasons": self.reasons,
            "entries": self.entries,
            "chain": self.chain,
        }


# -- the frames --------------------------------------------------------------------------
def frames(walk: Walkthrough | PlanWalkthrough, until: float | None = None) -> list[Frame]:
    """The start and the position after each step, each drawn and marked (a plan's
    walkthrough draws its own: :meth:`.PlanWalkthrough.frames`). With ``until`` (a
    ``time.monotonic()`` deadline: a web request's, whose answer must leave before its
    limit), the steps not drawn by then are taken off the walkthrough
    (:meth:`.Walkthrough.keep_steps`): it answers with the steps it shows."""
    from .plan_walk import PlanWalkthrough

    return walk.frames() if isinstance(walk, PlanWalkthrough) else _step_frames(walk, until)


def _step_frames(walk: Walkthrough, until: float | None) -> list[Frame]:
    """A walkthrough of entries: each step's new entries highlighted, the values it
    rules out outlined, its reason marked (up to ``until``, see ``frames``)."""
    hints = hintable(walk.game)
    instance = walk.instance

    clues = set(walk.clues)

    def place(atom: Symbol) -> tuple[str, str] | None:
        return None if atom in clues else hints.entry_place(instance, atom)

    empty = _parse(hints.draw_progress(instance, [], [], "svg"))
    given = set(_values(empty))  # places the board shows filled with no entry at all
    entries: list[Symbol] = []
    for symbol, value in walk.start:
        where = place(symbol)
        if value and (where is None or where[0] not in given) and symbol not in entries:
            entries.append(symbol)
    shown: list[Frame] = []
    start_marks = list(walk.conflict) if walk.status == "unsolvable" else []
    # No solution: the walkthrough names the entries in conflict (the rest it never read).
    entries += [atom for atom in start_marks if atom not in clues and atom not in entries]
    board = _parse(hints.draw_progress(instance, list(entries), start_marks, "svg"))
    if start_marks:
        plain = _parse(hints.draw_progress(instance, list(entries), [], "svg"))
        _tag_reasons(board, plain, _atoms(start_marks), [place(a) for a in start_marks])
    made = len([entry for entry in entries if entry not in walk.laid_first])
    shown.append(Frame(0, "the start", "", _svg_text(board), [], [], [], _atoms(entries)))
    before = _values(board)
    for number, step in enumerate(walk.steps, 1):
        if until is not None and time.monotonic() >= until:
            walk.keep_steps(number - 1)
            break
        entries += [s for s, v in step.concluded if v and s not in entries]
        reasons = _reason_atoms(step)
        board = _parse(hints.draw_progress(instance, list(entries), reasons, "svg"))
        plain = _parse(hints.draw_progress(instance, list(entries), [], "svg"))
        after = _values(board)
        new = [key for key, value in after.items() if before.get(key) != value]
        for symbol, value in step.concluded:
            if value and (where := place(symbol)) is not None and where[0] not in new:
                new.append(where[0])
        ruled: dict[str, list[str]] = {}
        for symbol, value in step.literals:
            if not value and (where := place(symbol)) is not None and where[0] not in new:
                ruled.setdefault(where[0], []).append(where[1])
        _highlight(board, new, ruled)
        _tag_reasons(board, plain, _atoms(reasons), [place(a) for a in reasons])
        shown.append(
            Frame(
                number,
                "",
                walk.step_text(step),
                _svg_text(board),
                new,
                list(ruled),
                [str(atom) for atom in reasons],
                _atoms(entries),
                [walk.link_text(link) for case in step.cases for link in case.chain],
            )
        )
        before = after
    _say_where_it_stops(walk, shown, made)
    return shown


def _say_where_it_stops(walk: Walkthrough, shown: list[Frame], made: int) -> None:
    """The start's sentence and the steps' titles, said once the steps shown are known
    (drawing up to a deadline may keep fewer), and where the walkthrough stops, after
    its last step."""
    shown[0].text = _start_text(walk, made)
    for frame, step in zip(shown[1:], walk.steps, strict=True):
        frame.title = f"step {frame.number} of {len(walk.steps)} (cost {step.cost})"
    if walk.status in STOPPED and walk.steps:
        shown[-1].text += "; " + walk.lines()[-1]


def _start_text(walk: Walkthrough, made: int) -> str:
    """The start's sentence: the givens, the entries made (a player's progress), what
    was laid first, and where the walkthrough stops at once (or has no solution)."""
    lines = walk.lines()
    said = "the start: the givens"
    if made:
        said += f" and {made} entr{'ies' if made != 1 else 'y'} made"
    if walk.laid_first:
        said += "; " + lines[1]
    if walk.status == "unsolvable":
        return (
            said
            + "; no solution, these cannot all hold: "
            + "; ".join(line.strip() for line in lines[2:])
        )
    if walk.status in STOPPED and not walk.steps:
        said += "; " + lines[-1]
    return said


def _reason_atoms(step: Step) -> list[Symbol]:
    reason = step.cases[0].reason if step.cases else step.reason
    atoms = [*reason.clues, *(symbol for symbol, _ in reason.after)]
    return list(dict.fromkeys(atoms))


def _atoms(entries: list[Symbol]) -> list[str]:
    return [str(entry) for entry in entries]


# -- marks on a drawing ------------------------------------------------------------------
def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.strip())


def _svg_text(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode")


def _tag(element: ET.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def _key(element: ET.Element) -> str | None:
    return element.get("data-cell") or element.get("data-side")


def _values(root: ET.Element) -> dict[str, str]:
    """The places the drawing shows set, with their values (the last drawing of a
    place counts, as the web board reads it)."""
    found: dict[str, str] = {}
    for element in root.iter():
        key = _key(element)
        if key is not None and element.get("data-value") is not None:
            found[key] = str(element.get("data-value"))
    return found


def _places(root: ET.Element) -> dict[str, tuple[ET.Element, ET.Element]]:
    """Each place's (last) element and its parent."""
    found: dict[str, tuple[ET.Element, ET.Element]] = {}
    for parent in root.iter():
        for child in parent:
            key = _key(child)
            if key is not None:
                found[key] = (child, parent)
    return found


def _numbers(text: str | None) -> list[float]:
    if not text:
        return []
    try:
        return [float(part) for part in text.replace(",", " ").split()]
    except ValueError:
        return []


def _box(element: ET.Element) -> tuple[float, float, float, float] | None:
    """An element's bounding box (x0, y0, x1, y1) in its parent's coordinates, for the
    shapes boards draw their places with (a group: its shapes together)."""
    kind = _tag(element)
    try:
        if kind == "rect":
            x, y = float(element.get("x", 0)), float(element.get("y", 0))
            return x, y, x + float(element.get("width", 0)), y + float(element.get("height", 0))
        if kind == "circle":
            cx, cy, r = (float(element.get(name, 0)) for name in ("cx", "cy", "r"))
            return cx - r, cy - r, cx + r, cy + r
        if kind == "line":
            xs = [float(element.get("x1", 0)), float(element.get("x2", 0))]
            ys = [float(element.get("y1", 0)), float(element.get("y2", 0))]
            return min(xs), min(ys), max(xs), max(ys)
    except ValueError:  # a size in per cent: not a place's shape
        return None
    if kind in ("polygon", "polyline"):
        points = _numbers(element.get("points"))
        if len(points) < 4:
            return None
        xs, ys = points[0::2], points[1::2]
        return min(xs), min(ys), max(xs), max(ys)
    if kind == "g" and not element.get("transform"):
        boxes = [box for child in element if (box := _box(child)) is not None]
        if boxes:
            return (
                min(b[0] for b in boxes),
                min(b[1] for b in boxes),
                max(b[2] for b in boxes),
                max(b[3] for b in boxes),
            )
    return None


def _overlay(element: ET.Element, style: dict[str, str]) -> ET.Element | None:
    """A shape over a place: its own outline (a cell's square, a triangle), or its
    bounding box."""
    kind = _tag(element)
    if kind == "rect" and _box(element) is not None:
        shape = {name: element.get(name, "0") for name in ("x", "y", "width", "height")}
    elif kind == "polygon" and element.get("points"):
        shape = {"points": str(element.get("points"))}
    elif (box := _box(element)) is not None:
        kind = "rect"
        x0, y0, x1, y1 = box
        shape = {"x": f"{x0:g}", "y": f"{y0:g}", "width": f"{x1 - x0:g}", "height": f"{y1 - y0:g}"}
    else:
        return None
    overlay = ET.Element(f"{{{SVG}}}{kind}", {**shape, **style})
    return overlay


def _highlight(root: ET.Element, new: list[str], ruled: dict[str, list[str]]) -> None:
    """The step's places on the board: a highlight where it sets an entry, a dashed
    outline (and the values, small, in an empty place) where it rules values out."""
    places = _places(root)
    for key in new:
        if key not in places:
            continue
        element, parent = places[key]
        element.set("data-walk", "new")
        overlay = _overlay(
            element,
            {
                "fill": NEW_COLOUR,
                "fill-opacity": "0.22",
                "stroke": NEW_COLOUR,
                "stroke-width": "3",
                "data-walk-mark": "new",
            },
        )
        if overlay is not None:
            ET.SubElement(overlay, f"{{{SVG}}}title").text = "set by this step"
            parent.insert(list(parent).index(element) + 1, overlay)
    for key, values in ruled.items():
        if key not in places:
            continue
        element, parent = places[key]
        element.set("data-walk", "out")
        said = "ruled out: " + ", ".join(values)
        overlay = _overlay(
            element,
            {
                "fill": "none",
                "stroke": OUT_COLOUR,
                "stroke-width": "2.5",
                "stroke-dasharray": "5 3",
                "data-walk-mark": "out",
            },
        )
        if overlay is None:
            continue
        ET.SubElement(overlay, f"{{{SVG}}}title").text = said
        at = list(parent).index(element) + 1
        parent.insert(at, overlay)
        box = _box(element)
        if box is None or element.get("data-value") is not None or _written(parent, box):
            continue
        x0, y0, x1, y1 = box
        size = min(x1 - x0, y1 - y0)
        shown = "\u00d7" + ",".join(values)
        font = min(12.0, size * 0.3)
        if size < 20 or len(shown) * font * 0.62 > (x1 - x0) - 4:
            continue  # too small to say it: the outline and the sentence do
        label = ET.Element(
            f"{{{SVG}}}text",
            {
                "x": f"{x0 + 3:g}",
                "y": f"{y0 + 2 + font:g}",
                "font-size": f"{font:.1f}",
                "font-family": "sans-serif",
                "fill": OUT_COLOUR,
                "data-walk-mark": "out",
            },
        )
        label.text = shown
        parent.insert(at + 1, label)


def _written(parent: ET.Element, box: tuple[float, float, float, float]) -> bool:
    """Whether a text of the drawing (a cell's number, a given) starts inside the box:
    then the values ruled out are not written over it."""
    x0, y0, x1, y1 = box
    for text in parent.iter(f"{{{SVG}}}text"):
        at = _numbers(text.get("x")), _numbers(text.get("y"))
        if at[0] and at[1] and x0 <= at[0][0] <= x1 and y0 <= at[1][0] <= y1:
            return True
    return False


def _tag_reasons(
    root: ET.Element, plain: ET.Element, atoms: list[str], places: list[tuple[str, str] | None]
) -> None:
    """The reason's clues and places tagged ``data-walk="reason"``: the elements the
    puzzle's drawing marks (those drawn otherwise than on ``plain``, the same board with
    nothing marked: a red clue, a framed or tinted cell), the clues named by
    ``data-mark`` and the places of the reason's entries."""
    wanted = set(atoms)
    keys = {where[0] for where in places if where is not None}
    unmarked = _drawn_places(plain)
    for name, element in _drawn_places(root).items():
        if element.get("data-walk") is not None:
            continue
        if (
            name[1] in keys
            or (name[0] == "mark" and name[1] in wanted)
            or ET.tostring(element) != ET.tostring(unmarked.get(name, element))
        ):
            element.set("data-walk", "reason")


def _drawn_places(root: ET.Element) -> dict[tuple[str, str], ET.Element]:
    """The elements of a drawing's places and marks, by kind and name (the last one of
    a name)."""
    found: dict[tuple[str, str], ET.Element] = {}
    for element in root.iter():
        if (key := _key(element)) is not None:
            found["place", key] = element
        if (mark := element.get("data-mark")) is not None:
            found["mark", mark] = element
    return found


# -- one SVG: a grid of boards -----------------------------------------------------------
def _size(root: ET.Element) -> tuple[float, float]:
    width, height = root.get("width"), root.get("height")
    try:
        return float(str(width)), float(str(height))
    except ValueError:
        box = _numbers(root.get("viewBox"))
        return (box[2], box[3]) if len(box) == 4 else (400.0, 400.0)


def svg(walk: Walkthrough | PlanWalkthrough) -> str:
    """The walkthrough as one SVG: a heading, then a grid of boards (the start and the
    position after each step), each with its title and sentence under it."""
    from .plan_walk import LEGEND, PlanWalkthrough

    shown = frames(walk)
    legend = LEGEND if isinstance(walk, PlanWalkthrough) else _LEGEND
    boards = [_parse(frame.svg) for frame in shown]
    sizes = [_size(board) for board in boards]
    column = max([MIN_COLUMN, *(w for w, _ in sizes)])
    columns = max(1, min(len(boards), int((MOST_WIDTH + GAP) // (column + GAP))))
    chars = max(20, int(column / CHAR_WIDTH))
    texts = [
        [frame.title, *textwrap.wrap(frame.text, chars, break_long_words=True)] for frame in shown
    ]
    root = ET.Element(f"{{{SVG}}}svg", {"font-family": "sans-serif"})
    width = columns * column + (columns - 1) * GAP + 16
    across = int((width - 16) / CHAR_WIDTH)
    heading = [*textwrap.wrap(walk.lines()[0], across), *textwrap.wrap(legend, across)]
    top = 8.0
    for line in heading:
        top += LINE_HEIGHT
        text = ET.SubElement(root, f"{{{SVG}}}text", {"x": "8", "y": f"{top:g}"})
        text.set("font-size", str(FONT_SIZE))
        text.text = line
    top += GAP / 2
    for first in range(0, len(boards), columns):
        row = range(first, min(first + columns, len(boards)))
        board_height = max(sizes[i][1] for i in row)
        text_height = max(len(texts[i]) for i in row) * LINE_HEIGHT
        for slot, index in enumerate(row):
            left = 8 + slot * (column + GAP)
            board, (w, h) = boards[index], sizes[index]
            if board.get("viewBox") is None:
                board.set("viewBox", f"0 0 {w:g} {h:g}")
            board.set("x", f"{left:g}")
            board.set("y", f"{top:g}")
            board.set("data-frame", str(shown[index].number))
            root.append(board)
            y = top + board_height + 4
            for number, line in enumerate(texts[index]):
                y += LINE_HEIGHT
                text = ET.SubElement(root, f"{{{SVG}}}text", {"x": f"{left:g}", "y": f"{y:g}"})
                text.set("font-size", str(FONT_SIZE))
                text.set("data-frame-text", str(shown[index].number))
                if number == 0:
                    text.set("font-weight", "bold")
                text.text = line
        top += board_height + 4 + text_height + GAP
    height = top
    root.set("width", f"{width:g}")
    root.set("height", f"{height:g}")
    root.set("viewBox", f"0 0 {width:g} {height:g}")
    background = ET.Element(f"{{{SVG}}}rect", {"width": "100%", "height": "100%", "fill": "white"})
    root.insert(0, background)
    return _svg_text(root)


_LEGEND = (
    "green: what the step sets; dashed: values it rules out; marked as a hint's "
    "reasons are (red; a bare grid's blue): the clues and earlier entries it rests on"
)


# -- HTML: a page, and a notebook's cell ----------------------------------------------------
def html(walk: Walkthrough | PlanWalkthrough, *, page: bool = False) -> str:
    """The walkthrough as HTML that steps forward and back through its boards (buttons,
    and the arrow keys): a whole page (``page``), or a fragment for a notebook, its
    style scoped to its own element (an id of its own) and its script finding only that
    element. Without a script it shows every board, one under the other."""
    shown = frames(walk)
    # An id no other output holds, a notebook's earlier sessions' included.
    scope = f"aspuzzles-walk-{uuid.uuid4().hex[:12]}"
    return render_template(
        "walkthrough.html.j2",
        page=page,
        scope=scope,
        head=walk.lines()[0],
        frames=shown,
        new_colour=NEW_COLOUR,
        out_colour=OUT_COLOUR,
    )
