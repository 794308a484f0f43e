"""The HTTP server of ``al0 serve``: the page's files and the JSON API.

The standard library's ``ThreadingHTTPServer`` is enough here, so al0 needs
no web framework: one thread per connection (a search never holds up the
page of another client, and a slow client holds only its own thread), a
clean stop (``shutdown()`` from the thread that runs the command, daemon
threads for connections left open), and requests bounded by hand — a body
over :data:`MAX_BODY` is refused before it is read, a connection idle for
:data:`REQUEST_SECONDS` is closed. Searches and tablebase work run on a
small pool of their own (:data:`SEARCH_WORKERS`), bounded like ``al0
plan``'s (its node budget and time limit), so however many are asked for,
the threads that answer requests stay free.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

from al0.serve.api import ApiError
from al0.serve.routes import Api

MAX_BODY = 16 * 1024
"""The largest request body read: a move or a FEN takes under 300 bytes."""
REQUEST_SECONDS = 30.0
"""How long a connection may take to send its request (a stalled client
does not keep its thread)."""
SEARCH_WORKERS = 2
"""Searches run at once (the machine's cores are for the searches; more
wait their turn)."""
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
"""The page's files, the only files the server sends (by name: no path is
ever joined from a request)."""


def static_file(name: str) -> bytes:
    """A file of the page, read from the package (so an installed wheel serves it)."""
    return resources.files("al0.serve").joinpath("static", name).read_bytes()


class Server(ThreadingHTTPServer):
    """The server: an :class:`Api`, the search pool, and the page."""

    daemon_threads = True
    """Connections still open when the server stops do not keep it alive."""

    def __init__(self, api: Api, host: str = "127.0.0.1", port: int = 0):
        self.api = api
        self.searches = ThreadPoolExecutor(SEARCH_WORKERS, thread_name_prefix="al0-search")
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else host
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def server_close(self) -> None:
        super().server_close()
        self.api.stop.set()  # the searches running end now; those waiting never start
        self.searches.shutdown(wait=False, cancel_futures=True)
        self.api.close()  # the exercises still open are counted


class Handler(BaseHTTPRequestHandler):
    """One request: ``GET /`` and the page's files, ``GET``/``POST /api/…``."""

    server: Server
    timeout = REQUEST_SECONDS
    protocol_version = "HTTP/1.1"
    server_version = "al0"

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the command's terminal shows the address, not each request."""

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, answer: dict[str, Any]) -> None:
        self._send(status, json.dumps(answer).encode(), "application/json")

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": message, "status": status})

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path.startswith("/api/"):
            self._api(path[len("/api/") :], {})
            return
        name = "index.html" if path == "/" else path.lstrip("/")
        if name == "favicon.ico":  # asked for by every browser: there is none
            self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            return
        if name not in STATIC:
            self._error(HTTPStatus.NOT_FOUND, f"no such file: {path[:100]!r}")
            return
        self._send(HTTPStatus.OK, static_file(name), STATIC[name])

    do_HEAD = do_GET

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        if not path.startswith("/api/"):
            self._error(HTTPStatus.NOT_FOUND, f"no such endpoint: {path[:100]!r}")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._error(HTTPStatus.LENGTH_REQUIRED, "a body needs a Content-Length")
            return
        if length < 0 or length > MAX_BODY:
            # Not read: the connection is closed after the answer.
            self.close_connection = True
            self._error(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a body of {length} bytes: the most is {MAX_BODY}"
            )
            return
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, UnicodeDecodeError):
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return
        if not isinstance(body, dict):
            self._error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
            return
        self._api(path[len("/api/") :], body)

    def _api(self, route: str, body: dict[str, Any]) -> None:
        api = self.server.api
        try:
            if route in api.searching:
                answer = self.server.searches.submit(api.call, route, body).result()
            else:
                answer = api.call(route, body)
        except ApiError as error:
            self._error(error.status, str(error))
            return
        except Exception as error:  # a bug, or a table library's: one line, not a traceback
            self._error(
                HTTPStatus.INTERNAL_SERVER_ERROR, " ".join(f"{type(error).__name__}: {error}".split())
            )
            return
        self._json(HTTPStatus.OK, answer)
