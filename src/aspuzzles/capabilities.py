"""What only some puzzles offer, each an object the puzzle hands out from a fixed slot
of :class:`~aspuzzles.puzzle.Puzzle` (as a game of Tatham's fills in some slots of
``struct game`` and leaves the others NULL):

- ``Puzzle.hints()``: :class:`Hints`, a person's entries and the clues they rest on,
  for ``hint``, ``explain`` and ``grade`` (:mod:`aspuzzles.hinting`);
- ``Puzzle.plan_hints()``: :class:`PlanHints`, the next move of a planning puzzle;
- ``Puzzle.sweep()``: :class:`Sweep`, every variant solved on one grounding
  (:mod:`aspuzzles.sweep`);
- ``Puzzle.generator()``: :class:`Generator`, new instances (``aspuzzles generate``);
- ``Puzzle.play()``: :class:`Play`, what the web board shows beside the board for a
  person to play with (counts, a tray of tiles, a legend of pieces), :mod:`aspuzzles.web.play`.

How an instance is searched (planning horizons, warm starts, races) is the other
per-instance slot, ``Puzzle.strategy(instance)`` (:mod:`aspuzzles.strategy`). The
shared machinery asks a slot, never the puzzle's class: a puzzle without the object
says so in one line ("gives no hints", "has no sweep").

This module loads nothing heavy: a puzzle imports it to declare its slots, and the
objects themselves live in the puzzle's own modules, loaded when first used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple, TypeVar

from clingo import Symbol

if TYPE_CHECKING:
    import argparse

    from .puzzle import Option

from .errors import InputError

InstanceT = TypeVar("InstanceT")
SolutionT = TypeVar("SolutionT")
SlotT = TypeVar("SlotT")


def offered(slot: SlotT | None, puzzle: str, missing: str) -> SlotT:
    """A slot's object, or the one-line error of a puzzle without it (``missing``: what
    the puzzle then does not do, as "gives no hints yet")."""
    if slot is None:
        raise InputError(f"puzzle '{puzzle}' {missing}")
    return slot


class Hints(Generic[InstanceT, SolutionT]):
    """A puzzle in a person's terms: how its entries and clues read, and how a player's
    progress is written. Which atoms are entries and which facts are clues the encoding
    declares (:mod:`aspuzzles.declarations`): the entries are the atoms it shows (or
    its ``hints`` part shows), the clues every fact it does not declare structure."""

    #: The kinds of entry (name, arity) this slot reads, draws and checks in Python;
    #: None where it reads any the encoding declares (a bare encoding's). An edited
    #: encoding must keep them: an entry of another kind would be read as nonsense.
    entry_kinds: ClassVar[tuple[tuple[str, int], ...] | None] = None

    def hint_facts(self, instance: InstanceT) -> list[Symbol]:
        """The facts to reason with: the puzzle's facts, except that nothing a clue
        says may be folded into the others (a placement left out because a clue
        forbids it would still be forbidden once the clue is dropped)."""
        raise NotImplementedError

    def hint_program(self, instance: InstanceT) -> str:
        """Program text of the instance that is not facts (a bare instance's ``#const``
        lines and rules), grounded with the facts."""
        return ""

    def with_entries(self, instance: InstanceT, entries: list[Symbol]) -> InstanceT:
        """The instance knowing every entry its grounding has (each that can be true):
        where only the encoding knows the board (a bare encoding's grid), it is drawn
        from them. Others have their board in the instance already."""
        return instance

    def entry_holds(self, instance: InstanceT, solution: SolutionT, entry: Symbol) -> bool:
        """Whether an entry holds in a (checked) solution, read in Python from the
        solution itself: the independent check of every hint."""
        raise NotImplementedError

    def entry_data(self, instance: InstanceT, entry: Symbol) -> Any:
        """An entry as JSON (the ``entry`` of a hint): an object of the puzzle's terms,
        or the atom as clingo writes it."""
        raise NotImplementedError

    def entry_place(self, instance: InstanceT, entry: Symbol) -> tuple[str, str] | None:
        """Where a player sets an entry on the drawn board, and what it then shows: the
        place as the SVG names it (a cell ``"R,C"`` in ``data-cell``, rows and columns
        from 1; a side between two cells ``"R,C|R,C"`` in ``data-side``) and the value;
        None where an entry is not set in one place (the web board lets a player set
        the entries that are)."""
        return None

    def entry_text(self, instance: InstanceT, entry: Symbol) -> str:
        """An entry in words (``cell (1,1): a ghost``)."""
        raise NotImplementedError

    def clue_data(self, instance: InstanceT, clue: Symbol) -> Any:
        """A clue as JSON (a member of a hint's ``reasons``)."""
        raise NotImplementedError

    def clue_text(self, instance: InstanceT, clue: Symbol) -> str:
        """A clue in words (``the clue 2 at the top of column 3``)."""
        raise NotImplementedError

    def parse_progress(self, instance: InstanceT, text: str, source: str) -> list[Symbol]:
        """The entries of a player's progress; bad input raises InputError."""
        raise NotImplementedError

    def draw_progress(
        self, instance: InstanceT, entries: list[Symbol], marked: list[Symbol], form: str
    ) -> str:
        """The board with the entries filled in, ``marked`` entries and clues
        highlighted, as text (``txt``) or SVG (``svg``)."""
        raise NotImplementedError

    # -- solutions in classes no clue tells apart (tiles: the turns of the board) ----
    #: Whether solutions come in such classes: without an anchor laid first nothing
    #: would be forced at the start, and such a puzzle could not be graded at all.
    anchored: ClassVar[bool] = False

    def grade_anchor(self, instance: InstanceT, entries: set[Symbol]) -> list[Symbol]:
        """Entries of the solution whose true entries are ``entries`` that single it out
        of its class, laid before grading; none where a class has one member (then
        nothing needs laying for the first step to be forced)."""
        return []

    def class_size(self, instance: InstanceT) -> int:
        """How many solutions each class holds: a puzzle is unique when it has exactly
        this many."""
        return 1


class PlanHints(Generic[InstanceT, SolutionT]):
    """A planning puzzle's hints (capture): the first move of a shortest plan from the
    board as the player has it."""

    def board_after(self, instance: InstanceT, text: str, source: str) -> InstanceT | None:
        """The instance after the moves of a player's progress, None if they clear the
        board (bad input raises InputError naming the move)."""
        raise NotImplementedError

    def first_move(self, instance: InstanceT, solution: SolutionT) -> tuple[dict[str, Any], str]:
        """A plan's first move as JSON data and as text."""
        raise NotImplementedError

    def opening(self, instance: InstanceT, solution: SolutionT) -> SolutionT:
        """A plan cut to its first move: what a hint's drawing shows (the move marked
        on the board, and the board after it)."""
        raise NotImplementedError

    def progress_of(self, solution: SolutionT) -> list[str]:
        """A plan's moves as progress text names them, one a move (``board_after``
        reads them joined by lines)."""
        raise NotImplementedError

    def move_atoms(self, instance: InstanceT, solution: SolutionT) -> list[Symbol]:
        """Each move of a plan as the encoding's answer set names it, one atom a move
        (a walkthrough's steps, re-checkable against the encoding)."""
        raise NotImplementedError

    def moves(self, instance: InstanceT) -> list[PlayerMove]:
        """Every move a player may make on the board as it stands, for a board played
        by pointing (the web board)."""
        raise NotImplementedError


class PlayerMove(NamedTuple):
    """A move as a player makes it by pointing: from one place to another (``"R,C"``,
    rows and columns from 1), and the move as progress text names it."""

    place: str
    to: str
    text: str


class Variants(Generic[InstanceT]):
    """A sweep's variants by their places, each variant's key and instance made when
    asked for: a sweep's command writes its first answer before it has named every
    variant (the Genius Star's 165,888 keys take a third of a second), and a worker
    makes the instances of its own tasks only."""

    def __len__(self) -> int:
        raise NotImplementedError

    def keys(self, places: Sequence[int]) -> list[str]:
        """The keys the variants at ``places`` are recorded under."""
        raise NotImplementedError

    def instances(self, places: Sequence[int]) -> list[InstanceT]:
        """The variants at ``places``, as instances."""
        raise NotImplementedError


class Sweep(Generic[InstanceT]):
    """Every variant of a puzzle solved on one grounding, the variants differing only
    in the externals they assume (the dice puzzles: every roll)."""

    def base(self, options: dict[str, Any]) -> InstanceT:
        """The instance grounded once for a sweep."""
        raise NotImplementedError

    def variants(self, options: dict[str, Any]) -> Variants[InstanceT]:
        """Every variant of a sweep, each with the key it is recorded under."""
        raise NotImplementedError

    def equivalents(self, options: dict[str, Any]) -> dict[str, list[str]]:
        """Keys whose result equals a solved variant's (a symmetry reduction)."""
        return {}

    def assumptions(self, variant: Any) -> list[tuple[Symbol, bool]]:
        """How a variant is set on the sweep's grounding."""
        raise NotImplementedError

    def first_in_python(self, variant: Any) -> list[Symbol] | None:
        """A solution of a variant found by a plain search in Python (the atoms the
        encoding shows), or None when it finds none, which proves nothing. Asked before
        clingo only where the encoding is the shipped one; its answer is checked like
        clingo's."""
        return None

    def firsts_in_bulk(self, variants: Sequence[Any]) -> BulkAnswers | None:
        """First solutions of many variants at once from a search outside clingo, or
        None where there is none. Asked, like ``first_in_python``, only where the
        encoding is the shipped one, whose rules such a search restates (its "none"
        is then a verdict, as clingo's would be); every answer found is checked by
        ``check_in_bulk``."""
        return None

    def check_in_bulk(self, variants: Sequence[Any], answers: BulkAnswers) -> dict[int, str]:
        """The variants (by place) whose answer in ``answers`` breaks a rule, each with
        the problem: a checker that shares nothing with the search, asked of all the
        answers at once."""
        raise NotImplementedError

    def count_in_python(self, variant: Any, most: int = 0) -> int | None:
        """A variant's number of solutions (as clingo counts its answer sets; up to
        ``most``, if not 0) from a search outside clingo, or None where it gives none.
        Asked, like ``first_in_python``, only where the encoding is the shipped one."""
        return None

    def census(self, options: dict[str, Any]) -> CensusSpace | None:
        """Every placement of ``chosen`` blockers on any of the cells, not only the
        variants (``aspuzzles census``); None where a census means nothing."""
        return None


class BulkAnswers(NamedTuple):
    """Solutions of many variants searched at once: whether each was ``found`` (True),
    proved to have none by a search that went through every possibility (False), or
    neither (None: clingo is asked), and the sweep's own record of them (arrays, say)."""

    found: list[bool | None]
    answers: Any


class CensusSpace(NamedTuple):
    """What a census covers: ``chosen`` of ``cells`` cells (numbered from 1) blocked in
    every way, the board's ``symmetries`` (each a tuple: the image of cell ``n`` at
    index ``n - 1``) making placements alike, and how a placement becomes a variant
    of the sweep (``variant``) and is named (``key``)."""

    cells: int
    chosen: int
    symmetries: tuple[tuple[int, ...], ...]
    variant: Callable[[tuple[int, ...]], Any]
    key: Callable[[tuple[int, ...]], str]


class Play(Generic[InstanceT]):
    """What a person plays with beside the board (the web board's panel), as Tatham's
    games draw their own status and pieces: every field optional, each the puzzle's
    own data in shared terms, so that the page draws any puzzle's panel without
    knowing the puzzle. A puzzle without it is played by its board alone."""

    def panel(self, instance: InstanceT, entries: list[Symbol]) -> dict[str, Any]:
        """The panel for the board with ``entries`` (the player's, as atoms) made:

        - ``counts``: ``[{"label", "placed", "total"}]``, how many of a kind are placed
          of how many there must be (Haunted: ``ghosts 2/5``);
        - ``notes``: lines said above the board (the cake: the pieces and what each
          holds);
        - ``tray``: pieces each put in one place, turned there (tiles): ``[{"id",
          "label", "svg", "prefix", "placed"}]``; a place's values that start with
          ``prefix`` are the piece in its turns;
        - ``legend``: pieces laid over several places (the dice puzzles): ``[{"id",
          "label", "letter", "colour", "count", "placed", "orientations"}]``, each
          orientation ``{"svg", "at"}``, ``at`` mapping an anchor place to the places
          the piece covers when laid there, each set to the value ``id``;
        - ``pencil``: the values a player may pencil into a place (Haunted's monsters),
          kept by the page;
        - ``link``: ``{"label", "href"}``, the puzzle elsewhere (Tatham's game ID)."""
        return {}

    # -- a puzzle without hints, played all the same (the template) --------------------
    def places(self, instance: InstanceT) -> dict[str, list[dict[str, str]]] | None:
        """Where a player sets entries, for a puzzle without hints (which name them
        otherwise): a place as the SVG's ``data-cell`` names it, to the values an entry
        there can take, each ``{"value", "atom"}``; None for a puzzle with hints."""
        return None

    def played(self, instance: InstanceT, entries: list[Symbol]) -> tuple[Any, bool]:
        """For a puzzle without hints: the board with the entries made (a solution to
        draw) and whether it is solved (every place set, the checker content)."""
        raise NotImplementedError


class Generator:
    """A puzzle's generator, as Tatham's ``new_desc``: a new instance as text, from the
    options it declares (data, as a puzzle's ``solve_options``: the command line and
    the API are built from them). Every shipped puzzle has one; an encoding of one's
    own has none."""

    #: The options of ``aspuzzles generate PUZZLE``, handed to ``generate`` as ``args``.
    options: ClassVar[tuple[Option, ...]] = ()

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle

    def generate(self, args: argparse.Namespace) -> str:
        """A new instance in the puzzle's own text format; bad options raise InputError."""
        raise NotImplementedError

    def made(self, args: argparse.Namespace) -> str:
        """``generate`` as the command and the API call it: in the engine's guard, its
        whole work is the ``generating`` phase (a limit is not reported as reached while
        loading); the groundings of a grading it asks for say their own."""
        from .driver.guard import GENERATING, note_phase

        note_phase(GENERATING)
        return self.generate(args)
