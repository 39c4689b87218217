"""The seed's fact format (``.lp``): ``count/3``, ``mirror/3``, ``clue/3`` and friends."""

from __future__ import annotations

from ...asp import Fact, FactFile, read_facts
from ...errors import InputError
from .gameid import validated
from .model import MAX_SIDE, MIRRORS, HauntedInstance

#: The seed blog's fact format: each fact's name and arity.
FACT_FORMAT = {"count": 3, "mirror": 3, "ghost": 1, "dracula": 1, "vampire": 1, "zombie": 1}


def parse_facts(text: str, source: str) -> HauntedInstance:
    """The seed blog's facts: ``#const n``, ``count(Row,Col,N)`` on the border rows and
    columns 0 and n+1, ``mirror(Row,Col,"/")``, ``ghost(N)``, ``dracula(N)``,
    ``zombie(N)``. ``#const w``/``h`` may replace ``n`` for rectangles."""
    program = read_facts(text, source)
    program.refuse_unknown(FACT_FORMAT)
    consts = {
        name: value.number
        for name, value in program.constants.items()
        if value.type.name == "Number"
    }
    width, height = consts.get("w", consts.get("n")), consts.get("h", consts.get("n"))
    if width is None or height is None:
        raise InputError("missing '#const n = SIZE.' (or w and h)", source)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise InputError(f"grid size {width}x{height} is out of range", source)
    grid = _mirror_grid(program, width, height)
    totals = _totals(program)
    clue_at = _clues_by_line(program, width, height)
    missing = [line for line in range(2 * (width + height)) if line not in clue_at]
    if missing:
        raise InputError(
            f"{len(missing)} border count{'s are' if len(missing) > 1 else ' is'} missing "
            f"(e.g. the line at clue index {missing[0]})",
            source,
        )
    clues = tuple(program.numbers(clue_at[line])[2] for line in range(2 * (width + height)))
    return validated(
        width, height, totals, grid, clues, lambda message: InputError(message, source)
    )


def _mirror_grid(program: FactFile, width: int, height: int) -> tuple[str, ...]:
    """The grid rows with the ``mirror`` facts' mirrors and ``.`` for monster cells."""
    cells = [["."] * width for _ in range(height)]
    for fact in program.named("mirror", 3):
        row, col, kind = fact.args
        if kind.type.name != "String" or kind.string not in MIRRORS:
            raise program.error(fact, f'mirror type must be "/" or "\\\\", not {kind}')
        if row.type.name != "Number" or col.type.name != "Number":
            raise program.error(fact, f"mirror position must be two integers in {fact.symbol}")
        r, c = row.number, col.number
        if not (1 <= r <= height and 1 <= c <= width):
            raise program.error(fact, f"mirror ({r},{c}) is outside the {width}x{height} grid")
        if cells[r - 1][c - 1] not in (".", kind.string):
            raise program.error(fact, f"cell ({r},{c}) is given two different mirrors")
        cells[r - 1][c - 1] = kind.string
    return tuple("".join(row) for row in cells)


def _totals(program: FactFile) -> dict[str, int]:
    """The monster totals by letter; ``dracula`` and ``vampire`` both name vampires."""
    totals = {}
    for letter, names in (("G", ("ghost",)), ("V", ("dracula", "vampire")), ("Z", ("zombie",))):
        found = [fact for name in names for fact in program.named(name, 1)]
        if not found:
            raise program.error(None, f"missing {names[0]}(N) total")
        if len({tuple(program.numbers(fact)) for fact in found}) > 1:
            raise program.error(found[-1], f"the {names[0]} total is given twice")
        totals[letter] = program.numbers(found[-1])[0]
        if totals[letter] < 0:
            raise program.error(found[-1], f"the {names[0]} total {totals[letter]} is negative")
    return totals


def _clues_by_line(program: FactFile, width: int, height: int) -> dict[int, Fact]:
    """The ``count`` fact of each line of sight, by clue index; a count off the border,
    or two different counts for one line, is refused."""
    clue_at: dict[int, Fact] = {}
    for fact in program.named("count", 3):
        row, col, value = program.numbers(fact)
        if value < 0:
            raise program.error(fact, f"the count {value} at ({row},{col}) is negative")
        line = _border_line(row, col, width, height)
        if line is None:
            raise program.error(
                fact, "count must be on the border (row or column 0 or size+1, not a corner)"
            )
        if line in clue_at and program.numbers(clue_at[line])[2] != value:
            raise program.error(fact, f"({row},{col}) is given two different counts")
        clue_at[line] = fact
    return clue_at


def _border_line(row: int, col: int, width: int, height: int) -> int | None:
    """The clue index of the border position (row, col) in the seed's 1-based frame."""
    if row == 0 and 1 <= col <= width:
        return col - 1
    if col == width + 1 and 1 <= row <= height:
        return width + row - 1
    if row == height + 1 and 1 <= col <= width:
        return width + height + (width - col)
    if col == 0 and 1 <= row <= height:
        return 2 * width + height + (height - row)
    return None
