"""Loggers made on first use: importing ``logging`` costs a command milliseconds, and
most commands log nothing. The command line sets how much is shown (``-v``, ``-vv``);
used as a library, aspuzzles leaves logging's configuration to the program."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # not typing's: see aspuzzles/__init__.py
if TYPE_CHECKING:
    import logging

#: The command line's verbosity, once it has set one (None: used as a library).
_verbosity: int | None = None
_configured = False


def set_verbosity(verbosity: int) -> None:
    """What the command shows: warnings (0), information (1), debug output (2)."""
    global _verbosity
    _verbosity = verbosity
    if verbosity:
        _configure()


#: logging's levels, known here without importing it.
DEBUG, INFO, WARNING = 10, 20, 30


def enabled(level: int) -> bool:
    """Whether a message of ``level`` would be shown: as the command line set it (clingo
    reports undefined atoms on most runs, which only ``-v`` shows), or as logging's
    configuration decides for a program that uses aspuzzles as a library. A program
    that has not loaded ``logging`` has configured nothing: its last-resort handler
    shows warnings and worse, and nothing else (so ``logging`` stays unloaded)."""
    if _verbosity is not None:
        return level >= {0: WARNING, 1: INFO}.get(_verbosity, DEBUG)
    if "logging" not in sys.modules:
        return level >= WARNING
    return logger("aspuzzles").isEnabledFor(level)


def logger(name: str) -> logging.Logger:
    """The logger ``name``, configured as the command line asked, if it did."""
    import logging

    if _verbosity is not None:
        _configure()
    return logging.getLogger(name)


def _configure() -> None:
    global _configured
    if _configured:
        return
    import logging

    level = {0: logging.WARNING, 1: logging.INFO}.get(_verbosity or 0, logging.DEBUG)
    logging.basicConfig(level=level, format="aspuzzles: %(name)s: %(message)s")
    _configured = True
