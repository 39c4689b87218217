"""What a bare encoding's board shows, and the board drawn as text and as SVG.

An encoding may say what its board shows in a ``#program view.`` part, grounded alone
with the instance's program and the atoms of an answer (or a player's progress) as
facts (``driver.answers.view_atoms``); its atoms of this vocabulary are drawn:

- ``place(R,C)``: a cell of the board (rows and columns from 1), drawn as a box;
  ``place(R,C,open)``: a place drawn open, without its box: only what is drawn in it
  shows (its text, mark, lines), and a question's highlight; it is a place all the
  same (set on the web board, marked by a hint): Slitherlink's edges and clues;
- ``text(R,C,T)``: a number or text in a place; ``fixed(R,C)``: a given, drawn bold;
- ``shade(R,C)``: a black cell (its text drawn white, never hidden);
  ``shade(R,C,Colour)``: shaded in a colour (``grey``, ``"#ffcc00"``);
- ``mark(R,C,K)``: K one of ``star``, ``circle`` (hollow), ``disc`` (filled),
  ``cross``, ``dot``;
- ``area(R,C,Id)``: the place lies in area Id: thick borders between areas;
- ``wall(R,C,Side)``: a thick border on a side of a place (``top``, ``bottom``,
  ``left``, ``right``);
- ``edge(Side,I,T)``: a clue outside the board, on a side, by column (``top``,
  ``bottom``) or row (``left``, ``right``) I;
- ``line(R1,C1,R2,C2)``: a segment between the centres of two places (loops, paths);
- ``segment(R1,C1,R2,C2)``: a segment between two grid points, the corners of the
  places: point (R,C) is the bottom right corner of place (R,C), (0,0) the top left
  corner of place (1,1) (Slitherlink); ``point(R,C)``: a dot at a grid point;
- ``between(R1,C1,R2,C2,T)``: text on the border of two neighbouring places
  (Futoshiki's ``<``, Kropki's dots);
- ``note(R,C,T)``: small text in a place's top left corner (a Killer cage's sum).

Without a view part the board is drawn from the instance's facts and the atoms
themselves (``default_view``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from clingo import Symbol, SymbolType

Cell = tuple[int, int]
Sides = ("top", "bottom", "left", "right")
MARKS = ("star", "circle", "disc", "cross", "dot")

#: Answer predicates of a place alone (``p(R,C)``) drawn as a black cell by default.
SHADING_NAMES = frozenset(
    {"black", "shaded", "shade", "filled", "fill", "dark", "painted", "blocked", "block", "wall"}
)
#: ... drawn as a dot (a place marked empty, kept white).
EMPTY_NAMES = frozenset({"empty", "unshaded", "white", "blank", "free", "open", "clear", "no"})
#: Instance predicates ``p(R,C,Id)`` drawn as areas by default (besides those declared
#: structure).
REGION_NAMES = frozenset({"region", "area", "cage", "room", "block", "zone", "group"})
#: Marks for other answer predicates of a place alone, one a predicate in turn.
OTHER_MARKS = ("disc", "circle", "cross", "star")
#: The characters marks are drawn with on a text board.
#: A dot is ``·``, apart from ``.`` (an empty place) and ``-`` (a line, a border).
MARK_TEXT = {"star": "*", "circle": "o", "disc": "@", "cross": "x", "dot": "\u00b7"}
#: Shading colours a view may name, besides ``#rrggbb`` strings.
COLOURS = {
    "black": "#222222",
    "grey": "#bbbbbb",
    "gray": "#bbbbbb",
    "light": "#e4e4e4",
    "red": "#e88080",
    "green": "#8fd18f",
    "blue": "#8fb5e8",
    "yellow": "#f3dd6d",
    "orange": "#f5b26b",
    "purple": "#c39be0",
}
DARK = "#222222"
GIVEN_FILL = "#e4e4e4"


@dataclass
class View:
    """What a board shows (see the module's docstring), and how a question marks it."""

    places: set[Cell] = field(default_factory=set)
    #: Places drawn open: no box around them (``place(R,C,open)``).
    open_places: set[Cell] = field(default_factory=set)
    #: Whether a position that is no place is a gap, blank on the text board (a view
    #: part declares its places); the default drawing knows only the places its facts
    #: and atoms name, so a position of its board they do not name is an empty place.
    gaps: bool = True
    texts: dict[Cell, str] = field(default_factory=dict)
    fixed: set[Cell] = field(default_factory=set)
    shades: dict[Cell, str] = field(default_factory=dict)
    marks: dict[Cell, str] = field(default_factory=dict)
    areas: dict[Cell, str] = field(default_factory=dict)
    walls: set[tuple[Cell, str]] = field(default_factory=set)
    edges: dict[tuple[str, int], str] = field(default_factory=dict)
    lines: list[tuple[Cell, Cell]] = field(default_factory=list)
    segments: list[tuple[Cell, Cell]] = field(default_factory=list)
    points: set[Cell] = field(default_factory=set)
    between: dict[tuple[Cell, Cell], str] = field(default_factory=dict)
    notes: dict[Cell, str] = field(default_factory=dict)
    #: Atoms that name no place, listed under the board.
    others: list[str] = field(default_factory=list)
    #: Each place's value as the web board reads it (``data-value``).
    values: dict[Cell, str] = field(default_factory=dict)
    #: Places a question marks (a hint's reasons, mistakes), and the hinted one.
    marked: set[Cell] = field(default_factory=set)
    first: set[Cell] = field(default_factory=set)

    # -- extent ---------------------------------------------------------------------
    def cells(self) -> set[Cell]:
        """Every place and cell something is drawn in."""
        named = {
            *self.places,
            *self.texts,
            *self.shades,
            *self.marks,
            *self.areas,
            *self.notes,
            *self.marked,
            *(cell for cell, _ in self.walls),
            *(cell for pair in [*self.lines, *self.between] for cell in pair),
        }
        # a grid point (R,C) is the bottom right corner of place (R,C)
        corners = {point for pair in self.segments for point in pair} | self.points
        for row, col in corners:
            named |= {(max(row, 1), max(col, 1))}
        return named

    def span(self) -> tuple[list[int], list[int]]:
        cells = self.cells()
        rows = [row for row, _ in cells] + [i for (s, i) in self.edges if s in ("left", "right")]
        cols = [col for _, col in cells] + [i for (s, i) in self.edges if s in ("top", "bottom")]
        return _range(rows), _range(cols)

    def is_plain(self) -> bool:
        """Whether the board is only numbers or text in places: drawn as plain rows."""
        return not (
            self.shades
            or self.marks
            or self.areas
            or self.walls
            or self.edges
            or self.lines
            or self.segments
            or self.points
            or self.between
            or self.notes
            or self.marked
        )

    def dark(self, cell: Cell) -> bool:
        return self.shades.get(cell) == DARK


def _range(numbers: list[int]) -> list[int]:
    return list(range(min(numbers), max(numbers) + 1)) if numbers else []


# -- reading a view --------------------------------------------------------------------
def plain(symbol: Symbol) -> str:
    """A value as a person reads it: strings without their quotes."""
    return symbol.string if symbol.type == SymbolType.String else str(symbol)


def _numbers(arguments: Sequence[Symbol]) -> list[int] | None:
    if not all(argument.type == SymbolType.Number for argument in arguments):
        return None
    return [argument.number for argument in arguments]


def _colour(symbol: Symbol | None) -> str:
    if symbol is None:
        return DARK
    name = plain(symbol)
    if name in COLOURS:
        return COLOURS[name]
    hexadecimal = name.startswith("#") and len(name) in (4, 7)
    if hexadecimal and all(c in "0123456789abcdefABCDEF" for c in name[1:]):
        return name
    return COLOURS["grey"]


def from_atoms(atoms: Iterable[Symbol]) -> View:
    """A view part's answer read: its vocabulary's atoms, the rest ignored (a view
    part's own helper predicates)."""
    view = View()
    for atom in atoms:
        if atom.type != SymbolType.Function:
            continue
        _take(view, atom.name, atom.arguments)
    return view


def _take(view: View, name: str, arguments: list[Symbol]) -> None:  # noqa: C901
    arity = len(arguments)
    first = _numbers(arguments[:2]) if arity >= 2 else None
    if first is None:
        index = _numbers(arguments[1:2]) if name == "edge" and arity == 3 else None
        if index is not None and plain(arguments[0]) in Sides:
            view.edges[(plain(arguments[0]), index[0])] = plain(arguments[2])
        return
    cell = (first[0], first[1])
    if name == "place" and arity == 2:
        view.places.add(cell)
    elif name == "place" and arity == 3 and plain(arguments[2]) == "open":
        view.places.add(cell)
        view.open_places.add(cell)
    elif name == "text" and arity == 3:
        view.texts[cell] = plain(arguments[2])
    elif name == "fixed" and arity == 2:
        view.fixed.add(cell)
    elif name == "shade" and arity in (2, 3):
        view.shades[cell] = _colour(arguments[2] if arity == 3 else None)
    elif name == "mark" and arity == 3 and plain(arguments[2]) in MARKS:
        view.marks[cell] = plain(arguments[2])
    elif name == "area" and arity == 3:
        view.areas[cell] = str(arguments[2])
    elif name == "wall" and arity == 3 and plain(arguments[2]) in Sides:
        view.walls.add((cell, plain(arguments[2])))
    elif name == "note" and arity == 3:
        view.notes[cell] = plain(arguments[2])
    elif name == "point" and arity == 2:
        view.points.add(cell)
    elif name in ("line", "segment", "between") and arity in (4, 5):
        other = _numbers(arguments[2:4])
        if other is None or (name == "between") != (arity == 5):
            return
        pair = (cell, (other[0], other[1]))
        if name == "line":
            view.lines.append(pair)
        elif name == "segment":
            view.segments.append(pair)
        else:
            view.between[pair] = plain(arguments[4])


# -- the default: atoms of places ------------------------------------------------------
def cell_of(atom: Symbol) -> Cell | None:
    """The place an atom names by its first two arguments, if it names one."""
    if atom.type != SymbolType.Function or len(atom.arguments) < 2:
        return None
    numbers = _numbers(atom.arguments[:2])
    return None if numbers is None else (numbers[0], numbers[1])


def default_view(
    facts: Sequence[Symbol], regions: set[tuple[str, int]], atoms: Sequence[Symbol]
) -> View:
    """The board of an encoding without a view part: the instance's ``facts`` and the
    answer's (or progress's) ``atoms`` whose first two arguments are a row and a column.

    - a fact ``p(R,C,V)`` is a given, its value drawn bold, unless ``p/3`` is a region
      (in ``regions``: declared structure, or named region, area, cage, room, block,
      zone or group): its places then lie in area V, with thick borders between areas;
      a fact ``p(R,C)`` is a given place, shaded light grey (``:`` on a text board),
      or black where p is named as a black answer is (``wall(R,C)``: a wall);
    - an atom ``p(R,C,V)`` of the answer is V in its place (bold where a fact gives
      the same value there); ``p(R,C)`` is a black place where p is named black,
      shaded, filled, dark, painted, blocked, block or wall, a dot where p is named
      empty, unshaded, white, blank, free, open, clear or no, the mark of its name
      where that is one (star, circle, disc, cross, dot), and else a mark of its own
      (disc, circle, cross, star, one a predicate in turn);
    - every other atom of the answer is listed under the board; other facts are not
      drawn.
    """
    view = View(gaps=False)
    given = _default_facts(view, facts, regions)
    _default_atoms(view, atoms, given)
    return view


def _default_facts(
    view: View, facts: Sequence[Symbol], regions: set[tuple[str, int]]
) -> dict[Cell, str]:
    """The instance's facts of places drawn; the givens' values by place."""
    given: dict[Cell, str] = {}
    for fact in facts:
        cell = cell_of(fact)
        arity = len(fact.arguments) if cell is not None else 0
        if cell is None or arity not in (2, 3):
            continue
        view.places.add(cell)
        if arity == 2:
            view.shades[cell] = DARK if fact.name in SHADING_NAMES else GIVEN_FILL
        elif _is_region(fact, regions):
            view.areas[cell] = str(fact.arguments[2])
        else:
            given[cell] = view.texts[cell] = plain(fact.arguments[2])
            view.fixed.add(cell)
    return given


def _default_atoms(view: View, atoms: Sequence[Symbol], given: dict[Cell, str]) -> None:
    """An answer's (or progress's) atoms drawn: values, shading, marks; the others
    listed."""
    others: dict[str, str] = {}
    for atom in atoms:
        cell = cell_of(atom)
        arity = len(atom.arguments) if cell is not None else 0
        if cell is None or arity not in (2, 3):
            view.others.append(str(atom))
            continue
        view.places.add(cell)
        if arity == 3:
            view.texts[cell] = plain(atom.arguments[2])
            if given.get(cell) != view.texts[cell]:
                view.fixed.discard(cell)
        elif atom.name in SHADING_NAMES:
            view.shades[cell] = DARK
        elif atom.name in EMPTY_NAMES:
            view.marks[cell] = "dot"
        elif atom.name in MARKS:
            view.marks[cell] = atom.name
        else:
            kind = others.setdefault(atom.name, OTHER_MARKS[len(others) % len(OTHER_MARKS)])
            view.marks[cell] = kind


def _is_region(fact: Symbol, regions: set[tuple[str, int]]) -> bool:
    return (fact.name, 3) in regions or fact.name in REGION_NAMES


def entry_value(atom: Symbol) -> str:
    """What the web board reads in a place for an entry there (``data-value``): its
    last argument (``cell(R,C,V)``: V), or for an entry of the place alone
    (``star(R,C)``) its name's first letter, the key that sets it."""
    if len(atom.arguments) == 2:
        return atom.name[:1]
    return plain(atom.arguments[-1])


def with_values(view: View, atoms: Sequence[Symbol]) -> View:
    """The view with each place's value as the web board reads it: the entry set
    there, else a given's text."""
    for given in view.fixed:
        if given in view.texts:
            view.values[given] = view.texts[given]
    for atom in atoms:
        cell = cell_of(atom)
        if cell is not None and len(atom.arguments) in (2, 3):
            view.values[cell] = entry_value(atom)
    return view


# -- text ------------------------------------------------------------------------------
def draw_text(view: View, progress: bool = False) -> str:
    """The board as text. A board of numbers alone (a solved Latin square) is plain
    rows (``.`` where a place is empty, blank in a gap, where no place is: ``gaps``);
    otherwise each place is a field: its text or mark (``*`` star, ``o`` circle,
    ``@`` disc, ``x`` cross, ``·`` dot), ``.`` when empty (blank where no place is),
    ``:`` when shaded in a light colour and empty, between ``#`` when shaded black
    (``#3#``), between brackets when a question marks it
    (``[3]``); areas, walls and segments are drawn as borders (``|``, ``---``), lines
    between centres as ``-`` and ``|``, edge clues around the board. Atoms that name
    no place follow, one a line (``* `` before each on a progress board)."""
    rows, cols = view.span()
    others = [f"* {atom}" if progress else atom for atom in view.others]
    if not rows:
        return "".join(f"{line}\n" for line in others)
    width = max((len(t) for t in [*view.texts.values(), *view.edges.values()]), default=1)
    if view.is_plain() and not progress:
        lines = [
            " ".join(_plain_field(view, (r, c)).rjust(width) for c in cols).rstrip() for r in rows
        ]
    elif _bordered(view):
        lines = _boxed(view, rows, cols, width)
    else:
        lines = _fields(view, rows, cols, width)
    return "".join(f"{line}\n" for line in [*lines, *others])


def _plain_field(view: View, cell: Cell) -> str:
    """A place's text on a plain board: ``.`` where the place is empty, blank where
    no place is (a gap between places, as Slitherlink's between corners and edges;
    the default drawing has none: ``View.gaps``)."""
    if cell in view.texts:
        return view.texts[cell]
    return "." if cell in view.places or not view.gaps else " "


def _bordered(view: View) -> bool:
    return bool(view.areas or view.walls or view.segments or view.lines or view.between)


def _field(view: View, cell: Cell, width: int) -> str:
    """A place's three parts: left, content, right."""
    if cell in view.texts:
        content = view.texts[cell]
    elif cell in view.marks:
        content = MARK_TEXT[view.marks[cell]]
    elif view.dark(cell):
        content = "#"
    elif cell in view.shades:
        content = ":"
    elif cell in view.places or cell in view.marked:
        content = "."
    else:
        content = " "
    content = content.center(width)
    if cell in view.marked:
        return f"[{content}]"
    if cell in view.shades and cell not in view.texts and content.strip() == "#":
        return "#" * (width + 2)
    if view.dark(cell):
        return f"#{content}#"
    return f" {content} "


def _edge_row(view: View, side: str, cols: list[int], width: int, gap: int, indent: str) -> str:
    cells = [view.edges.get((side, col), "").center(width + 2) for col in cols]
    return (indent + (" " * gap).join(cells)).rstrip()


def _fields(view: View, rows: list[int], cols: list[int], width: int) -> list[str]:
    left = max((len(t) for (s, _), t in view.edges.items() if s == "left"), default=0)
    indent = " " * (left + 1 if left else 0)
    lines = []
    if any(side == "top" for side, _ in view.edges):
        lines.append(_edge_row(view, "top", cols, width, 0, indent))
    for row in rows:
        body = "".join(_field(view, (row, col), width) for col in cols)
        head = view.edges.get(("left", row), "").rjust(left) + " " if left else ""
        tail = " " + view.edges[("right", row)] if ("right", row) in view.edges else ""
        lines.append((head + body + tail).rstrip())
    if any(side == "bottom" for side, _ in view.edges):
        lines.append(_edge_row(view, "bottom", cols, width, 0, indent))
    return lines


def border(view: View, one: Cell, two: Cell) -> bool:
    """Whether a thick border lies between two neighbouring cells (either may be off
    the board): a wall, areas that differ, or the edge of an area."""
    (r1, c1), (r2, c2) = sorted([one, two])
    if r1 == r2:  # side by side
        if ((r1, c1), "right") in view.walls or ((r2, c2), "left") in view.walls:
            return True
    elif ((r1, c1), "bottom") in view.walls or ((r2, c2), "top") in view.walls:
        return True
    if view.areas and (one in view.areas or two in view.areas):
        return view.areas.get(one) != view.areas.get(two)
    return False


def _segment_on(view: View, one: Cell, two: Cell) -> bool:
    """Whether a segment between grid points lies on the side between two cells."""
    (r1, c1), (r2, _) = sorted([one, two])
    # the vertical side right of (r1, c1) runs from point (r1-1, c1) to (r1, c1); the
    # horizontal side below it from (r1, c1-1) to (r1, c1)
    ends = {(r1 - 1, c1), (r1, c1)} if r1 == r2 else {(r1, c1 - 1), (r1, c1)}
    return any({a, b} == ends for a, b in view.segments)


def _thick(view: View, one: Cell, two: Cell) -> bool:
    return border(view, one, two) or _segment_on(view, one, two)


def _corner(view: View, row: int, col: int) -> str:
    """``+`` where a border meets the top left corner of place (row, col)."""
    touching = (
        _thick(view, (row - 1, col - 1), (row, col - 1)),
        _thick(view, (row - 1, col), (row, col)),
        _thick(view, (row - 1, col - 1), (row - 1, col)),
        _thick(view, (row, col - 1), (row, col)),
    )
    if any(touching):
        return "+"
    return "." if (row - 1, col - 1) in view.points else " "


def _line_between(view: View, one: Cell, two: Cell) -> bool:
    return any({a, b} == {one, two} for a, b in view.lines)


def _boxed(view: View, rows: list[int], cols: list[int], width: int) -> list[str]:
    """Places in a box of borders: ``|`` and ``---`` where areas part, walls and
    segments lie; ``-`` and ``|`` where a line joins two centres; a ``between`` text
    on the border it names."""
    left = max((len(t) for (s, _), t in view.edges.items() if s == "left"), default=0)
    indent = " " * (left + 1 if left else 0)
    lines = []
    if any(side == "top" for side, _ in view.edges):
        lines.append(_edge_row(view, "top", cols, width, 1, indent + " "))
    for row in rows:
        lines.append((indent + _border_line(view, row, cols, width)).rstrip())
        head = view.edges.get(("left", row), "").rjust(left) + " " if left else ""
        tail = " " + view.edges[("right", row)] if ("right", row) in view.edges else ""
        lines.append((head + _body_line(view, row, cols, width) + tail).rstrip())
    lines.append((indent + _border_line(view, rows[-1] + 1, cols, width)).rstrip())
    if any(side == "bottom" for side, _ in view.edges):
        lines.append(_edge_row(view, "bottom", cols, width, 1, indent + " "))
    return lines


def _border_line(view: View, row: int, cols: list[int], width: int) -> str:
    """The line of borders above a row."""
    span = width + 2
    parts = []
    for col in cols:
        up, down = (row - 1, col), (row, col)
        text = view.between.get((up, down)) or view.between.get((down, up))
        if text is not None:
            fill = text.center(span)
        elif _thick(view, up, down):
            fill = "-" * span
        elif _line_between(view, up, down):
            fill = "|".center(span)
        else:
            fill = " " * span
        parts += [_corner(view, row, col), fill]
    return "".join([*parts, _corner(view, row, cols[-1] + 1)])


def _body_line(view: View, row: int, cols: list[int], width: int) -> str:
    """A row's places, with the borders between them."""
    body = ""
    for col in [*cols, cols[-1] + 1]:
        before, here = (row, col - 1), (row, col)
        text = view.between.get((before, here)) or view.between.get((here, before))
        if text is not None:
            body += text[:1]
        elif _thick(view, before, here):
            body += "|"
        elif _line_between(view, before, here):
            body += "-"
        else:
            body += " "
        if col <= cols[-1]:
            body += _field(view, here, width)
    return body


# -- SVG -------------------------------------------------------------------------------
#: A place's side in the SVG, the margin, and the width of a listed atom's character.
SIZE, MARGIN, CHARACTER = 32, 10, 8
FIRST_FILL, MARKED_FILL, MARKED_STROKE = "#ffd27f", "#cfe3ff", "#1d4f91"


def geometry(view: View, progress: bool) -> dict[str, Any]:  # noqa: C901
    """Everything the SVG template draws, placed: rectangles, borders, texts, marks,
    lines, and the atoms listed under the board."""
    rows, cols = view.span()
    left = SIZE if any(side == "left" for side, _ in view.edges) else 0
    top = SIZE if any(side == "top" for side, _ in view.edges) else 0
    right = SIZE if any(side == "right" for side, _ in view.edges) else 0
    bottom = SIZE if any(side == "bottom" for side, _ in view.edges) else 0
    x0, y0 = MARGIN + left, MARGIN + top
    r0, c0 = (rows[0], cols[0]) if rows else (1, 1)

    def x(col: float) -> float:
        return x0 + (col - c0) * SIZE

    def y(row: float) -> float:
        return y0 + (row - r0) * SIZE

    rects, texts, shapes, strokes, dots = [], [], [], [], []
    for cell in sorted(view.places | view.marked):
        row, col = cell
        opened = cell in view.open_places
        fill, inset = "none" if opened else "white", None
        shade = view.shades.get(cell)
        if cell in view.first:
            fill, inset = FIRST_FILL, shade
        elif cell in view.marked:
            fill, inset = MARKED_FILL, shade
        elif shade is not None:
            fill = shade
        rect: dict[str, Any] = {
            "x": x(col),
            "y": y(row),
            "fill": fill,
            # an open place has no box, unless a question marks it
            "stroke": "none" if opened and cell not in view.marked else "#444",
            "cell": f"{row},{col}",
            "value": view.values.get(cell),
            "marked": cell in view.marked,
        }
        rects.append(rect)
        if inset is not None:
            shapes.append({"kind": "inset", "x": x(col) + 7, "y": y(row) + 7, "fill": inset})
    for cell, content in view.texts.items():
        row, col = cell
        light = view.dark(cell) and cell not in view.marked
        size = 14 if len(content) <= 2 else max(8, 28 // len(content) + 4)
        # Beside a note in the top left corner (a cage's sum), the text moves right
        # and down, clear of it.
        aside = 3 if cell in view.notes else 0
        texts.append(
            {
                "x": x(col) + SIZE / 2 + aside,
                "y": y(row) + SIZE / 2 + 5 + aside,
                "text": content,
                "bold": cell in view.fixed,
                "fill": "white" if light else "black",
                "size": size,
            }
        )
    for cell, kind in view.marks.items():
        if cell in view.texts:
            continue
        row, col = cell
        centre = (x(col) + SIZE / 2, y(row) + SIZE / 2)
        colour = "white" if view.dark(cell) and cell not in view.marked else "black"
        shape = {"kind": kind, "cx": centre[0], "cy": centre[1], "colour": colour}
        if kind == "star":
            shape["points"] = star_points(*centre)
        shapes.append(shape)
    for cell, content in view.notes.items():
        row, col = cell
        texts.append(
            {"x": x(col) + 3, "y": y(row) + 10, "text": content, "bold": False}
            | {"fill": "black", "size": 9, "anchor": "start"}
        )
    for (one, two), content in view.between.items():
        cx = (x(one[1]) + x(two[1])) / 2 + SIZE / 2
        cy = (y(one[0]) + y(two[0])) / 2 + SIZE / 2 + 5
        texts.append(
            {"x": cx, "y": cy, "text": content, "bold": False, "fill": "black", "size": 13}
        )
    for (side, index), content in view.edges.items():
        if side in ("top", "bottom"):
            ex = x(index) + SIZE / 2
            ey = y(r0) - SIZE / 2 + 5 if side == "top" else y(rows[-1] + 1) + SIZE / 2 + 5
        else:
            ey = y(index) + SIZE / 2 + 5
            ex = x(c0) - SIZE / 2 if side == "left" else x(cols[-1] + 1) + SIZE / 2
        texts.append(
            {"x": ex, "y": ey, "text": content, "bold": False, "fill": "black", "size": 14}
        )
    borders = _thick_lines(view, rows, cols, x, y)
    for a, b in view.lines:
        strokes.append(
            (x(a[1]) + SIZE / 2, y(a[0]) + SIZE / 2, x(b[1]) + SIZE / 2, y(b[0]) + SIZE / 2)
        )
    segments = [(x(a[1] + 1), y(a[0] + 1), x(b[1] + 1), y(b[0] + 1)) for a, b in view.segments]
    for row, col in sorted(view.points):
        dots.append((x(col + 1), y(row + 1)))
    for text in texts:
        text.setdefault("anchor", "middle")
    listed = max((len(atom) + 2 for atom in view.others), default=0)
    board_width = len(cols) * SIZE + left + right
    board_height = len(rows) * SIZE + top + bottom
    return {
        "size": SIZE,
        "rects": rects,
        "texts": texts,
        "shapes": shapes,
        "borders": borders,
        "lines": strokes,
        "segments": segments,
        "dots": dots,
        "others": [f"* {atom}" if progress else atom for atom in view.others],
        "progress": progress,
        "list_top": MARGIN + board_height + 20,
        "width": max(board_width, listed * CHARACTER) + 2 * MARGIN,
        "height": board_height + 2 * MARGIN + (len(view.others) * 18 + 8 if view.others else 0),
    }


def _thick_lines(
    view: View, rows: list[int], cols: list[int], x: Any, y: Any
) -> list[tuple[float, float, float, float]]:
    """The thick borders, placed: between areas, around the areas' places, and walls."""
    cells = view.places | set(view.areas)
    found = []
    for row in [*rows, rows[-1] + 1] if rows else []:
        for col in [*cols, cols[-1] + 1]:
            here, up, left = (row, col), (row - 1, col), (row, col - 1)
            drawn = here in cells
            if col <= cols[-1] and (drawn or up in cells) and border(view, up, here):
                found.append((x(col), y(row), x(col + 1), y(row)))
            if row <= rows[-1] and (drawn or left in cells) and border(view, left, here):
                found.append((x(col), y(row), x(col), y(row + 1)))
    return found


def star_points(cx: float, cy: float, outer: float = 11, inner: float = 4.6) -> str:
    """A five-pointed star's polygon around a centre."""
    import math

    points = []
    for index in range(10):
        radius = outer if index % 2 == 0 else inner
        angle = math.pi / 2 + index * math.pi / 5
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy - radius * math.sin(angle):.1f}")
    return " ".join(points)
