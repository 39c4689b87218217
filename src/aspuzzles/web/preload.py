"""Imported by the web board's fork server before any request (``work.PRELOAD``): the
engine, every puzzle, the hinting machinery and the boards' templates (compiled), so
that each worker it starts has them and a cheap request costs its work, not Python's
imports and Jinja's compiling (two thirds of a small hint in a fresh process)."""

from __future__ import annotations

import contextlib
import importlib
import pkgutil

from .. import driver, hinting
from ..registry import module_puzzles
from ..render import environment
from . import actions, work  # noqa: F401


def _preload() -> None:
    module_puzzles()
    for package in (driver, hinting):
        for module in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{module.name}")
    templates = environment()
    for name in templates.list_templates(extensions=["j2"]):
        with contextlib.suppress(Exception):  # a template being edited: compiled on use
            templates.get_template(name)


_preload()
