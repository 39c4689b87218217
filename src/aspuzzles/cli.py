"""The ``aspuzzles`` command: argument parsing and output formats, no puzzle logic.

Exit codes: 0 solved, 1 no solution, 2 bad input or usage, 3 time limit reached, 4
internal error (the independent checker rejected an answer set), 5 memory limit
reached, 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .driver.limits import default_memory, limit_memory, memory_problem, timeout_problem
from .driver.searches import DEFAULT_PLAN_SEARCH, PLAN_SEARCHES
from .entry import version_line
from .errors import AspuzzlesError, ExitCode, InputError
from .logs import logger, set_verbosity
from .paths import (
    input_kept,
    instance_files,
    limit_reading,
    output_file,
    referenced_text,
    write_text_file,
)
from .render import stack_svgs, text_svg

# The driver, clingo and the puzzles are imported by the commands that use them: the
# help, a usage error or the version are answered without loading them.
if TYPE_CHECKING:
    from .driver import Result
    from .puzzle import Puzzle

FORMATS = ("text", "json", "svg", "atoms")
#: Said once on stderr when the encoding in use is not the shipped one.
EDITED_NOTE = (
    "aspuzzles: note: the encoding differs from the shipped encodings/{puzzle}.lp: "
    "{puzzle}'s Python accelerators (bounds, quick answers, searches and verdicts in Python) "
    "are off"
)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help layout, fitted to the terminal as ``shutil`` would fit it, without
    loading ``shutil`` (and the compression modules it loads): argparse makes one of
    these for every argument it adds, so every command would pay for the import."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24) -> None:
        super().__init__(prog, indent_increment, max_help_position, width=_columns() - 2)


def _columns() -> int:
    """The terminal's width: ``COLUMNS`` if set, else the terminal's, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports usage errors as one line and exit code 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix(PROG).strip()  # 'solve', or none at the top
        raise InputError(f"{command}: {message}" if command else message)


PROG = "aspuzzles"
VERBOSE_HELP = "show clingo's info messages (-v) and debug output (-vv)"


def _top_parser() -> ArgumentParser:
    """The options that come before the command (``aspuzzles -v solve ...``)."""
    parser = ArgumentParser(
        prog=PROG,
        description="Solve logic puzzles with clingo; every answer is checked in Python.",
        epilog="exit codes: 0 solved, 1 no solution, 2 bad input or usage, "
        "3 time limit reached before the question was answered (what was found is still shown), "
        "4 internal error, 5 memory limit reached (--memory; what was found is still shown), "
        "130 interrupted (Ctrl-C; what was found is still shown)",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the versions and exit")
    parser.add_argument("-v", "--verbose", action="count", default=0, help=VERBOSE_HELP)
    return parser


def _base_parser(wanted: str = "", alone: bool = True) -> ArgumentParser:
    """The command line; of the commands, only ``wanted`` gets its arguments, and when it
    is one (and ``alone``), the parser knows no other: the others are named, with their
    help, only for the top-level help and its errors. Building all of them would cost
    every command a few milliseconds."""
    parser = _top_parser()
    # -v is also accepted after the command, where users put it; it adds to any before.
    after = ArgumentParser(add_help=False)
    after.add_argument(
        "-v", "--verbose", action="count", default=argparse.SUPPRESS, help=VERBOSE_HELP
    )
    commands = parser.add_subparsers(
        dest="command",
        required=True,
        parser_class=partial(ArgumentParser, parents=[after]),  # type: ignore[call-overload]
    )
    alone = alone and any(name == wanted for name, _, _ in COMMANDS)
    for name, about, add_arguments in COMMANDS:
        if alone and name != wanted:
            continue  # a command was named: the others are never shown or parsed
        sub = commands.add_parser(name, help=about)
        if name == wanted:
            add_arguments(sub)
    return parser


def _solve_arguments(solve: argparse.ArgumentParser) -> None:
    solve.add_argument("puzzle", help=PUZZLE_HELP)
    solve.add_argument(
        "instance",
        nargs="?",
        default=None,
        help="a file, a shipped instance name, - for standard input, or a game ID "
        "(default: the puzzle's default instance)",
    )
    mode = solve.add_mutually_exclusive_group()
    mode.add_argument(
        "-n",
        "--models",
        type=_at_least(0),
        default=1,
        help="how many solutions to print (0 = all; default 1)",
    )
    mode.add_argument(
        "--unique",
        action="store_true",
        help="decide whether the solution is unique (unique/multiple/none)",
    )
    mode.add_argument(
        "--count", action="store_true", help="count the solutions without printing them"
    )
    _limit_arguments(solve, "the solve")
    solve.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (boards), json, svg (drawings), or atoms (clingo's own output)",
    )
    _output_argument(solve)
    solve.add_argument("--stats", action="store_true", help="print solver statistics")
    solve.add_argument("--threads", type=_at_least(1), default=1, help="clasp threads (default 1)")
    solve.add_argument(
        "--plan-search",
        choices=PLAN_SEARCHES,
        default=None,
        help="for a puzzle that plans over moves (a horizon): split: two processes climb "
        "budgets 1, 2, ..., each over half the first moves, bounded from above by a quick "
        "plan found in Python (default); "
        "both: one process climbs while another shortens plans from above, starting "
        "from the quick plan; ascending: one process climbs; descending: one comes down",
    )
    solve.add_argument(
        "--no-portfolio",
        dest="portfolio",
        action="store_false",
        help="search with the puzzle's tuned settings only, instead of racing the other "
        "settings its strategy offers (see the puzzle's page in docs/) in other processes",
    )
    _encoding_argument(solve)
    solve.add_argument(
        "--unchecked",
        action="store_true",
        help="show answers without the puzzle's checker (for an edited encoding, whose "
        "rules the checker does not know); they are marked as not checked",
    )
    solve.add_argument(
        "--clingo",
        action="append",
        default=[],
        metavar="ARG",
        help="pass an option to clingo, e.g. --clingo=--configuration=crafty",
    )


PUZZLE_HELP = "a puzzle's name (aspuzzles list), or NAME for an encodings/NAME.lp of your own"
INSTANCE_HELP = (
    "a file, a shipped instance name, - for standard input, or the text itself "
    "(default: the puzzle's default instance)"
)


def _limit_arguments(parser: argparse.ArgumentParser, work: str) -> None:
    """``--timeout`` and ``--memory``, which every command that reaches clingo takes and
    the engine holds in every phase."""
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=f"wall-time limit for {work}, held in every phase (reading, building facts, "
        "grounding, solving); past it the command stops with exit code 3",
    )
    parser.add_argument(
        "--memory",
        type=_megabytes,
        default=default_memory(),
        metavar="MB",
        help=f"memory limit of each process of {work}, in megabytes (default: half the "
        "machine's memory; 0: none); past it the command stops with exit code 5",
    )


def _output_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the output to FILE (replaced whole, its permissions kept; a link's "
        "target, a FIFO or a device is written through)",
    )


def _encoding_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--encoding",
        metavar="FILE",
        help="use this encoding instead of encodings/PUZZLE.lp (the puzzle's Python "
        "accelerators are then off, and the output says the encoding is edited)",
    )


def _facts_arguments(facts: argparse.ArgumentParser) -> None:
    facts.add_argument("puzzle", help=PUZZLE_HELP)
    facts.add_argument("instance", nargs="?", default=None, help=INSTANCE_HELP)
    _limit_arguments(facts, "building the facts")


def _list_arguments(listing: argparse.ArgumentParser) -> None:
    listing.add_argument(
        "puzzle", nargs="?", default=None, help="only this puzzle (default: every puzzle)"
    )
    listing.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text, or json: each puzzle's name, title, instances, default and commands",
    )


def _check_arguments(check: argparse.ArgumentParser) -> None:
    check.add_argument("puzzle", help=PUZZLE_HELP)
    check.add_argument("instance", nargs="?", default=None, help=INSTANCE_HELP)
    check.add_argument("solution", help="a file, '-' for standard input, or the text itself")
    _limit_arguments(check, "the check")


def _helper_arguments(helper: argparse.ArgumentParser, name: str) -> None:
    """``hint``, ``explain`` and ``grade``."""
    helper.add_argument("puzzle", help=PUZZLE_HELP)
    helper.add_argument("instance", nargs="?", default=None, help=INSTANCE_HELP)
    helper.add_argument(
        "--format",
        choices=("text", "json", "svg"),
        default="text",
        help="text (with the board), json, or svg (the board with the entries marked)",
    )
    _output_argument(helper)
    _encoding_argument(helper)
    _limit_arguments(helper, f"the {name}")
    if name != "grade":
        helper.add_argument(
            "--progress",
            metavar="FILE",
            help="your progress: a game saved by the puzzle's app, a board picture, or "
            "JSON with cells left open; a file, '-' for standard input, or the text",
        )
    if name == "hint":
        helper.add_argument("--all", action="store_true", help="every entry that follows")
    if name == "grade":
        helper.add_argument(
            "--difficulty",
            action="store_true",
            help="also the difficulty a person meets (easy, normal, tricky, hard), read "
            "from a whole walkthrough: slower (docs/walkthrough.md)",
        )


def _walkthrough_arguments(walk: argparse.ArgumentParser) -> None:
    """``walkthrough``: as ``hint``'s, in text or JSON (docs/walkthrough.md)."""
    walk.add_argument("puzzle", help=PUZZLE_HELP)
    walk.add_argument("instance", nargs="?", default=None, help=INSTANCE_HELP)
    walk.add_argument(
        "--format",
        choices=("text", "json", "svg", "html"),
        default="text",
        help="text (a numbered line a step), json (every step re-checkable with clingo), "
        "svg (a board a step, its entries and reason marked) or html (a page that steps "
        "through the boards)",
    )
    _output_argument(walk)
    _encoding_argument(walk)
    _limit_arguments(walk, "the walkthrough")
    walk.add_argument(
        "--progress",
        metavar="FILE",
        help="start from your progress (as hint reads it): a file, '-' for standard "
        "input, or the text",
    )


def _fix_arguments(fix: argparse.ArgumentParser) -> None:
    """``fix``: the fewest progress entries to take back (docs/fix.md)."""
    fix.add_argument("puzzle", help=PUZZLE_HELP)
    fix.add_argument("instance", nargs="?", default=None, help=INSTANCE_HELP)
    fix.add_argument(
        "--progress",
        metavar="FILE",
        required=True,
        help="your progress (as hint reads it): a file, '-' for standard input, or the text",
    )
    fix.add_argument(
        "--repairs",
        type=_at_least(0),
        default=10,
        metavar="N",
        help="list up to N repairs of the fewest size (default 10; 0: all)",
    )
    fix.add_argument(
        "--format",
        choices=("text", "json", "svg"),
        default="text",
        help="text (with the board), json (every reason re-checkable with clingo), or svg "
        "(the board with the entries to take back marked)",
    )
    _output_argument(fix)
    _encoding_argument(fix)
    _limit_arguments(fix, "the fix")


def _maker_arguments(maker: argparse.ArgumentParser) -> None:
    """``generate`` (and a puzzle's own name for it): the puzzle adds its own options."""
    maker.add_argument("puzzle", help=PUZZLE_HELP)
    _output_argument(maker)
    _limit_arguments(maker, "the generator")


def _serve_arguments(serve: argparse.ArgumentParser) -> None:
    serve.add_argument(
        "--port",
        type=_at_least(0),
        default=8421,
        help="the port on 127.0.0.1 (default 8421; 0: any free one)",
    )
    serve.add_argument("--open", action="store_true", help="open the page in a browser")
    serve.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="wall-time limit of each request's work, held in every phase (default 60)",
    )
    serve.add_argument(
        "--memory",
        type=_megabytes,
        default=default_memory(),
        metavar="MB",
        help="memory limit of each request's worker process, in megabytes (default: half "
        "the machine's memory; 0: none)",
    )
    serve.add_argument(
        "--workers",
        type=_at_least(1),
        default=2,
        metavar="N",
        help="worker processes answering at once (default 2; past them a request is "
        "answered 503, busy); a click's board has 2 of its own",
    )


def _sweep_arguments(sweep: argparse.ArgumentParser) -> None:
    sweep.add_argument("puzzle", help=PUZZLE_HELP)
    sweep.add_argument("--jobs", type=_at_least(1), default=2, help="worker processes (default 2)")
    sweep.add_argument(
        "-o",
        "--output",
        default=None,
        metavar="FILE",
        help="results file, appended to and resumed (default sweep-PUZZLE.tsv, "
        "sweep-PUZZLE-count.tsv with --count)",
    )
    sweep.add_argument("--limit", type=_at_least(1), default=None, help="only the first N variants")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.add_argument(
        "--reduce",
        action="store_true",
        help="solve one variant per class of variants the puzzle's symmetries make alike",
    )
    sweep.add_argument(
        "--count",
        action="store_true",
        help="the number of solutions of each variant (as solve --count counts them) in "
        "the results file's second column, with the fewest, most and median at the end",
    )
    _scheduler_argument(sweep, "variants")
    _limit_arguments(sweep, "the sweep")


def _shard(text: str) -> tuple[int, int]:
    """A --shard value: K/N, the K-th of N equal shares of the units (K from 1)."""
    index, _, shards = text.partition("/")
    if not (index.isdigit() and shards.isdigit() and 1 <= int(index) <= int(shards)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, not '{text}'")
    return int(index), int(shards)


def _scheduler_argument(parser: argparse.ArgumentParser, work: str) -> None:
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"run the {work} on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:PORT; needs aspuzzles[distributed]) instead of --jobs local processes",
    )


def _census_arguments(census: argparse.ArgumentParser) -> None:
    census.add_argument(
        "puzzle", help="a puzzle whose sweep declares a census (aspuzzles list names the puzzles)"
    )
    census.add_argument(
        "--count", action="store_true", help="count each class's solutions too, with their spread"
    )
    census.add_argument(
        "--count-cap",
        type=_at_least(1),
        default=None,
        metavar="N",
        help="count each class's solutions up to N only (N: N or more), with how many "
        "placements have each count (implies --count)",
    )
    census.add_argument(
        "--jobs", type=_at_least(1), default=2, help="local worker processes (default 2)"
    )
    _scheduler_argument(census, "units")
    census.add_argument(
        "--store",
        metavar="FILE",
        help="results store (sqlite), resumed (default census-PUZZLE[-count].sqlite)",
    )
    census.add_argument(
        "--unsolvable",
        metavar="FILE",
        help="where the unsolvable classes are listed (default census-PUZZLE-unsolvable.txt)",
    )
    census.add_argument("--limit", type=_at_least(1), default=None, help="only the first N units")
    census.add_argument(
        "--shard",
        type=_shard,
        default=(1, 1),
        metavar="K/N",
        help="only the K-th of N shares of the units",
    )
    census.add_argument("--format", choices=("text", "json"), default="text", help="text or json")
    census.add_argument("--quiet", action="store_true", help="no progress bar")
    _limit_arguments(census, "the census")


#: The commands in the order the help lists them: name, help, how to add its arguments.
COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser], None]], ...] = (
    ("solve", "solve an instance", _solve_arguments),
    ("facts", "print the complete fact program of an instance", _facts_arguments),
    (
        "check",
        "check a solution of your own (the JSON solve prints, or the puzzle's own form)",
        _check_arguments,
    ),
    (
        "hint",
        "the next entry to make, and the mistakes in your progress",
        partial(_helper_arguments, name="hint"),
    ),
    (
        "explain",
        "why an instance (with your progress) has no solution",
        partial(_helper_arguments, name="explain"),
    ),
    (
        "grade",
        "how hard the puzzle is to solve by hints alone",
        partial(_helper_arguments, name="grade"),
    ),
    (
        "walkthrough",
        "the whole way to the solution, step by step, each with its reasons",
        _walkthrough_arguments,
    ),
    (
        "fix",
        "the fewest entries of your progress to take back, each with why it was wrong",
        _fix_arguments,
    ),
    ("list", "list puzzles, their shipped instances and the commands each takes", _list_arguments),
    ("generate", "generate a new instance", _maker_arguments),
    ("sweep", "solve every variant of a puzzle that has a sweep", _sweep_arguments),
    (
        "census",
        "every placement of a puzzle's blockers on any cells, up to symmetry: solvable or not",
        _census_arguments,
    ),
    (
        "serve",
        "the web board: play, check, hint, explain and generate in a browser",
        _serve_arguments,
    ),
)


HELP_FLAGS = ("-h", "--help")


def _parse(argv: Sequence[str]) -> tuple[argparse.Namespace, Puzzle[Any, Any] | None]:
    """Two passes: find the puzzle, then let it add its own options.

    The first pass ignores ``--help``, so that ``generate PUZZLE --help`` lists the
    puzzle's own options instead of stopping before they are added.
    """
    argv = _without_alias(argv)
    parser = _base_parser(_command_named(argv))
    asks_help = any(arg in HELP_FLAGS for arg in argv)
    probe = [arg for arg in argv if arg not in HELP_FLAGS]
    try:
        known, _ = parser.parse_known_args(probe)
    except InputError:
        if not asks_help:
            raise
        known = argparse.Namespace()  # no puzzle named yet: the second pass prints the help
    game = None
    if getattr(known, "puzzle", None) is not None:
        from .puzzle import add_options
        from .registry import get_puzzle  # the puzzles, the driver and clingo

        game = get_puzzle(known.puzzle)
    if game is not None:
        subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub = subparsers.choices[known.command]
        if known.command == "generate":
            from .capabilities import offered

            add_options(
                sub, offered(game.generator(), game.name, game.without("generator")).options
            )
        elif known.command in ("solve", "facts", "sweep", "check"):
            add_options(sub, game.solve_options)
        return _parse_command(sub, argv, known.command), game
    if asks_help:  # the help of a command, or of them all: every command named
        parser = _base_parser(_command_named(argv), alone=False)
    return parser.parse_args(argv), game


def _without_alias(argv: Sequence[str]) -> list[str]:
    """The command line with a puzzle's own name for a command (``Puzzle.command_aliases``:
    ``roll`` for ``generate``) replaced by the command's."""
    command = _command_named(argv)
    if not command or any(name == command for name, _, _ in COMMANDS):
        return list(argv)
    at = list(argv).index(command)
    named = [arg for arg in argv[at + 1 :] if not arg.startswith("-")]
    if not named:
        return list(argv)
    from .registry import get_puzzle  # only for a word that is no command

    try:
        target = get_puzzle(named[0]).command_aliases.get(command)
    except InputError:
        return list(argv)
    return list(argv) if target is None else [*argv[:at], target, *argv[at + 1 :]]


def _command_named(argv: Sequence[str]) -> str:
    """The command (the first argument that is not an option: only options come before
    it); empty if there is none."""
    return next((arg for arg in argv if not arg.startswith("-")), "")


def _parse_command(sub: argparse.ArgumentParser, argv: Sequence[str], command: str) -> Any:
    """The command's arguments in any order (``solve PUZZLE -n 3 INSTANCE``: plain
    argparse would take the instance for a stray argument after an option), after the
    options that come before the command."""
    at = list(argv).index(command)
    if any(arg in HELP_FLAGS for arg in argv[:at]):  # 'aspuzzles -h solve': the whole help
        return _base_parser().parse_args(argv)
    namespace = _top_parser().parse_args(argv[:at])
    namespace.command = command
    return sub.parse_intermixed_args(argv[at + 1 :], namespace=namespace)


def _interrupted() -> int:
    """The command ends on Ctrl-C: a second Ctrl-C must not cut its last words (and its
    exit code) short with a traceback, so SIGINT is ignored from here on. A second
    press that lands before that holds (once in some hundred double presses, inside
    the very call that ignores it) is caught and the call made again."""
    import signal

    while True:
        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            break
        except KeyboardInterrupt:
            continue
    print("aspuzzles: interrupted", file=sys.stderr)
    return ExitCode.INTERRUPTED


#: Why writing the output can fail where the command did nothing wrong: a full disk
#: or quota, a file grown past its limit, a device's error.
_WRITE_FAILURES = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:  # a first try: show what there is to do, not just what is missing
        _base_parser().print_help(sys.stderr)
        return ExitCode.BAD_INPUT
    try:
        args, game = _parse(argv)
        set_verbosity(args.verbose)
        if args.command == "serve":
            from .web.server import serve

            return serve(args.port, args.open, args.timeout, args.memory, args.workers)
        if args.command == "list":
            code = _list(args, game)
        else:
            assert game is not None
            limit_reading(getattr(args, "timeout", None))
            code = _COMMANDS[args.command](args, game)
        sys.stdout.flush()  # a full disk is said here, not after the command has ended
        return code
    except AspuzzlesError as error:
        print(f"aspuzzles: error: {error}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return _interrupted()
    except MemoryError:  # past --memory outside a search (which reports it itself)
        print("aspuzzles: memory limit reached (see --memory)", file=sys.stderr)
        return ExitCode.MEMORY
    except BrokenPipeError:  # output cut short by `| head`: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.SOLVED
    except OSError as error:
        if error.errno not in _WRITE_FAILURES:
            raise
        where = f" {error.filename}" if error.filename else " the output"
        print(f"aspuzzles: error: cannot write{where}: {error.strerror}", file=sys.stderr)
        with suppress(OSError):  # what is still buffered is dropped, not written at exit
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return ExitCode.BAD_INPUT
    except Exception as error:  # a bug: one line, the traceback only with -vv
        logger("aspuzzles").debug("internal error", exc_info=True)
        print(f"aspuzzles: internal error: {error!r} (run with -vv for details)", file=sys.stderr)
        return ExitCode.INTERNAL
    finally:
        limit_reading(None)  # the command's limit, not the process's next one's


class _Version(argparse.Action):
    """``--version``: clingo's version read only when asked (looking up installed
    packages' metadata costs every command a few hundredths of a second)."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: Any, **_kwargs: Any) -> None:
        print(version_line())
        parser.exit()


def _generate(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    import random

    if getattr(args, "seed", 0) is None:  # drawn here, so the header can repeat it
        args.seed = random.randrange(1_000_000)
    from .capabilities import offered

    generator = offered(game.generator(), game.name, game.without("generator"))
    return _answer(args, lambda: _Answer(generator.made(args).rstrip("\n") + "\n"))


class _Answer:
    """What a guarded command's work hands back across the process boundary: its output
    text, its exit code, and whether the encoding used was an edited one (a plain
    class: the help and the version load no dataclasses). ``unshown``: a report and
    the format to show it in, here, where its text is not made yet (a walkthrough cut
    short: drawing its boards may take longer than the limit leaves, or the second
    Ctrl-C gives, and what was found is shown all the same); ``note``: lines for
    standard error."""

    def __init__(
        self,
        text: str,
        code: int = ExitCode.SOLVED,
        edited: bool = False,
        puzzle: str = "",
        unshown: tuple[Any, str] | None = None,
        note: str = "",
    ) -> None:
        self.text, self.code, self.edited, self.puzzle = text, code, edited, puzzle
        self.unshown, self.note = unshown, note


def _answer(args: argparse.Namespace, produce: Callable[[], _Answer], wrap_up: bool = False) -> int:
    """Run a command's work through the engine's guard (its ``--timeout`` and
    ``--memory`` held in every phase, Ctrl-C answered at once), then say what the
    work said: the edited-encoding note, the output (``-o`` or standard output)."""
    from .driver.guard import Bounds, run_guarded

    target = output_file(args.output) if getattr(args, "output", None) else None
    with input_kept(_inputs(args)):  # read here: the worker's input is closed
        answer = run_guarded(produce, Bounds(args.timeout, args.memory), wrap_up)
    if answer.edited:
        print(EDITED_NOTE.format(puzzle=answer.puzzle), file=sys.stderr)
    text = answer.text if answer.unshown is None else _shown(*answer.unshown)
    for line in answer.note.splitlines():
        print(f"aspuzzles: {line}", file=sys.stderr)
    _emit(text, target)
    return answer.code


#: The arguments that name text to read (``-``, a file, a pipe); the others name
#: files written (``-o``, ``--store``, ``--unsolvable``: ``-o /dev/stdout`` is a pipe
#: too, never to be read) or are no files at all.
_INPUTS = ("instance", "solution", "progress", "skeleton")


def _inputs(args: argparse.Namespace) -> list[str]:
    return [value for name in _INPUTS if isinstance(value := getattr(args, name, None), str)]


def _emit(text: str, target: Path | None) -> None:
    """The output, to its file (``-o``) or to standard output. Ctrl-C while it is
    written is held until it is written whole: what was found is shown."""
    with _interrupt_deferred() as deferred:
        if target is not None:
            write_text_file(target, text, stop=lambda: deferred.interrupted)
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    if deferred.interrupted:
        raise KeyboardInterrupt


def _facts(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    """The instance's complete fact program, built under the command's limits (a large
    board's light paths, a bare instance's reading)."""

    def work() -> _Answer:
        from .driver import fact_program, load_instance

        instance, _ = load_instance(game, args.instance)
        return _Answer(fact_program(game, game.configure(instance, _options(game, args))))

    return _answer(args, work)


def _options(game: Puzzle[Any, Any], args: argparse.Namespace) -> dict[str, Any]:
    from .puzzle import solve_option_names

    return {name: getattr(args, name) for name in solve_option_names(game)}


class _Deferred:
    """Whether Ctrl-C came while it was held (see ``_interrupt_deferred``)."""

    interrupted = False


@contextmanager
def _interrupt_deferred() -> Iterator[_Deferred]:
    """Hold Ctrl-C while the answers found are formatted and written: the command then
    ends as interrupted (exit 130) with what it found shown, not lost half-way. Only
    the main thread can handle signals; elsewhere nothing is held."""
    import signal

    deferred = _Deferred()

    def hold(_signum: int, _frame: Any) -> None:
        deferred.interrupted = True

    try:
        previous = signal.signal(signal.SIGINT, hold)
    except ValueError:  # not the main thread
        yield deferred
        return
    try:
        yield deferred
    finally:
        signal.signal(signal.SIGINT, previous)


class _LiveStatus:
    """One line on a terminal's stderr, rewritten as a long planning search proves more
    (what it would report if stopped now), and erased when it ends. The search tells
    it again every second while it runs, so its clock moves."""

    def __init__(self, label: str) -> None:
        self.label, self.started, self.shown = label, time.perf_counter(), False

    def show(self, text: str) -> None:
        elapsed = time.perf_counter() - self.started
        print(
            f"\r{self.label}: {text} ({elapsed:.0f} s)\x1b[K", end="", file=sys.stderr, flush=True
        )
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def _megabytes(text: str) -> int | None:
    """A --memory value: megabytes as bytes (0: no limit), within the driver's range."""
    if not text.isascii() or not text.isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number of megabytes, not '{text}'")
    if (problem := memory_problem(int(text))) is not None:
        raise argparse.ArgumentTypeError(problem)
    return int(text) << 20 or None


def _seconds(text: str) -> float:
    """A --timeout value: a number of seconds from a millisecond to a year."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not '{text}'") from None
    if (problem := timeout_problem(value)) is not None:
        raise argparse.ArgumentTypeError(problem)
    return value


def _at_least(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number no smaller than ``least``."""

    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not '{text}'") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return whole


def _solve(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    from .driver import UNSATISFIABLE, load_instance
    from .driver import solve_instance as run_solver

    # This process and every worker it forks (a limit is inherited) stay within it.
    limit_memory(args.memory)
    parsed, name = load_instance(game, args.instance)
    parsed = game.configure(parsed, _options(game, args))
    target = output_file(args.output) if args.output else None
    if args.plan_search is not None and game.strategy(parsed).planning() is None:
        print(
            f"aspuzzles: warning: --plan-search has no effect on {game.name} "
            "(it searches no plan over moves)",
            file=sys.stderr,
        )
    status = _LiveStatus(f"{game.name} {name}") if sys.stderr.isatty() else None
    try:
        result = run_solver(
            game,
            parsed,
            name,
            models=args.models,
            unique=args.unique,
            count=args.count,
            timeout=args.timeout,
            threads=args.threads,
            clingo_args=args.clingo,
            encoding=args.encoding,
            plan_search=args.plan_search or DEFAULT_PLAN_SEARCH,
            portfolio=args.portfolio,
            on_progress=status.show if status else None,
            unchecked=args.unchecked,
            statistics=args.stats or args.format == "json",
        )
    finally:
        if status:
            status.clear()
    if result.encoding == "edited":
        print(EDITED_NOTE.format(puzzle=game.name), file=sys.stderr)
    if result.status == UNSATISFIABLE and _explains(game):
        print(f"aspuzzles: why: aspuzzles explain {game.name} {name}", file=sys.stderr)
    with _interrupt_deferred() as deferred:  # what was found is shown whole
        output = _format(result, args.format, args.stats)
    if deferred.interrupted:
        result.interrupted = True
    _emit(output, target)
    if target:
        print(result.summary(), file=sys.stderr)
    return _exit_code(result)


def _check(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    """Replay a person's solution through the puzzle's checker: 0 valid, 1 rejected. The
    check runs under the command's limits (a bare encoding's is clingo's)."""
    if args.instance == args.solution == "-":
        raise InputError("standard input (-) can give the instance or the solution, not both")

    def work() -> _Answer:
        from .driver import check_solution, load_instance

        parsed, name = load_instance(game, args.instance)
        parsed = game.configure(parsed, _options(game, args))  # the rules asked for (--score)
        text, source = referenced_text(args.solution)
        problems, solution = check_solution(game, parsed, text, source)
        if problems:
            rejected = "\n".join(f"rejected: {problem}" for problem in problems)
            said = f"{game.name} {name}: the solution breaks the rules\n"
            return _Answer(said, ExitCode.NO_SOLUTION, note=rejected)
        assert solution is not None
        shown = solution.text().rstrip("\n") + "\n"
        return _Answer(f"{shown}{game.name} {name}: valid (checked)\n")

    return _answer(args, work)


def _explains(game: Puzzle[Any, Any]) -> bool:
    return game.hints() is not None


#: The questions about solving by hand: the options each passes to its function in
#: ``hinting`` besides the instance, the encoding and the time limit (the function's
#: keyword: the argument's name), and the report statuses that exit with 1.
_QUESTIONS: dict[str, tuple[dict[str, str], tuple[str, ...]]] = {
    "hint": ({"progress": "progress", "every": "all"}, ("unsolvable", "contradiction", "stuck")),
    "explain": ({"progress": "progress"}, ()),
    "grade": ({"difficulty": "difficulty"}, ()),
    "walkthrough": ({"progress": "progress"}, ("unsolvable",)),
    "fix": ({"progress": "progress", "repairs": "repairs"}, ("unsolvable",)),
}


def _asked(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    """``hint``, ``explain``, ``grade``, ``walkthrough`` and ``fix``: the function of
    ``hinting`` named as the command, asked as ``_question`` asks."""
    from . import hinting

    options, stuck = _QUESTIONS[args.command]
    function = getattr(hinting, args.command)

    def ask() -> Any:
        passed = {keyword: getattr(args, name) for keyword, name in options.items()}
        return function(game, args.instance, encoding=args.encoding, timeout=args.timeout, **passed)

    return _question(args, game, ask, stuck=stuck)


def _question(
    args: argparse.Namespace,
    game: Puzzle[Any, Any],
    ask: Callable[[], Any],
    stuck: tuple[str, ...] = (),
) -> int:
    """A hint, an explanation or a grade, asked in the engine's guard and shown in the
    format asked for; exit code 1 where the report's status is one of ``stuck``; a
    walkthrough cut short (a time limit, Ctrl-C) shows its steps with exit 3 or 130,
    and a grade whose difficulty's walkthrough was cut short shows the grade."""

    def work() -> _Answer:
        from .driver.results import INTERRUPTED, TIMEOUT

        report = ask()
        code = ExitCode.NO_SOLUTION if stuck and report.status in stuck else ExitCode.SOLVED
        edited = report.encoding == "edited"
        status = getattr(report, "status", None)
        if status in (TIMEOUT, INTERRUPTED):  # what a walkthrough (or grade) found so far
            if status == TIMEOUT:
                said, code = f"time limit of {args.timeout:g} s reached", ExitCode.TIMEOUT
            else:
                said, code = "interrupted", ExitCode.INTERRUPTED
            note = f"{said}; shown: {report.found_before_limit()}"
            return _Answer("", code, edited, game.name, (report, args.format), note)
        return _Answer(_shown(report, args.format), code, edited, game.name)

    # Ctrl-C asks a walkthrough (a grade's too) to hand over what it has found (the
    # guard's wrap_up).
    wrap_up = args.command == "walkthrough" or (args.command == "grade" and args.difficulty)
    return _answer(args, work, wrap_up=wrap_up)


def _shown(report: Any, output_format: str) -> str:
    if output_format == "json":
        return _json_text(report.to_dict()) + "\n"
    if output_format == "svg":
        return str(report.svg()).rstrip("\n") + "\n"
    if output_format == "html":  # a walkthrough's page
        from .hinting.walkthrough_views import html

        return html(report, page=True).rstrip("\n") + "\n"
    return str(report.text())


def _sweep(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    from .sweep import sweep

    own = _options(game, args)
    options = {**own, "reduce": args.reduce, "count": args.count}
    # A sweep under a puzzle option of its own (a variant of the rules) has its own file.
    suffix = "".join(f"-{name}" for name, value in sorted(own.items()) if value is True)
    counted = "-count" if args.count else ""
    output = output_file(args.output or f"sweep-{game.name}{suffix}{counted}.tsv")
    summary = sweep(
        game,
        options,
        output,
        jobs=args.jobs,
        limit=args.limit,
        progress=not args.quiet and sys.stderr.isatty(),
        timeout=args.timeout,
        memory=args.memory,
        scheduler=args.scheduler,
    )
    print(
        f"{game.name}{suffix}: {summary.solvable} of {summary.total} solvable "
        f"({summary.total - summary.solvable} not); {summary.solved_now} solved now in "
        f"{summary.seconds:.1f}s; results in {output}"
    )
    for line in summary.extremes():
        print(f"  solutions per variant, {line}")
    return ExitCode.SOLVED


def _census(args: argparse.Namespace, game: Puzzle[Any, Any]) -> int:
    import json

    from .census import census

    counted = "-count" if args.count or args.count_cap else ""
    if args.count_cap:
        counted += f"-cap{args.count_cap}"
    store = output_file(args.store or f"census-{game.name}{counted}.sqlite")
    unsolvable = output_file(args.unsolvable or f"census-{game.name}-unsolvable.txt")
    summary = census(
        game,
        {},
        store,
        count=args.count,
        jobs=args.jobs,
        scheduler=args.scheduler,
        limit=args.limit,
        shard=args.shard,
        progress=not args.quiet and sys.stderr.isatty(),
        timeout=args.timeout,
        memory=args.memory,
        count_cap=args.count_cap,
    )
    write_text_file(unsolvable, "".join(f"{key}\n" for key in summary.unsolvable_keys))
    if args.format == "json":
        print(json.dumps(summary.to_dict() | {"unsolvable_file": str(unsolvable)}))
    else:
        print("\n".join(summary.lines()))
        print(f"unsolvable classes in {unsolvable}; results in {store}; in {summary.seconds:.1f}s")
    return ExitCode.SOLVED


def _exit_code(result: Result) -> int:
    from .driver import MEMORY, SOLVED, UNSATISFIABLE

    if result.interrupted:
        return ExitCode.INTERRUPTED
    if result.status == SOLVED:
        return ExitCode.SOLVED
    if result.status == UNSATISFIABLE or (result.count == 0 and result.complete):
        return ExitCode.NO_SOLUTION
    if result.status == MEMORY:
        return ExitCode.MEMORY
    return ExitCode.TIMEOUT


def _format(result: Result, output_format: str, with_stats: bool) -> str:
    if output_format == "json":
        return _json_text(result.to_dict(), indent=2) + "\n"
    if output_format == "svg":
        if not result.solutions:  # a count, no solution or a time limit: say so
            return text_svg(result.summary()) + "\n"
        return stack_svgs([solution.svg() for solution in result.solutions]) + "\n"
    if output_format == "atoms":
        return _clingo_text(result, with_stats)
    blocks = []
    many = len(result.solutions) > 1
    for number, solution in enumerate(result.solutions, start=1):
        header = f"Solution {number}:\n" if many else ""
        blocks.append(header + solution.text().rstrip("\n") + "\n")
    lines = ["\n".join(blocks)] if blocks else []
    lines.append(result.summary())
    if with_stats:
        lines.append(_stats_block(result.stats))
    return "\n".join(line.rstrip("\n") for line in lines if line) + "\n"


def _json_text(data: Any, indent: int | None = None) -> str:
    """JSON output (``json`` is loaded only for it)."""
    import json

    return json.dumps(data, indent=indent)


def _clingo_text(result: Result, with_stats: bool) -> str:
    """The answers as clingo's own text output writes them (``Answer: N``, the atoms,
    ``Optimization: C``, then ``SATISFIABLE`` / ``UNSATISFIABLE`` / ``UNKNOWN`` or
    ``OPTIMUM FOUND``, and ``Models : N``), so that tools written for clingo read it."""
    from .driver import UNSATISFIABLE

    lines: list[str] = []
    cost = " ".join(map(str, result.cost)) if result.cost is not None else None
    for number, solution in enumerate(result.solutions, start=1):
        lines += [f"Answer: {number}", " ".join(solution.atoms)]
        if cost is not None:
            lines.append(f"Optimization: {cost}")
    found = result.count if result.count is not None else len(result.solutions)
    if result.status == UNSATISFIABLE:
        verdict = "UNSATISFIABLE"
    elif result.optimal:
        verdict = "OPTIMUM FOUND"
    elif found:
        verdict = "SATISFIABLE"
    else:
        verdict = "UNKNOWN"
    lines += [verdict, "", f"Models       : {found}{'' if result.exhausted else '+'}"]
    if cost is not None:
        lines.append(f"  Optimum    : {'yes' if result.optimal else 'unknown'}")
    if result.verdict is not None:
        lines.append(f"Uniqueness   : {result.verdict}")
    if result.interrupted:
        lines.append("INTERRUPTED  : 1")
    lines.append(f"Time         : {result.stats.get('total_time', 0.0):.3f}s")
    if with_stats:
        lines.append(_stats_block(result.stats))
    return "\n".join(lines) + "\n"


def _stats_block(stats: dict[str, Any]) -> str:
    width = max(len(key) for key in stats) if stats else 0
    return "\n".join(f"  {key.ljust(width)}  {value}" for key, value in stats.items())


def _list(args: argparse.Namespace, named: Puzzle[Any, Any] | None) -> int:
    """Every puzzle (or the one named) with its shipped instances and the commands it
    takes (what its slots declare), as text or JSON."""
    from .registry import get_puzzle, module_puzzles, puzzle_names

    games = module_puzzles()
    listed = (
        [named] if named is not None else [games.get(n) or get_puzzle(n) for n in puzzle_names()]
    )
    entries = [_listing(game) for game in listed]
    if args.format == "json":
        sys.stdout.write(_json_text(entries) + "\n")
        return ExitCode.SOLVED
    for entry in entries:
        print(f"{entry['name']}: {entry['title']}")
        print(f"  commands: {' '.join(entry['commands'])}")
        for instance in entry["instances"]:
            print(f"  {instance}{' (default)' if instance == entry['default'] else ''}")
    return ExitCode.SOLVED


def _listing(game: Puzzle[Any, Any]) -> dict[str, Any]:
    """A puzzle as ``list`` shows it: the commands are those its slots make possible."""
    commands = ["solve", "facts", "check"]
    if game.hints() is not None or game.plan_hints() is not None:
        commands += ["hint", "walkthrough"]
    if game.hints() is not None:
        commands += ["explain", "grade", "fix"]
    if game.generator() is not None:
        commands.append("generate")
    if (swept := game.sweep()) is not None:
        commands += ["sweep", "census"] if swept.census({}) is not None else ["sweep"]
    return {
        "name": game.name,
        "title": game.title,
        "default": game.default_instance,
        "instances": [path.name for path in instance_files(game.name)],
        "commands": commands,
    }


#: What each command does with its arguments and puzzle (``list`` needs no puzzle).
_COMMANDS = {
    "solve": _solve,
    "facts": _facts,
    "check": _check,
    "generate": _generate,
    "sweep": _sweep,
    "census": _census,
    **{name: _asked for name in _QUESTIONS},
}


__all__ = ["main"]
