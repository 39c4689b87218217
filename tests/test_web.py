"""The web board (``aspuzzles serve``): its JSON API against the command line's answers,
its gate (Host, body size), its limits, and the page in a real headless Chromium
(Debian's ``chromium`` and ``chromium-driver``; ``.ci/run`` installs them)."""

from __future__ import annotations

import http.client
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aspuzzles.web.server import MOST_BYTES, BoardServer

from .conftest import ROOT
from .test_bare_hints import LATIN, LATIN_4


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A working folder with a bare encoding of its own, served like a shipped one."""
    folder = tmp_path_factory.mktemp("web")
    (folder / "encodings").mkdir()
    (folder / "encodings" / "latin.lp").write_text(LATIN)
    (folder / "instances" / "latin").mkdir(parents=True)
    (folder / "instances" / "latin" / "four.lp").write_text(LATIN_4)
    (folder / "instances" / "latin" / "big.lp").write_text("#const n = 40.\n")
    before = os.getcwd()
    os.chdir(folder)
    yield folder
    os.chdir(before)


def _started(timeout: float, workers: int = 2) -> BoardServer:
    """A server on a free port, served from a thread of this process (its workers
    come from its fork server); ``shutdown`` and ``server_close`` stop it."""
    return BoardServer(0, timeout, None, workers).start()


def _serving(timeout: float) -> Iterator[BoardServer]:
    """A server for a fixture's lifetime (``yield from``), stopped after it."""
    served = _started(timeout)
    yield served
    served.shutdown()
    served.server_close()


@pytest.fixture(scope="module")
def server(workspace: Path) -> Iterator[BoardServer]:
    yield from _serving(60)


def _post(
    server: BoardServer, action: str, body: Any, host: str | None = None, raw: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    payload = raw if raw is not None else json.dumps(body).encode()
    headers = {"Host": host or f"127.0.0.1:{server.port}", "Content-Type": "application/json"}
    connection.request("POST", f"/api/{action}", body=payload, headers=headers)
    response = connection.getresponse()
    data = json.loads(response.read() or b"{}")
    connection.close()
    return response.status, data


def _without_drawing(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in ("svg", "message")}


# -- the API against the command line -------------------------------------------------
@pytest.mark.parametrize(
    "puzzle, instance, progress",
    [
        ("haunted", "gen-5x5-s3", ["monster(4,4,ghost)"]),
        ("haunted", "gen-5x5-s3", []),
        ("cake", "unique-5x5-5-pieces", ["side(0,1,cut)"]),
        ("latin", "four.lp", ["cell(1,3,3)"]),
    ],
)
def test_hint_and_explain_answer_as_the_command_line(server, cli, puzzle, instance, progress):
    facts = "".join(f"{atom}." for atom in progress)
    for action in ("hint", "explain"):
        status, data = _post(
            server, action, {"puzzle": puzzle, "instance": instance, "progress": progress}
        )
        assert status == 200
        args = [action, puzzle, instance, "--format", "json"] + (
            ["--progress", facts] if facts else []
        )
        assert _without_drawing(data) == cli(*args).json()
        assert data["svg"].startswith("<svg")


def test_grade_solve_and_check_answer_as_the_command_line(server, cli):
    status, data = _post(server, "grade", {"puzzle": "haunted", "instance": "gen-5x5-s3"})
    assert status == 200
    assert (
        _without_drawing(data) == cli("grade", "haunted", "gen-5x5-s3", "--format", "json").json()
    )
    status, data = _post(server, "solve", {"puzzle": "haunted", "instance": "gen-5x5-s3"})
    solved = cli("solve", "haunted", "gen-5x5-s3", "--format", "json").json()
    assert status == 200 and data["solutions"] == solved["solutions"] and data["status"] == "solved"
    body = {"puzzle": "haunted", "instance": "gen-5x5-s3", "progress": ["monster(4,4,ghost)"]}
    status, data = _post(server, "check", body)
    assert status == 200 and data["message"] == "1 mistake"
    assert 'data-cell="4,4" data-value="G"' in data["svg"]  # the mistake stays on the board


def test_capture_is_played_by_moves_and_answers_as_the_command_line(server, cli):
    body = {"puzzle": "capture", "instance": "wight", "progress": ["6 2 Right"]}
    status, data = _post(server, "board", body)
    assert status == 200 and data["cells"] == {}
    assert {"to": "6,4", "move": "5 3 Down"} in data["moves"]["7,4"]  # from either tile
    assert {"to": "7,4", "move": "5 3 Down"} in data["moves"]["6,4"]
    status, data = _post(server, "hint", body)
    cli_hint = cli("hint", "capture", "wight", "--progress", "6 2 Right", "--format", "json")
    assert status == 200 and _without_drawing(data) == cli_hint.json()
    assert ">now</text>" in data["svg"] and ">after 6 3 Up</text>" in data["svg"]  # marked, played
    status, data = _post(server, "solve", body)
    assert status == 200 and data["entries"][0] == "6 2 Right" and len(data["entries"]) == 6
    replayed = cli("check", "capture", "wight", "; ".join(data["entries"]))
    assert replayed.code == 0, replayed.out
    status, data = _post(server, "board", {**body, "progress": data["entries"]})
    assert data["message"] == "cleared in 6 moves" and data["moves"] == {}
    status, data = _post(server, "board", {**body, "progress": ["0 0 Up"]})
    assert status == 400 and data["error"] == (
        "progress: move 1 (0 0 Up) is illegal: it swaps with a cell off the board"
    )


def test_the_board_lists_what_each_cell_can_hold(server):
    status, data = _post(server, "board", {"puzzle": "latin", "instance": "four.lp"})
    assert status == 200
    assert [option["value"] for option in data["cells"]["1,3"]] == ["1", "2", "3", "4"]
    assert "1,1" not in data["cells"]  # given: not set by the player
    status, data = _post(server, "board", {"puzzle": "haunted", "instance": "gen-5x5-s3"})
    assert [option["atom"] for option in data["cells"]["4,4"]] == [
        "monster(4,4,ghost)",
        "monster(4,4,vampire)",
        "monster(4,4,zombie)",
    ]


def test_a_pasted_and_a_generated_instance(server, cli):
    game_id = "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"
    status, data = _post(server, "board", {"puzzle": "haunted", "instance": game_id})
    assert status == 200 and data["cells"]
    status, data = _post(server, "generate", {"puzzle": "latin", "instance": "four.lp", "seed": 3})
    assert status == 200 and data["text"] == cli("generate", "latin", "four.lp", "--seed", "3").out
    status, data = _post(server, "generate", {"puzzle": "haunted", "seed": 2, "difficulty": "easy"})
    assert status == 200 and data["text"]


# -- the gate and the limits ----------------------------------------------------------
def test_a_foreign_host_is_refused(server):
    status, data = _post(server, "hint", {"puzzle": "haunted"}, host="evil.example:80")
    assert status == 403 and "Host" in data["error"]
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", "/", headers={"Host": f"attacker.example:{server.port}"})
    assert connection.getresponse().status == 403


def test_a_request_too_large_is_refused_unread(server):
    """Refused on its Content-Length, before a byte of the body is read."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest("POST", "/api/hint", skip_host=True)
    connection.putheader("Host", f"127.0.0.1:{server.port}")
    connection.putheader("Content-Length", str(MOST_BYTES + 1))
    connection.endheaders()
    response = connection.getresponse()
    assert response.status == 413 and "bytes" in json.loads(response.read())["error"]
    connection.close()


def test_bad_requests_get_one_line(server):
    assert _post(server, "hint", None, raw=b"{not json")[0] == 400
    status, data = _post(server, "hint", {"puzzle": "nosuch"})
    assert status == 400 and "unknown puzzle 'nosuch'" in data["error"]
    status, data = _post(server, "hint", {"puzzle": "haunted", "progress": "x"})
    assert status == 400
    assert _post(server, "nothing", {})[0] == 404
    status, data = _post(server, "board", {"puzzle": "haunted", "instance": "/etc/passwd"})
    assert status == 400  # text, never a path: not a Haunted board


def test_a_hung_solve_is_cut_by_its_limit(workspace):
    served = _started(1.0)
    try:
        status, data = _post(
            served, "generate", {"puzzle": "latin", "instance": "big.lp", "seed": 1}
        )
        assert status == 504 and "time limit" in data["error"]
        assert _post(served, "grade", {"puzzle": "latin", "instance": "four.lp"})[0] == 200
    finally:
        served.shutdown()
        served.server_close()


def _resident_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@pytest.mark.slow
def test_memory_stays_flat_over_500_requests(server):
    body = {"puzzle": "haunted", "instance": "gen-5x5-s3", "progress": ["monster(4,4,ghost)"]}
    for _ in range(20):  # caches warm
        _post(server, "hint", body)
    before = _resident_kb()
    for _ in range(500):
        assert _post(server, "hint", body)[0] == 200
    assert _resident_kb() - before < 20_000


# -- the page in Chromium -------------------------------------------------------------
CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(
    (CHROMIUM is None or DRIVER is None) and not os.environ.get("ASPUZZLES_REQUIRE_BROWSER"),
    reason="Debian's chromium and chromium-driver are not installed (.ci/run installs them)",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    import resource

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    # An in-process solve earlier in the run bounds this process's address space (its
    # --memory), which the browser would inherit: Chromium reserves far more than it uses.
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (hard, hard))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.add_argument("--window-size=1200,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER or "chromedriver"), options=options)
    yield driver
    driver.quit()


def _message(driver: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.CSS_SELECTOR, "[data-role=message]").text)


def _wait(driver: Any, condition: Any) -> None:
    """Wait for the condition; an element the page redraws while it is read (a stale
    reference) is read again on the next try."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60, ignored_exceptions=[StaleElementReferenceException]).until(condition)


def _press(driver: Any, action: str, until: str) -> str:
    from selenium.webdriver.common.by import By

    driver.execute_script("document.querySelector('[data-role=message]').textContent = '';")
    driver.find_element(By.CSS_SELECTOR, f"[data-action={action}]").click()
    _wait(driver, lambda d: until in _message(d) and _message(d) != "")
    return _message(driver)


def _cell(driver: Any, key: str) -> Any:
    """A cell of the board (``"R,C"``), or a side between two (``"R,C|R,C"``)."""
    from selenium.webdriver.common.by import By

    kind = "data-side" if "|" in key else "data-cell"
    return driver.find_element(By.CSS_SELECTOR, f"[data-role=board] [{kind}='{key}']")


def _open(driver: Any, server: BoardServer, query: str, says: str) -> None:
    """Open the page at ``/?QUERY`` and wait until its message says ``says``."""
    driver.get(f"http://127.0.0.1:{server.port}/?{query}")
    _wait(driver, lambda d: says in _message(d))


def _set(driver: Any, key: str, value: str) -> None:
    """Click a place and wait until it shows ``value`` (a click sets its next value)."""
    _cell(driver, key).click()
    _wait(driver, lambda d: _cell(d, key).get_attribute("data-value") == value)


def _click(driver: Any, action: str) -> None:
    """Press a control that answers without a message (undo, redo)."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f"[data-action={action}]").click()


def _boards(driver: Any) -> int:
    """How many boards the page's drawing holds (capture draws one after each move)."""
    from selenium.webdriver.common.by import By

    return len(driver.find_elements(By.CSS_SELECTOR, "[data-role=board] svg > g"))


def _drawn(driver: Any) -> str:
    """The board's drawing as it stands, to see it change."""
    from selenium.webdriver.common.by import By

    svg = driver.find_element(By.CSS_SELECTOR, "[data-role=board] svg")
    return str(svg.get_attribute("innerHTML"))


def _no_console_errors(driver: Any) -> None:
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == []


def _screenshot(driver: Any, name: str) -> None:
    """Kept where ``ASPUZZLES_SCREENSHOTS`` names a folder (docs/screenshots/ holds them)."""
    folder = os.environ.get("ASPUZZLES_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))


@needs_browser
def test_play_haunted_in_the_browser(server, browser):
    from selenium.webdriver.common.by import By

    _open(browser, server, "puzzle=haunted&instance=gen-5x5-s3", "click a cell")
    _set(browser, "4,4", "G")
    assert _press(browser, "check", "mistake") == "1 mistake"
    assert "hint (propagation): cell (4,4): a vampire" in _press(browser, "hint", "hint")
    _click(browser, "undo")
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") is None)
    _click(browser, "redo")
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") == "G")
    _press(browser, "solve", "solved")
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") == "V")
    assert "propagation" in _press(browser, "grade", "gen-5x5-s3")
    clue = browser.find_element(By.CSS_SELECTOR, "[data-role=board] [data-mark='clue(2,3)']")
    clue.click()  # the clue 3 at the top of column 3: its line of sight is drawn
    _wait(browser, lambda d: "the clue 3 at the top of column 3" in _message(d))
    assert browser.find_elements(By.CSS_SELECTOR, "[data-role=board] polyline")
    _screenshot(browser, "haunted")
    _no_console_errors(browser)


@needs_browser
def test_play_a_bare_grid_in_the_browser(server, browser):
    _open(browser, server, "puzzle=latin&instance=four.lp", "click a cell")
    for value in ("1", "2", "3"):  # a click sets the next value the cell can hold
        _set(browser, "1,3", value)
    assert _press(browser, "check", "mistake") == "1 mistake"
    _set(browser, "1,3", "4")
    assert _press(browser, "check", "mistake") == "no mistakes"
    assert "cell(1,4,3)" in _press(browser, "hint", "hint")
    _press(browser, "solve", "solved")
    _wait(browser, lambda d: _cell(d, "4,1").get_attribute("data-value") == "2")
    _screenshot(browser, "latin")
    _no_console_errors(browser)


@needs_browser
def test_play_capture_in_the_browser(server, browser):
    """A swap is a tile pointed at, then a neighbour; the board after it is drawn."""

    _open(browser, server, "puzzle=capture&instance=wight", "click a tile, then a neighbour")
    start = _drawn(browser)
    _cell(browser, "7,3").click()  # the move 6 2 Right (rows and columns from 0)
    _wait(browser, lambda d: _message(d).startswith("swap 7,3 with"))
    assert _cell(browser, "7,3").get_attribute("data-selected") == "true"
    _screenshot(browser, "capture-swap")
    _cell(browser, "7,4").click()
    _wait(browser, lambda d: _drawn(d) != start)
    assert _press(browser, "check", "mistake") == "no mistakes: 5 moves left at best"
    assert "move 6 3 Up, the first of 5 moves" in _press(browser, "hint", "hint")
    assert _boards(browser) == 2
    _click(browser, "undo")
    _wait(browser, lambda d: _drawn(d) == start)
    _cell(browser, "7,3").click()
    _wait(browser, lambda d: _message(d).startswith("swap 7,3 with"))
    _cell(browser, "7,2").click()  # 6 2 Left: no plan clears the board after it
    _wait(browser, lambda d: _drawn(d) != start)
    assert "can no longer lead to a clear board" in _press(browser, "check", "board")
    _cell(browser, "1,1").click()  # an empty cell: no swap from there
    _wait(browser, lambda d: "no swap from there" in _message(d))
    _click(browser, "undo")
    _wait(browser, lambda d: _drawn(d) == start)
    assert _press(browser, "solve", "solved") == "solved (checked)"
    assert _boards(browser) == 7  # the start and the board after each of 6 moves, the last clear
    _no_console_errors(browser)


def _explained_mistake(puzzle: str, instance: str) -> Any:
    """An explanation of the first entry the page offers that no solution shares."""
    import aspuzzles
    from aspuzzles.web import actions

    for options in actions.board(puzzle, instance, [])["cells"].values():
        for option in options:
            report = aspuzzles.explain(puzzle, instance or None, progress=option["atom"] + ".")
            if report.status == "unsolvable":
                return report
    raise AssertionError(f"{puzzle}: every entry offered is in some solution")


#: Every puzzle's boards as the page and the command line draw them.
def _drawings() -> list[tuple[str, str]]:
    import aspuzzles

    drawings = []
    for puzzle in ("haunted", "cake", "tiles", "geniusstar", "geniussquare", "capture", "template"):
        result = aspuzzles.solve(puzzle)
        drawings.append((f"{puzzle} solution", result.solution.svg()))
    for puzzle, instance in (("haunted", "gen-5x5-s3"), ("cake", "unique-5x5-5-pieces")):
        drawings.append((f"{puzzle} hint", aspuzzles.hint(puzzle, instance).svg()))
    drawings.append(("cake explain", aspuzzles.explain("cake", "unsolvable-4x4-corner").svg()))
    drawings.append(("geniussquare hint", aspuzzles.hint("geniussquare").svg()))
    for puzzle, instance in (
        ("haunted", "gen-5x5-s3"),
        ("tiles", "seed-big-cats-3x3-hint"),
        ("geniusstar", ""),
        ("geniussquare", ""),
        ("latin", "four.lp"),
    ):
        drawings.append((f"{puzzle} explain", _explained_mistake(puzzle, instance).svg()))
    drawings.append(("tiles hint", aspuzzles.hint("tiles", "seed-big-cats-3x3-hint").svg()))
    drawings.append(("geniusstar hint", aspuzzles.hint("geniusstar").svg()))
    drawings.append(("capture hint", aspuzzles.hint("capture", progress="6 2 Right").svg()))
    drawings.append(
        (
            "haunted 4x4",
            aspuzzles.solve(
                "haunted", "4x4:2,4,3,cRLbRaRRbLLa,0,2,2,3,1,1,2,1,2,1,1,1,0,2,1,2"
            ).solution.svg(),
        )
    )
    return drawings


#: A script's function (hoisted, so it may follow the script's return): the pairs of
#: non-empty texts of an SVG whose boxes overlap by more than ``slack`` pixels across
#: and one down.
OVERLAPPING_TEXTS = """
function overlappingTexts(svg, slack) {
  const boxes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
    .map((t) => [t.textContent, t.getBoundingClientRect()]);
  const found = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
      const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
      if (w > -slack && h > 1) { found.push(a + ' / ' + b); }
    }
  }
  return found;
}
"""


@needs_browser
def test_no_text_of_any_board_lies_outside_its_drawing_or_on_another(workspace, browser):
    """Each text's box (as drawn, rotations included) lies inside the drawing, and no
    two texts overlap (tiles' side labels once ran into each other at a tile's middle)."""
    browser.get("about:blank")
    for name, svg in _drawings():
        browser.execute_script("document.body.innerHTML = arguments[0];", svg)
        outside, overlapping = browser.execute_script(
            """
            const svg = document.querySelector('svg');
            const frame = svg.getBoundingClientRect();
            const boxes = [...svg.querySelectorAll('text')]
              .filter((text) => text.textContent.trim())
              .map((text) => [text.textContent, text.getBoundingClientRect()]);
            const outside = boxes.filter(([, b]) => b.left < frame.left - 0.5
              || b.top < frame.top - 0.5 || b.right > frame.right + 0.5
              || b.bottom > frame.bottom + 0.5).map(([t]) => t);
            return [outside, overlappingTexts(svg, 2)];
            """
            + OVERLAPPING_TEXTS
        )
        assert outside == [], f"{name}: text outside the drawing: {outside}"
        assert overlapping == [], f"{name}: texts overlap: {overlapping}"


def test_an_explanations_named_totals_are_marked_on_the_board():
    import aspuzzles

    game = aspuzzles.load("haunted", "gen-5x5-s3")
    from clingo import parse_term

    hints = game.puzzle.hints()
    svg = hints.draw_progress(game.parsed, [], [parse_term("total(ghost,7)")], "svg")
    assert '<tspan fill="#d00" font-weight="bold">ghosts 7</tspan>' in svg


def test_the_page_is_served_with_its_contract(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.request("GET", "/", headers={"Host": f"localhost:{server.port}"})
    page = connection.getresponse().read().decode()
    for action in ("hint", "check", "solve", "explain", "grade", "generate", "undo", "redo"):
        assert f'data-action="{action}"' in page
    assert 'data-role="message"' in page
    assert ROOT.exists()


@needs_browser
@pytest.mark.parametrize(
    "puzzle", ["haunted", "cake", "tiles", "geniusstar", "geniussquare", "capture", "template"]
)
def test_every_puzzle_opens_hints_and_solves_in_the_browser(server, browser, puzzle):
    from selenium.webdriver.common.by import By

    browser.get(f"http://127.0.0.1:{server.port}/?puzzle={puzzle}")
    _wait(browser, lambda d: _message(d).startswith(f"{puzzle}:"))
    assert browser.find_elements(By.CSS_SELECTOR, "[data-role=board] svg")
    cells = _post(server, "board", {"puzzle": puzzle, "instance": ""})[1]["cells"]
    if puzzle in ("haunted", "cake", "tiles", "geniusstar", "geniussquare"):  # set by a click
        key, options = next(iter(cells.items()))
        _set(browser, key, options[0]["value"])
        assert _press(browser, "check", "mistake").endswith(("mistake", "mistakes"))
    hint = browser.find_element(By.CSS_SELECTOR, "[data-action=hint]")
    if puzzle == "template":  # no hints: the page does not offer them
        assert not hint.is_enabled()
    else:
        _press(browser, "hint", "hint")
    _press(browser, "solve", "solved")
    _screenshot(browser, f"page-{puzzle}")
    _no_console_errors(browser)


def test_serve_starts_on_loopback_and_ctrl_c_ends_it_cleanly():
    from .conftest import interrupted_run

    run = interrupted_run("serve", "--port", "0", after=3)
    assert run.returncode == 130
    assert run.stdout.startswith("aspuzzles serve: http://127.0.0.1:")
    assert "stopped" in run.stderr and "Traceback" not in run.stderr
