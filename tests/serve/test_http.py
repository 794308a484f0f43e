"""al0 serve over raw sockets, as a hostile page or client would talk to
it: only its own address and its own page are answered, a body is framed
one way only, a deeply nested body is a 400, and searches past a small
queue are refused at once."""

from __future__ import annotations

import json
import socket
import subprocess
import threading
from typing import Any, Iterator

import pytest

from al0.serve import Api, Server, Tables
from al0.serve.server import BACKLOG, SEARCH_WAITING, SEARCH_WORKERS, split_host

KQK = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"


@pytest.fixture(scope="module")
def server(tablebase_cache: Any) -> Iterator[Server]:
    served = Server(Api(Tables(), budget=1_000_000))
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()


def exchange(server: Server, request: bytes) -> list[tuple[int, dict[str, Any]]]:
    """Every answer the server gives to the bytes of ``request`` until it
    closes the connection: (status, JSON body) each."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as connection:
        connection.sendall(request)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    answers = []
    while received:
        head, _, rest = received.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        length = next(int(line.split(":")[1]) for line in lines if line.lower().startswith("content-length:"))
        answers.append((int(lines[0].split()[1]), json.loads(rest[:length]) if length else {}))
        received = rest[length:]
    return answers


def post(server: Server, route: str, body: bytes, *headers: str, host: str | None = None) -> bytes:
    """A POST of ``body`` to ``/api/route`` with ``headers`` (and a
    ``Content-Length``), closing after its answer; ``host``: the ``Host``
    header (the server's own by default, none when empty)."""
    host = f"127.0.0.1:{server.port}" if host is None else host
    lines = [f"POST /api/{route} HTTP/1.1", *([f"Host: {host}"] if host else []), *headers]
    lines += [f"Content-Length: {len(body)}", "Connection: close"]
    return "".join(line + "\r\n" for line in lines).encode() + b"\r\n" + body


POSITION = json.dumps({"fen": KQK}).encode()


@pytest.mark.parametrize(
    "host, origin, status",
    [
        ("127.0.0.1:{port}", None, 200),
        ("localhost:{port}", None, 200),
        ("[::1]:{port}", None, 200),
        ("LOCALHOST:{port}", "http://localhost:{port}", 200),  # the page's own requests
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}", 200),
        ("evil.example:{port}", None, 403),  # DNS rebinding: a foreign name for our address
        ("localhost.evil.example:{port}", None, 403),
        ("127.0.0.1:1{port}", None, 403),  # another port
        ("10.0.0.7:{port}", None, 403),  # an address not listened on
        ("localhost", None, 403),  # no port: 80
        ("", None, 400),  # HTTP/1.1 without Host
        ("127.0.0.1:{port}", "http://evil.example", 403),  # another site's page
        ("127.0.0.1:{port}", "null", 403),  # a sandboxed frame, a file:// page
        ("127.0.0.1:{port}", "https://127.0.0.1:{port}", 403),
        ("127.0.0.1:{port}", "http://127.0.0.1:{port}/x", 403),
    ],
)
def test_only_its_own_address_and_page_are_answered(
    server: Server, host: str, origin: str | None, status: int
) -> None:
    headers = [f"Origin: {origin.format(port=server.port)}"] if origin is not None else []
    (answer,) = exchange(
        server, post(server, "position", POSITION, *headers, host=host.format(port=server.port))
    )
    assert answer[0] == status, answer


def test_a_foreign_plain_text_post_is_refused_before_its_body_is_read(server: Server) -> None:
    """A foreign page's form or fetch with a text/plain body (no preflight)
    is refused on its headers: the body, a plan to search, is not read."""
    body = json.dumps({"table": "kbbk"}).encode()
    request = post(server, "plan", body, "Origin: http://evil.example", "Content-Type: text/plain")
    ((status, answer),) = exchange(server, request)
    assert status == 403 and "other sites" in answer["error"]


@pytest.mark.parametrize(
    "headers, status",
    [
        (["Content-Length: 1_6"], 400),
        (["Content-Length: +16"], 400),
        (["Content-Length: 16, 16"], 400),
        (["Content-Length: 16", "Content-Length: 16"], 400),
        (["Transfer-Encoding: chunked", "Content-Length: 16"], 501),
        (["Transfer-Encoding: chunked"], 501),
        ([], 411),
    ],
)
def test_a_body_framed_two_ways_is_refused_and_the_connection_closed(
    server: Server, headers: list[str], status: int
) -> None:
    """What follows the first request's headers is never read as a second request."""
    smuggled = f"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode()
    own = f"Host: 127.0.0.1:{server.port}\r\n"
    request = f"POST /api/position HTTP/1.1\r\n{own}{''.join(h + chr(13) + chr(10) for h in headers)}\r\n"
    answers = exchange(server, request.encode() + b"0\r\n\r\n" + smuggled)
    assert [code for code, _ in answers] == [status], answers


def test_a_foreign_request_is_not_asked_for_its_body(server: Server) -> None:
    """``Expect: 100-continue`` from another site: refused, no ``100 Continue`` first."""
    request = post(server, "plan", b"{}", "Origin: http://evil.example", "Expect: 100-continue")
    head = request.partition(b"\r\n\r\n")[0] + b"\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as connection:
        connection.sendall(head)
        first = connection.recv(65536)
    assert first.startswith(b"HTTP/1.1 403"), first


def test_a_get_with_a_body_is_refused(server: Server) -> None:
    request = f"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Length: 5\r\n\r\nhello"
    assert [code for code, _ in exchange(server, request.encode())] == [400]


def test_deeply_nested_json_is_a_400_and_the_server_goes_on(server: Server) -> None:
    nested = b"[" * 4000 + b"]" * 4000  # within the largest body read
    ((status, answer),) = exchange(server, post(server, "position", nested))
    assert status == 400 and "nested too deeply" in answer["error"]
    ((status, _),) = exchange(server, post(server, "position", POSITION))
    assert status == 200


def test_searches_past_the_queue_are_refused_at_once(server: Server) -> None:
    """Every worker busy and every waiting place taken: a plan is a 503
    (not a wait behind them all), and answers again once they are done;
    requests that do not search are answered meanwhile."""
    release = threading.Event()
    held = [server.search(release.wait, 60) for _ in range(SEARCH_WORKERS + SEARCH_WAITING)]
    plan = json.dumps({"table": "kqk", "fen": KQK}).encode()
    try:
        assert all(job is not None for job in held)
        ((status, answer),) = exchange(server, post(server, "plan", plan))
        assert status == 503 and "busy" in answer["error"]
        assert exchange(server, post(server, "position", POSITION))[0][0] == 200
    finally:
        release.set()
    assert all(job is not None and job.result() for job in held)
    assert exchange(server, post(server, "plan", plan))[0][0] == 200


def test_the_listen_backlog_takes_a_burst(server: Server) -> None:
    """The listening socket's queue, as the system reports it (``ss``'s
    Send-Q of a listening socket), is :data:`BACKLOG`, not Python's 5."""
    try:
        shown = subprocess.run(
            ["ss", "-ltnH", f"sport = :{server.port}"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("no ss to read the listening socket")
    assert BACKLOG >= 128 and int(shown.split()[2]) == BACKLOG, shown


def test_a_client_gone_is_no_traceback_and_a_bug_one_warning(
    server: Server, capsys: pytest.CaptureFixture[str]
) -> None:
    """What escapes a request's handling reaches the server's error hook."""
    for error in (ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "Broken pipe")):
        try:
            raise error
        except OSError:
            server.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""
    with pytest.warns(RuntimeWarning, match=r"^a request failed: RecursionError: too deep$"):
        try:
            raise RecursionError("too\ndeep")
        except RecursionError:
            server.handle_error(None, ("127.0.0.1", 1))
    assert capsys.readouterr().err == ""


def test_the_server_header_names_no_python(server: Server) -> None:
    request = f"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as connection:
        connection.sendall(request.encode())
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    head = received.partition(b"\r\n\r\n")[0].decode()
    assert "Server: al0\r\n" in head and "Python" not in head, head


@pytest.mark.parametrize(
    "host, everywhere",
    [
        ("localhost:{port}", True),
        ("{hostname}:{port}", True),  # the machine's name, as others on the network type it
        ("192.168.1.5:{port}", True),  # any address: no foreign site is served from one
        ("[fe80::1]:{port}", True),
        ("evil.example:{port}", False),  # DNS rebinding still refused
        ("192.168.1.5:1{port}", False),
    ],
)
def test_listening_everywhere_answers_the_machines_addresses_only(host: str, everywhere: bool) -> None:
    """``--host 0.0.0.0``: the server is never started here (nothing is accepted)."""
    listening = Server(Api(Tables()), "0.0.0.0", 0)
    try:
        named = host.format(port=listening.port, hostname=socket.gethostname())
        assert listening.is_own(named) is everywhere
    finally:
        listening.server_close()


def test_an_ipv6_address_is_listened_on_and_answered() -> None:
    """``--host ::1``: the server listens on IPv6 and answers its own page."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError as error:
        pytest.skip(f"no IPv6 loopback on this machine: {error}")
    listening = Server(Api(Tables()), "::1", 0)
    thread = threading.Thread(target=listening.serve_forever, daemon=True)
    thread.start()
    try:
        assert listening.url == f"http://[::1]:{listening.port}/"
        with socket.create_connection(("::1", listening.port), timeout=60) as connection:
            connection.sendall(
                f"GET / HTTP/1.1\r\nHost: [::1]:{listening.port}\r\nConnection: close\r\n\r\n".encode()
            )
            status_line = connection.recv(64).split(b"\r\n")[0]
        assert status_line.split()[1] == b"200"
    finally:
        listening.shutdown()
        listening.server_close()


@pytest.mark.parametrize(
    "header, split",
    [
        ("localhost:8000", ("localhost", 8000)),
        ("LocalHost", ("localhost", None)),
        ("[::1]:80", ("::1", 80)),
        ("[::1]", ("::1", None)),
        ("[::1", None),
        ("127.0.0.1:80:80", None),
        ("127.0.0.1:+80", None),
        ("127.0.0.1:", None),
        ("127.0.0.1:٣", None),  # a digit, but not ASCII
    ],
)
def test_a_host_header_is_read_one_way(header: str, split: tuple[str, int | None] | None) -> None:
    assert split_host(header) == split
