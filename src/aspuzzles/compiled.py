"""numba, for the searches that run compiled where the ``fast`` extra is installed:
where numba keeps its machine code.

numba compiles a function on its first call, which takes a second or more; with
``cache=True`` it keeps the machine code in ``__pycache__`` beside the source, so
only a machine's first run pays that. A read-only install under an account without a
writable home (a service, a container) has no such folder: the code is then kept in a
folder of the user's cache or of the temporary directory, and only where nothing can
be written is it compiled afresh in each process, never a reason for a search to fail.
Importing this module settles the choice for the process (numba reads
``NUMBA_CACHE_DIR`` once, when it is itself imported), so a compiled module imports
``CACHE`` from here before it imports numba.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _writable(folder: Path) -> bool:
    """Whether files can be made in the folder (made if need be): tried, not asked,
    since permissions alone do not say (a read-only file system, a full disk)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def cache_choice(here: Path, environ: dict[str, str], temporary: Path) -> tuple[bool, str | None]:
    """Whether numba may keep its machine code, and where (None: numba's own choice,
    beside the compiled module under ``here``)."""
    if given := environ.get("NUMBA_CACHE_DIR"):
        return _writable(Path(given)), given
    if _writable(here / "__pycache__"):
        return True, None
    for folder in (_user_cache(environ), temporary):
        if folder is not None and _writable(folder / "aspuzzles-numba"):
            return True, str(folder / "aspuzzles-numba")
    return False, None


def _user_cache(environ: dict[str, str]) -> Path | None:
    if given := environ.get("XDG_CACHE_HOME"):
        return Path(given)
    try:
        return Path(environ.get("HOME") or Path.home()) / ".cache"
    except RuntimeError:  # no home at all
        return None


#: Whether the compiled modules of this package keep their machine code.
CACHE, _CACHE_DIR = cache_choice(
    Path(__file__).resolve().parent, dict(os.environ), Path(tempfile.gettempdir())
)
if _CACHE_DIR is not None:
    os.environ["NUMBA_CACHE_DIR"] = _CACHE_DIR
