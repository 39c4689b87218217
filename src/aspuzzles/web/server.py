"""``aspuzzles serve``: the web board, a page and a small JSON API on 127.0.0.1.

Python's own HTTP server: the page is one static document and every answer is the
engine's, so a framework would add a dependency and nothing it needs. Requests are
answered one at a time, each in a worker process of the engine's guard
(``driver.guard``) under the time and memory limits: a hung solve is cut by its limit,
and clingo's memory is the worker's, given back when it ends (the server's own stays
flat however many requests it answers).

Safety for a server on a person's machine: it binds 127.0.0.1 only; a request whose
``Host`` is not this server (``127.0.0.1:PORT`` or ``localhost:PORT``) is refused, so
a web page elsewhere cannot reach it through DNS rebinding; a request body is at most
``MOST_BYTES``; an instance is a shipped name or text, never a path on disk.
"""

from __future__ import annotations

import json
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any
from urllib.parse import urlsplit

from ..errors import AspuzzlesError, InputError, MemoryLimit, TimeLimit

#: The largest request body read, in bytes.
MOST_BYTES = 1 << 20
#: The longest request line (with its query) answered, in characters.
MOST_TARGET = 1 << 16
#: What the page may ask, by path: the answering function of ``actions``.
ACTIONS = ("board", "check", "hint", "explain", "grade", "solve", "generate")


class BoardServer(HTTPServer):
    """The server with its limits for every request's work."""

    def __init__(self, port: int, timeout: float, memory: int | None) -> None:
        super().__init__(("127.0.0.1", port), BoardHandler)
        self.work_timeout = timeout
        self.work_memory = memory

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def allowed_hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}


class BoardHandler(BaseHTTPRequestHandler):
    server: BoardServer
    server_version = "aspuzzles"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a request is not worth a line on the terminal."""

    # -- the gate ----------------------------------------------------------------------
    def _admitted(self) -> bool:
        if self.headers.get("Host", "") not in self.server.allowed_hosts():
            self._send_json(HTTPStatus.FORBIDDEN, {"error": "unknown Host: refused"})
            return False
        if len(self.path) > MOST_TARGET:
            self._send_json(HTTPStatus.REQUEST_URI_TOO_LONG, {"error": "request too long"})
            return False
        return True

    def do_GET(self) -> None:
        if not self._admitted():
            return
        path = urlsplit(self.path).path
        if path == "/":
            from .page import page

            self._send(HTTPStatus.OK, "text/html; charset=utf-8", page().encode())
        elif path == "/api/puzzles":
            from .page import puzzles

            self._send_json(HTTPStatus.OK, {"puzzles": puzzles()})
        else:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no page {path}"})

    def do_POST(self) -> None:
        if not self._admitted():
            return
        action = urlsplit(self.path).path.removeprefix("/api/")
        if action not in ACTIONS:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no action {action}"})
            return
        request = self._request()
        if request is None:
            return
        status, data = self._answer(action, request)
        self._send_json(status, data)

    def _request(self) -> dict[str, Any] | None:
        length = self.headers.get("Content-Length")
        if length is None or not length.isdigit():
            self._send_json(HTTPStatus.LENGTH_REQUIRED, {"error": "Content-Length required"})
            return None
        if int(length) > MOST_BYTES:
            self._send_json(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"more than {MOST_BYTES} bytes"}
            )
            self.close_connection = True
            return None
        try:
            request = json.loads(self.rfile.read(int(length)) or b"{}")
        except (UnicodeDecodeError, json.JSONDecodeError):
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": "the body is not JSON"})
            return None
        if not isinstance(request, dict):
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": "the body is not a JSON object"})
            return None
        return request

    # -- the work ----------------------------------------------------------------------
    def _answer(self, action: str, request: dict[str, Any]) -> tuple[HTTPStatus, dict[str, Any]]:
        from ..driver.guard import Bounds, run_guarded

        try:
            work = _work(action, request)
            data = run_guarded(work, Bounds(self.server.work_timeout, self.server.work_memory))
        except TimeLimit as error:
            return HTTPStatus.GATEWAY_TIMEOUT, {"error": str(error)}
        except MemoryLimit as error:
            return HTTPStatus.INSUFFICIENT_STORAGE, {"error": str(error)}
        except InputError as error:
            return HTTPStatus.BAD_REQUEST, {"error": str(error)}
        except AspuzzlesError as error:
            return HTTPStatus.UNPROCESSABLE_ENTITY, {"error": str(error)}
        return HTTPStatus.OK, data

    def _send_json(self, status: HTTPStatus, data: dict[str, Any]) -> None:
        self._send(status, "application/json", json.dumps(data).encode())

    def _send(self, status: HTTPStatus, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def _field(request: dict[str, Any], name: str, kind: type, default: Any) -> Any:
    value = request.get(name, default)
    if value is not None and not isinstance(value, kind):
        raise InputError(f"'{name}' must be {kind.__name__}")
    return value


def _work(action: str, request: dict[str, Any]) -> Any:
    """The request's work, to run in a worker: its fields checked here."""
    from . import actions

    puzzle = _field(request, "puzzle", str, "")
    instance = _field(request, "instance", str, "")
    progress = _field(request, "progress", list, [])
    if not all(isinstance(entry, str) for entry in progress):
        raise InputError("'progress' must be a list of strings (atoms, or moves)")
    if action == "board":
        marked = _field(request, "marked", list, [])
        if not all(isinstance(atom, str) for atom in marked):
            raise InputError("'marked' must be a list of atoms")
        return lambda: actions.board(puzzle, instance, progress, marked)
    if action == "solve":
        return lambda: actions.solve(puzzle, instance, progress)
    if action == "generate":
        difficulty = _field(request, "difficulty", str, None)
        seed = _field(request, "seed", int, None)
        return lambda: actions.generate(puzzle, instance, difficulty, seed)
    return lambda: actions.question(action, puzzle, instance, progress)


def serve(port: int, open_page: bool, timeout: float, memory: int | None) -> int:
    """Serve until Ctrl-C; the exit code of an interrupted command."""
    server = BoardServer(port, timeout, memory)
    url = f"http://127.0.0.1:{server.port}/"
    print(f"aspuzzles serve: {url} (Ctrl-C stops it)", flush=True)
    if open_page:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("aspuzzles serve: stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 130
