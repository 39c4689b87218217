"""The gallery's pictures (docs/gallery.md) are what ``solve --format svg`` draws today,
one for every genre of the gallery's table (``make gallery-pictures`` makes them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "gallery.md"
PICTURE = re.compile(r"!\[[^\]]*\]\((gallery/([a-z]+)--([\w.-]+)\.svg)\)")


def _pictures() -> list[tuple[str, str, str]]:
    return PICTURE.findall(PAGE.read_text(encoding="utf-8"))


def test_every_genre_of_the_table_has_a_picture() -> None:
    genres = set(re.findall(r"\| `encodings/(\w+)\.lp` \|", PAGE.read_text(encoding="utf-8")))
    assert len(genres) >= 8
    assert {genre for _, genre, _ in _pictures()} == genres


@pytest.mark.parametrize(("path", "genre", "instance"), _pictures())
def test_a_picture_is_the_solved_instance_as_drawn_today(
    cli, path: str, genre: str, instance: str
) -> None:
    run = cli("solve", genre, instance, "--format", "svg")
    assert run.code == 0, run.err
    drawn = (PAGE.parent / path).read_text(encoding="utf-8")
    assert drawn == run.out, f"{path} is out of date: make gallery-pictures"
    assert drawn.startswith("<svg")
