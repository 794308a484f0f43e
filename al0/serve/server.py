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
the threads that answer requests stay free; past :data:`SEARCH_WAITING`
waiting, a search is refused (503) rather than queued for minutes.

Every request is checked before any work (:meth:`Handler.refusal`): the
page answers only for the server's own address (``Host``: no other site
reaches it by DNS rebinding) and only to its own page (``Origin``: no
other site's page posts to it), and its body is framed one way only (one
``Content-Length`` in digits, no ``Transfer-Encoding``): a request framed
otherwise could be read two ways, so the connection is closed after the
refusal.
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import sys
import threading
import warnings
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any, Callable

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
SEARCH_WAITING = 4
"""Searches that may wait for a worker; one more is answered 503 at once
(the page says the server is busy) instead of waiting behind them all."""
BACKLOG = 128
"""Connections the system holds for the server before it accepts them
(Python's default, 5, makes a burst of clients wait a second to retry)."""
LENGTH = re.compile(r"[0-9]{1,12}")
"""A ``Content-Length`` as read: digits only (no sign, no ``_``, no list)."""
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
"""The names of this machine every server answers for."""
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


def split_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name (lower case, an IPv6 address without its
    brackets) and port (None when not given); None when it is neither."""
    value = value.strip().lower()
    if value.startswith("["):
        name, bracket, rest = value[1:].partition("]")
        if not bracket:
            return None
    else:
        name, colon, port = value.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isdigit() and rest[1:].isascii()):
        return None
    return name, int(rest[1:]) if rest else None


def _address_family(host: str) -> socket.AddressFamily:
    """IPv6 for an IPv6 address (``::1``, ``::``, ``[::1]``), IPv4 otherwise:
    the standard library's server listens on IPv4 only unless told."""
    try:
        version = ipaddress.ip_address(host.strip("[]")).version
    except ValueError:
        return socket.AF_INET
    return socket.AF_INET6 if version == 6 else socket.AF_INET


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Server(ThreadingHTTPServer):
    """The server: an :class:`Api`, the search pool, and the page."""

    daemon_threads = True
    """Connections still open when the server stops do not keep it alive."""
    request_queue_size = BACKLOG

    def __init__(self, api: Api, host: str = "127.0.0.1", port: int = 0):
        self.api = api
        self.searches = ThreadPoolExecutor(SEARCH_WORKERS, thread_name_prefix="al0-search")
        self._search_places = threading.BoundedSemaphore(SEARCH_WORKERS + SEARCH_WAITING)
        self.address_family = _address_family(host)
        super().__init__((host.strip("[]"), port), Handler)
        bound = self.server_address[0]
        bound = bound.decode() if isinstance(bound, bytes) else bound
        self.port: int = self.server_address[1]
        self.everywhere = bound in ("0.0.0.0", "::")
        """Listening on every interface: others reach it by any of the
        machine's addresses (an address is never a name DNS rebinding can use)."""
        names = {*LOOPBACK_NAMES, bound.lower(), host.lower().strip("[]")}
        self.names = frozenset(names | ({socket.gethostname().lower()} if self.everywhere else set()))
        """The host names it answers for (``--host`` among them)."""

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else host
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"

    def is_own(self, host: str) -> bool:
        """Whether ``host`` (a ``Host`` header, ``name:port``) names this
        server: one of :attr:`names` (any address when :attr:`everywhere`)
        and its port (no port: 80)."""
        split = split_host(host)
        if split is None:
            return False
        name, port = split
        if (port if port is not None else 80) != self.port:
            return False
        return name in self.names or (self.everywhere and _is_address(name))

    def search(self, work: Callable[..., Any], *args: Any) -> Future[Any] | None:
        """``work(*args)`` on the search pool; None when
        :data:`SEARCH_WORKERS` run and :data:`SEARCH_WAITING` wait already."""
        if not self._search_places.acquire(blocking=False):
            return None
        try:
            future = self.searches.submit(work, *args)
        except BaseException:
            self._search_places.release()
            raise
        future.add_done_callback(lambda _: self._search_places.release())
        return future

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that failed outside the API's own error handling: a
        client gone (reset, a broken pipe, timed out) is no news, anything
        else a one-line warning (the command shows it), never a traceback
        on the command's terminal."""
        error = sys.exc_info()[1]
        if error is None or isinstance(error, (ConnectionError, TimeoutError)):
            return
        warnings.warn(
            " ".join(f"a request failed: {type(error).__name__}: {error}".split()),
            RuntimeWarning,
            stacklevel=1,
        )

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
    length = 0
    """The body's length, as :meth:`refusal` read it."""

    def version_string(self) -> str:
        """The ``Server`` header: al0, not Python's version."""
        return self.server_version

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the command's terminal shows the address, not each request."""

    def parse_request(self) -> bool:
        """The request line and headers read, and the request refused
        (closing the connection) when :meth:`refusal` says so."""
        return super().parse_request() and self._answerable()

    def handle_expect_100(self) -> bool:
        """``Expect: 100-continue``: the client is asked for its body only
        when the request is not refused (this runs before :meth:`parse_request` returns)."""
        return self._answerable() and super().handle_expect_100()

    def _answerable(self) -> bool:
        refused = self.refusal()
        if refused is None:
            return True
        self.close_connection = True
        self._error(*refused)
        return False

    def refusal(self) -> tuple[int, str] | None:
        """Why this request is not answered (a status and a message), or
        None: checked before any work, on every request."""
        hosts = self.headers.get_all("Host") or []
        if len(hosts) > 1:
            return HTTPStatus.BAD_REQUEST, "more than one Host header"
        if not hosts and self.request_version != "HTTP/1.0":
            return HTTPStatus.BAD_REQUEST, "a request needs a Host header"
        if hosts and not self.server.is_own(hosts[0]):
            return HTTPStatus.FORBIDDEN, (
                f"this server answers only at its own address, not {hosts[0][:100]!r}"
            )
        origins = self.headers.get_all("Origin") or []
        if origins and (len(origins) > 1 or not self._own_origin(origins[0])):
            return (
                HTTPStatus.FORBIDDEN,
                f"requests from other sites are refused (Origin {origins[0][:100]!r})",
            )
        if self.headers.get_all("Transfer-Encoding"):
            return HTTPStatus.NOT_IMPLEMENTED, "a Transfer-Encoding is not read: send a Content-Length"
        lengths = self.headers.get_all("Content-Length") or []
        if len(lengths) > 1:
            return HTTPStatus.BAD_REQUEST, "more than one Content-Length"
        if lengths and not LENGTH.fullmatch(lengths[0].strip(" \t")):
            return HTTPStatus.BAD_REQUEST, f"a Content-Length is digits, not {lengths[0][:20]!r}"
        self.length = int(lengths[0]) if lengths else 0
        if self.command == "POST" and not lengths:
            return HTTPStatus.LENGTH_REQUIRED, "a body needs a Content-Length"
        if self.length > MAX_BODY:
            return (
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"a body of {self.length} bytes: the most is {MAX_BODY}",
            )
        if self.length and self.command != "POST":
            return HTTPStatus.BAD_REQUEST, f"a {self.command} request has no body"
        return None

    def _own_origin(self, origin: str) -> bool:
        """Whether ``origin`` is this server's page (``null`` is not)."""
        scheme, _, host = origin.partition("://")
        return scheme.lower() == "http" and "/" not in host and self.server.is_own(host)

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if self.close_connection:
            self.send_header("Connection", "close")
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
        raw = self.rfile.read(self.length)  # read whatever the route: the next request starts after it
        if not path.startswith("/api/"):
            self._error(HTTPStatus.NOT_FOUND, f"no such endpoint: {path[:100]!r}")
            return
        try:
            body = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON")
            return
        except RecursionError:
            self._error(HTTPStatus.BAD_REQUEST, "the body is not JSON al0 reads: nested too deeply")
            return
        if not isinstance(body, dict):
            self._error(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
            return
        self._api(path[len("/api/") :], body)

    def _api(self, route: str, body: dict[str, Any]) -> None:
        api = self.server.api
        try:
            if route in api.searching:
                search = self.server.search(api.call, route, body)
                if search is None:
                    self._error(
                        HTTPStatus.SERVICE_UNAVAILABLE,
                        f"the server is busy: {SEARCH_WORKERS + SEARCH_WAITING} searches are "
                        f"running or waiting; try again in a moment",
                    )
                    return
                answer = search.result()
            else:
                answer = api.call(route, body)
        except ApiError as error:
            self._error(error.status, str(error))
            return
        except CancelledError:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, "the server is stopping")
            return
        except Exception as error:  # a bug, or a table library's: one line, not a traceback
            self._error(
                HTTPStatus.INTERNAL_SERVER_ERROR, " ".join(f"{type(error).__name__}: {error}".split())
            )
            return
        self._json(HTTPStatus.OK, answer)
