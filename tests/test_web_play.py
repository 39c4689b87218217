"""Playing on the web board: each puzzle's panel (``Play``: counts, a tray, a legend,
notes) as data, and the page in Debian's headless Chromium played through its own
controls (clicks on places, tray and legend choices, keys) from a fresh board to
"Solved!"; the keys, undo and redo, one answer at a time, a failed paste, cancelling,
Generate, the link, and a phone-sized window."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from . import test_web
from .test_web import (
    _cell,
    _message,
    _no_console_errors,
    _open,
    _post,
    _press,
    _screenshot,
    _set,
    _wait,
    needs_browser,
)

# The web tests' fixtures (a working folder with a bare encoding, the server, Chromium),
# found by pytest by their names here.
workspace = test_web.workspace
server = test_web.server
browser = test_web.browser

PUZZLES = [
    "haunted",
    "cake",
    "tiles",
    "geniusstar",
    "geniussquare",
    "capture",
    "template",
    "latin",
]
#: The instance each puzzle is played on ("": its default).
INSTANCES = {"latin": "four.lp"}


# -- the panels as data ---------------------------------------------------------------
def test_haunted_counts_its_monsters_and_links_to_tathams_page():
    from clingo import parse_term

    import aspuzzles
    from aspuzzles.puzzles.haunted.gameid import parse_game_id

    game = aspuzzles.load("haunted", "gen-5x5-s3")
    play = game.puzzle.play()
    entries = [parse_term("monster(4,4,ghost)"), parse_term("monster(1,1,ghost)")]
    panel = play.panel(game.parsed, entries)
    totals = game.parsed.totals
    assert panel["counts"] == [
        {"label": "ghosts", "placed": 2, "total": totals["G"]},
        {"label": "vampires", "placed": 0, "total": totals["V"]},
        {"label": "zombies", "placed": 0, "total": totals["Z"]},
    ]
    assert panel["pencil"] == ["G", "V", "Z"]
    game_id = panel["link"]["href"].split("#", 1)[1]
    assert panel["link"]["href"].startswith("https://www.chiark.greenend.org.uk/")
    assert parse_game_id(game_id, "<link>") == game.parsed  # the writer, read back


def test_the_tiles_tray_holds_every_tile_with_its_number_and_edges():
    from clingo import parse_term

    import aspuzzles

    game = aspuzzles.load("tiles")
    tiles = game.parsed.tiles
    panel = game.puzzle.play().panel(game.parsed, [parse_term("place(1,1,5,2)")])
    tray = panel["tray"]
    assert [piece["id"] for piece in tray] == [str(n) for n in range(1, len(tiles) + 1)]
    assert [piece["placed"] for piece in tray].count(True) == 1 and tray[4]["placed"]
    assert tray[4]["prefix"] == "5/" and tray[4]["label"] == "tile 5"
    svg = tray[4]["svg"]
    assert svg.count("<polygon") == 4 and ">5</text>" in svg  # four edges, its number
    from aspuzzles.puzzles.tiles import short_label

    for edge in tiles[4]:
        assert f">{short_label(edge)[:5]}</text>" in svg


@pytest.mark.parametrize("puzzle", ["geniusstar", "geniussquare"])
def test_the_dice_legend_draws_each_piece_in_each_orientation(puzzle):
    from clingo import parse_term

    import aspuzzles

    game = aspuzzles.load(puzzle)
    dice = game.puzzle
    legend = dice.play().panel(game.parsed, [])["legend"]
    assert [piece["id"] for piece in legend] == [shape.name for shape, _, _ in dice.pieces]
    letters = dice.letters()
    for piece, (shape, _, count) in zip(legend, dice.pieces, strict=True):
        assert piece["letter"] == letters[shape.name] and piece["count"] == count
        assert len(piece["orientations"]) == len(dice.forms(shape))
        size = len(shape.paths)
        for orientation in piece["orientations"]:
            drawn = orientation["svg"]
            assert drawn.count(f">{piece['letter']}</text>") == size  # a letter a cell
            for anchor, places in orientation["at"].items():
                assert places[0] == anchor and len(places) == size
    colours = {piece["colour"] for piece in legend}
    assert len(colours) == len(legend)  # each piece a colour of its own
    # Laid pieces are counted: the M1 on one cell.
    one = next(iter(legend[0]["orientations"][0]["at"]))
    number = next(n for n in range(1, 99) if ",".join(map(str, dice.place(n))) == one)
    laid = dice.play().panel(game.parsed, [parse_term(f"covered({number},m1)")])["legend"]
    assert laid[0]["placed"] == 1 and laid[1]["placed"] == 0


def test_the_cake_says_how_many_pieces_and_what_each_holds():
    import aspuzzles

    game = aspuzzles.load("cake", "unique-5x5-5-pieces")
    notes = game.puzzle.play().panel(game.parsed, [])["notes"]
    totals = game.parsed.totals()
    assert notes[0].startswith("cut 5 pieces of 5 cells, each with ")
    for kind, total in totals.items():
        assert f"{total // 5} " in notes[0]
        assert kind in game.parsed.grid[0] + "".join(game.parsed.grid)


def test_a_puzzle_without_play_has_an_empty_panel(workspace):
    from aspuzzles.registry import get_puzzle
    from aspuzzles.web.play import panel

    assert get_puzzle("capture").play() is None
    assert panel(get_puzzle("latin"), None, []) == {}


def test_the_template_is_played_without_hints():
    """Its ``Play`` names the places (each empty cell, 1 to N) and says when the grid
    is solved: the checker's word on a full grid."""
    import aspuzzles
    from aspuzzles.web import actions

    game = aspuzzles.load("template")
    places = game.puzzle.play().places(game.parsed)
    empty = sum(value is None for row in game.parsed.rows for value in row)
    assert len(places) == empty
    assert [o["value"] for o in places["1,2"]] == ["1", "2", "3", "4"] or "1,2" not in places
    board = actions.board("template", "", [])
    assert board["cells"] == places and board["solved"] is False
    assert 'data-cell="1,1"' in board["svg"]


def test_the_board_says_when_it_is_solved(server):
    for puzzle in ("haunted", "cake", "tiles", "geniussquare", "template", "latin"):
        body = {"puzzle": puzzle, "instance": INSTANCES.get(puzzle, "")}
        entries = _solution(server, puzzle)
        status, data = _post(server, "board", {**body, "progress": entries})
        assert status == 200 and data["solved"] is True, puzzle
        status, data = _post(server, "board", {**body, "progress": entries[:-1]})
        assert data["solved"] is False, puzzle
    body = {"puzzle": "haunted", "instance": "", "progress": _solution(server, "haunted")}
    wrong = [atom.replace("ghost", "zombie") for atom in body["progress"]]
    assert _post(server, "board", {**body, "progress": wrong})[1]["solved"] is False


def _solution(server: Any, puzzle: str) -> list[str]:
    """The solve answer's entries, those a player sets (the board's ``cells``)."""
    body = {"puzzle": puzzle, "instance": INSTANCES.get(puzzle, "")}
    status, solved = _post(server, "solve", body)
    assert status == 200, solved
    if solved.get("plan"):
        return list(solved["entries"])
    known = {o["atom"] for options in _board(server, puzzle)["cells"].values() for o in options}
    return [atom for atom in solved["entries"] if atom in known]


def _board(server: Any, puzzle: str, progress: list[str] | None = None) -> dict[str, Any]:
    body = {"puzzle": puzzle, "instance": INSTANCES.get(puzzle, ""), "progress": progress or []}
    status, data = _post(server, "board", body)
    assert status == 200, data
    return data


# -- the page: helpers ----------------------------------------------------------------
def _keys(driver: Any, *keys: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*keys).perform()


def _chord(driver: Any, modifier: str, key: str) -> None:
    """A key pressed with a modifier held (Shift, Control)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).key_down(modifier).send_keys(key).key_up(modifier).perform()


def _cursor(driver: Any) -> str | None:
    return driver.execute_script(
        "const c = document.querySelector('[data-role=board] [data-cursor]');"
        "return c && (c.dataset.cell || c.dataset.side);"
    )


def _middle(driver: Any, key: str) -> tuple[float, float]:
    box = driver.execute_script("return arguments[0].getBoundingClientRect();", _cell(driver, key))
    return box["left"] + box["width"] / 2, box["top"] + box["height"] / 2


def _go(driver: Any, key: str) -> None:
    """The cursor moved to a place by the arrow keys alone."""
    from selenium.webdriver.common.keys import Keys

    if _cursor(driver) is None:
        _keys(driver, Keys.ARROW_RIGHT)  # the first arrow puts the cursor on the board
    for _ in range(60):
        here = _cursor(driver)
        if here == key:
            return
        (x, y), (tx, ty) = _middle(driver, here), _middle(driver, key)
        if abs(ty - y) > 3:
            arrow = Keys.ARROW_DOWN if ty > y else Keys.ARROW_UP
        else:
            arrow = Keys.ARROW_RIGHT if tx > x else Keys.ARROW_LEFT
        _keys(driver, arrow)
        _wait(driver, lambda d, before=here: _cursor(d) != before)
    raise AssertionError(f"the cursor did not reach {key}")


def _value(driver: Any, key: str) -> str | None:
    return _cell(driver, key).get_attribute("data-value")


def _until_value(driver: Any, key: str, value: str | None) -> None:
    _wait(driver, lambda d: _value(d, key) == value)


def _right_click(driver: Any, element: Any) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).context_click(element).perform()


def _piece(driver: Any, piece: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f"[data-piece='{piece}']")


def _solved(driver: Any) -> bool:
    from selenium.webdriver.common.by import By

    return bool(driver.find_element(By.CSS_SELECTOR, "[data-role=solved]").is_displayed())


def _idle(driver: Any) -> None:
    _wait(driver, lambda d: d.execute_script("return state.running.size === 0;"))


# -- each puzzle played to the end through the page's controls ----------------------
def _place_of(cells: dict[str, Any], atom: str) -> tuple[str, str]:
    """The place an entry is set in, and its value there (the board's ``cells``)."""
    return next(
        (key, option["value"])
        for key, options in cells.items()
        for option in options
        if option["atom"] == atom
    )


def _enter_by_keys(driver: Any, cells: dict[str, Any], entries: list[str]) -> None:
    """Haunted and a bare grid: the cursor moved by arrows, the value typed."""
    for atom in entries:
        key, value = _place_of(cells, atom)
        _go(driver, key)
        _keys(driver, value.lower())
        _until_value(driver, key, value)


def _enter_sides(driver: Any, cells: dict[str, Any], entries: list[str]) -> None:
    """The cake: a left click cuts a side, a right click joins it."""
    for atom in entries:
        key, value = _place_of(cells, atom)
        if value == "cut":
            _cell(driver, key).click()
        else:
            _right_click(driver, _cell(driver, key))
        _until_value(driver, key, value)


def _enter_tiles(driver: Any, cells: dict[str, Any], entries: list[str]) -> None:
    """Tiles: a tile chosen in the tray, put on its place, turned by the key t."""
    for atom in entries:
        key, value = _place_of(cells, atom)
        tile = value.split("/")[0]
        _piece(driver, tile).click()
        _wait(driver, lambda d, t=tile: _piece(d, t).get_attribute("data-chosen") == "true")
        _cell(driver, key).click()
        _wait(driver, lambda d, k=key, t=tile: (_value(d, k) or "").startswith(f"{t}/"))
        for _ in range(4):
            if _value(driver, key) == value:
                break
            before = _value(driver, key)
            _keys(driver, "t")
            _wait(driver, lambda d, k=key, b=before: _value(d, k) != b)
        assert _value(driver, key) == value


def _laid_pieces(legend: list[dict[str, Any]], cells: dict[str, str]) -> list[tuple[str, int, str]]:
    """The solution's cells (place: shape) as pieces laid: (shape, orientation, anchor)."""
    laid: list[tuple[str, int, str]] = []

    def cover(left: dict[str, str]) -> bool:
        if not left:
            return True
        first = min(left)
        shape = left[first]
        piece = next(p for p in legend if p["id"] == shape)
        for number, orientation in enumerate(piece["orientations"]):
            for anchor, places in orientation["at"].items():
                if first in places and all(left.get(place) == shape for place in places):
                    laid.append((shape, number, anchor))
                    if cover({k: v for k, v in left.items() if k not in places}):
                        return True
                    laid.pop()
        return False

    assert cover(dict(cells))
    return laid


def _enter_pieces(driver: Any, server: Any, puzzle: str, entries: list[str]) -> None:
    """The dice puzzles: a piece chosen in the legend, turned by the key o, laid at its
    anchor by a click."""
    data = _board(server, puzzle)
    shapes = {
        o["atom"]: (key, o["value"]) for key, options in data["cells"].items() for o in options
    }
    cells = dict(shapes[atom] for atom in entries)
    for shape, orientation, anchor in _laid_pieces(data["play"]["legend"], cells):
        _piece(driver, shape).click()
        _wait(driver, lambda d, s=shape: _piece(d, s).get_attribute("data-chosen") == "true")
        turned = "return state.orientation[arguments[0]] || 0;"
        for _ in range(12):  # o turns the chosen piece to its next orientation
            if driver.execute_script(turned, shape) == orientation:
                break
            _keys(driver, "o")
        assert driver.execute_script(turned, shape) == orientation
        _cell(driver, anchor).click()
        _until_value(driver, anchor, shape)
        _keys(driver, "\ue00c")  # Escape: the piece let go


def _enter_moves(driver: Any, server: Any, moves: list[str]) -> None:
    """Capture: a tile clicked, then the neighbour it swaps with."""
    steps = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1)}
    for move in moves:
        row, col, way = move.split()
        (dr, dc), r, c = steps[way], int(row) + 1, int(col) + 1
        place, to = f"{r},{c}", f"{r + dr},{c + dc}"
        _cell(driver, place).click()
        _wait(driver, lambda d, p=place: _message(d).startswith(f"swap {p} with"))
        before = driver.execute_script("return state.progress.length;")
        _cell(driver, to).click()
        _wait(driver, lambda d, b=before: d.execute_script("return state.progress.length;") > b)
        _idle(driver)


@needs_browser
@pytest.mark.parametrize("puzzle", PUZZLES)
def test_a_whole_solution_entered_through_the_page_is_solved(server, browser, puzzle):
    entries = _solution(server, puzzle)
    query = f"puzzle={puzzle}&instance={INSTANCES.get(puzzle, '')}"
    _open(browser, server, query, f"{puzzle}:")
    assert not _solved(browser)
    cells = _board(server, puzzle)["cells"]
    if puzzle in ("haunted", "latin", "template"):
        _enter_by_keys(browser, cells, entries)
    elif puzzle == "cake":
        _enter_sides(browser, cells, entries)
    elif puzzle == "tiles":
        _enter_tiles(browser, cells, entries)
    elif puzzle == "capture":
        _enter_moves(browser, server, entries)
    else:
        _enter_pieces(browser, server, puzzle, entries)
    _wait(browser, _solved)
    assert "Solved!" in browser.find_element("css selector", "[data-role=solved]").text
    assert browser.execute_script("return state.progress.length;") == len(entries)
    if puzzle in ("tiles", "geniussquare"):
        _screenshot(browser, f"play-{puzzle}-solved")
    _no_console_errors(browser)


@needs_browser
def test_a_tile_dragged_from_the_tray_and_taken_back(server, browser):
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "puzzle=tiles", "tiles:")
    browser.execute_script(
        """
        const tile = document.querySelector("[data-piece='3']");
        const place = document.querySelector("[data-role=board] [data-cell='2,2']");
        const box = place.getBoundingClientRect();
        const carried = new DataTransfer();
        const at = { bubbles: true, dataTransfer: carried,
                     clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
        tile.dispatchEvent(new DragEvent('dragstart', at));
        place.dispatchEvent(new DragEvent('dragover', at));
        place.dispatchEvent(new DragEvent('drop', at));
        """
    )
    _wait(browser, lambda d: (_value(d, "2,2") or "").startswith("3/"))
    _wait(browser, lambda d: _piece(d, "3").get_attribute("data-placed") == "true")
    before = _value(browser, "2,2")
    _cell(browser, "2,2").click()  # a click on a placed tile turns it
    _wait(browser, lambda d: _value(d, "2,2") not in (before, None))
    assert (_value(browser, "2,2") or "").startswith("3/")
    _keys(browser, Keys.BACKSPACE)  # taken back: the tray holds it again
    _until_value(browser, "2,2", None)
    _wait(browser, lambda d: _piece(d, "3").get_attribute("data-placed") is None)
    _cell(browser, "2,2").click()  # nothing chosen: the first tile not placed
    _until_value(browser, "2,2", "1/0")
    _right_click(browser, _cell(browser, "2,2"))
    _until_value(browser, "2,2", None)
    _no_console_errors(browser)


# -- keys, undo and redo ---------------------------------------------------------------
@needs_browser
def test_the_cursor_moves_by_arrows_and_keys_set_and_clear(server, browser):
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "puzzle=latin&instance=four.lp", "click a cell")
    _go(browser, "1,3")
    _keys(browser, Keys.ARROW_DOWN)  # onto the given 2,3: nothing is set there
    _wait(browser, lambda d: _cursor(d) == "2,3")
    _keys(browser, "2")
    assert _value(browser, "2,3") == "1"  # given: the key sets nothing
    _keys(browser, Keys.ARROW_UP)
    _wait(browser, lambda d: _cursor(d) == "1,3")
    _keys(browser, "4")
    _until_value(browser, "1,3", "4")
    _keys(browser, Keys.BACKSPACE)
    _until_value(browser, "1,3", None)
    _keys(browser, Keys.SPACE)  # the next value: the first
    _until_value(browser, "1,3", "1")
    _chord(browser, Keys.SHIFT, Keys.SPACE)  # back: empty again
    _until_value(browser, "1,3", None)
    _keys(browser, "3")
    _until_value(browser, "1,3", "3")
    _keys(browser, "0")
    _until_value(browser, "1,3", None)
    _right_click(browser, _cell(browser, "1,3"))  # backward from empty: the last value
    _until_value(browser, "1,3", "4")
    _screenshot(browser, "play-cursor")
    _no_console_errors(browser)


@needs_browser
def test_undo_and_redo_by_keys(server, browser):
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")
    _keys(browser, "v")  # the cursor is where the click was
    _until_value(browser, "4,4", "V")
    _keys(browser, "u")
    _until_value(browser, "4,4", "G")
    _chord(browser, Keys.CONTROL, "z")
    _until_value(browser, "4,4", None)
    _keys(browser, "r")
    _until_value(browser, "4,4", "G")
    _chord(browser, Keys.CONTROL, "y")
    _until_value(browser, "4,4", "V")
    _no_console_errors(browser)


@needs_browser
def test_check_marks_a_wrong_entry(server, browser):
    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")  # a vampire's cell
    assert _press(browser, "check", "mistake") == "1 mistake"
    drawn = browser.execute_script("return document.querySelector('[data-role=board]').innerHTML;")
    assert 'fill="#d00">G</text>' in drawn  # the wrong ghost drawn red
    assert _value(browser, "4,4") == "G"  # the entry stays, marked


# -- one answer at a time, errors, cancelling --------------------------------------
@needs_browser
def test_hint_then_solve_at_once_ends_solved(server, browser):
    from selenium.webdriver.common.by import By

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    hint = browser.find_element(By.CSS_SELECTOR, "[data-action=hint]")
    solve = browser.find_element(By.CSS_SELECTOR, "[data-action=solve]")
    browser.execute_script("arguments[0].click(); arguments[1].click();", hint, solve)
    _wait(browser, _solved)
    _idle(browser)
    assert _solved(browser) and "solved" in _message(browser)
    # A late answer never overwrites a newer one: the board is the solution still.
    assert _value(browser, "4,4") == "V"


@needs_browser
def test_a_bad_paste_keeps_the_board_playable(server, browser):
    from selenium.webdriver.common.by import By

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")
    browser.find_element(By.CSS_SELECTOR, "details summary").click()
    browser.find_element(By.CSS_SELECTOR, "[data-role=paste]").send_keys("not a puzzle at all")
    browser.find_element(By.CSS_SELECTOR, "[data-action=open-paste]").click()
    _wait(
        browser,
        lambda d: (
            "error"
            in (d.find_element(By.CSS_SELECTOR, "[data-role=message]").get_attribute("class") or "")
        ),
    )
    error = _message(browser)
    browser.get_log("browser")  # the 400 answer, logged by Chromium: expected here
    assert browser.execute_script("return state.instance;") == "gen-5x5-s3"
    assert browser.find_element(By.CSS_SELECTOR, "[data-role=instance]").get_attribute("value") in (
        "gen-5x5-s3",
        "gen-5x5-s3.txt",
    )
    assert _value(browser, "4,4") == "G"  # the progress as it was
    _set(browser, "4,4", "V")  # still playable
    assert _press(browser, "check", "mistake") == "no mistakes"
    assert error not in _message(browser)  # said once, not by every button after it
    _no_console_errors(browser)


@needs_browser
def test_long_work_shows_it_runs_and_is_cancelled(server, browser):
    from selenium.webdriver.common.by import By

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")
    # The server's answer held back: the request runs until the page aborts it.
    browser.execute_script(
        """
        window.realFetch = window.fetch;
        window.fetch = (url, options) => new Promise((resolve, reject) => {
          options.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
        """
    )
    busy = browser.find_element(By.CSS_SELECTOR, "[data-role=busy]")
    assert not busy.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "[data-action=solve]").click()
    _wait(browser, lambda d: busy.is_displayed())
    _screenshot(browser, "play-busy")
    browser.find_element(By.CSS_SELECTOR, "[data-action=cancel]").click()
    _wait(browser, lambda d: not busy.is_displayed() and _message(d) == "cancelled")
    browser.execute_script("window.fetch = window.realFetch;")
    assert _value(browser, "4,4") == "G" and not _solved(browser)
    _set(browser, "4,4", "V")
    _no_console_errors(browser)


# -- Generate, the link ------------------------------------------------------------------
@needs_browser
def test_generate_makes_a_new_puzzle_each_time_from_the_skeleton(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _open(browser, server, "puzzle=latin&instance=four.lp", "click a cell")
    sent: list[str] = []
    browser.execute_script(
        """
        window.sent = [];
        const real = window.fetch;
        window.fetch = (url, options) => {
          if (url.endsWith('/generate')) { window.sent.push(JSON.parse(options.body).instance); }
          return real(url, options);
        };
        """
    )
    made = []
    for _ in range(2):
        before = browser.execute_script("return state.instance;")
        browser.find_element(By.CSS_SELECTOR, "[data-action=generate]").click()
        _wait(browser, lambda d, b=before: d.execute_script("return state.instance;") != b)
        _wait(browser, lambda d: "a new puzzle" in _message(d))
        made.append(browser.execute_script("return state.instance;"))
    sent = browser.execute_script("return window.sent;")
    assert sent == ["four.lp", "four.lp"]  # the skeleton stays the instance opened
    assert made[0] != made[1]
    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    Select(browser.find_element(By.CSS_SELECTOR, "[data-role=difficulty]")).select_by_value("easy")
    before = browser.execute_script("return state.instance;")
    browser.find_element(By.CSS_SELECTOR, "[data-action=generate]").click()
    _wait(browser, lambda d: "a new puzzle (easy)" in _message(d))
    assert browser.execute_script("return state.instance;") != before
    assert (
        browser.find_element(By.CSS_SELECTOR, "[data-role=difficulty]").get_attribute("value")
        == "easy"
    )
    _no_console_errors(browser)


@needs_browser
def test_the_link_reopens_the_board_with_its_progress_and_pencil_marks(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")
    _keys(browser, "v")
    _until_value(browser, "4,4", "V")
    _cell(browser, "1,2").click()
    _until_value(browser, "1,2", "G")
    _keys(browser, "p")  # pencil mode: letters mark
    _wait(browser, lambda d: d.execute_script("return state.pencilMode;"))
    _keys(browser, Keys.ARROW_RIGHT)  # the first arrow shows the cursor where it is
    _wait(browser, lambda d: _cursor(d) == "1,2")
    _keys(browser, Keys.ARROW_RIGHT)  # the next cell
    _wait(browser, lambda d: _cursor(d) == "1,3")
    target = _cursor(browser)
    _keys(browser, "z", "v")
    _wait(
        browser,
        lambda d: (
            d.execute_script("return (state.pencil[arguments[0]] || []).join('');", target) == "VZ"
        ),
    )
    _keys(browser, "p")
    counts = browser.find_element(By.CSS_SELECTOR, "[data-role=counts]").text
    assert "ghosts 1/" in counts and "vampires 1/" in counts
    _screenshot(browser, "play-haunted-pencil")
    link = browser.find_element(By.CSS_SELECTOR, "[data-role=link]").get_attribute("href")
    query = parse_qs(urlsplit(link).query)
    assert query["puzzle"] == ["haunted"] and query["instance"] == ["gen-5x5-s3"]
    assert set(json.loads(query["progress"][0])) == {"monster(4,4,vampire)", "monster(1,2,ghost)"}
    browser.get("about:blank")
    browser.get(link)
    _wait(browser, lambda d: "haunted:" in _message(d))
    assert _value(browser, "4,4") == "V" and _value(browser, "1,2") == "G"
    pencil = browser.find_element(By.CSS_SELECTOR, f"[data-role=board] [data-pencil='{target}']")
    assert pencil.text == "VZ"
    tatham = browser.find_element(By.CSS_SELECTOR, "[data-role=elsewhere]").get_attribute("href")
    assert tatham.startswith(
        "https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/undead.html#5x5:"
    )
    _no_console_errors(browser)


# -- the window: a phone's; the panels' pictures ----------------------------------------
@needs_browser
def test_every_board_fits_a_phone(server, browser):
    browser.set_window_size(390, 844)
    try:
        for puzzle in PUZZLES:
            query = f"puzzle={puzzle}&instance={INSTANCES.get(puzzle, '')}"
            _open(browser, server, query, f"{puzzle}:")
            wide = browser.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth];"
            )
            assert wide[0] <= wide[1], f"{puzzle}: {wide[0]} px wide in a {wide[1]} px window"
            if puzzle in ("tiles", "geniusstar"):
                _screenshot(browser, f"phone-{puzzle}")
    finally:
        browser.set_window_size(1200, 1000)


OVERLAPS = """
const found = [];
for (const svg of document.querySelectorAll(arguments[0])) {
  const frame = svg.getBoundingClientRect();
  const boxes = [...svg.querySelectorAll('text')]
    .filter((text) => text.textContent.trim())
    .map((text) => [text.textContent, text.getBoundingClientRect()]);
  for (const [t, b] of boxes) {
    if (b.left < frame.left - 0.5 || b.top < frame.top - 0.5 || b.right > frame.right + 0.5
        || b.bottom > frame.bottom + 0.5) { found.push('outside: ' + t); }
  }
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > -1 && h > 1) { found.push('overlap: ' + a + ' / ' + b); }
    }
  }
}
return found;
"""


@needs_browser
@pytest.mark.parametrize("puzzle", ["haunted", "cake", "tiles", "geniusstar", "geniussquare"])
def test_the_panels_pictures_are_not_clipped_nor_overlap(server, browser, puzzle):
    _open(browser, server, f"puzzle={puzzle}", f"{puzzle}:")
    if puzzle in ("geniusstar", "cake"):
        _screenshot(browser, f"play-{puzzle}")
    problems = browser.execute_script(OVERLAPS, "[data-piece] svg")
    assert problems == []
    if puzzle == "geniusstar":  # every orientation's drawing, not only the first
        legend = _board(server, puzzle)["play"]["legend"]
        drawings = "".join(o["svg"] for piece in legend for o in piece["orientations"])
        browser.execute_script(
            "document.querySelector('[data-role=legend]').innerHTML = arguments[0];", drawings
        )
        assert browser.execute_script(OVERLAPS, "[data-role=legend] svg") == []
    # The panel's own lines (counts, notes) lie inside the window, apart.
    boxes = browser.execute_script(
        "return [...document.querySelectorAll('[data-role=counts] span, [data-role=notes] span')]"
        ".map((e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; });"
    )
    width = browser.execute_script("return window.innerWidth;")
    for index, (left, top, right, bottom) in enumerate(boxes):
        assert left >= 0 and right <= width
        for other in boxes[index + 1 :]:
            assert (
                min(right, other[2]) - max(left, other[0]) <= 0
                or min(bottom, other[3]) - max(top, other[1]) <= 0
            )
