"""Finding what a solve reads: the instance (a file, a shipped name, standard input or
inline text) and the encoding (checked for what would crash clingo's loader)."""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

from ..asp import includes_incmode, program_texts
from ..errors import InputError, check_number_lengths
from ..paths import (
    STDIN,
    display_path,
    find_encoding,
    instance_files,
    looks_like_path,
    named_file,
    named_stream,
    read_named_stream,
    read_stdin,
    read_text_file,
)
from ..puzzle import Puzzle


def load_instance(game: Puzzle[Any, Any], reference: str | Path | None) -> tuple[Any, str]:
    """Parse an instance given as a path, a shipped instance name, ``-`` for standard
    input, or inline text."""
    if str(reference) == "-":
        return parse_text(game, read_stdin(), STDIN), STDIN
    if reference and named_stream(str(reference)) is not None:  # /dev/stdin, <(...)
        return parse_text(game, read_named_stream(str(reference)), str(reference)), str(reference)
    if reference is None or reference == "":
        reference = game.default_instance
        if not reference:
            return parse_text(game, "", "<empty>"), "<empty>"
    path = _instance_path(game.name, str(reference))
    if path is not None:
        return parse_text(game, read_text_file(path), display_path(path)), path.name
    if game.accepts_inline and not looks_like_path(str(reference)):
        return _parse_inline(game, str(reference)), _inline_name(str(reference))
    if Path(str(reference)).is_dir():
        raise InputError("is a folder, not an instance file", str(reference))
    raise InputError("no such instance file", str(reference))


def parse_text(game: Puzzle[Any, Any], text: str, source: str) -> Any:
    """The puzzle's parser on a text, once the text is known to hold no number longer
    than a puzzle can mean (Python would not even read one of 4,300 digits)."""
    check_number_lengths(text, source)
    return game.parse(text, source)


def _inline_name(text: str, width: int = 72) -> str:
    """The name an instance given inline goes by in the summary line and JSON: itself,
    cut short when long (a 16x16 board's link runs to a thousand characters), without
    the spaces a paste may bring around it."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def _parse_inline(game: Puzzle[Any, Any], text: str) -> Any:
    """Parse an instance given on the command line; a bare word that fails is more
    likely a mistyped instance name than a broken inline instance, so say both."""
    try:
        return parse_text(game, text, "<argument>")
    except InputError as error:
        if re.fullmatch(r"[\w.-]+", text):
            raise InputError(
                f"no such instance file or shipped instance (nor, read inline: {error.message})",
                text,
            ) from error
        raise


#: What a shipped instance's name looks like (its file name, or the name without ``.txt``).
_SHIPPED_NAME = re.compile(r"[\w.-]+")


def _instance_path(puzzle: str, reference: str) -> Path | None:
    direct = named_file(reference)
    if direct is not None:
        return direct
    if not _SHIPPED_NAME.fullmatch(reference):  # a game ID, a link, a path: no name
        return None
    shipped = instance_files(puzzle)
    exact = [path for path in shipped if path.name == reference]
    by_stem = [path for path in shipped if path.stem == reference]
    return next(iter(exact + by_stem), None)


class Encoding(NamedTuple):
    """The encoding a solve loads: its file, whether it (or a file it includes) asks for
    clingo's incremental mode, and how it stands to the puzzle's shipped encoding:
    ``shipped`` (the same program, byte for byte), ``edited`` (the puzzle ships one,
    and this differs: a file edited in place, or ``--encoding``), or ``own`` (nothing
    is shipped under the puzzle's name: a bare encoding)."""

    path: Path
    incmode: bool
    standing: str

    @property
    def edited(self) -> bool:
        return self.standing == EDITED


SHIPPED, EDITED, OWN = "shipped", "edited", "own"
#: The digests of the shipped encodings (``make digests`` writes it; a test checks it).
DIGESTS = Path(__file__).resolve().parent.parent / "encodings.sha256"


def resolve_encoding(game: Puzzle[Any, Any], encoding: str | Path | None) -> Path:
    """The encoding file to load, checked here for what would crash clingo's loader."""
    return checked_encoding(game, encoding).path


def checked_encoding(game: Puzzle[Any, Any], encoding: str | Path | None) -> Encoding:
    """The encoding a solve loads (see :class:`Encoding`); each file is read once, and
    checked for what would crash clingo's loader. What was read is kept while none of
    its files changes (a notebook solving many boards reads and hashes it once)."""
    if encoding is not None:
        path = named_file(encoding)
        if path is None:
            there = Path(encoding).exists()
            said = "not a file (an encoding is read whole)" if there else "no such encoding file"
            raise InputError(said, str(encoding))
    else:
        path = find_encoding(game.name)
        if path is None:
            raise InputError(f"no encoding for puzzle '{game.name}'", f"encodings/{game.name}.lp")
    # Includes are found from the working folder and CLINGOPATH, as clingo finds them.
    key = (game.name, path.resolve(), os.getcwd(), os.environ.get("CLINGOPATH", ""))
    known = _READ.get(key)
    if known is not None and all(_signature(file) == seen for file, seen in known[0]):
        return known[1]
    files: list[Path] = []
    texts = list(program_texts(path, read=files))  # reading checks every file clingo loads
    shipped = shipped_digests().get(game.name)
    standing = OWN if shipped is None else SHIPPED if digest(texts) == shipped else EDITED
    checked = Encoding(path, any(includes_incmode(text) for text in texts), standing)
    _READ[key] = ([(file, _signature(file)) for file in files], checked)
    return checked


Signature = tuple[int, int] | None
#: Encodings read, by puzzle, file, working folder and CLINGOPATH: the files read (with
#: their signatures when read) and what was found.
_READ: dict[tuple[str, Path, str, str], tuple[list[tuple[Path, Signature]], Encoding]] = {}


def _signature(path: Path) -> Signature:
    """What changes when a file is edited: its modification time and size."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def digest(texts: list[str]) -> str:
    """What identifies a program: the SHA-256 of its files' texts, includes in order."""
    return _sha256()("\0".join(texts).encode()).hexdigest()


def _sha256() -> Any:
    """SHA-256 from the interpreter's own module where it has one: ``hashlib`` loads
    OpenSSL, which costs every solve a few milliseconds for one small digest."""
    for module in ("_sha2", "_sha256"):  # Python 3.12 on, and 3.11
        try:
            return importlib.import_module(module).sha256
        except ImportError:
            continue
    import hashlib

    return hashlib.sha256


@cache
def shipped_digests() -> dict[str, str]:
    """Each shipped encoding's digest, by puzzle name (``sha256sum``'s format: the
    digest, two spaces, ``<puzzle>.lp``)."""
    if not DIGESTS.is_file():
        return {}
    found = {}
    for line in DIGESTS.read_text().splitlines():
        value, _, name = line.partition("  ")
        found[name.removesuffix(".lp")] = value
    return found


def digest_lines(folder: Path, names: Iterable[str]) -> str:
    """The digest file's text for the encodings of a folder (``make digests``) of the
    puzzles ``names`` (those with a Python module: a bare encoding has no Python
    accelerator to switch off, so a copy of it edited is simply the user's own)."""
    chosen = set(names)
    return "".join(
        f"{digest(list(program_texts(path)))}  {path.name}\n"
        for path in sorted(folder.glob("*.lp"))
        if path.stem in chosen
    )


def fact_program(game: Puzzle[Any, Any], parsed: Any) -> str:
    """The complete fact program of an instance, for ``python -m clingo`` experiments.
    clingo's command line grounds the ``base`` part only (and the pip wheel runs no
    embedded scripts), so an instance that needs more parts (``Strategy.parts``)
    says so in a closing comment."""
    facts = "".join(f"{symbol}.\n" for symbol in game.facts(parsed))
    strategy = game.strategy(parsed)
    parts = strategy.parts()
    if parts == ("base",):
        return facts + strategy.program()
    listed = ", ".join(f'("{part}", [])' for part in parts)
    note = (
        f"% This instance needs the encoding's parts {', '.join(parts)}; clingo's command line "
        f"grounds base only.\n% From Python: control.ground([{listed}]), then solve.\n"
    )
    return facts + strategy.program() + note
