"""Reading boards: the seed's tile lists, Eternity II-style lists with or without ids,
headers or sizes, letters or numbers, and e2.bucas.name links; writing them back.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Sequence

from ...errors import LineReader, is_number
from .model import (
    COLOUR_STYLES,
    FRAME,
    HALF_PAIRS,
    LETTERS,
    NUMBERS,
    OTHER_HALF,
    STYLES,
    Fix,
    TilesInstance,
)


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
        elif not listing.tiles and listing.header is None and (columns := _column_header(words)):
            listing.header = columns
        else:
            listing.add(
                _unsigned(words, declared),
                number,
                numbered=not declared and _is_numbered_tile(words),
            )
    if header is not None:
        size = _header_size(*header, len(listing.tiles), reader)
    instance = _board(*_told_style(listing.style, listing.tiles, reader), size, reader)
    return instance._replace(fixed=_checked_fixes(instance, fixes, reader))


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


class _TileLines:
    """The tiles of a file as its lines give them, and what the lines so far tell
    about how the rest are written."""

    def __init__(self, reader: LineReader) -> None:
        self.reader = reader
        self.style: str | None = None
        self.tiles: list[tuple[str, str, str, str]] = []
        #: The id of the first tile, in a bare list that numbers them.
        self.first_id: int | None = None
        #: The sides a column header names, in its order (edges are read in that order).
        self.header: tuple[int, ...] | None = None
        #: An animal kind's first half, and its line.
        self.half_pairs: dict[str, tuple[str, int]] = {}

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
    tiles = [
        (edges[start], edges[start + 1], edges[start + 2], edges[start + 3])
        for start in range(0, len(edges), 4)
    ]
    board = TilesInstance("e2", rows_n, cols_n, tuple(_colours_of_letters(tiles, reader)))
    return board._replace(fixed=_checked_fixes(board, fixes, reader))


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
