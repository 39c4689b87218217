"""Jinja2 templates for text and SVG boards. Renderers only format; they never solve."""

from __future__ import annotations

import colorsys
import re
from functools import cache
from typing import TYPE_CHECKING, Any

from .paths import TEMPLATE_DIR

if TYPE_CHECKING:
    import jinja2


@cache
def environment() -> jinja2.Environment:
    """The templates' environment, made on first use: jinja2 takes a few hundredths of
    a second to import, which a command that draws nothing should not pay."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("svg.j2",), default=False),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["rjust"] = lambda value, width: str(value).rjust(width)
    env.filters["ljust"] = lambda value, width: str(value).ljust(width)
    return env


def wheel_colours(count: int, saturation: int, lightness: int) -> list[str]:
    """``count`` distinct fills: hues a golden angle apart, so that neighbours in the
    list (pieces, kinds) never look alike however many there are. Written as ``#rrggbb``,
    not CSS's ``hsl()``: SVG 1.1 knows only hex, ``rgb()`` and named colours, and
    converters that follow it (cairosvg, ImageMagick, older librsvg) paint ``hsl()``
    black, which browsers and notebooks would not show."""
    return [_hex_colour((index * 137.508) % 360, saturation, lightness) for index in range(count)]


def _hex_colour(hue: float, saturation: int, lightness: int) -> str:
    red, green, blue = colorsys.hls_to_rgb(round(hue) / 360, lightness / 100, saturation / 100)
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in (red, green, blue))


def render_template(template: str, /, **context: Any) -> str:
    return environment().get_template(template).render(**context)


_SIZE = re.compile(r'<svg[^>]*?\swidth="([\d.]+)"[^>]*?\sheight="([\d.]+)"', re.DOTALL)


def text_svg(line: str) -> str:
    """An SVG holding one line of text: what ``--format svg`` shows when there is no
    board to draw (a count, no solution, a time limit)."""
    return render_template("status.svg.j2", line=line, width=16 + 8 * len(line))


def stack_svgs(documents: list[str], gap: int = 16) -> str:
    """Several SVG boards one below the other in one document (several solutions)."""
    if len(documents) == 1:
        return documents[0].strip()
    sizes = []
    for document in documents:
        match = _SIZE.search(document)
        sizes.append((float(match.group(1)), float(match.group(2))) if match else (400.0, 400.0))
    width = max((w for w, _ in sizes), default=0.0)
    height = sum(h for _, h in sizes) + gap * max(0, len(sizes) - 1)
    parts, top = [], 0.0
    for document, (_, h) in zip(documents, sizes, strict=True):
        inner = document.strip().replace("<svg ", f'<svg y="{top:g}" ', 1)
        parts.append(inner)
        top += h + gap
    body = "\n".join(parts)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}">\n{body}\n</svg>'
    )
