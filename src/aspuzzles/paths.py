"""Where encodings and instances live.

An editable install (the Makefile's) reads them from the top of the checkout, so that
editing ``encodings/foo.lp`` takes effect at once; a wheel carries copies under
``aspuzzles/_data``. ``ASPUZZLES_HOME`` points at another tree with the same layout, and
an ``encodings/`` folder in the working directory is searched first so that a user can
try a new encoding from anywhere.
"""

from __future__ import annotations

import errno
import io
import os
import re
import select
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from .errors import InputError, TimeLimit

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = PACKAGE_DIR / "templates"


def project_roots() -> list[Path]:
    """Folders holding ``encodings/`` and ``instances/``, most specific first."""
    return list(_roots(os.environ.get("ASPUZZLES_HOME"), os.getcwd()))


@cache
def _roots(home: str | None, working: str) -> tuple[Path, ...]:
    """``project_roots`` for one ``ASPUZZLES_HOME`` and working folder (every solve
    asks, and resolving the folders takes a sizeable part of a small board's solve)."""
    roots: list[Path] = []
    if home:
        roots.append(Path(home))
    roots.append(Path(working))
    checkout = PACKAGE_DIR.parent.parent
    if (checkout / "encodings").is_dir():
        roots.append(checkout)
    roots.append(PACKAGE_DIR / "_data")
    unique: list[Path] = []
    for root in roots:
        if root.resolve() not in [r.resolve() for r in unique]:
            unique.append(root)
    return tuple(unique)


def find_encoding(puzzle: str) -> Path | None:
    """The first ``encodings/<puzzle>.lp`` on the search path, if any."""
    for root in project_roots():
        candidate = named_file(root / "encodings" / f"{puzzle}.lp")
        if candidate is not None:
            return candidate
    return None


#: Why a FIFO, a device or a socket is refused as an encoding or an include.
NOT_A_FILE = "reading it could wait for ever (an encoding and its includes must be files)"


def special_file(path: Path) -> str | None:
    """What ``path`` is when it is there but is neither a file nor a folder (``a
    FIFO``, ``a device``, ``a socket``): reading one may wait for ever, out of reach
    of any time limit (clingo reads includes itself, with no timeout); else None."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return None


def encoding_names() -> list[str]:
    """Every puzzle name that has an encoding somewhere on the search path."""
    names = {
        path.stem
        for root in project_roots()
        if (root / "encodings").is_dir()
        for path in (root / "encodings").glob("*.lp")
    }
    return sorted(names)


def instance_dir(puzzle: str) -> Path | None:
    """The first ``instances/<puzzle>/`` folder on the search path, if any."""
    for root in project_roots():
        candidate = root / "instances" / puzzle
        if candidate.is_dir():
            return candidate
    return None


def instance_files(puzzle: str) -> list[Path]:
    """Shipped instance files of a puzzle, sorted by name (answers files excluded)."""
    folder = instance_dir(puzzle)
    if folder is None:
        return []
    return sorted(
        path
        for path in folder.iterdir()
        if path.is_file() and not path.name.startswith(".") and path.suffix != ".json"
    )


def display_path(path: Path) -> str:
    """A file as messages name it: relative to the working folder where it lies inside."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def read_text_file(path: Path) -> str:
    """A puzzle or solution file as text, or a one-line :class:`InputError`.

    Files saved by Windows editors start with a byte-order mark, which would otherwise
    become part of the first line and break its parsing (``utf-8-sig`` drops it).
    """
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("not a UTF-8 text file", display_path(path)) from None
    except OSError as error:
        raise InputError(error.strerror or "cannot be read", display_path(path)) from None


#: How standard input is named in messages, when ``-`` stands for a file.
STDIN = "<stdin>"
#: The most read of standard input or a pipe named by a path (``/dev/stdin``, a
#: shell's ``<(...)``), in bytes: a puzzle is far smaller, and ``/dev/zero`` has no end.
MOST_STREAM = 64 << 20

#: Standard input and the pipes the arguments name, read ahead by ``input_kept``:
#: what a worker process forked meanwhile reads (its own standard input is closed,
#: and a pipe is read once).
_kept: dict[str, str] = {}
#: ``--timeout`` while input is read (``limit_reading``): its seconds and deadline.
_reading: dict[str, float] = {}


def limit_reading(timeout: float | None) -> None:
    """Hold ``timeout`` while standard input or a pipe is read: a producer that never
    ends its output (``sleep 60 | aspuzzles solve haunted -``) would hold the command
    past its limit. Reading past it is a :class:`TimeLimit` naming what was read. An
    output FIFO's reader is waited for as long (``-o FIFO``)."""
    _reading.clear()
    if timeout is not None:
        _reading.update(timeout=timeout, deadline=time.monotonic() + timeout)


def read_stdin() -> str:
    """Standard input as text (``-`` for a file, as in ``generate ... | solve ... -``),
    under the same rules as a file: UTF-8, a byte-order mark dropped."""
    if "-" in _kept:
        return _kept["-"]
    try:
        descriptor = sys.stdin.fileno()
    except (AttributeError, ValueError, io.UnsupportedOperation):  # replaced, in process
        return _decoded(sys.stdin.buffer.read(), STDIN)
    return _read_stream(descriptor, STDIN)


def named_stream(reference: str) -> Path | None:
    """The pipe or device an argument names, if it names one (``/dev/stdin``, a shell's
    ``<(...)`` as ``/dev/fd/63``): read as standard input is, not as a file."""
    try:
        mode = os.stat(reference).st_mode
    except (OSError, ValueError):
        return None
    return Path(reference) if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) else None


def read_named_stream(reference: str) -> str:
    """The text of the pipe or device ``reference`` names (``named_stream``)."""
    if reference in _kept:
        return _kept[reference]
    try:
        descriptor = os.open(reference, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO with no writer
    except OSError as error:
        raise InputError(error.strerror or "cannot be read", reference) from None
    try:
        os.set_blocking(descriptor, True)
        return _read_stream(descriptor, reference)
    finally:
        os.close(descriptor)


@contextmanager
def input_kept(references: Iterable[object]) -> Iterator[None]:
    """Standard input (``-``) and the pipes among ``references`` read now and kept while
    the work inside runs: a worker process forked inside reads them from here."""
    for reference in references:
        if reference == "-":
            _kept["-"] = read_stdin()
        elif isinstance(reference, str) and named_stream(reference) is not None:
            _kept[reference] = read_named_stream(reference)
    try:
        yield
    finally:
        _kept.clear()


def _read_stream(descriptor: int, source: str) -> str:
    """Everything a stream holds, up to ``MOST_STREAM`` bytes, by the reading deadline."""
    chunks: list[bytes] = []
    size = 0
    while True:
        _wait_for(descriptor, source)
        chunk = os.read(descriptor, 1 << 16)
        if not chunk:
            return _decoded(b"".join(chunks), source)
        size += len(chunk)
        if size > MOST_STREAM:
            raise InputError(f"more than {MOST_STREAM >> 20} MiB: not a puzzle's text", source)
        chunks.append(chunk)


def _wait_for(descriptor: int, source: str) -> None:
    """Wait until the stream has more to read (or ends), up to the reading deadline."""
    if not _reading:
        return
    left = _reading["deadline"] - time.monotonic()
    if left > 0 and select.select([descriptor], [], [], left)[0]:
        return
    raise TimeLimit(f"time limit of {_reading['timeout']:g} s reached while reading {source}")


def _decoded(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", source) from None


def referenced_text(reference: str) -> tuple[str, str]:
    """What an argument that names some text refers to, with the source messages name
    it by: ``-`` standard input, a file's text (or a pipe's), or else the argument
    itself (a solution or a player's progress written on the command line)."""
    if reference == "-":
        return read_stdin(), STDIN
    if (path := named_file(reference)) is not None:
        return read_text_file(path), str(path)
    if named_stream(reference) is not None:
        return read_named_stream(reference), reference
    if _meant_as_a_file(reference):
        problem = "is a folder, not a file" if Path(reference).is_dir() else "no such file"
        raise InputError(problem, reference)
    return reference, "<argument>"


def looks_like_path(reference: str) -> bool:
    """Whether an instance that names no file was meant to (it is then not read
    inline): a folder's slash or a ``.txt``/``.lp`` ending; a link (``https://...``, a
    puzzle site's board) is never one."""
    if "://" in reference:
        return False
    return reference.endswith((".txt", ".lp")) or "/" in reference


def _meant_as_a_file(reference: str) -> bool:
    """Whether an argument that names no file was meant to (a mistyped name: saying so
    beats reading the name as a board): one word of a path's characters that looks
    like a path (``looks_like_path``) or ends as a saved game or JSON does. Text
    written on the command line (atoms, moves, a board, JSON) has brackets, commas,
    spaces or lines."""
    if not re.fullmatch(r"[\w.~/+-]+", reference):
        return False
    return looks_like_path(reference) or reference.endswith((".json", ".sav"))


def named_file(reference: str | Path) -> Path | None:
    """The file that a command-line argument names, if it names one. An argument too
    long to be a file name (a large game ID or a solution given inline) names none,
    where ``Path.is_file`` would raise."""
    path = Path(reference)
    try:
        return path if path.is_file() else None
    except OSError:
        return None


def output_file(name: str) -> Path:
    """The file an ``-o`` option names, refused at once (before a long solve) when it
    cannot be written: its folder is missing, or it is a folder itself."""
    path = Path(name)
    if path.is_dir():
        raise InputError("is a folder, not a file to write", name)
    if not path.parent.is_dir():
        raise InputError(f"cannot write here: there is no folder '{path.parent}'", name)
    return path


def write_text_file(path: Path, text: str, stop: Callable[[], bool] | None = None) -> None:
    """Write an output file as a user expects of ``-o``: a regular file is replaced
    whole or not at all (the text goes to a temporary file beside it, which then
    replaces it in one step, keeping the old file's permissions), so that a kill while
    writing leaves the old file, never a half-written one; a symbolic link's target is
    written, not the link replaced; a FIFO or a device (``-o /dev/stdout``) is written
    through, as a shell redirection would. A one-line :class:`InputError` (no
    permission, disk full) instead of a traceback. ``stop``: whether Ctrl-C came while
    a FIFO's reader is waited for (the caller holds it while writing), which ends the
    wait (KeyboardInterrupt)."""
    try:
        mode = os.stat(path).st_mode  # through links, /dev/stdout's to a pipe included
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        # Opened by its own name: /dev/stdout's link names no file when it is a pipe.
        _write_through(Path(path), text, str(path), stop)
        return
    target = Path(os.path.realpath(path))
    _replace(target, text, None if mode is None else stat.S_IMODE(mode), str(path))


def _write_through(
    target: Path, text: str, name: str, stop: Callable[[], bool] | None = None
) -> None:
    """Write into an existing file that is not a regular one (a FIFO, a device). A FIFO
    with no reader yet is waited for, up to the command's ``--timeout``
    (``limit_reading``): opening it would block until one comes, for ever."""
    try:
        descriptor = _opened_for_writing(target, name, stop)
        with open(descriptor, "w", encoding="utf-8") as sink:
            sink.write(text)
    except OSError as error:
        raise InputError(f"cannot write: {error.strerror or error}", name) from None


def _opened_for_writing(target: Path, name: str, stop: Callable[[], bool] | None) -> int:
    """A descriptor writing to ``target``, once a FIFO has a reader (see above)."""
    if not stat.S_ISFIFO(target.stat().st_mode):
        return os.open(target, os.O_WRONLY)
    deadline = time.monotonic() + _reading["timeout"] if _reading else None
    while True:
        try:
            descriptor = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
            if stop is not None and stop():
                raise KeyboardInterrupt from None
            if deadline is not None and time.monotonic() >= deadline:
                limit = f"time limit of {_reading['timeout']:g} s"
                raise TimeLimit(f"{limit} reached while waiting for a reader of {name}") from None
            time.sleep(0.05)
            continue
        os.set_blocking(descriptor, True)
        return descriptor


def _replace(target: Path, text: str, mode: int | None, name: str) -> None:
    """Replace (or create) a regular file in one step, with ``mode`` (the old file's
    permissions), or as a new file would be created."""
    import tempfile  # loaded only to write a file

    temporary = None
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=target.parent, prefix=f".{target.name}.", delete=False
        ) as sink:
            temporary = Path(sink.name)
            sink.write(text)
        temporary.chmod(0o666 & ~_umask() if mode is None else mode)
        os.replace(temporary, target)
    except OSError as error:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise InputError(f"cannot write: {error.strerror or error}", name) from None


def _umask() -> int:
    """The process's file-creation mask (read by setting it, then setting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
