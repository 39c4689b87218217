"""``aspuzzles serve``: the web board, a page and a small JSON API on 127.0.0.1,
served by uvicorn (the application is ``web.app``'s, on Starlette).

uvicorn serves connections concurrently on one event loop: an idle or slow client
holds only its own socket (idle keep-alive connections are closed after
``KEEP_ALIVE`` seconds, a body must come within ``app.BODY_SECONDS``, and h11 bounds
the headers' size). Each request's work runs in a worker process of the engine's
guard, so the server's own memory stays flat however many requests it answers.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import threading
from typing import Any

from .gate import MOST_BYTES

__all__ = ["MOST_BYTES", "BoardServer", "serve"]

#: Seconds an idle keep-alive connection is kept open.
KEEP_ALIVE = 5
#: Seconds a client has, from its connection (or its first byte after an answer),
#: to send a request's headers.
HEADER_SECONDS = 10.0
#: Connections and requests served at once; past them, uvicorn answers 503.
MOST_CONNECTIONS = 256
#: Seconds the requests being answered are given to end when the server stops.
GRACEFUL = 2
#: Worker processes answering the page's questions at once (``--workers``).
WORKERS = 2
#: What ``serve`` says when the web extra is not installed.
MISSING = "aspuzzles serve: the web board needs Starlette and uvicorn: pip install 'aspuzzles[web]'"


class BoardServer:
    """The server, bound to its port at once (``port`` 0: any free one), served by
    ``serve_forever`` (in a thread of its own, for tests) until ``shutdown``."""

    def __init__(
        self, port: int, timeout: float, memory: int | None, workers: int = WORKERS
    ) -> None:
        import uvicorn

        from .app import Board, application

        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.socket.bind(("127.0.0.1", port))
        self.socket.listen(128)
        self.board = Board(self.port, timeout, memory, workers)
        config = uvicorn.Config(
            application(self.board),
            log_level="critical",
            access_log=False,
            lifespan="off",
            timeout_keep_alive=KEEP_ALIVE,
            limit_concurrency=MOST_CONNECTIONS,
            server_header=False,
            timeout_graceful_shutdown=GRACEFUL,
            http=_protocol(),
            loop="asyncio",
        )
        self.uvicorn = uvicorn.Server(config)
        self.stopped = threading.Event()

    @property
    def port(self) -> int:
        return int(self.socket.getsockname()[1])

    @property
    def workers(self) -> set[int]:
        """The pids of the worker processes running now."""
        with self.board.lock:
            return set(self.board.workers)

    def serve_forever(self) -> None:
        """Start the fork server (the engine imported once), then serve."""
        try:
            self.board.warm()
            self.uvicorn.run(sockets=[self.socket])
        finally:
            self.stopped.set()

    def start(self) -> BoardServer:
        """Serve in a thread of this process (tests), once the server is up."""
        threading.Thread(target=self.serve_forever, daemon=True).start()
        while not self.uvicorn.started and not self.stopped.wait(0.01):
            pass
        return self

    def shutdown(self) -> None:
        self.uvicorn.should_exit = True
        self.stopped.wait(10)

    def server_close(self) -> None:
        self.socket.close()


class _HeaderDeadline:
    """Mixed into uvicorn's h11 protocol: a deadline for a request's headers, and JSON
    for a request h11 cannot read. uvicorn closes an idle connection only after an
    answer (``timeout_keep_alive``), so a client that connects and says nothing, or
    sends its headers a byte at a time, would hold its socket for ever; past
    ``HEADER_SECONDS`` it is closed."""

    deadline: asyncio.TimerHandle | None = None
    cycle: Any
    conn: Any
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # type: ignore[misc]
        if self._waiting():
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)  # type: ignore[misc]

    def _waiting(self) -> bool:
        """Whether no request is being answered: its headers are awaited."""
        return self.cycle is None or bool(self.cycle.response_complete)

    def _arm(self) -> None:
        if self.deadline is None:
            self.deadline = self.loop.call_later(HEADER_SECONDS, self._late)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _late(self) -> None:
        self.deadline = None
        if self._waiting() and not self.transport.is_closing():
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot read (bad syntax, headers past its 16 KiB): answered
        as every refusal is, one line of JSON, and the connection closed."""
        import h11

        said = json.dumps({"error": f"not an HTTP request this server reads: {msg}"}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=said),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()


def _protocol() -> Any:
    """uvicorn's h11 protocol with the headers' deadline."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    return type("Protocol", (_HeaderDeadline, H11Protocol), {})


def serve(
    port: int, open_page: bool, timeout: float, memory: int | None, workers: int = WORKERS
) -> int:
    """Serve until Ctrl-C; the exit code of an interrupted command (2 without the web
    extra installed)."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        print(MISSING, file=sys.stderr)
        return 2
    try:
        server = BoardServer(port, timeout, memory, workers)
    except OSError as error:
        print(f"aspuzzles serve: error: port {port}: {error.strerror}", file=sys.stderr)
        return 1
    url = f"http://127.0.0.1:{server.port}/"
    print(f"aspuzzles serve: {url} (Ctrl-C stops it)", flush=True)
    try:
        if open_page:
            import webbrowser

            webbrowser.open(url)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("aspuzzles serve: stopped", file=sys.stderr)
    return 130
