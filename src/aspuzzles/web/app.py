"""The web board's application (Starlette): the gate, the page, and the API, each
request's work in a worker process of the engine's guard.

- Only this server's own page may ask: a request whose ``Host`` is not
  ``127.0.0.1:PORT``/``localhost:PORT`` is refused (403, against DNS rebinding), as is
  one with another ``Origin`` (403); a POST must be ``application/json`` (415), which
  a page elsewhere cannot send without a CORS preflight, and a preflight (``OPTIONS``)
  is refused (405, or 403 from another origin).
- A body is read only after its ``Content-Length`` (411 without, 413 past
  ``MOST_BYTES``, unread) and within ``BODY_SECONDS`` (408: a slow sender is cut).
- The fields are checked here, before any work (``gate``): a bad one is a 400.
- Work runs in a worker process started from a fork server (the engine preloaded:
  never a fork of this process, whose threads a fork would copy halfway), under the
  time and memory limits; the worker may start processes of its own (a solve's), and
  dies with the server. At most ``workers`` run at once, and ``board`` (the page's
  answer to each click, quick) has a budget of its own, so that a click is answered
  while heavy questions run; a request past its budget is answered 503 at once.
- A client that goes away has its worker killed.
- Every answer is JSON; an error is ``{"error": one line}``.
"""

from __future__ import annotations

import asyncio
import functools
import json
import multiprocessing
import os
import tempfile
import threading
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..driver.guard import Bounds, Cancelled, run_guarded_async
from ..errors import AspuzzlesError, InputError, MemoryLimit, TimeLimit
from . import gate
from .gate import ACTIONS, MOST_BYTES, Refused

#: Seconds a client has to send a request's body.
BODY_SECONDS = 10.0
#: The worker processes kept for ``board`` beyond ``workers``.
BOARD_WORKERS = 2
#: The actions answered on ``board``'s budget.
QUICK = frozenset({"board"})


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


class Budget:
    """Worker processes, at most ``size`` at once: taken at once or not at all."""

    def __init__(self, size: int) -> None:
        self.size, self.used = size, 0

    def take(self) -> bool:
        if self.used >= self.size:
            return False
        self.used += 1
        return True

    def give(self) -> None:
        self.used -= 1


class Board:
    """The application's state: its port (for the gate), bounds, budgets, the fork
    server's context and the pids of the workers running (for tests to look at)."""

    def __init__(self, port: int, timeout: float, memory: int | None, workers: int) -> None:
        self.port = port
        self.bounds = Bounds(timeout, memory)
        self.heavy, self.quick = Budget(workers), Budget(BOARD_WORKERS)
        self.workers: set[int] = set()
        self.started = 0  # workers started in all
        self.lock = threading.Lock()
        context = multiprocessing.get_context("forkserver")
        from .work import PRELOAD

        context.set_forkserver_preload(list(PRELOAD))
        self.context = context

    def hosts(self) -> set[str]:
        return {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}

    def origins(self) -> set[str]:
        return {f"http://{host}" for host in self.hosts()}

    def watch(self, pid: int, running: bool) -> None:
        with self.lock:
            if running:
                self.workers.add(pid)
                self.started += 1
            else:
                self.workers.discard(pid)

    def warm(self) -> None:
        """Start the fork server (it imports the engine) and one worker through it, so
        that the first request does not wait for them."""
        from .work import ready

        asyncio.run(run_guarded_async(ready, Bounds(60.0, None), self.context))


def _refusal(board: Board, request: Request) -> Response | None:
    """The gate: another host or origin (403), a preflight (405)."""
    if request.headers.get("host", "") not in board.hosts():
        return error(403, "unknown Host: refused")
    origin = request.headers.get("origin")
    if origin is not None and origin not in board.origins():
        return error(403, "another origin: refused")
    if request.method == "OPTIONS":
        return error(405, "no cross-origin requests")
    return None


def _announced(request: Request) -> None:
    """The body's ``Content-Length``: given (411), at most ``MOST_BYTES`` (413)."""
    length = request.headers.get("content-length")
    if length is None or not length.isdigit() or len(length) > 12:
        raise Refused(411, "Content-Length required")
    if int(length) > MOST_BYTES:
        raise Refused(413, f"more than {MOST_BYTES} bytes")


async def _body(request: Request) -> bytes:
    """The body (its length announced, see ``_announced``), within ``BODY_SECONDS``."""
    chunks: list[bytes] = []

    async def read() -> None:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MOST_BYTES:
                raise Refused(413, f"more than {MOST_BYTES} bytes")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), BODY_SECONDS)
    except asyncio.TimeoutError:
        raise Refused(408, f"the body did not come within {BODY_SECONDS:g} s") from None
    except ClientDisconnect:
        raise Refused(400, "the client went away") from None
    return b"".join(chunks)


def _json_post(request: Request) -> None:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise Refused(415, "a request's body must be application/json")


async def page(request: Request) -> Response:
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    from .page import page as document

    return HTMLResponse(await asyncio.to_thread(document), headers={"Cache-Control": "no-store"})


async def puzzles(request: Request) -> Response:
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    from .page import puzzles as listed

    return _json(200, {"puzzles": await asyncio.to_thread(listed)})


async def api(request: Request) -> Response:
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    action = request.path_params["action"]
    if action not in ACTIONS:
        return error(404, f"no action {action[:60]}")
    try:
        _announced(request)
        _json_post(request)
        body = await _body(request)
        fields = await asyncio.to_thread(_fields, action, body)
    except Refused as no:
        return _closing(error(no.status, no.message), no.status)
    except InputError as bad:
        return error(400, str(bad))
    budget = board.quick if action in QUICK else board.heavy
    if not budget.take():
        return error(503, "busy: as many questions as the server takes are being answered")
    try:
        return await _answer(board, request, action, fields)
    finally:
        budget.give()


def _fields(action: str, body: bytes) -> dict[str, Any]:
    """The body read and its fields checked (in a thread: a large body takes a while)."""
    return gate.fields(action, gate.json_object(body))


async def _answer(board: Board, request: Request, action: str, fields: dict[str, Any]) -> Response:
    """The work, in a worker under the bounds, in a folder of the request's own."""
    from .work import perform

    folder = await asyncio.to_thread(tempfile.TemporaryDirectory, prefix="aspuzzles-web-")
    try:
        work = functools.partial(perform, action, fields, folder.name, os.getcwd())
        data = await run_guarded_async(
            work, board.bounds, board.context, request.is_disconnected, board.watch
        )
    except Cancelled:
        return error(499, "the client went away")
    except Exception as failed:
        return _failure(failed, folder.name)
    finally:
        await asyncio.to_thread(folder.cleanup)
    return _json(200, data)


def _failure(failed: Exception, folder: str) -> Response:
    """What the work raised, as one line (the request's folder not named)."""
    said = str(failed).replace(folder + os.sep, "")
    if isinstance(failed, TimeLimit):
        return error(504, said)
    if isinstance(failed, MemoryLimit):
        return error(507, said)
    if isinstance(failed, InputError):
        return error(400, said)
    if isinstance(failed, AspuzzlesError):
        return error(422, said)
    # a bug of the engine's: said in one line, and the server goes on
    return error(500, f"internal error: {type(failed).__name__}: {said}")


def _json(status: int, data: Any) -> Response:
    body = json.dumps(data).encode()
    return Response(
        body, status, media_type="application/json", headers={"Cache-Control": "no-store"}
    )


def _closing(response: Response, status: int) -> Response:
    """A refusal whose body may be left unread closes the connection."""
    if status in (408, 411, 413):
        response.headers["Connection"] = "close"
    return response


async def _not_found(request: Request, exc: Exception) -> Response:
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    return error(404, f"no page {request.url.path[:60]}")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    return error(405, f"{request.method[:10]} is not taken here")


async def _failed(request: Request, exc: Exception) -> Response:
    return error(500, f"internal error: {type(exc).__name__}")


def application(board: Board) -> Starlette:
    methods = ["GET", "POST", "OPTIONS", "HEAD", "PUT", "DELETE", "PATCH"]
    app = Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            Route("/api/puzzles", puzzles, methods=["GET"]),
            Route("/api/{action}", api, methods=["POST"]),
            Route("/{path:path}", _options, methods=methods),
        ],
        exception_handlers={404: _not_found, 405: _not_allowed, 500: _failed},
    )
    app.state.board = board
    return app


async def _options(request: Request) -> Response:
    """Every other path and method: refused as JSON (a preflight included)."""
    board: Board = request.app.state.board
    if (refused := _refusal(board, request)) is not None:
        return refused
    if request.url.path in ("/", "/api/puzzles") or request.url.path.startswith("/api/"):
        return error(405, f"{request.method[:10]} is not taken here")
    return error(404, f"no page {request.url.path[:60]}")
