"""Edge-matching tiles: the 3x3 animal puzzle, Eternity II-style boards and unframed ones.

Place every square tile once, rotated freely, on a ROWS x COLS board so that every
shared edge matches. Style ``animal``: an edge is ``KIND_HALF`` (``lion_head``) and
touching edges match when the kind is equal and the halves differ; outer edges are
free. Style ``e2``: an edge is a colour number, touching edges match when equal, and
colour 0 (the grey frame) faces outwards exactly: on every outer side, never inside.
Style ``unframed``: colour numbers matching when equal, as in e2, but with no frame:
outer edges are free and 0 is a colour like any other (the unframed edge-matching
puzzles of SAT and CSP benchmarks).

Rotation convention: a placement is (tile id, r) with r the number of **clockwise**
quarter turns applied to the tile as listed; after r turns the listed edge (d - r) mod 4
is on side d (0 top, 1 right, 2 bottom, 3 left). The seed's SQL counts
counter-clockwise turns: its r is our (4 - r) mod 4.

Python computes the rotated tiles (and, for framed boards, where each may go) and
injects them as facts; the encoding states placement and matching.
"""

from __future__ import annotations

import argparse
import random
import re
import urllib.parse
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, TypeVar

from clingo import Function, Number, String, Symbol

from ..errors import InputError, LineReader, is_number
from ..puzzle import Puzzle, Shortcut, json_field
from ..render import wheel_colours

SIDES = ("top", "right", "bottom", "left")
#: The two halves of an animal picture, by the names puzzle makers give them. A kind
#: uses one pair (a lion is cut into head and tail, or into top and bottom); an edge
#: matches the other half of its pair.
HALF_PAIRS = (("head", "tail"), ("top", "bottom"), ("front", "back"), ("upper", "lower"))
OTHER_HALF = {one: other for pair in HALF_PAIRS for one, other in (pair, pair[::-1])}
HALVES = HALF_PAIRS[0]  # what the generator writes
STYLES = ("animal", "e2", "unframed")
#: The styles whose edges are colour numbers that match when equal.
COLOUR_STYLES = ("e2", "unframed")
FRAME = "0"
#: The style of a bare list whose colours are letters while it is read; it becomes
#: ``e2`` once the frame's letter is known.
LETTERS = "letters"
#: The style of a bare list of numbers while it is read; once every tile is read it
#: becomes ``e2`` (with a 0: the grey frame), ``unframed`` (without a 0) or, when some
#: number is negative, ``animal`` (n meets -n: heads and tails written as signs).
NUMBERS = "numbers"


class Fix(NamedTuple):
    """A hint piece: tile ``tile`` stands on the 1-based cell (row, col), turned
    ``turns`` clockwise quarter turns (Eternity II fixes its centre piece so)."""

    row: int
    col: int
    tile: int
    turns: int


@dataclass(frozen=True)
class TilesInstance:
    """Tiles as listed (top, right, bottom, left), ids 1.. in file order."""

    style: str
    rows: int
    cols: int
    tiles: tuple[tuple[str, str, str, str], ...]
    #: Break the whole-board rotation symmetry (one solution per class); off = raw.
    symmetry_breaking: bool = True
    #: Hint pieces whose cell and turn are given (``fix ROW COL TILE TURNS`` lines).
    fixed: tuple[Fix, ...] = ()
    #: Score mode (``--score``): shared edges may mismatch, as few as possible.
    scored: bool = False

    @property
    def framed(self) -> bool:
        """Whether grey edges (colour 0) must line the border, and only it (e2)."""
        return self.style == "e2"

    @property
    def shared_edges(self) -> int:
        """Edges between two cells: what Eternity II's contests score."""
        return self.rows * (self.cols - 1) + (self.rows - 1) * self.cols

    @property
    def square(self) -> bool:
        return self.rows == self.cols

    @property
    def board_rotations(self) -> int:
        """Rotations of the whole board that map it onto itself (4 square, 2 else)."""
        return 4 if self.square else 2


@dataclass(frozen=True)
class TilesSolution:
    """``placement[row][col] = (tile id, clockwise quarter turns)``."""

    placement: tuple[tuple[tuple[int, int], ...], ...]
    #: In score mode, the shared edges that the answer set says mismatch, as
    #: ``(row, col, "right" | "bottom")``; the checker recounts them.
    mismatched: tuple[tuple[int, int, str], ...] | None = None


Side = TypeVar("Side")


def rotate(tile: Sequence[Side], turns: int) -> tuple[Side, Side, Side, Side]:
    """The tile after ``turns`` clockwise quarter turns: side d shows edge (d - r) % 4
    (edges, or anything told side by side, such as which sides are grey)."""
    return tuple(tile[(side - turns) % 4] for side in range(4))  # type: ignore[return-value]


def distinct_rotations(tile: Sequence[str]) -> list[int]:
    """Turns giving different edge sequences (a symmetric tile has fewer than 4)."""
    seen, kept = set(), []
    for turns in range(4):
        if (edges := rotate(tile, turns)) not in seen:
            seen.add(edges)
            kept.append(turns)
    return kept


def partner(style: str, edge: str) -> str:
    """The edge value that matches ``edge`` across a shared side."""
    if style in COLOUR_STYLES:
        return edge
    kind, half = edge.rsplit("_", 1)
    return f"{kind}_{OTHER_HALF[half]}"


def matches(style: str, one: str, other: str) -> bool:
    return partner(style, one) == other


# ----------------------------------------------------------------------- parsing
def parse_tiles(text: str, source: str) -> TilesInstance:
    """The documented format (``style``, ``size``, then the tiles), or a bare list of
    tiles as Eternity II piece files give them (``7 7 8 8`` per line): the style is
    then told by the edges (``_style_of_edge``, ``_told_style``), and the size by the
    count of tiles and, on a framed board, of its border tiles. A bare list may open
    with a size line (``_bare_header``) and may number its tiles (``1 7 7 8 8``), as
    Eternity II solvers' files do."""
    reader = LineReader(source)
    if (board := _bucas_board(text, reader)) is not None:
        return board
    listing = _TileLines(reader)
    size: tuple[int, int] | None = None
    header: tuple[int, tuple[int, ...]] | None = None  # a bare list's size line, its number
    declared = False  # a 'style' or 'size' line was given: the documented format
    fixes: list[tuple[int, Fix]] = []  # with the line each was given on
    for number, line in reader.lines(text):
        words = _line_words(line)
        if not words or _is_comment_line(words):  # a spreadsheet's empty row ',,,,' too
            continue
        keyword = words[0].lower()  # 'Style', 'SIZE' as well
        if keyword in ("style", "size") and listing.tiles:
            raise reader.error(number, f"the '{keyword}' line must come before the tiles")
        if keyword == "fix":
            fixes.append((number, _fix_line(line, reader, number)))
        elif keyword == "style":
            declared = True
            listing.style = _style_line(line, listing.style, reader, number)
        elif keyword == "size":
            declared = True
            size = _size_line(line, size, reader, number)
        elif (
            not declared
            and not listing.tiles
            and header is None
            and (sides := _bare_header(words, reader, number))
        ):
            header = number, sides
        elif not listing.tiles and listing.header is None and (sides := _column_header(words)):
            listing.header = sides
        else:
            listing.add(
                _unsigned(words, declared),
                number,
                numbered=not declared and _is_numbered_tile(words),
            )
    if header is not None:
        size = _header_size(*header, len(listing.tiles), reader)
    instance = _board(*_told_style(listing.style, listing.tiles, reader), size, reader)
    return replace(instance, fixed=_checked_fixes(instance, fixes, reader))


def _told_style(
    style: str | None, tiles: list[tuple[str, str, str, str]], reader: LineReader
) -> tuple[str | None, list[tuple[str, str, str, str]]]:
    """The style of a bare list of numbers or letters, told once every tile is read, and
    its tiles as that style writes them. Letters are colours, the frame's letter told by
    the tiles (e2). Of numbers, a negative one makes heads and tails (n meets -n:
    ``n_head`` and ``n_tail``); otherwise a 0 is the grey frame (e2), and without a 0
    there is no frame (``unframed``)."""
    if style == LETTERS:
        return "e2", _colours_of_letters(tiles, reader)
    if style != NUMBERS:
        return style, tiles
    if not any(edge.startswith("-") for tile in tiles for edge in tile):
        return ("e2" if any(FRAME in tile for tile in tiles) else "unframed"), tiles
    if any(edge in (FRAME, "-0") for tile in tiles for edge in tile):
        raise reader.error(
            None,
            "signed edges (n meets -n) make a heads-and-tails puzzle, where 0 has no "
            "other half: number the kinds from 1",
        )
    half = _half_of_signed
    return "animal", [(half(t), half(r), half(b), half(left)) for t, r, b, left in tiles]


def _half_of_signed(edge: str) -> str:
    return f"{edge[1:]}_tail" if edge.startswith("-") else f"{edge}_head"


@dataclass
class _TileLines:
    """The tiles of a file as its lines give them, and what the lines so far tell
    about how the rest are written."""

    reader: LineReader
    style: str | None = None
    tiles: list[tuple[str, str, str, str]] = field(default_factory=list)
    #: The id of the first tile, in a bare list that numbers them.
    first_id: int | None = None
    #: The sides a column header names, in its order (edges are read in that order).
    header: tuple[int, ...] | None = None
    #: An animal kind's first half, and its line.
    half_pairs: dict[str, tuple[str, int]] = field(default_factory=dict)

    def add(self, words: list[str], number: int, numbered: bool) -> None:
        """A tile line (or several tiles on one line, spelled as letter words)."""
        if numbered and not self.tiles:
            self.first_id = int(words[0])
        if self.first_id is not None:
            words = _without_id(words, self.first_id + len(self.tiles), self.reader, number)
        if self.header is not None and len(words) == len(SIDE_NAMES):
            words = [words[self.header.index(side)] for side in range(len(SIDE_NAMES))]
        for edges in _spelled_out(words) if self.style in (None, LETTERS) else [words]:
            self.style = self.style or _style_of_edge(edges[0], self.reader, number)
            tile = _tile_line(edges, self.style, len(self.tiles) + 1, self.reader, number)
            self.tiles.append(tile)
            _check_one_pair(tile, self.style, self.half_pairs, self.reader, number)


def _fix_line(line: str, reader: LineReader, number: int) -> Fix:
    """``fix ROW COL TILE TURNS``: four whole numbers, the turns 0-3."""
    words = line.split()
    if len(words) != 5 or not all(map(is_number, words[1:])):
        raise reader.error(
            number, f"expected 'fix ROW COL TILE TURNS' (whole numbers), got '{line}'"
        )
    row, col, tile, turns = (int(word) for word in words[1:])
    if not 0 <= turns <= 3:
        raise reader.error(number, f"fix: {turns} turns, expected 0-3 clockwise quarter turns")
    return Fix(row, col, tile, turns)


def _checked_fixes(
    instance: TilesInstance, fixes: Sequence[tuple[int, Fix]], reader: LineReader
) -> tuple[Fix, ...]:
    """The hint pieces once the board is known: each on the board, naming a tile that
    exists, and no cell or tile fixed twice."""
    cells: dict[tuple[int, int], int] = {}
    tiles: dict[int, int] = {}
    for number, fix in fixes:
        if not (1 <= fix.row <= instance.rows and 1 <= fix.col <= instance.cols):
            raise reader.error(
                number,
                f"fix: cell ({fix.row},{fix.col}) is off the {instance.rows}x{instance.cols} "
                "board (rows and columns count from 1)",
            )
        if not 1 <= fix.tile <= len(instance.tiles):
            raise reader.error(
                number, f"fix: no tile has id {fix.tile} (ids are 1-{len(instance.tiles)})"
            )
        cell = (fix.row, fix.col)
        if cell in cells:
            raise reader.error(
                number, f"fix: cell ({fix.row},{fix.col}) is already fixed on line {cells[cell]}"
            )
        if fix.tile in tiles:
            raise reader.error(
                number, f"fix: tile {fix.tile} is already fixed on line {tiles[fix.tile]}"
            )
        cells[cell], tiles[fix.tile] = number, number
    return tuple(fix for _, fix in fixes)


def _board(
    style: str | None,
    tiles: list[tuple[str, str, str, str]],
    size: tuple[int, int] | None,
    reader: LineReader,
) -> TilesInstance:
    """The instance once every line is read and its style told (``_told_style``): the
    size told by the tiles where no line gave it, and the count of tiles checked
    against it."""
    if not tiles:
        raise reader.error(None, "no tiles (expected 'style', 'size', then a line per tile)")
    assert style is not None  # set by the first tile at the latest
    rows, cols = size or _board_size(style, tiles, reader)
    if len(tiles) != rows * cols:
        raise reader.error(
            None, f"{len(tiles)} tiles for a {rows}x{cols} board, expected {rows * cols}"
        )
    return TilesInstance(style, rows, cols, tuple(tiles))


def _bucas_board(text: str, reader: LineReader) -> TilesInstance | None:
    """A board as e2.bucas.name links it (``...#board_w=6&board_h=6&board_edges=aabd...``):
    ``board_h`` rows of ``board_w`` cells, four letters (top right bottom left) per cell
    in reading order. The pieces as they lie there are the tiles to place; ``None``
    when the text is not such a link. The link's own ``#`` is not a comment: only
    lines that start with ``#`` are."""
    if "board_edges=" not in text:
        return None
    lines = [(n, line) for n, line in reader.lines(text, comment="") if line[0] != "#"]
    if not lines or "board_edges=" not in lines[0][1]:
        return None
    number, link = lines[0][0], lines[0][1].split()[0]
    fixes = []
    for other, line in lines[1:]:
        if line.split()[0].lower() != "fix":
            raise reader.error(
                other, "expected only the e2.bucas.name link and 'fix' lines, found more"
            )
        fixes.append((other, _fix_line(line.split("#", 1)[0].strip(), reader, other)))
    parts = urllib.parse.urlsplit(link)
    fields = urllib.parse.parse_qs(parts.fragment or parts.query or parts.path)
    cols, rows, edges = (fields.get(key, [""])[0] for key in ("board_w", "board_h", "board_edges"))
    if not (_is_positive(rows) and _is_positive(cols)):
        raise reader.error(number, "the link needs board_w and board_h (the board's size)")
    rows_n, cols_n = int(rows), int(cols)
    if len(edges) != 4 * rows_n * cols_n or not _is_letter_word(edges):
        raise reader.error(
            number,
            f"board_edges has {len(edges)} characters, expected 4 letters for each of the "
            f"{rows_n}x{cols_n} cells ({4 * rows_n * cols_n})",
        )
    tiles = [tuple(edges[start : start + 4]) for start in range(0, len(edges), 4)]
    board = TilesInstance("e2", rows_n, cols_n, tuple(_colours_of_letters(tiles, reader)))
    return replace(board, fixed=_checked_fixes(board, fixes, reader))


def _bare_header(words: Sequence[str], reader: LineReader, number: int) -> tuple[int, ...]:
    """The size line a bare list may open with (never a tile, which has four edges):
    ``ROWS COLS`` (Eternity2Puzzles.jl), a lone number (the side of a square board, as
    the ``.puz`` files of the edge-matching suite JamesGallicchio/eternity2 give it, or
    the count of tiles: ``_header_size`` tells which), or that suite's older
    ``p tile ROWS COLS COLOURS`` (the colour count is not needed). Empty if the line is
    none of these."""
    if [word.lower() for word in words[:2]] == ["p", "tile"]:  # not 'p q r s', a tile
        if len(words) not in (4, 5):
            raise reader.error(number, "expected 'p tile ROWS COLS COLOURS' (a size line)")
        words = words[2:4]
    if len(words) in (1, 2) and all(map(_is_positive, words)):
        return tuple(int(word) for word in words)
    return ()


def _header_size(
    number: int, sides: tuple[int, ...], tiles: int, reader: LineReader
) -> tuple[int, int] | None:
    """The board a bare list's size line gives: ``ROWS COLS`` as it is; a lone number
    N is the side of an N x N board, or the count of tiles when there are N of them
    (the board's shape is then told by the tiles)."""
    if len(sides) == 2:
        return sides[0], sides[1]
    side = sides[0]
    if tiles == side * side:
        return side, side
    if tiles == side:
        return None
    raise reader.error(
        number,
        f"the list opens with {side}, but its {tiles} tiles are neither a {side}x{side} "
        f"board nor {side} tiles",
    )


def _is_comment_line(words: Sequence[str]) -> bool:
    """A DIMACS-style comment line (``c ...``), as edge-matching suites for SAT solvers
    write them; not a tile coded in letters whose top edge is ``c`` (``c a b d``)."""
    if words[0] != "c":
        return False
    return not (len(words) == 4 and all(map(_is_letter, words)))


def _unsigned(words: list[str], declared: bool) -> list[str]:
    """A bare list's tile line without a trailing ``+`` or ``-``: JamesGallicchio/eternity2
    marks some tiles so for its SAT encoding; it is no edge."""
    if not declared and len(words) == 5 and words[-1] in ("+", "-"):
        return words[:4]
    return words


def _is_positive(word: str) -> bool:
    return is_number(word) and int(word) > 0


def _line_words(line: str) -> list[str]:
    """A line's words, parted by spaces, commas or semicolons (``7,7,8,8`` as a CSV
    file of pieces has it)."""
    return [word for word in re.split(r"[\s,;]+", line) if word]


#: The names a column header may give each side (0 top, 1 right, 2 bottom, 3 left);
#: not single letters, which could be a tile's letter-coded edges.
SIDE_NAMES = (("top", "north", "up"), ("right", "east"), ("bottom", "south", "down"),
              ("left", "west"))  # fmt: skip
_ID_NAMES = ("id", "piece", "tile", "no", "number")


def _column_header(words: Sequence[str]) -> tuple[int, ...] | None:
    """The sides a header line names, in its order (``id,north,east,south,west`` as CSV
    files of pieces begin), or None if the line is no such header. The tiles' edges are
    then read in that order, whatever it is."""
    names = [word.lower() for word in words]
    if names and names[0] in _ID_NAMES:
        names = names[1:]
    sides = [k for name in names for k, side in enumerate(SIDE_NAMES) if name in side]
    if len(sides) != len(names) or sorted(sides) != [0, 1, 2, 3]:
        return None
    return tuple(sides)


def _is_numbered_tile(words: Sequence[str]) -> bool:
    """A first tile line of five numbers starting at 0 or 1: ``id top right bottom left``
    (the edges may be signed)."""
    if len(words) != 5 or not is_number(words[0]) or int(words[0]) not in (0, 1):
        return False
    return all(map(_is_signed_number, words[1:]))


def _is_signed_number(word: str) -> bool:
    """A whole number, perhaps with a sign (``-3``, ``+3``)."""
    return is_number(word[1:] if word[:1] in ("-", "+") else word)


def _without_id(words: list[str], expected: int, reader: LineReader, number: int) -> list[str]:
    """A numbered tile line's edges, once its id is the next one in order."""
    if not is_number(words[0]) or int(words[0]) != expected:
        raise reader.error(
            number,
            f"tile line starts with '{words[0]}', expected the id {expected} "
            "(this list numbers its tiles in order)",
        )
    if len(words) != 5:
        raise reader.error(number, f"tile {expected} has {_edges(len(words) - 1)}, expected 4")
    return words[1:]


def _edges(count: int) -> str:
    return f"{count} edge" if count == 1 else f"{count} edges"


def _spelled_out(words: list[str]) -> list[list[str]]:
    """The tiles of a line, each as its edges: a word of four letters is a tile (``aabd``,
    as Eternity II's pieces are listed for e2.bucas.name), and a line may hold several
    (``aabd aabe aacd``); any other line is one tile as it is."""
    if all(len(word) == 4 and _is_letter_word(word) for word in words):
        return [list(word) for word in words]
    return [words]


def _is_letter_word(word: str) -> bool:
    return word.isascii() and word.isalpha()


def _is_letter(word: str) -> bool:
    """One letter: a colour coded as a letter."""
    return len(word) == 1 and _is_letter_word(word)


def _style_of_edge(edge: str, reader: LineReader, number: int) -> str:
    """Without a ``style`` line, the first edge tells: a number is a colour or, signed, a
    half (which, once every tile is read), a ``KIND_HALF`` an animal half, a single
    letter a colour coded as a letter (e2 once the frame's letter is known). Anything
    else is most likely a mistyped keyword."""
    if _is_signed_number(edge):
        return NUMBERS
    if _is_letter(edge):
        return LETTERS
    if "_" in edge:
        return "animal"
    raise reader.error(
        number, f"unknown line starting '{edge}' (expected 'style', 'size' or a tile's 4 edges)"
    )


def _board_size(
    style: str, tiles: Sequence[tuple[str, ...]], reader: LineReader
) -> tuple[int, int]:
    """The board a file without a ``size`` line is for: R x C with R <= C. On a framed
    e2 board the border tiles (one grey edge) number 2(R + C) - 8, which with R * C
    tiles fixes both; otherwise only a square count of tiles tells the shape."""
    count = len(tiles)
    root = round(count**0.5)
    if style != "e2":  # no frame: only a square count of tiles has one shape
        if root * root == count:
            return root, root
        raise reader.error(
            None,
            f"no 'size ROWS COLS' line, and {count} tiles without a frame fit no square "
            "board: add one",
        )
    border = sum(1 for tile in tiles if tile.count(FRAME) == 1)
    corners = sum(1 for tile in tiles if tile.count(FRAME) == 2)
    if (shape := _framed_shape(count, corners, border)) is not None:
        return shape
    if root * root == count and corners in (0, 4):
        return root, root
    raise reader.error(
        None,
        f"no 'size ROWS COLS' line, and {count} tiles ({corners} corner and {border} "
        "border tiles) fit no board: add one",
    )


def _framed_shape(count: int, corners: int, border: int) -> tuple[int, int] | None:
    """The R x C board (R <= C) of ``count`` tiles whose frame has these corner and
    border tiles: 4 corners and 2(R + C) - 8 border tiles, or ``None`` if none fits."""
    if corners != 4 or border % 2:
        return None
    half_perimeter = (border + 8) // 2  # R + C
    for rows in range(2, half_perimeter // 2 + 1):
        if rows * (half_perimeter - rows) == count:
            return rows, half_perimeter - rows
    return None


def _style_line(line: str, style: str | None, reader: LineReader, number: int) -> str:
    """``style animal|e2|unframed``; a second style line may only repeat the first."""
    words = line.lower().split()
    if len(words) != 2 or words[1] not in STYLES:
        raise reader.error(
            number, f"expected 'style animal', 'style e2' or 'style unframed', got '{line}'"
        )
    if style is not None and style != words[1]:
        raise reader.error(number, f"mixed styles: '{words[1]}' after '{style}'")
    return words[1]


def _size_line(
    line: str, size: tuple[int, int] | None, reader: LineReader, number: int
) -> tuple[int, int]:
    """``size ROWS COLS``; a second size line may only repeat the first."""
    words = line.split()
    if len(words) != 3 or not all(map(_is_positive, words[1:])):
        raise reader.error(number, f"expected 'size ROWS COLS' (positive), got '{line}'")
    given = int(words[1]), int(words[2])
    if size is not None and given != size:
        raise reader.error(
            number, f"'size' is given twice: {given[0]}x{given[1]} after {size[0]}x{size[1]}"
        )
    return given


def _tile_line(
    words: list[str], style: str, tile_id: int, reader: LineReader, number: int
) -> tuple[str, str, str, str]:
    if len(words) != 4:
        raise reader.error(number, f"tile {tile_id} has {_edges(len(words))}, expected 4")
    top, right, bottom, left = (_edge(style, edge, tile_id, reader, number) for edge in words)
    return top, right, bottom, left


def _edge(style: str, edge: str, tile_id: int, reader: LineReader, line: int) -> str:
    """One edge, checked and written one way: e2 colours as numbers (``07`` is ``7``),
    animal halves in lower case (``lion_Head`` is ``lion_head``; kinds are names and
    keep their case), letter-coded colours as they are (case tells letters apart)."""
    if style == LETTERS:
        if not _is_letter(edge):
            raise reader.error(
                line,
                f"tile {tile_id}: edge '{edge}' is not a letter "
                "(this list codes colours as letters: 'aabd' or 'a a b d')",
            )
        return edge
    if style in COLOUR_STYLES or style == NUMBERS:
        if not (is_number(edge) or (style == NUMBERS and _is_signed_number(edge))):
            hint = " (an animal edge: mixed styles?)" if "_" in edge else ""
            raise reader.error(line, f"tile {tile_id}: edge '{edge}' is not a colour number{hint}")
        return ("-" if edge[0] == "-" else "") + str(int(edge.lstrip("+-")))
    if is_number(edge):
        raise reader.error(
            line,
            f"tile {tile_id}: edge '{edge}' is a colour (mixed styles?); "
            "animal edges are KIND_HALF",
        )
    # Puzzle makers write the half after an underscore or a hyphen (lion_head, lion-head).
    kind, _, half = edge.rpartition("_" if "_" in edge else "-")
    if not kind:
        raise reader.error(line, f"tile {tile_id}: edge '{edge}' is not KIND_HALF (or KIND-HALF)")
    if half.lower() not in OTHER_HALF:
        expected = ", ".join(" or ".join(pair) for pair in HALF_PAIRS)
        raise reader.error(
            line, f"tile {tile_id}: unknown half '{half}' in '{edge}' (expected {expected})"
        )
    return f"{kind}_{half.lower()}"


def _check_one_pair(
    tile: tuple[str, str, str, str],
    style: str,
    seen: dict[str, tuple[str, int]],
    reader: LineReader,
    number: int,
) -> None:
    """Every animal edge of a kind must name a half of one pair:
    ``lion_head`` and ``lion_top`` on one board would leave it unclear which halves
    match. ``seen`` keeps each kind's first half and the line it was on."""
    for edge in tile if style == "animal" else ():
        kind, half = edge.rsplit("_", 1)
        first, line = seen.setdefault(kind, (half, number))
        if half not in (first, OTHER_HALF[first]):
            raise reader.error(
                number,
                f"kind '{kind}' has halves '{first}' (line {line}) and '{half}': "
                f"a kind's halves are one pair ({first} and {OTHER_HALF[first]})",
            )


def _colours_of_letters(
    tiles: Sequence[tuple[str, str, str, str]], reader: LineReader
) -> list[tuple[str, str, str, str]]:
    """Letter-coded tiles as colour numbers: the frame's letter is 0, the other letters
    1, 2, ... in alphabetical order (e2.bucas.name's ``a`` frame and ``b``.. ``w``
    motifs keep their places in the alphabet when every letter occurs)."""
    frame = _frame_letter(tiles, reader)
    others = sorted({edge for tile in tiles for edge in tile} - {frame})
    number = {frame: FRAME} | {letter: str(rank) for rank, letter in enumerate(others, start=1)}
    return [tuple(number[edge] for edge in tile) for tile in tiles]  # type: ignore[misc]


def _frame_letter(tiles: Sequence[tuple[str, ...]], reader: LineReader) -> str:
    """The letter of the grey frame, told by the shape of a framed board: it is on two
    adjacent sides of exactly four tiles (the corners), on one side of 2(R + C) - 8
    (the border) and on no other tile side, for some R x C board of the tiles' count
    with R, C >= 2. Letter files differ on which letter that is (``a`` on
    e2.bucas.name, ``X`` elsewhere), so the tiles decide, not a convention."""
    letters = sorted({edge for tile in tiles for edge in tile})
    fitting = [letter for letter in letters if _could_be_frame(letter, tiles)]
    if len(fitting) == 1:
        return fitting[0]
    if not fitting:
        raise reader.error(
            None,
            "no letter fits the grey frame (on two adjacent sides of the 4 corner tiles "
            "and one side of every border tile): letter-coded tiles are read as a framed "
            "e2 board",
        )
    raise reader.error(
        None,
        f"letters {', '.join(fitting)} could each be the grey frame: "
        "write the tiles with colour numbers, 0 for the frame",
    )


def _could_be_frame(letter: str, tiles: Sequence[tuple[str, ...]]) -> bool:
    corners = border = 0
    for tile in tiles:
        sides = [side for side in range(4) if tile[side] == letter]
        if len(sides) == 2 and (sides[1] - sides[0]) in (1, 3):
            corners += 1
        elif len(sides) == 1:
            border += 1
        elif sides:
            return False
    return _framed_shape(len(tiles), corners, border) is not None


def format_tiles(instance: TilesInstance) -> str:
    lines = [f"style {instance.style}", f"size {instance.rows} {instance.cols}"]
    lines += [" ".join(tile) for tile in instance.tiles]
    lines += [f"fix {fix.row} {fix.col} {fix.tile} {fix.turns}" for fix in instance.fixed]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------ puzzle
class Tiles(Puzzle[TilesInstance, TilesSolution]):
    name = "tiles"
    title = "Edge-matching tiles (animal heads and tails, Eternity II style, unframed colours)"
    default_instance = "seed-big-cats-3x3.txt"
    accepts_inline = True  # an e2.bucas.name link on the command line

    def parse(self, text: str, source: str) -> TilesInstance:
        return parse_tiles(text, source)

    def add_solve_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--raw",
            action="store_true",
            help="tiles: keep the whole-board rotations apart (count raw placements)",
        )
        parser.add_argument(
            "--score",
            action="store_true",
            help="tiles: let shared edges mismatch and find the placement with the fewest "
            "(Eternity II's contest score); the frame still faces out",
        )

    def configure(self, instance: TilesInstance, options: dict[str, Any]) -> TilesInstance:
        return replace(
            instance,
            symmetry_breaking=not options.get("raw", False),
            scored=options.get("score", False),
        )

    def program_parts(self, instance: TilesInstance) -> tuple[str, ...]:
        return ("base", "score") if instance.scored else ("base",)

    def portfolio(self, instance: TilesInstance) -> tuple[tuple[str, ...], ...]:
        """Placements tried true first (see the encoding) against clasp's default order:
        each solves 10x10 boards the other does not. Boards up to 4x4 answer in a few
        milliseconds, less than a second process costs, so they are not raced. In score
        mode, clasp's core-guided optimization (``usc``, which first asks whether no
        edge need mismatch, and proves the optimum from below) against its default
        (``bb``, better answers from above): on a board near exact ``usc`` proves the
        optimum where ``bb`` takes seconds or more, and on a board far from exact
        ``usc`` finds no answer where ``bb`` finds good ones. (Exact boards in score
        mode are the shortcut's: see ``shortcuts``.)"""
        if _answered_alone(instance):
            return ()
        if instance.scored:
            return (("--opt-strategy=usc",),)
        return (("--heuristic=Domain", "--const=placements_first=1"),)

    def shortcuts(self, instance: TilesInstance) -> tuple[Shortcut[TilesInstance], ...]:
        """In score mode, the exact search, raced in both of its search orders as it is
        without ``--score`` (see ``portfolio``): a perfect placement mismatches nothing,
        so it is optimal, and on a board that has one the exact search finds it far
        sooner than either optimization (``gen-e2-10x10-16-kinds``: 1-2 s, against no
        answer from ``usc`` in 60 s and 91 s for ``bb``). It searches the board's exact
        program and facts, not the score program with every edge made to match: that
        one has the same constraints but other atoms, and clasp took 2-5 times longer on
        it (session 20, one order: the 12-colour 10x10 of seed 1 52 s against 9.6 s, the
        4 + 12 8x8 13 s against 0.5 s). Not where a board cannot be perfect without
        search (an odd colour, clashing hints): the exact search would only prove that
        slowly, and small boards are answered in this process anyway."""
        if not instance.scored or _answered_alone(instance):
            return ()
        exact = replace(instance, scored=False)
        if self.infeasible(exact) is not None:
            return ()
        orders = ((), *self.portfolio(exact))
        return tuple(Shortcut(exact, order, cost=(0,)) for order in orders)

    def infeasible(self, instance: TilesInstance) -> str | None:
        """What rules every placement out without search: fixed pieces that clash, grey
        edges that cannot line the border, a colour that cannot pair up (the last two
        only for e2; in score mode mismatches are allowed, so only the frame counts)."""
        if (clash := _fix_clash(instance)) is not None:
            return clash
        if not instance.framed:
            return None  # outer edges are free: any colour count can work
        edges = Counter(edge for tile in instance.tiles for edge in tile)
        frame = 2 * (instance.rows + instance.cols)
        if edges[FRAME] != frame:
            hint = " (a board without a frame is 'style unframed')" if not edges[FRAME] else ""
            return f"{edges[FRAME]} grey frame edges, the board's border needs {frame}{hint}"
        if (shapes := _frame_shapes_mismatch(instance)) is not None:
            return shapes
        if instance.scored:
            return None
        odd = sorted((c for c, n in edges.items() if c != FRAME and n % 2), key=int)
        if odd:
            times = edges[odd[0]]
            return (
                f"colour {odd[0]} is on {times} edge{'s' if times > 1 else ''}, "
                "an odd number cannot pair up"
            )
        return None

    def facts(self, instance: TilesInstance) -> list[Symbol]:
        facts = [
            Function("rows", [Number(instance.rows)]),
            Function("cols", [Number(instance.cols)]),
        ]
        if instance.framed:
            facts.append(Function("frame", [String(FRAME)]))
        # Score mode names the pairs that match (pair/2) instead of the partners every
        # edge must face (partner/2): see the encoding's score part.
        relation = "pair" if instance.scored else "partner"
        values = sorted({edge for tile in instance.tiles for edge in tile})
        for value in values:
            facts.append(
                Function(relation, [String(value), String(partner(instance.style, value))])
            )
        for tile_id in range(1, len(instance.tiles) + 1):
            facts.append(Function("tile", [Number(tile_id)]))
            for turns, edges, cells in _turns_and_cells(instance, tile_id):
                shown = [String(edge) for edge in edges]
                facts.append(Function("rot", [Number(tile_id), Number(turns), *shown]))
                for row, col in cells:
                    facts.append(
                        Function("fits", [Number(row), Number(col), Number(tile_id), Number(turns)])
                    )
        for fix in instance.fixed:
            turns = shown_turn(instance.tiles[fix.tile - 1], fix.turns)
            facts.append(
                Function("fixed", [Number(n) for n in (fix.row, fix.col, fix.tile, turns)])
            )
        if instance.symmetry_breaking:
            facts.extend(symmetry_break(instance).facts)
        return facts

    def hints(self, instance: TilesInstance) -> list[Symbol]:
        """In score mode, the best of a few greedy placements (see ``quick_placement``),
        as the first answer the search improves on."""
        placement = quick_placement(instance) if instance.scored else None
        if placement is None:
            return []
        return [
            Function("place", [Number(row), Number(col), Number(tile_id), Number(turns)])
            for row, cells in enumerate(placement, start=1)
            for col, (tile_id, turns) in enumerate(cells, start=1)
        ]

    def neighbourhood(
        self, instance: TilesInstance, atoms: Sequence[Symbol], rng: random.Random
    ) -> list[Symbol]:
        """In score mode, every placement but those of ``FREED_CELLS`` cells: half of
        them (as far as there are) drawn from the cells beside a mismatched edge, where
        a change can pay, the rest from anywhere, so that tiles can also come from far
        away. Fixed cells are never freed: their tile cannot move. Measured on the META
        2010 10x10 (30 s from the greedy start, a scratch script): 10 cells took it
        from 32 to 25 mismatches, 14 to 27, 18 to 29; square windows did less."""
        if not instance.scored or instance.rows * instance.cols <= 2 * FREED_CELLS:
            return []  # freeing half the board or more: the complete search does better
        fixed = {(fix.row, fix.col) for fix in instance.fixed}
        placed = {_cell_of(atom): atom for atom in atoms if atom.match("place", 4)}
        movable = sorted(cell for cell in placed if cell not in fixed)
        beside = sorted(
            {
                cell
                for atom in atoms
                if atom.match("mismatch", 3)
                for cell in _mismatch_cells(atom)
                if cell not in fixed
            }
        )
        size = min(FREED_CELLS, len(movable))
        freed = set(rng.sample(beside, min(len(beside), size // 2)))
        while len(freed) < size:
            freed.add(rng.choice(movable))
        return [atom for cell, atom in placed.items() if cell not in freed]

    def decode(self, instance: TilesInstance, atoms: Sequence[Symbol]) -> TilesSolution:
        at, mismatched = {}, []
        for atom in atoms:
            if atom.match("place", 4):
                row, col, tile_id, turns = (arg.number for arg in atom.arguments)
                at[row, col] = (tile_id, turns)
            elif atom.match("mismatch", 3):
                row, col, side = atom.arguments
                mismatched.append((row.number, col.number, side.name))
        return TilesSolution(
            tuple(
                tuple(at.get((row, col), (0, 0)) for col in range(1, instance.cols + 1))
                for row in range(1, instance.rows + 1)
            ),
            tuple(sorted(mismatched)) if instance.scored else None,
        )

    def check(self, instance: TilesInstance, solution: TilesSolution) -> list[str]:
        """Every rule, or in score mode every rule but matching, and then the
        mismatched edges the answer set names must be the ones the checker finds."""
        if not instance.scored:
            return check_placement(instance, solution.placement)
        problems = check_placement(instance, solution.placement, scored=True)
        if problems or solution.mismatched is None:
            return problems
        found = tuple(mismatched_edges(instance, solution.placement))
        if found != solution.mismatched:
            return [
                f"the answer set names {len(solution.mismatched)} mismatched edges, "
                f"the checker finds {len(found)}: {list(found)[:3]}"
            ]
        return []

    def count_details(self, instance: TilesInstance, count: int) -> dict[str, int]:
        if instance.symmetry_breaking:
            return {"count_raw": count * symmetry_break(instance).class_size}
        return {"count_raw": count}

    def to_dict(self, instance: TilesInstance, solution: TilesSolution) -> dict[str, Any]:
        data: dict[str, Any] = {
            "placement": [[list(cell) for cell in row] for row in solution.placement]
        }
        if solution.mismatched is not None:
            data["mismatched"] = [list(edge) for edge in solution.mismatched]
            data["matching"] = instance.shared_edges - len(solution.mismatched)
        return data

    def from_dict(self, instance: TilesInstance, data: Any, source: str) -> TilesSolution:
        rows = json_field(data, "placement", source)
        if not isinstance(rows, list) or not all(
            isinstance(row, list) and all(_is_pair(cell) for cell in row) for row in rows
        ):
            raise InputError("'placement' must be rows of [tile id, turns] pairs", source)
        return TilesSolution(tuple(tuple((cell[0], cell[1]) for cell in row) for row in rows))

    def describe(self, instance: TilesInstance) -> str:
        return f"{instance.style} {instance.rows}x{instance.cols}"

    def template_context(self, instance: TilesInstance, solution: TilesSolution) -> dict[str, Any]:
        placed = [[rotate(instance.tiles[t - 1], r) for t, r in row] for row in solution.placement]
        label = _short_label if instance.style == "animal" else str
        width = max(len(label(edge)) for tile in instance.tiles for edge in tile)
        values = sorted({edge for tile in instance.tiles for edge in tile})
        fixed = {(fix.row - 1, fix.col - 1) for fix in instance.fixed}
        mismatched = solution.mismatched
        if mismatched is None and instance.scored:  # a person's placement (aspuzzles check)
            mismatched = tuple(mismatched_edges(instance, solution.placement))
        labels = [
            [f"{t}/{r}" + ("*" if (row, col) in fixed else "") for col, (t, r) in enumerate(cells)]
            for row, cells in enumerate(solution.placement)
        ]
        return {
            "style": instance.style,
            "rows": instance.rows,
            "cols": instance.cols,
            "placement": solution.placement,
            "labels": labels,
            "label_width": max(5, *(len(label) for row in labels for label in row)),
            "fixed": fixed,
            "edges": [[[label(edge) for edge in tile] for tile in row] for row in placed],
            "raw_edges": placed,
            "width": width,
            "colours": _palette(instance.style, values),
            "mismatched": [(r - 1, c - 1, side) for r, c, side in mismatched or ()],
            "scored": mismatched is not None,
            "shared_edges": instance.shared_edges,
        }

    # ----------------------------------------------------------------- generator
    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--style", choices=STYLES, default="e2")
        parser.add_argument("--size", default="4x4", help="ROWSxCOLS (default 4x4)")
        parser.add_argument(
            "--kinds", type=int, default=6, help="edge kinds: colours without the frame, or animals"
        )
        parser.add_argument(
            "--border-kinds",
            type=int,
            default=0,
            help="(e2) colours 1..N only for edges along the frame, as in Eternity II; the "
            "--kinds inner colours are then numbered N+1.. (default 0: one shared palette)",
        )
        parser.add_argument(
            "--fix",
            type=int,
            default=0,
            metavar="N",
            help="give N tiles of the planted solution as fixed hint pieces (default 0)",
        )
        parser.add_argument("--seed", type=int, default=None)

    def generate(self, args: argparse.Namespace) -> str:
        match = re.fullmatch(r"(\d+)x(\d+)", args.size)
        if not match:
            raise InputError(f"--size must look like ROWSxCOLS, not '{args.size}'")
        rows, cols = int(match.group(1)), int(match.group(2))
        if not (1 <= rows <= 30 and 1 <= cols <= 30) or rows * cols < 2:
            raise InputError(f"--size {args.size} is out of range")
        if not 1 <= args.kinds <= 60:
            raise InputError("--kinds must be from 1 to 60")
        border_kinds = args.border_kinds
        if not 0 <= border_kinds <= 60:
            raise InputError("--border-kinds must be from 0 to 60")
        if border_kinds and args.style != "e2":
            raise InputError(f"--border-kinds needs --style e2 ({args.style} boards have no frame)")
        if not 0 <= args.fix <= rows * cols:
            raise InputError(f"--fix must be from 0 to {rows * cols}, the tiles on the board")
        instance = planted_tiles(
            args.style, rows, cols, args.kinds, random.Random(args.seed), border_kinds, args.fix
        )
        border = f"--border-kinds {border_kinds} " if border_kinds else ""
        fix = f"--fix {args.fix} " if args.fix else ""
        header = (
            f"# aspuzzles generate tiles --style {args.style} --size {args.size} "
            f"--kinds {args.kinds} {border}{fix}--seed {args.seed}\n"
        )
        return header + format_tiles(instance)


def _turns_and_cells(
    instance: TilesInstance, tile_id: int
) -> list[tuple[int, tuple[str, str, str, str], list[tuple[int, int]]]]:
    """Each distinct turn of a tile, with its edges as turned and the cells where it
    may stand (``fits/4`` for the encoding, the candidates of the greedy placement)."""
    tile = instance.tiles[tile_id - 1]
    return [
        (turns, rotate(tile, turns), _positions(instance, tile_id, turns))
        for turns in distinct_rotations(tile)
    ]


def _positions(instance: TilesInstance, tile_id: int, turns: int) -> list[tuple[int, int]]:
    """Cells where a turned tile may stand: anywhere for animals; for e2, exactly
    where its grey edges face the border; a fixed tile only on its cell in its turn,
    and no other tile on a fixed cell."""
    edges = rotate(instance.tiles[tile_id - 1], turns)
    cells = [(r, c) for r in range(1, instance.rows + 1) for c in range(1, instance.cols + 1)]
    if instance.framed:
        cells = [(r, c) for r, c in cells if _grey_faces_out(instance, edges, r, c)]
    if not instance.fixed:
        return cells
    for fix in instance.fixed:
        if fix.tile == tile_id:
            same_picture = shown_turn(instance.tiles[tile_id - 1], fix.turns) == turns
            return [(fix.row, fix.col)] if same_picture and (fix.row, fix.col) in cells else []
    taken = {(fix.row, fix.col) for fix in instance.fixed}
    return [cell for cell in cells if cell not in taken]


def _fix_clash(instance: TilesInstance) -> str | None:
    """Why the fixed pieces alone rule out every solution, if they do: a grey edge
    that does not face the border, or two fixed neighbours whose edges do not match."""
    shown = {
        (fix.row, fix.col): (fix, rotate(instance.tiles[fix.tile - 1], fix.turns))
        for fix in instance.fixed
    }
    for (row, col), (fix, edges) in shown.items():
        if instance.framed and not _grey_faces_out(instance, edges, row, col):
            return (
                f"fixed tile {fix.tile} turned {fix.turns} cannot stand on ({row},{col}): "
                "grey edges must face the border, and only there"
            )
        if instance.scored:  # score mode allows mismatches
            continue
        for side, (n_row, n_col) in ((1, (row, col + 1)), (2, (row + 1, col))):
            if (n_row, n_col) not in shown:
                continue
            other, other_edges = shown[n_row, n_col]
            facing = other_edges[(side + 2) % 4]
            if not matches(instance.style, edges[side], facing):
                return (
                    f"fixed tiles {fix.tile} on ({row},{col}) and {other.tile} on "
                    f"({n_row},{n_col}) do not match: {edges[side]} against {facing}"
                )
    return None


#: How the grey edges of a tile (or the border sides of a cell) lie, up to turning.
GREY_SHAPES = {
    (False, False, False, False): "no grey edge",
    (False, False, False, True): "one grey edge",
    (False, False, True, True): "two grey edges side by side",
    (False, True, False, True): "two grey edges opposite each other",
    (False, True, True, True): "three grey edges",
    (True, True, True, True): "four grey edges",
}


def _grey_shape(sides: Sequence[bool]) -> tuple[bool, ...]:
    """The pattern of grey (border) sides, the same for every turn of it."""
    return min(rotate(sides, turns) for turns in range(4))


def _frame_shapes_mismatch(instance: TilesInstance) -> str | None:
    """Grey edges face the border, and only there: every tile goes to a cell whose
    border sides its grey edges can cover exactly, so the tiles of each shape (one grey
    edge, two side by side, ...) must be as many as the cells of that shape. There are
    as many tiles as cells, so a shape short of tiles means one with tiles to spare:
    that one is named, as one of its tiles is the odd one out."""
    shapes = [_grey_shape([edge == FRAME for edge in tile]) for tile in instance.tiles]
    tiles = Counter(shapes)
    cells = Counter(
        _grey_shape(_border_sides(instance, row, col))
        for row in range(1, instance.rows + 1)
        for col in range(1, instance.cols + 1)
    )
    board = f"a {instance.rows}x{instance.cols} board"
    for shape, name in GREY_SHAPES.items():
        if tiles[shape] <= cells[shape]:
            continue
        if cells[shape]:
            return f"{tiles[shape]} tiles have {name}, {board} has {cells[shape]} such places"
        ids = [str(number) for number, own in enumerate(shapes, start=1) if own == shape]
        which = f"tile {ids[0]} has" if len(ids) == 1 else f"tiles {', '.join(ids)} have"
        return f"{which} {name}, which no cell of {board} has"
    return None


def shown_turn(tile: Sequence[str], turns: int) -> int:
    """The turn among ``distinct_rotations`` that shows the same picture as ``turns``
    (a ``1 2 1 2`` tile turned twice looks as it does unturned)."""
    return next(t for t in distinct_rotations(tile) if rotate(tile, t) == rotate(tile, turns))


def _grey_faces_out(instance: TilesInstance, edges: Sequence[str], row: int, col: int) -> bool:
    """Whether a turned tile's grey edges are exactly the sides of the 1-based cell
    that lie on the border (e2 boards)."""
    return tuple(edge == FRAME for edge in edges) == _border_sides(instance, row, col)


def _border_sides(instance: TilesInstance, row: int, col: int) -> tuple[bool, bool, bool, bool]:
    """Which sides (top, right, bottom, left) of a 1-based cell lie on the border."""
    return (row == 1, col == instance.cols, row == instance.rows, col == 1)


@dataclass(frozen=True)
class SymmetryBreak:
    """How one placement per class of whole-board rotations is kept."""

    #: Facts for the encoding: ``anchor/2`` or ``cell_anchor/2`` with ``orbit_first/2``.
    facts: tuple[Symbol, ...]
    #: Raw placements in each class (what ``count`` is multiplied by for ``count_raw``).
    class_size: int


def symmetry_break(instance: TilesInstance) -> SymmetryBreak:
    """Keep one placement of each class of whole-board rotations.

    On a board of two or more cells no rotation maps a placement to itself (each id is
    used once and some tile changes cell), so every class has exactly as many members
    as there are rotations: 4 (square) or 2. The cheapest cut limits one tile's turns
    (see ``anchor_tile``); when every tile is symmetric, a tile's cell is limited
    instead (``cell_anchor_facts``). Fixed pieces leave only the rotations that keep
    them in place (``kept_rotations``), usually none but the identity: then every
    placement is its own class and nothing is cut. A 1x1 board is the exception: its
    one tile stays put and the rotations only turn it, so its class is its distinct
    turns and turn 0 stands for them.
    """
    if len(instance.tiles) == 1:
        if instance.fixed:
            return SymmetryBreak((), 1)
        turns = len(distinct_rotations(instance.tiles[0]))
        return SymmetryBreak((Function("anchor", [Number(1), Number(1)]),), turns)
    rotations = kept_rotations(instance)
    if rotations == 1:
        return SymmetryBreak((), 1)
    if (anchor := anchor_tile(instance)) is not None:
        limit = Number(4 // rotations)
        return SymmetryBreak((Function("anchor", [Number(anchor), limit]),), rotations)
    return SymmetryBreak(cell_anchor_facts(instance, rotations), rotations)


def kept_rotations(instance: TilesInstance) -> int:
    """How many whole-board rotations map every solution that keeps the fixed pieces
    to another that keeps them: all of the board's (4 or 2) without fixed pieces.
    A rotation moves every cell but the centre of an odd board, so with fixed pieces
    only a lone fixed tile on the centre, whose picture the rotation's turn does not
    change, keeps any; they form a group of 1, 2 or 4 rotations."""
    if not instance.fixed:
        return instance.board_rotations
    fix = instance.fixed[0]
    centre = ((instance.rows + 1) // 2, (instance.cols + 1) // 2)
    odd = instance.rows % 2 == 1 and instance.cols % 2 == 1
    if len(instance.fixed) > 1 or not odd or (fix.row, fix.col) != centre:
        return 1
    tile = instance.tiles[fix.tile - 1]
    step = 4 // instance.board_rotations  # quarter turns of the smallest rotation
    return sum(
        1
        for turns in range(0, 4, step)
        if rotate(tile, fix.turns + turns) == rotate(tile, fix.turns)
    )


def anchor_tile(instance: TilesInstance) -> int | None:
    """The tile whose turns are limited to break the whole-board rotation symmetry.

    Rotating a solution by 180 (or 90 on a square board) turns every tile by the same
    amount. Limiting one tile to turns below 4/rotations picks one member per class, but
    only if that tile's turns are all distinct: the first tile with four distinct
    rotations is chosen (None if there is none). A fixed tile never qualifies: the
    only one that rotations keep is symmetric under them.
    """
    for tile_id, tile in enumerate(instance.tiles, start=1):
        if len(distinct_rotations(tile)) == 4:
            return tile_id
    return None


def cell_anchor_facts(instance: TilesInstance, rotations: int) -> tuple[Symbol, ...]:
    """Symmetry breaking by position, for boards whose tiles are all symmetric.

    A rotation moves every cell but the centre (odd boards only), so a non-centre cell's
    orbit under the ``rotations`` kept has one cell per rotation: requiring tile 1 to
    stand on the first cell of its orbit keeps one member per class. If tile 1 stands
    on the centre, which every rotation fixes, tile 2 is held to its orbit's first cell.
    """
    cells = [(r, c) for r in range(1, instance.rows + 1) for c in range(1, instance.cols + 1)]
    firsts = [cell for cell in cells if cell == min(_orbit(instance, cell, rotations))]
    return (
        Function("cell_anchor", [Number(1), Number(1)]),
        Function("cell_anchor", [Number(2), Number(2)]),
        *(Function("orbit_first", [Number(r), Number(c)]) for r, c in firsts),
    )


def _orbit(instance: TilesInstance, cell: tuple[int, int], rotations: int) -> set[tuple[int, int]]:
    """The cells a 1-based cell is carried to by a group of ``rotations`` whole-board
    rotations (4: every quarter turn of a square board; 2: the half turn)."""
    orbit, current = set(), cell
    while current not in orbit:
        orbit.add(current)
        current = _turned_cell(instance, current, 4 // rotations)
    return orbit


def _turned_cell(
    instance: TilesInstance, cell: tuple[int, int], quarter_turns: int
) -> tuple[int, int]:
    """Where a cell goes when the board turns clockwise by ``quarter_turns`` (a multiple
    of 2 on a board that is not square, which only half turns map onto itself)."""
    for _ in range(quarter_turns if instance.square else quarter_turns // 2):
        cell = _rotated_cell(instance, cell)
    return cell


def _rotated_cell(instance: TilesInstance, cell: tuple[int, int]) -> tuple[int, int]:
    """Where a cell goes when the board turns: 90 degrees clockwise on a square board,
    else 180 degrees (the smallest rotation that maps the board onto itself)."""
    row, col = cell
    if instance.square:
        return col, instance.rows + 1 - row
    return instance.rows + 1 - row, instance.cols + 1 - col


def _is_pair(cell: Any) -> bool:
    return isinstance(cell, list) and len(cell) == 2 and all(type(n) is int for n in cell)


def check_placement(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]], scored: bool = False
) -> list[str]:
    """Every tile once, turns 0-3, the fixed pieces in place, the frame outside, and
    (unless ``scored``: Eternity II's contests let edges mismatch) every shared edge
    matching."""
    rows, cols = instance.rows, instance.cols
    if len(placement) != rows or any(len(row) != cols for row in placement):
        return [f"placement is not {rows}x{cols}"]
    problems = _inventory_problems(instance, placement)
    if problems or any(not 0 <= r < 4 for row in placement for _, r in row):
        return problems or ["a rotation is not 0-3"]
    problems += _fix_problems(instance, placement)
    shown = [[rotate(instance.tiles[t - 1], r) for t, r in row] for row in placement]
    if not scored:
        problems += [
            f"({r},{c}) {side} {edge} vs {other}"
            for r, c, side, edge, other in _mismatches(instance, shown)
        ]
    if instance.framed:
        problems += _frame_problems(instance, shown)
    return problems


def mismatched_edges(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[tuple[int, int, str]]:
    """The shared edges that do not match, as ``(row, col, "right" | "bottom")`` of the
    1-based cell left of or above them, in reading order."""
    shown = [[rotate(instance.tiles[t - 1], r) for t, r in row] for row in placement]
    return sorted((r, c, side) for r, c, side, _, _ in _mismatches(instance, shown))


def _mismatches(
    instance: TilesInstance, shown: Sequence[Sequence[tuple[str, str, str, str]]]
) -> list[tuple[int, int, str, str, str]]:
    """(row, col, side, its edge, the neighbour's edge) for each shared edge that does
    not match, 1-based, right of or below the cell."""
    found = []
    for r in range(instance.rows):
        for c in range(instance.cols):
            _, right, bottom, _ = shown[r][c]
            if c + 1 < instance.cols and not matches(instance.style, right, shown[r][c + 1][3]):
                found.append((r + 1, c + 1, "right", right, shown[r][c + 1][3]))
            if r + 1 < instance.rows and not matches(instance.style, bottom, shown[r + 1][c][0]):
                found.append((r + 1, c + 1, "bottom", bottom, shown[r + 1][c][0]))
    return found


def _frame_problems(
    instance: TilesInstance, shown: Sequence[Sequence[tuple[str, str, str, str]]]
) -> list[str]:
    """Grey edges that are not on the border, and border sides that are not grey."""
    problems = []
    for r in range(instance.rows):
        for c in range(instance.cols):
            border = _border_sides(instance, r + 1, c + 1)
            for side, (edge, outside) in enumerate(zip(shown[r][c], border, strict=True)):
                if (edge == FRAME) != outside:
                    where = "on the border" if outside else "inside"
                    problems.append(f"({r + 1},{c + 1}) {SIDES[side]} is {edge} {where}")
    return problems


def _fix_problems(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[str]:
    """Fixed pieces not on their cell, or not showing the picture of their fixed turn."""
    problems = []
    for fix in instance.fixed:
        tile_id, turns = placement[fix.row - 1][fix.col - 1]
        tile = instance.tiles[fix.tile - 1]
        if tile_id != fix.tile or rotate(tile, turns) != rotate(tile, fix.turns):
            problems.append(
                f"({fix.row},{fix.col}) holds {tile_id}/{turns}, fixed as {fix.tile}/{fix.turns}"
            )
    return problems


def _inventory_problems(
    instance: TilesInstance, placement: Sequence[Sequence[tuple[int, int]]]
) -> list[str]:
    """Tile ids that are repeated, unknown or missing: every tile must be placed once."""
    used = Counter(tile_id for row in placement for tile_id, _ in row)
    problems = [f"tile {t} is used {n} times" for t, n in sorted(used.items()) if n > 1]
    unknown = sorted(t for t in used if not 1 <= t <= len(instance.tiles))
    if unknown:
        problems.append(f"no tile has id {unknown[0]} (ids are 1-{len(instance.tiles)})")
    missing = set(range(1, len(instance.tiles) + 1)) - set(used)
    if missing:
        problems.append(f"tiles {sorted(missing)} are not placed")
    return problems


def _short_label(edge: str) -> str:
    """An animal half as the board shows it: ``lionH``; a numbered kind with its sign
    (``+3`` for ``3_head``, ``-3`` for ``3_tail``), as a list of signed edges wrote it."""
    kind, half = edge.rsplit("_", 1)
    if is_number(kind):
        first = any(half == pair[0] for pair in HALF_PAIRS)
        return f"{'+' if first else '-'}{kind}"
    return f"{kind[:4]}{half[0].upper()}"


def _palette(style: str, values: list[str]) -> dict[str, str]:
    """A colour per edge value: both halves of an animal kind share one, and e2's frame
    is grey (in ``unframed``, 0 is an ordinary colour and gets its own)."""
    kinds = sorted({v.rsplit("_", 1)[0] for v in values}) if style == "animal" else values
    colours = dict(zip(kinds, wheel_colours(len(kinds), saturation=65, lightness=62), strict=True))
    if style in COLOUR_STYLES:
        return colours | ({FRAME: "#8a8a8a"} if style == "e2" else {})
    return {value: colours[value.rsplit("_", 1)[0]] for value in values}


#: How many cells a round of score mode's large-neighbourhood search frees (see
#: ``Tiles.neighbourhood``).
FREED_CELLS = 10
#: Boards of at most this many cells answer in a few milliseconds, less than a second
#: process costs, so nothing is raced against their search (see ``Tiles.portfolio``).
RACED_ABOVE = 16


def _answered_alone(instance: TilesInstance) -> bool:
    return instance.rows * instance.cols <= RACED_ABOVE


def _cell_of(atom: Symbol) -> tuple[int, int]:
    """The cell (row, col) a ``place/4`` or ``mismatch/3`` atom starts with."""
    return atom.arguments[0].number, atom.arguments[1].number


def _mismatch_cells(atom: Symbol) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two cells on either side of a ``mismatch(Row,Col,Side)`` edge (right of or
    below the cell)."""
    row, col = _cell_of(atom)
    return (row, col), (row, col + 1) if atom.arguments[2].name == "right" else (row + 1, col)


# ----------------------------------------------------------- a quick placement
#: Candidate checks the greedy placements of score mode may make in all: under a second
#: of Python (a 10x10 gets 100 restarts, Eternity II's 16x16 about 13).
GREEDY_WORK = 2_000_000

#: At most this many greedy placements (a small board would get thousands).
GREEDY_RUNS = 100

Placement = list[list[tuple[int, int]]]


def quick_placement(instance: TilesInstance, work: int = GREEDY_WORK) -> Placement | None:
    """The best of several greedy placements: cells in reading order, each taking the
    unused tile and turn that matches the most of its left and top neighbours (ties
    broken at random, seeded, so a board always gets the same placement). Every tile
    still goes where ``_positions`` allows (frame out, fixed pieces kept), and the
    board is then turned as the symmetry breaking wants. None if a fill gets stuck (it
    cannot on a board whose tiles fit, but a guess must never fail loudly).

    Why: score mode's search starts from clingo's first answer, which on a large board
    is poor; this placement, completed by clingo, is a far better first answer (META
    2010 10x10: 148 of 180 edges matching against 119 after 30 s of search)."""
    candidates = {
        (row, col): [] for row in range(1, instance.rows + 1) for col in range(1, instance.cols + 1)
    }
    for tile_id in range(1, len(instance.tiles) + 1):
        for turns, edges, cells in _turns_and_cells(instance, tile_id):
            for cell in cells:
                candidates[cell].append((tile_id, turns, edges))
    rng = random.Random(0)
    runs = min(GREEDY_RUNS, max(1, work // max(1, sum(map(len, candidates.values())))))
    best: tuple[int, Placement] | None = None
    for _ in range(runs):
        filled = _greedy_fill(instance, candidates, rng)
        if filled is not None and (best is None or filled[0] > best[0]):
            best = filled
    return None if best is None else _turned_for_anchor(instance, best[1])


def _greedy_fill(
    instance: TilesInstance,
    candidates: dict[tuple[int, int], list[tuple[int, int, tuple[str, str, str, str]]]],
    rng: random.Random,
) -> tuple[int, Placement] | None:
    """One greedy placement and how many shared edges it matches."""
    used: set[int] = set()
    shown: dict[tuple[int, int], tuple[str, str, str, str]] = {}
    placement: Placement = []
    matched = 0
    for row in range(1, instance.rows + 1):
        placement.append([])
        for col in range(1, instance.cols + 1):
            wants = [
                partner(instance.style, shown[row, col - 1][1]) if col > 1 else None,
                partner(instance.style, shown[row - 1, col][2]) if row > 1 else None,
            ]
            best, best_score = [], -1
            for tile_id, turns, edges in candidates[row, col]:
                if tile_id in used:
                    continue
                score = (edges[3] == wants[0]) + (edges[0] == wants[1])
                if score > best_score:
                    best, best_score = [(tile_id, turns, edges)], score
                elif score == best_score:
                    best.append((tile_id, turns, edges))
            if not best:
                return None
            tile_id, turns, edges = rng.choice(best)
            used.add(tile_id)
            shown[row, col] = edges
            placement[-1].append((tile_id, turns))
            matched += best_score
    return matched, placement


def _turned_for_anchor(instance: TilesInstance, placement: Placement) -> Placement:
    """The placement turned as a whole so that the anchor tile's turn is one the
    symmetry breaking keeps (``anchor/2``); a turned board scores the same. Only the
    rotations the symmetry breaking counts are tried (with a fixed tile on the centre,
    those that keep its picture)."""
    cut = symmetry_break(instance) if instance.symmetry_breaking else None
    limits = [fact.arguments for fact in cut.facts if fact.match("anchor", 2)] if cut else []
    if not limits or len(instance.tiles) == 1:
        return placement
    anchor, limit = limits[0][0].number, limits[0][1].number
    for _ in range(cut.class_size):
        turns = next(t for cells in placement for (tile_id, t) in cells if tile_id == anchor)
        if turns < limit:
            return placement
        placement = _turned_board(instance, placement, 4 // cut.class_size)
    return placement


def _turned_board(instance: TilesInstance, placement: Placement, quarter_turns: int) -> Placement:
    """The placement after the whole board turns clockwise by ``quarter_turns`` (2 on
    a board that is not square): every tile moves with its cell and turns with it."""
    turned: dict[tuple[int, int], tuple[int, int]] = {}
    for row, cells in enumerate(placement, start=1):
        for col, (tile_id, turns) in enumerate(cells, start=1):
            tile = instance.tiles[tile_id - 1]
            cell = _turned_cell(instance, (row, col), quarter_turns)
            turned[cell] = (tile_id, shown_turn(tile, turns + quarter_turns))
    return [
        [turned[row, col] for col in range(1, instance.cols + 1)]
        for row in range(1, instance.rows + 1)
    ]


# ----------------------------------------------------------------- generator
def planted_tiles(
    style: str,
    rows: int,
    cols: int,
    kinds: int,
    rng: random.Random,
    border_kinds: int = 0,
    fixed: int = 0,
) -> TilesInstance:
    """A board with at least one solution: random edges cut into tiles, then each tile
    turned at random and the tiles shuffled; ``fixed`` of them, at random, are then
    given as hint pieces on their planted cells in their planted turns.

    With `border_kinds` (e2 only) the edges that run along the frame, between two
    neighbouring border cells, take colours 1..border_kinds and every other edge one of
    the `kinds` colours after them: Eternity II and its clue puzzles are built that way,
    so their border tiles form a ring puzzle of its own.
    """

    def random_edge(along_frame: bool = False) -> tuple[str, str]:
        """(value on the first side, value on the second side) of one shared edge."""
        if style in COLOUR_STYLES:
            if along_frame and border_kinds:
                colour = str(rng.randint(1, border_kinds))
            else:
                colour = str(border_kinds + rng.randint(1, kinds))
            return colour, colour
        kind = rng.randrange(kinds)
        animal = ANIMALS[kind] if kind < len(ANIMALS) else f"beast{kind}"
        value = f"{animal}_{rng.choice(HALVES)}"
        return value, partner(style, value)

    def outer() -> str:
        return FRAME if style == "e2" else random_edge()[0]  # free sides: anything

    grid = [[[""] * 4 for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if r == 0:
                grid[r][c][0] = outer()
            if c == 0:
                grid[r][c][3] = outer()
            if c + 1 < cols:
                grid[r][c][1], grid[r][c + 1][3] = random_edge(r in (0, rows - 1))
            else:
                grid[r][c][1] = outer()
            if r + 1 < rows:
                grid[r][c][2], grid[r + 1][c][0] = random_edge(c in (0, cols - 1))
            else:
                grid[r][c][2] = outer()
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    turned = [(cell, rng.randrange(4)) for cell in cells]  # (where it was cut, its turn)
    rng.shuffle(turned)
    tiles = tuple(rotate(grid[r][c], turns) for (r, c), turns in turned)
    fixes = _planted_fixes(turned, fixed, rng) if fixed else ()
    return TilesInstance(style, rows, cols, tiles, fixed=fixes)


def _planted_fixes(
    turned: Sequence[tuple[tuple[int, int], int]], count: int, rng: random.Random
) -> tuple[Fix, ...]:
    """``count`` tiles, drawn at random, fixed where they were cut and turned back to
    how they lay there (``turned[i]`` is tile i+1's 0-based cell and the turn it got)."""
    fixes = []
    for index in rng.sample(range(len(turned)), count):
        (row, col), turns = turned[index]
        fixes.append(Fix(row + 1, col + 1, index + 1, (4 - turns) % 4))
    return tuple(sorted(fixes))


ANIMALS = (
    "lion",
    "tiger",
    "cheetah",
    "panther",
    "puma",
    "lynx",
    "jaguar",
    "ocelot",
    "leopard",
    "serval",
    "caracal",
    "cougar",
)

PUZZLE = Tiles()
