"""The gallery's pictures (docs/gallery.md) are what ``solve --format svg`` draws today,
one for every genre of the gallery's table (``make gallery-pictures`` makes them), and
drawn in Chromium their texts and marks lie inside them, apart."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from . import test_web
from .test_web import needs_browser

# Chromium, started by the web tests' fixture (found by its name here).
browser = test_web.browser

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


#: What a picture drawn in Chromium shows out of place: a text or a mark outside the
#: picture, two texts that overlap, a mark over a text.
MISPLACED = """
const found = [];
const svg = document.querySelector('svg');
const frame = svg.getBoundingClientRect();
const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
  .map((t) => [t.textContent, t.getBoundingClientRect()]);
const marks = [...svg.querySelectorAll('[data-mark-kind]')]
  .map((m) => [m.dataset.markKind, m.getBoundingClientRect()]);
const apart = (p, q) => Math.min(p.right, q.right) - Math.max(p.left, q.left) <= 1
  || Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) <= 1;
for (const [t, b] of [...texts, ...marks]) {
  if (b.left < frame.left - 0.5 || b.top < frame.top - 0.5 || b.right > frame.right + 0.5
      || b.bottom > frame.bottom + 0.5) { found.push('outside: ' + t); }
}
texts.forEach(([a, p], i) => texts.slice(i + 1).forEach(([b, q]) => {
  if (!apart(p, q)) { found.push('overlap: ' + a + ' / ' + b); }
}));
for (const [k, p] of marks) {
  for (const [t, q] of texts) { if (!apart(p, q)) { found.push(k + ' over ' + t); } }
}
return found;
"""


@needs_browser
@pytest.mark.parametrize(("path", "genre"), [(path, genre) for path, genre, _ in _pictures()])
def test_a_picture_in_chromium_keeps_its_texts_and_marks_inside_and_apart(
    browser, path: str, genre: str
) -> None:
    import base64

    drawn = (PAGE.parent / path).read_bytes()
    browser.get("data:image/svg+xml;base64," + base64.b64encode(drawn).decode())
    assert browser.execute_script(MISPLACED) == []
