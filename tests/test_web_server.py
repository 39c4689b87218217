"""The web board's server (``aspuzzles serve``) under hostile and heavy use: a real
server on loopback, real sockets. Its gate (names, pasted text, origin, content type,
sizes, JSON shape), its concurrency (idle and slow sockets, a budget of workers
answered 503 past it, a client that leaves), its cleanliness (temporary folders,
memory). Every shipped instance through every endpoint: ``test_web_instances``."""

from __future__ import annotations

import http.client
import json
import os
import socket
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from aspuzzles.registry import get_puzzle
from aspuzzles.web import app
from aspuzzles.web import server as server_module
from aspuzzles.web.server import BoardServer

from . import test_web
from .conftest import ROOT
from .test_bare_hints import LATIN_4

# The web tests' working folder, with a bare encoding ('latin') of its own.
workspace = test_web.workspace

CHEAP = {"puzzle": "haunted", "instance": "gen-5x5-s3", "progress": ["monster(4,4,ghost)"]}
#: A solve of a few seconds that starts worker processes of its own.
HEAVY = {"puzzle": "tiles", "instance": "gen-animal-10x10-24-kinds"}


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The temporary folder of this process (the server's, in a thread of it), one of
    its own: other processes' folders are not counted."""
    folder = tmp_path_factory.mktemp("scratch")
    before, tempfile.tempdir = tempfile.tempdir, str(folder)
    yield folder
    tempfile.tempdir = before


@pytest.fixture(scope="module")
def served(workspace: Path, scratch: Path) -> Iterator[BoardServer]:
    """The server of most tests (a limit long enough for every shipped solve on a
    loaded machine)."""
    server = BoardServer(0, 300, None, workers=2).start()
    yield server
    server.shutdown()
    server.server_close()


def _headers(server: BoardServer, **more: str) -> dict[str, str]:
    return {"Host": f"127.0.0.1:{server.port}", "Content-Type": "application/json", **more}


def _ask(
    server: BoardServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any], dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
    connection.request(method, path, body=body, headers=headers or _headers(server))
    response = connection.getresponse()
    raw = response.read()
    connection.close()
    assert response.getheader("Content-Type", "").startswith("application/json"), raw[:200]
    return response.status, json.loads(raw), dict(response.getheaders())


def _post(server: BoardServer, action: str, body: Any, **headers: str) -> tuple[int, dict]:
    status, data, _ = _ask(
        server, "POST", f"/api/{action}", json.dumps(body).encode(), _headers(server, **headers)
    )
    return status, data


def _one_line(data: dict[str, Any]) -> str:
    assert set(data) == {"error"}
    said = data["error"]
    assert said and "\n" not in said and "Traceback" not in said
    return str(said)


# -- names: nothing reaches a file by name ---------------------------------------------
def test_a_puzzle_is_a_registered_name_never_a_path(served, workspace, tmp_path):
    canary = tmp_path / "canary.lp"
    canary.write_text("canary(1).\n#show canary/1.\n")
    through = os.path.relpath(tmp_path / "canary", workspace / "encodings")
    assert get_puzzle(through).name  # the registry would run it: a live canary
    started = served.board.started
    for name in (
        str(tmp_path / "canary"),
        through,
        "../encodings/latin",
        "latin/../latin",
        "encodings/latin",
        "haunted/",
        "./haunted",
        "nosuch",
        "",
    ):
        for action in ("solve", "board", "hint"):
            status, data = _post(served, action, {"puzzle": name})
            assert status == 400, (name, data)
            assert "canary" not in _one_line(data) or "unknown puzzle" in data["error"]
    assert served.board.started == started  # refused before any work: no file was read
    assert _post(served, "solve", {"puzzle": "latin", "instance": "four.lp"})[0] == 200


@pytest.mark.parametrize(
    "text",
    [
        '#include "/etc/hostname".',
        "given(1,1,1).\n#script (python)\nimport os\n#end.",
        '#const n = "x".',
        "#external given(1,1,1).",
        "#program base.\ngiven(1,1,1).",
        "#show given/3.",
        "given(1,1,1). #include <incmode>.",
    ],
)
def test_pasted_text_holds_facts_only(served, text):
    status, data = _post(served, "board", {"puzzle": "latin", "instance": text})
    assert status == 400 and "directive" in _one_line(data)
    status, data = _post(served, "hint", {"puzzle": "haunted", "instance": text})
    assert status == 400 and "directive" in _one_line(data)


def test_pasted_text_with_numbers_as_constants_and_comments_is_read(served, cli):
    text = '% #include "/etc/hostname".\n' + LATIN_4  # a comment, and #const n = 4.
    status, data = _post(served, "solve", {"puzzle": "latin", "instance": text})
    assert status == 200 and data["status"] == "solved"
    shipped = (ROOT / "instances" / "haunted" / "seed-4x4.lp").read_text()
    status, data = _post(served, "solve", {"puzzle": "haunted", "instance": shipped})
    assert (
        status == 200
        and data["solutions"]
        == cli("solve", "haunted", "seed-4x4", "--format", "json").json()["solutions"]
    )


def test_progress_is_atoms_never_text_with_directives(served):
    for progress in (['#include "/etc/hostname"'], ["cell(1,1,1).\n#script"], [3], "x"):
        body = {"puzzle": "latin", "instance": "four.lp", "progress": progress}
        assert _post(served, "hint", body)[0] == 400
    body = {"puzzle": "capture", "instance": "wight", "progress": ["6 2 Right\n#include"]}
    assert _post(served, "board", body)[0] == 400


# -- the gate -----------------------------------------------------------------------------
def test_another_origin_is_refused(served):
    status, data = _post(served, "hint", CHEAP, Origin="https://evil.example")
    assert status == 403 and "origin" in _one_line(data)
    status, data = _post(served, "hint", CHEAP, Origin=f"http://localhost:{served.port}")
    assert status == 200
    status, data = _post(served, "hint", CHEAP, Host="evil.example")
    assert status == 403 and "Host" in _one_line(data)


def test_a_post_must_be_json(served):
    body = json.dumps(CHEAP).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        status, data, _ = _ask(
            served, "POST", "/api/hint", body, _headers(served, **{"Content-Type": kind})
        )
        assert status == 415, kind
        _one_line(data)


def test_other_methods_and_paths_answer_json(served):
    headers = _headers(served, Origin=f"http://127.0.0.1:{served.port}")
    headers["Access-Control-Request-Method"] = "POST"
    status, data, _ = _ask(served, "OPTIONS", "/api/hint", None, headers)
    assert status == 405
    _one_line(data)
    foreign = _headers(served, Origin="http://evil.example")
    status, data, answer = _ask(served, "OPTIONS", "/api/hint", None, foreign)
    assert status == 403 and "Access-Control-Allow-Origin" not in answer
    assert _ask(served, "PUT", "/api/hint", b"{}")[0] == 405
    assert _ask(served, "GET", "/api/hint")[0] == 405
    assert _ask(served, "GET", "/nothing")[0] == 404
    assert _ask(served, "POST", "/api/nothing", b"{}")[0] == 404


def test_a_body_too_large_is_refused_unread(served):
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as client:
        client.sendall(
            f"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 2000000\r\n\r\n".encode()
        )
        received = b""
        while chunk := client.recv(65536):  # headers and body may come apart
            received += chunk
        answer = received.decode()
    assert answer.startswith("HTTP/1.1 413") and '{"error":' in answer
    chunked = _headers(served, **{"Transfer-Encoding": "chunked"})
    status, data, _ = _ask(served, "POST", "/api/hint", iter([b"{}"]), chunked)
    assert status == 411 and _one_line(data)


def test_what_is_not_http_gets_one_line_of_json(served):
    for raw in (b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nX: " + b"y" * 70_000 + b"\r\n\r\n"):
        with _raw(served) as client:
            client.sendall(raw)
            answer = b""
            while chunk := client.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 400") and b'{"error": "not an HTTP request' in answer


@pytest.mark.parametrize(
    "body, said",
    [
        (b"[" * 100_000 + b"]" * 100_000, "nests"),
        (b'{"puzzle": "haunted", "seed": ' + b"9" * 5000 + b"}", "digits"),
        (b'{"puzzle": "haunted", "seed": 1e400}', "seed"),
        (b'{"puzzle": "haunted", "seed": NaN}', "NaN"),
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not JSON"),
        (b"[1, 2]", "object"),
        (b'{"puzzle": 3}', "puzzle"),
        (b'{"puzzle": "haunted", "instance": ["x"]}', "instance"),
        (b'{"puzzle": "haunted", "progress": "monster(1,1,ghost)"}', "progress"),
        (b'{"puzzle": "haunted", "seed": true}', "seed"),
        (b'{"puzzle": "haunted", "seed": -1}', "seed"),
        (b'{"puzzle": "haunted", "difficulty": "bogus"}', "easy"),
        (b'{"puzzle": "haunted", "difficulty": 3}', "difficulty"),
    ],
)
def test_bad_bodies_get_one_line(served, body, said):
    status, data, _ = _ask(served, "POST", "/api/generate", body)
    assert status == 400 and said in _one_line(data)


@pytest.mark.parametrize(
    "progress, named",
    [
        ("monster(1,1)", "monster(1,1)"),
        ("monster(99999999999,1,ghost)", "99999999999"),
        ("foo(1)", "foo(1)"),
        ("monster(0,0,ghost)", "monster(0,0,ghost)"),
        ("monster(9,9,ghost)", "monster(9,9,ghost)"),
        ("monster(2,2,dragon)", "monster(2,2,dragon)"),
        ("monster(", "monster("),
        ("42", "42"),
    ],
)
@pytest.mark.parametrize("action", ["board", "hint", "check", "explain"])
def test_malformed_progress_is_a_bad_request_naming_the_entry(served, action, progress, named):
    body = {"puzzle": "haunted", "instance": "gen-5x5-s3", "progress": [progress]}
    status, data = _post(served, action, body)
    assert status == 400 and named in _one_line(data)


def test_what_the_work_raises_is_one_line_of_json():
    """A bug's exception (not the engine's InputError) is a 500 in one line, the
    request's folder unnamed; the limits are 504 and 507."""
    from aspuzzles.errors import InputError, MemoryLimit, TimeLimit

    folder = "/tmp/aspuzzles-web-x"
    for raised, status in (
        (KeyError("a\nb"), 500),
        (InputError(f"{folder}/pasted.txt:1: bad"), 400),
        (TimeLimit("time limit"), 504),
        (MemoryLimit("memory limit"), 507),
    ):
        answer = app._failure(raised, folder)
        data = json.loads(answer.body)
        assert answer.status_code == status and folder not in _one_line(data)


# -- concurrency ----------------------------------------------------------------------
def _raw(server: BoardServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


@pytest.mark.slow
def test_idle_and_slow_sockets_hold_no_one_up_and_are_closed(workspace, monkeypatch):
    monkeypatch.setattr(server_module, "HEADER_SECONDS", 1.5)
    monkeypatch.setattr(app, "BODY_SECONDS", 1.5)
    server = BoardServer(0, 60, None).start()
    try:
        idle, slow_headers, slow_body = _raw(server), _raw(server), _raw(server)
        slow_headers.sendall(b"POST /api/hint HTTP/1.1\r\nHost: ")
        slow_body.sendall(
            f"POST /api/hint HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{".encode()
        )
        started = time.monotonic()
        status, _ = _post(server, "hint", CHEAP)
        assert status == 200 and time.monotonic() - started < 1.5
        time.sleep(2.5)
        assert idle.recv(100) == b""  # closed by the server
        assert slow_headers.recv(100) == b""
        answer = slow_body.recv(65536)
        assert answer.startswith(b"HTTP/1.1 408") and b'"error"' in answer
        for sock in (idle, slow_headers, slow_body):
            sock.close()
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.slow
def test_heavy_requests_past_the_budget_are_busy_and_a_click_is_answered(served):
    """20 heavy solves at once: 2 run (``--workers 2``), the rest are 503 at once;
    meanwhile a click's board (its own budget) is answered within a second."""
    body = json.dumps(HEAVY).encode()

    def heavy(_: int) -> int:
        return _ask(served, "POST", "/api/solve", body)[0]

    with ThreadPoolExecutor(20) as pool:
        answers = pool.map(heavy, range(20))
        deadline = time.monotonic() + 30
        while len(served.workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        started = time.monotonic()
        status, data = _post(served, "board", CHEAP)
        took = time.monotonic() - started
        statuses = list(answers)
    assert status == 200 and data["svg"].startswith("<svg")
    assert took < 1.0, f"the click waited {took:.2f} s"
    assert statuses.count(200) >= 2 and set(statuses) <= {200, 503}
    assert statuses.count(503) >= 10


@pytest.mark.slow
def test_a_client_that_leaves_has_its_worker_killed(served):
    body = json.dumps(HEAVY).encode()
    client = _raw(served)
    client.sendall(
        f"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    deadline = time.monotonic() + 20
    while not served.workers and time.monotonic() < deadline:
        time.sleep(0.02)
    (worker,) = served.workers
    children = _descendants(worker)
    client.close()
    deadline = time.monotonic() + 5
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker) and not served.workers
    time.sleep(0.5)
    assert not any(_alive(child) for child in children)  # its own workers went with it


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state != "Z"


def _descendants(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        found += [int(child) for child in children]
    return found + [grand for child in found for grand in _descendants_safe(child)]


def _descendants_safe(pid: int) -> list[int]:
    try:
        return _descendants(pid)
    except OSError:
        return []


# -- cleanliness ----------------------------------------------------------------------
def _temporary_folders() -> set[str]:
    return {entry.name for entry in os.scandir(tempfile.gettempdir())}


def _resident_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_a_pasted_instance_leaves_no_temporary_folder(served, cli):
    text = (ROOT / "instances" / "haunted" / "gen-5x5-s3.txt").read_text()
    before = _temporary_folders()
    for action in ("board", "hint", "solve", "grade"):
        status, _ = _post(served, action, {"puzzle": "haunted", "instance": text})
        assert status == 200
    status, _ = _post(served, "hint", {"puzzle": "haunted", "instance": "garbage"})
    assert status == 400
    assert _temporary_folders() == before


@pytest.mark.slow
def test_temporary_folders_and_memory_stay_flat_over_500_requests(served):
    text = (ROOT / "instances" / "haunted" / "gen-5x5-s3.txt").read_text()
    body = {**CHEAP, "instance": text}
    for _ in range(20):  # caches warm
        _post(served, "hint", body)
    folders, before = _temporary_folders(), _resident_kb()
    for index in range(500):
        action = ("hint", "board", "check")[index % 3]
        assert _post(served, action, body)[0] == 200
    assert _resident_kb() - before < 20_000
    assert _temporary_folders() == folders


def test_the_server_starts_in_a_thread_and_stops(workspace):
    server = BoardServer(0, 10, None).start()
    assert _post(server, "hint", CHEAP)[0] == 200
    server.shutdown()
    server.server_close()
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", server.port), timeout=2)


def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch, capsys):
    import builtins

    real = builtins.__import__

    def without(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in ("starlette", "uvicorn"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without)
    assert server_module.serve(0, False, 10, None) == 2
    said = capsys.readouterr().err.strip()
    assert "\n" not in said and "pip install 'aspuzzles[web]'" in said


def test_a_solved_board_is_a_board(served):
    """The page draws a solve's entries as progress (a given's place included)."""
    for puzzle, instance in (("latin", "four.lp"), ("haunted", "gen-5x5-s3")):
        status, solved = _post(served, "solve", {"puzzle": puzzle, "instance": instance})
        assert status == 200
        body = {"puzzle": puzzle, "instance": instance, "progress": solved["entries"]}
        status, data = _post(served, "board", body)
        assert status == 200, data
        assert _post(served, "check", body)[1]["message"] == "no mistakes"
