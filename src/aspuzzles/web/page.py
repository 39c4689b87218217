"""The web board's page and the puzzles it offers."""

from __future__ import annotations

from typing import Any

from ..paths import instance_files
from ..registry import get_puzzle, puzzle_names
from ..render import TEMPLATE_DIR, render_template


def puzzles() -> list[dict[str, Any]]:
    """Every puzzle the page offers (shipped, and bare encodings found from the working
    folder), with its shipped instances and what its generator takes."""
    offered = []
    for name in puzzle_names():
        game = get_puzzle(name)
        generator = game.generator()
        options = {option.name: option for option in generator.options} if generator else {}
        difficulty = options.get("difficulty")
        hinted, planned = game.hints() is not None, game.plan_hints() is not None
        offered.append(
            {
                "name": name,
                "title": game.title,
                "instances": [path.name for path in instance_files(name)],
                "default": game.default_instance,
                "generates": generator is not None,
                "hints": hinted or planned,
                "checks": hinted or planned,
                "explains": hinted,
                # A puzzle played by moves walks through its plan; it has no entries to fix.
                "walks": hinted or planned,
                "fixes": hinted,
                "difficulties": list(difficulty.choices or ()) if difficulty else [],
            }
        )
    return offered


def page() -> str:
    """The page: one document, its style (``page.css``) and script (``page.js``)
    included, that asks the JSON API."""
    folder = TEMPLATE_DIR / "web"
    style = (folder / "page.css").read_text()
    script = (folder / "page.js").read_text()
    return render_template("web/page.html.j2", style=style, script=script)
