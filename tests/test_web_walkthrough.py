"""The "Show me how" control of the web board, and a walkthrough's own HTML page, in Debian's
headless Chromium: the walkthrough from the board as the player has it, stepped
forward and back (buttons and arrow keys), each step's sentence shown and its entries
highlighted on the board, nothing of the board outside its drawing; and the new
action behind the same gate as every other (registered names only, Host, size)."""

from __future__ import annotations

import http.client
import re
from pathlib import Path
from typing import Any

import pytest

from aspuzzles.web.server import MOST_BYTES

from . import test_web
from .test_web import (
    _cell,
    _message,
    _no_console_errors,
    _open,
    _post,
    _press,
    _wait,
    needs_browser,
)

workspace = test_web.workspace
server = test_web.server
browser = test_web.browser


# -- the action behind the gate --------------------------------------------------------
def test_the_walkthrough_action_answers_behind_the_gate(server):
    status, data = _post(server, "walkthrough", {"puzzle": "latin", "instance": "four.lp"})
    assert status == 200 and data["status"] == "solved"
    assert len(data["frames"]) == len(data["steps"]) + 1
    assert data["frames"][1]["text"] == data["steps"][0]["text"]
    refused = [
        ({"puzzle": "../encodings/latin", "instance": "four.lp"}, 400),
        ({"puzzle": "latin", "instance": '#include "/etc/passwd".\n'}, 400),
        ({"puzzle": "latin", "instance": "four.lp", "progress": ["not an atom("]}, 400),
        # clingo's message about a character outside ASCII does not decode
        ({"puzzle": "latin", "instance": "four.lp", "progress": ["cell(1,1,\u00b7)"]}, 400),
        ({"puzzle": "latin", "instance": "four.lp", "progress": "cell(1,3,4)"}, 400),
    ]
    for body, expected in refused:
        status, data = _post(server, "walkthrough", body)
        assert status == expected and list(data) == ["error"], (body, status, data)
    status, data = _post(server, "walkthrough", {"puzzle": "latin"}, host="evil.example:80")
    assert status == 403
    # Refused on its Content-Length, unread (sending the body could meet a closed
    # socket: the server answers before it is read).
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    connection.putrequest("POST", "/api/walkthrough", skip_host=True)
    connection.putheader("Host", f"127.0.0.1:{server.port}")
    connection.putheader("Content-Length", str(MOST_BYTES + 1))
    connection.endheaders()
    assert connection.getresponse().status == 413
    connection.close()
    # from the player's progress: a mistake has no walkthrough but its conflict
    status, data = _post(
        server,
        "walkthrough",
        {"puzzle": "latin", "instance": "four.lp", "progress": ["cell(1,3,3)"]},
    )
    assert status == 200 and data["status"] == "unsolvable" and len(data["frames"]) == 1


# -- in the browser --------------------------------------------------------------------
def _shown(driver: Any) -> dict[str, Any]:
    """What the walkthrough shows: its count, sentence, the highlighted places, and
    whether every part of the board lies inside the drawing and no two texts overlap."""
    return driver.execute_script(
        """
        const walk = document.querySelector('[data-role=walk]');
        const svg = document.querySelector('[data-role=board] svg');
        const frame = svg.getBoundingClientRect();
        const outside = [...svg.querySelectorAll('*')].filter((element) => {
          if (!element.getBoundingClientRect || element.closest('title')) { return false; }
          const b = element.getBoundingClientRect();
          if (b.width === 0 && b.height === 0) { return false; }
          return b.left < frame.left - 1 || b.top < frame.top - 1
            || b.right > frame.right + 1 || b.bottom > frame.bottom + 1;
        }).map((element) => element.outerHTML.slice(0, 80));
        const overlapping = overlappingTexts(svg, 1);
        const text = document.querySelector('[data-role=walk-text]');
        const box = text.getBoundingClientRect();
        const pick = (kind) => [...svg.querySelectorAll(`[data-walk=${kind}]`)]
          .map((e) => e.dataset.cell || e.dataset.side || e.dataset.mark).sort();
        return {
          hidden: walk.hidden,
          count: document.querySelector('[data-role=walk-count]').textContent,
          text: text.textContent,
          textVisible: box.width > 0 && box.height > 0 && box.right <= window.innerWidth
            && getComputedStyle(text).visibility === 'visible',
          textAboveBoard: box.bottom <= frame.top,
          new: pick('new'), out: pick('out'), reason: pick('reason'),
          outside, overlapping,
        };
        """
        + test_web.OVERLAPPING_TEXTS
    )


def _key(driver: Any, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def _walked(driver: Any, count: str) -> dict[str, Any]:
    _wait(driver, lambda d: _shown(d)["count"] == count)
    shown = _shown(driver)
    assert not shown["hidden"] and shown["textVisible"] and shown["textAboveBoard"]
    assert shown["outside"] == [] and shown["overlapping"] == []
    return shown


def _frames(server: Any, puzzle: str, instance: str) -> list[dict[str, Any]]:
    status, data = _post(server, "walkthrough", {"puzzle": puzzle, "instance": instance})
    assert status == 200
    return list(data["frames"])


def _expected(frame: dict[str, Any]) -> tuple[list[str], list[str]]:
    return sorted(frame["new"]), sorted(frame["out"])


@needs_browser
def test_show_me_how_steps_through_a_haunted_walkthrough(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    frames = _frames(server, "haunted", "gen-4x4-s2")
    steps = len(frames) - 1
    _open(browser, server, "puzzle=haunted&instance=gen-4x4-s2", "click a cell")
    said = _press(browser, "walkthrough", "steps")
    assert said.startswith(f"haunted gen-4x4-s2.txt: solved, {steps} steps")
    first = _walked(browser, f"step 1 of {steps}")
    assert first["text"] == frames[1]["text"]
    assert first["text"].startswith("cell (4,4): a vampire")
    assert (first["new"], first["out"]) == (["4,4"], [])
    assert "clue(9,0)" in first["reason"]  # the clue 0 at the bottom of column 3
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-forward]").click()
    second = _walked(browser, f"step 2 of {steps}")
    assert second["text"] == frames[2]["text"] and second["text"] != first["text"]
    assert (second["new"], second["out"]) == _expected(frames[2])
    _key(browser, Keys.ARROW_RIGHT)
    third = _walked(browser, f"step 3 of {steps}")
    assert (third["new"], third["out"]) == _expected(frames[3])
    assert third["text"] == frames[3]["text"]
    _key(browser, Keys.ARROW_LEFT)
    assert _walked(browser, f"step 2 of {steps}")["text"] == frames[2]["text"]
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-back]").click()
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-back]").click()
    start = _walked(browser, f"the start ({steps} steps)")
    assert start["new"] == [] and start["text"].startswith("the start")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-action=walk-back]").is_enabled()
    for _ in range(7):
        _key(browser, Keys.ARROW_RIGHT)
    seventh = _walked(browser, f"step 7 of {steps}")
    assert (seventh["new"], seventh["out"]) == _expected(frames[7])
    assert seventh["new"]  # a step that sets an entry
    test_web._screenshot(browser, "walkthrough-haunted")
    # A click on the board while the walkthrough is shown plays nothing.
    _cell(browser, "1,1").click()
    _wait(browser, lambda d: "a walkthrough is shown" in _message(d))
    # Play from here: the entries shown become the progress (Undo takes them back).
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-keep]").click()
    _wait(browser, lambda d: _shown(d)["hidden"])
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") == "V")
    assert _cell(browser, "3,3").get_attribute("data-value") == "Z"
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-role=board] [data-walk]")
    # From the progress: the walkthrough goes on from there (its entries given, the
    # values ruled out on the way to them ruled out again).
    _press(browser, "walkthrough", "steps")
    _wait(browser, lambda d: _shown(d)["count"].startswith("step 1 of "))
    later = _shown(browser)
    assert 0 < int(later["count"].split()[-1]) < steps
    assert "4,4" not in later["new"] + later["out"]
    _key(browser, Keys.ESCAPE)
    _wait(browser, lambda d: _shown(d)["hidden"])
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") == "V")
    browser.find_element(By.CSS_SELECTOR, "[data-action=undo]").click()
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") is None)
    _no_console_errors(browser)


@needs_browser
def test_show_me_how_on_a_bare_latin_square(server, browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    frames = _frames(server, "latin", "four.lp")
    steps = len(frames) - 1
    _open(browser, server, "puzzle=latin&instance=four.lp", "click a cell")
    _press(browser, "walkthrough", "steps")
    seen = []
    for number in range(1, steps + 1):
        shown = _walked(browser, f"step {number} of {steps}")
        assert shown["text"] == frames[number]["text"]
        assert (shown["new"], shown["out"]) == _expected(frames[number])
        for key in shown["new"]:  # the value the step sets is on the board
            value = _cell(browser, key).get_attribute("data-value")
            assert value and f"cell({key},{value})" in " ".join(frames[number]["entries"])
        seen.append(shown["new"])
        if number < steps:
            _key(browser, Keys.ARROW_RIGHT)
    assert len({tuple(new) for new in seen}) > 1  # the highlighted cells change
    assert not browser.find_element(By.CSS_SELECTOR, "[data-action=walk-forward]").is_enabled()
    test_web._screenshot(browser, "walkthrough-latin")
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-close]").click()
    _wait(browser, lambda d: _shown(d)["hidden"])
    _wait(browser, lambda d: not d.find_elements(By.CSS_SELECTOR, "[data-role=board] [data-walk]"))
    assert _cell(browser, "2,2").get_attribute("data-value") is None  # the player's board
    _no_console_errors(browser)


@pytest.fixture(scope="module")
def hurried() -> Any:
    """A server whose requests have 8 s: a Killer's walkthrough takes minutes."""
    yield from test_web._serving(8)


@pytest.mark.slow
@needs_browser
def test_show_me_how_shows_the_steps_found_before_the_servers_limit(hurried, browser):
    """Cut by the request's limit, the walkthrough is shown as far as it got: every
    step stepped through, the last saying that the time limit stopped it and what is
    still open, its sentence on the page, not clipped."""
    from selenium.webdriver.common.keys import Keys

    _open(browser, hurried, "puzzle=killer&instance=gen-9x9-s1.lp", "click a cell")
    said = _press(browser, "walkthrough", "steps")
    assert said.startswith("killer gen-9x9-s1.lp: time limit reached, "), said
    steps = int(said.split(", ")[-1].split()[0])
    assert steps > 0
    for number in range(1, steps + 1):
        shown = _walked(browser, f"step {number} of {steps}")
        assert shown["new"] or shown["out"], number  # each step marks what it concludes
        _key(browser, Keys.ARROW_RIGHT)
    assert "; the time limit stopped the walkthrough here; still open: " in shown["text"]
    _no_console_errors(browser)


def test_capture_walks_through_its_plan_behind_the_gate(server, cli):
    """A puzzle played by moves: its frames are the start and each move's board, each
    holding the moves made up to it (the player's first), as its walkthrough's JSON."""
    body = {"puzzle": "capture", "instance": "wight", "progress": ["7 1 Up"]}
    status, data = _post(server, "walkthrough", body)
    assert status == 200 and data["plan"] == "the fewest moves"
    command = cli("walkthrough", "capture", "wight", "--progress", "7 1 Up", "--format", "json")
    assert {k: v for k, v in data.items() if k not in ("frames", "message")} == command.json()
    moves = [step["move"] for step in data["steps"]]
    assert [frame["entries"] for frame in data["frames"]] == [
        ["7 1 Up", *moves[:number]] for number in range(len(moves) + 1)
    ]
    assert data["frames"][1]["text"] == data["steps"][0]["text"] == f"move {moves[0]}"
    assert (
        data["message"]
        == "capture wight.txt: solved from the board after the 1 move made, 5 moves, the fewest possible"
    )
    status, data = _post(server, "walkthrough", {**body, "progress": ["0 0 Up"]})
    assert status == 400 and list(data) == ["error"]


@pytest.mark.slow
def test_captures_plan_past_the_servers_limit_says_what_its_search_proved(hurried):
    """A game's board whose shortest plan takes some 20 s to prove, asked of a server
    with 8 s: the answer is what the search proved before the limit (status
    ``timeout``, the start drawn and saying so), not the limit's 504."""
    from tests.conftest import long_plan

    board = long_plan().read_text()
    status, data = _post(hurried, "walkthrough", {"puzzle": "capture", "instance": board})
    assert status == 200, data
    assert (data["status"], data["plan"], data["steps"]) == ("timeout", "moves", [])
    assert re.fullmatch(r"proved: none within \d+ moves?; \d+ moves? unanswered", data["progress"])
    assert data["message"] == f"capture pasted.txt: timeout, {data['progress']}"
    [start] = data["frames"]
    assert start["svg"].startswith("<svg") and start["text"].endswith(
        f"the time limit stopped the search ({data['progress']})"
    )


@needs_browser
def test_show_me_how_steps_through_captures_plan(server, browser):
    """Capture's "Show me how" is its plan, a move a frame; "Play from here" makes the
    moves shown the player's; Fix, which takes entries back, is not offered."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    frames = _frames(server, "capture", "wight")
    _open(browser, server, "puzzle=capture&instance=wight", "click a tile, then a neighbour")
    assert not browser.find_element(By.CSS_SELECTOR, "[data-action=fix]").is_enabled()
    said = _press(browser, "walkthrough", "moves")
    assert said == "capture wight.txt: solved, 6 moves, the fewest possible"
    first = _walked(browser, "step 1 of 6")
    assert first["text"] == frames[1]["text"] == "move 7 1 Up"
    _key(browser, Keys.ARROW_RIGHT)
    second = _walked(browser, "step 2 of 6")
    assert second["text"] == frames[2]["text"]
    assert test_web._boards(browser) == 2  # the board the move is made on, and after it
    legend = {
        kind: browser.find_element(By.CSS_SELECTOR, f"[data-for={kind}]").is_displayed()
        for kind in ("plan", "entries")
    }
    assert legend == {"plan": True, "entries": False}  # no entries set, no values ruled out
    test_web._screenshot(browser, "walkthrough-capture")
    browser.find_element(By.CSS_SELECTOR, "[data-action=walk-keep]").click()
    _wait(browser, lambda d: _shown(d)["hidden"])
    # The two moves are the player's now: the check counts the four left.
    assert _press(browser, "check", "left") == "no mistakes: 4 moves left at best"
    _no_console_errors(browser)


# -- the walkthrough's own page ----------------------------------------------------------
def _page_state(driver: Any) -> dict[str, Any]:
    return driver.execute_script(
        """
        const root = document.querySelector('.aspuzzles-walk');
        const shown = [...root.querySelectorAll('li.walk-frame')]
          .filter((li) => li.getBoundingClientRect().height > 0);
        const li = shown[0];
        const svg = li.querySelector('svg');
        const frame = svg.getBoundingClientRect();
        const outside = [...svg.querySelectorAll('*')].filter((element) => {
          if (element.closest('title')) { return false; }
          const b = element.getBoundingClientRect();
          if (b.width === 0 && b.height === 0) { return false; }
          return b.left < frame.left - 1 || b.top < frame.top - 1
            || b.right > frame.right + 1 || b.bottom > frame.bottom + 1;
        }).length;
        const text = li.querySelector('.walk-text').getBoundingClientRect();
        return {
          shown: shown.map((li) => li.dataset.frame),
          count: root.querySelector('[data-walk-role=count]').textContent,
          text: li.querySelector('.walk-text').textContent,
          textVisible: text.height > 0 && text.top >= frame.bottom - 1,
          new: [...svg.querySelectorAll('[data-walk=new]')].map((e) => e.dataset.cell).sort(),
          outside,
        };
        """
    )


@needs_browser
@pytest.mark.parametrize(("puzzle", "instance"), [("haunted", "gen-4x4-s2"), ("latin", "four.lp")])
def test_the_walkthrough_page_steps_forward_and_back(workspace, browser, puzzle, instance):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    import aspuzzles
    from aspuzzles.hinting.walkthrough_views import frames, html

    walk = aspuzzles.walkthrough(puzzle, instance)
    drawn = frames(walk)
    page = Path(workspace) / f"walk-{puzzle}.html"
    page.write_text(html(walk, page=True))
    browser.get(page.as_uri())
    steps = len(walk.steps)

    def at(number: int) -> dict[str, Any]:
        expected = f"step {number} of {steps}" if number else f"the start ({steps} steps)"
        _wait(browser, lambda d: _page_state(d)["count"] == expected)
        state = _page_state(browser)
        assert state["shown"] == [str(number)]  # one board at a time
        assert state["text"] == drawn[number].text and state["textVisible"]
        assert state["new"] == sorted(drawn[number].new) and state["outside"] == 0
        return state

    at(1)
    browser.find_element(By.CSS_SELECTOR, "[data-walk-action=forward]").click()
    at(2)
    _key(browser, Keys.ARROW_RIGHT)
    at(3)
    _key(browser, Keys.ARROW_LEFT)
    _key(browser, Keys.ARROW_LEFT)
    at(1)
    browser.find_element(By.CSS_SELECTOR, "[data-walk-action=back]").click()
    at(0)
    _key(browser, Keys.END)
    at(steps)
    _no_console_errors(browser)


# -- Fix -------------------------------------------------------------------------------
def test_the_fix_action_names_the_entries_to_take_back(server):
    body = {"puzzle": "latin", "instance": "four.lp", "progress": ["cell(1,3,3)", "cell(1,4,3)"]}
    status, data = _post(server, "fix", body)
    assert status == 200 and data["status"] == "mistakes"
    assert data["take_back"] == [change["entry"] for change in data["changes"]]
    assert data["take_back"] and set(data["take_back"]) <= set(body["progress"])
    assert data["places"] == [atom[len("cell(") : -len(",3)")] for atom in data["take_back"]]
    assert data["svg"].startswith("<svg") and data["message"].startswith("take back")
    status, data = _post(server, "fix", {"puzzle": "latin", "instance": "four.lp"})
    assert status == 200 and data["take_back"] == [] and "nothing to fix" in data["message"]
    status, data = _post(server, "fix", {"puzzle": "../latin", "progress": ["cell(1,3,3)"]})
    assert status == 400 and list(data) == ["error"]


@needs_browser
def test_fix_marks_the_entries_to_take_back_and_takes_them_back(server, browser):
    from selenium.webdriver.common.by import By

    query = (
        'puzzle=haunted&instance=gen-4x4-s2&progress=["monster(4,4,ghost)","monster(3,3,zombie)"]'
    )
    _open(browser, server, query, "click a cell")
    said = _press(browser, "fix", "take back")
    assert said.startswith("take back cell (4,4): a ghost")
    marked = browser.find_elements(By.CSS_SELECTOR, "[data-role=board] [data-fix=take-back]")
    assert [element.get_attribute("data-cell") for element in marked] == ["4,4"]
    offer = browser.find_element(By.CSS_SELECTOR, "[data-role=fix]")
    assert offer.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "[data-action=fix-apply]").click()
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") is None)
    assert _cell(browser, "3,3").get_attribute("data-value") == "Z"  # the rest kept
    assert not offer.is_displayed()
    browser.find_element(By.CSS_SELECTOR, "[data-action=undo]").click()
    _wait(browser, lambda d: _cell(d, "4,4").get_attribute("data-value") == "G")
    _no_console_errors(browser)
