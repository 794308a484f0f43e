"""Shared fixtures and helpers: where the test data lives, the bundled
tables loaded once per session, seeded random positions."""

from __future__ import annotations

import gc
import itertools
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import chess
import pytest

from al0.board import Material
from al0.board.position import from_board
from al0.collection import THRESHOLDS
from al0.lang.loader import load_table
from al0.lang.model import AdviceTable
from al0.lang.node import Node
from al0.lang.vocabulary.binding import Binder
from al0.lang.vocabulary.registry import COLOUR, ENTRIES

# pytester runs pytest inside the tests of the pytest plugin.
pytest_plugins = ["pytester"]
# Every YAML file under tests/ is test data, never a test item of al0's own
# pytest plugin (installed with al0, it would run verify on each table with
# an expect: block, and some are broken on purpose); the plugin's tests
# collect their tables inside their own pytest runs. (fnmatch's * crosses
# folders, so this covers every folder of tests/data/.)
collect_ignore_glob = ["*.yaml", "*.yml"]

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
TABLES = ROOT / "advice_tables"
"""The bundled tables."""
DATA = TESTS / "data"
"""Test data, by kind: each folder holds files of one kind (and what they name)."""
BROKEN_TABLES = DATA / "broken_tables"
"""Tables broken on purpose, one per kind of error, with the libraries they name."""
TEST_TABLES = DATA / "tables"
"""Small working tables the tests play or search with."""
PLUGIN_TABLES = DATA / "plugin_tables"
"""Tables and positions the pytest plugin's own tests collect."""
POSITIONS = DATA / "positions"
"""EPD suites of real positions."""
LIBRARIES = DATA / "libraries"
"""Predicate libraries (and the tables that name them)."""
FAKE_ENGINE = DATA / "engines" / "fake_uci.py"
"""A tiny UCI engine that plays the first legal move, or misbehaves on request."""


def mates(board: chess.Board, move: chess.Move) -> bool:
    """``move`` mates on ``board`` (python-chess, the oracle); the board is left as it was."""
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def one_step_value(table: Any, board: chess.Board) -> int:
    """A legal position's tablebase entry as one step of python-chess play
    gives it: 0 at a mate, a draw at a stalemate, else the best of its legal
    moves one ply on (the quickest win, else a draw, else the longest loss),
    each successor read from ``table`` or the smaller table a capture or a
    promotion leads to. No legal move may lead to an illegal entry."""
    from al0.tablebase import DRAW, ILLEGAL

    after = []
    for move in board.legal_moves:
        board.push(move)
        after.append(table._lookup(board))
        board.pop()
    assert ILLEGAL not in after, f"{board.fen()}: a legal move to an ILLEGAL entry"
    lost = [value for value in after if value != DRAW and value % 2 == 0]
    if not after:
        return 0 if board.is_check() else DRAW
    if lost:
        return 1 + min(lost)
    return DRAW if DRAW in after else 1 + max(after)


@pytest.fixture(scope="session")
def bratko() -> AdviceTable:
    """The book's KRK table."""
    return load_table(TABLES / "krk_bratko.yaml")


def files_in(folder: Path) -> dict[Path, bytes]:
    """Every file under ``folder`` with its bytes, Python's bytecode cache
    left out: importing a table's library writes ``__pycache__`` beside it
    wherever bytecode is written (not where PYTHONDONTWRITEBYTECODE is set),
    and that is no file of the user's that a command could lose."""
    return {
        path.relative_to(folder): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def pytest_configure(config: pytest.Config) -> None:
    """Where ``PYTHONDONTWRITEBYTECODE`` is set (the project's machines set
    it), every Python the tests start, each CLI run, child pytest and
    cluster worker, compiled the package afresh (1.1 s of CPU a process
    against 0.3 s with bytecode), and each of the workers rewrote every
    test module. The run writes its bytecode instead
    to a temporary folder of its own (``PYTHONPYCACHEPREFIX``), so nothing
    lands in the checkout and every later process reads it; the folder goes
    with the run. (Set once by the process that starts the run: its
    workers and children inherit the environment.)"""
    if not sys.dont_write_bytecode or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    folder = tempfile.mkdtemp(prefix="al0-tests-bytecode-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix = folder
    sys.dont_write_bytecode = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tier first, each tier in its own order. Under ``-n`` the
    workers are dealt the collection in halves and an idle one takes the back
    of another's queue; collected by folder, the whole-ending runs of
    tests/verify came last, so a run ended on one of them while the other
    worker waited. Led by them, the queues end on quick tests instead."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker more than the processors this run may use.
    Many tests wait with their core idle: a browser, a cluster's heartbeat,
    a child al0's start, an engine's grace; a third worker on two cores
    fills those waits."""
    affinity = getattr(os, "sched_getaffinity", None)
    return (len(affinity(0)) if affinity is not None else os.cpu_count() or 1) + 1


def pytest_collection_finish(session: pytest.Session) -> None:
    """Garbage is collected as al0's long runs collect it, at its thresholds
    (:data:`~al0.collection.THRESHOLDS`): at Python's own, each full
    collection walked every test module, item and table the worker keeps,
    3.7 s of each worker's CPU in the quick tier (5,500 collections); so,
    about 1.5 s. A test that needs a collection still gets one
    (``gc.collect()``). (Freezing what collection made saved little, and
    made ``gc.get_freeze_count()``, which walks the frozen objects, cost a
    test of verify's freezing 100 s.)"""
    gc.set_threshold(*THRESHOLDS)


RUN_CACHE = "AL0_TEST_RUN_CACHE"
"""The environment variable that hands a run's tablebase cache to a pytest
a test of it starts (a test sets it for its child; a user never does)."""


@pytest.fixture(scope="session", autouse=True)
def tablebase_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One tablebase cache for the whole run, in a temporary folder, never the
    user's: each table is built once a run, and no test's outcome depends on
    what the user's cache happens to hold (a test that expects no build lines
    passed only where the user had built the table before). Every al0 the
    tests start, in this process or as a child, finds it through
    ``$AL0_CACHE_DIR``; likewise ``$AL0_DATA_DIR`` keeps ``al0 practice``'s
    progress record out of the user's data folder.

    Under pytest-xdist (``-n``) the workers of one run share the cache, in
    the folder that holds each worker's own temporary folder, so a table is
    built once a run rather than once a worker: a build writes its file
    through a temporary file and a rename, so a worker reads a whole table
    or none, and two that build the same table at once write the same bytes.
    A pytest that a test starts may be handed it through :data:`RUN_CACHE`
    (tests/test_twin.py's run on the Python twin is: the twin would build
    the same tables, in Python, at many times the cost)."""
    shared = os.environ.get(RUN_CACHE)
    if shared:
        cache = Path(shared)
    elif os.environ.get("PYTEST_XDIST_WORKER"):
        cache = tmp_path_factory.getbasetemp().parent / "tablebase-cache"
        cache.mkdir(exist_ok=True)
    else:
        cache = tmp_path_factory.mktemp("tablebase-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AL0_CACHE_DIR", str(cache))
        patch.setenv("AL0_DATA_DIR", str(tmp_path_factory.mktemp("al0-data")))
        yield cache


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


@pytest.fixture(autouse=True)
def signals_as_found() -> Iterator[None]:
    """Every test leaves the process's stop signals as it found them: their
    handlers, and unblocked in the main thread. A test that does not is
    failed, and the signals put back, so the leak shows where it happens
    and not in a later test of the same worker (a SIGINT left blocked made
    ``al0 play`` run to mate through one, as the load decided which tests
    shared a worker)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # handlers belong to the main thread alone
        return
    handlers = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, ())
    yield
    left = {number: signal.getsignal(number) for number in STOP_SIGNALS}
    now = signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    for number, handler in handlers.items():
        signal.signal(number, handler)
    assert (left, now) == (handlers, blocked), "the test left the stop signals' handlers or mask changed"


def forks_of(pid: int) -> list[int]:
    """The child processes of ``pid`` forked from it (the same command line:
    verify's pool workers), read from /proc (Linux)."""

    def command(process: int) -> bytes:
        try:
            with open(f"/proc/{process}/cmdline", "rb") as line:
                return line.read()
        except OSError:  # it has just ended
            return b""

    children: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as listed:
            children += [int(child) for child in listed.read().split()]
    return [child for child in children if command(child) == command(pid)]


@pytest.fixture
def pool_sizes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The worker counts of the process pools verify starts while the test
    runs, in order (the pools are real: only their sizes are recorded)."""
    import al0.verify.run as verify_run

    made: list[int] = []

    class Recording(verify_run.ProcessPoolExecutor):
        def __init__(self, max_workers: int, **kwargs: Any):
            made.append(max_workers)
            super().__init__(max_workers, **kwargs)

    monkeypatch.setattr(verify_run, "ProcessPoolExecutor", Recording)
    return made


@pytest.fixture
def stop_at_first_progress(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``stop(number)`` makes an in-process ``al0 verify`` send signal
    ``number`` to itself and its workers (as ``timeout`` or systemd do to
    the whole group) the first time it reports progress or plans: a run
    stopped midway, at a moment that does not depend on the machine's speed."""
    import al0.cli.verify

    def stop(number: int) -> None:
        sent: list[int] = []

        def send() -> None:
            if not sent:
                sent.append(number)
                for worker in forks_of(os.getpid()):
                    os.kill(worker, number)
                os.kill(os.getpid(), number)

        monkeypatch.setattr(
            al0.cli.verify, "progress_lines", lambda pace: (send, lambda planned, known: send())
        )

    return stop


def random_position(
    rng: random.Random, material: str, drop: float = 0.1, turn: chess.Color | None = None
) -> chess.Board:
    """A legal position of ``material`` (white ours), each non-king piece
    taken off with chance ``drop`` so that the vocabulary meets missing
    pieces too; ``turn`` to move, else either side."""
    split = material.index("K", 1)
    while True:
        men = [(letter, chess.WHITE) for letter in material[:split]]
        men += [(letter, chess.BLACK) for letter in material[split:]]
        men = [m for m in men if m[0] == "K" or rng.random() > drop]
        board = chess.Board(None)
        for (letter, colour), square in zip(men, rng.sample(chess.SQUARES, len(men))):
            board.set_piece_at(square, chess.Piece.from_symbol(letter if colour else letter.lower()))
        board.turn = rng.choice(chess.COLORS) if turn is None else turn
        if board.is_valid():
            return board


def random_nodes(seed: str, material: str, count: int) -> Iterator[tuple[chess.Board, chess.Color, Node]]:
    """``count`` seeded :func:`random_position` boards of ``material``, each
    with a random side as ours and the search node of that side over it."""
    rng = random.Random(seed)
    for _ in range(count):
        board = random_position(rng, material)
        us = rng.choice(chess.COLORS)
        yield board, us, Node(from_board(board), 0, us)


def vocabulary_calls(material: str, kind: str, names: Iterable[str]) -> list[str]:
    """Every call of the vocabulary's entries ``names`` of ``kind``
    (``feature`` or ``predicate``) a material can make: each piece (or
    king) argument, each colour argument and none."""
    binder = Binder(Material.parse(material))
    calls = []
    for name in names:
        entry = ENTRIES.get(name)
        if entry is None:  # a standard predicate: no arguments
            calls.append(name)
            continue
        choices = [
            list(binder.pieces) + (["light", "dark"] if param == COLOUR else []) for param in entry.params
        ]
        for count in range(len(entry.params) - entry.optional, len(entry.params) + 1):
            for args in itertools.product(*choices[:count]):
                text = f"{name}({', '.join(args)})" if args else name
                try:
                    binder.bind(text, kind)
                except Exception:
                    continue  # not a call the loader accepts (a king expected, ...)
                calls.append(text)
    return calls


PAWN_MATERIALS = {
    "KPK": ((chess.PAWN, chess.WHITE),),
    "KPKP": ((chess.PAWN, chess.WHITE), (chess.PAWN, chess.BLACK)),
    "KPPK": ((chess.PAWN, chess.WHITE), (chess.PAWN, chess.WHITE)),
    "KQKP": ((chess.QUEEN, chess.WHITE), (chess.PAWN, chess.BLACK)),
    "KRPK": ((chess.ROOK, chess.WHITE), (chess.PAWN, chess.WHITE)),
    "KBKP": ((chess.BISHOP, chess.BLACK), (chess.PAWN, chess.WHITE)),
}


def pawn_boards(
    material: tuple[tuple[chess.PieceType, chess.Color], ...], count: int, rng: random.Random
) -> list[chess.Board]:
    """Legal boards of ``material`` with its pawns on ranks 2 to 7, mostly
    near their promotion or start rank (where promotions and double steps
    happen). Every third board is the position just after a double step
    (on its move stack); with pawns of both colours, one that a pawn may
    take en passant."""
    boards: list[chess.Board] = []
    while len(boards) < count:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 2 + len(material))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        step = len(boards) % 3 == 2
        mover = rng.choice(chess.COLORS)
        # For a capture en passant: our pawn on its start rank, theirs
        # beside its landing square.
        file = rng.randrange(8)
        beside = chess.square(file + rng.choice([d for d in (-1, 1) if 0 <= file + d < 8]), 3 if mover else 4)
        placed = {mover: chess.square(file, 1 if mover else 6), not mover: beside}
        for square, (piece, color) in zip(squares[2:], material):
            if piece == chess.PAWN:
                if (
                    step
                    and placed.get(color) is not None
                    and {c for _, c in material if _ == chess.PAWN} == {0, 1}
                ):
                    square = placed[color]
                    placed[color] = None
                else:
                    square = chess.square(
                        rng.randrange(8), rng.choice((1, 3, 4, 6) if color else (6, 4, 3, 1))
                    )
                if board.piece_at(square):
                    break
            board.set_piece_at(square, chess.Piece(piece, color))
        board.turn = mover
        if chess.popcount(board.occupied) != 2 + len(material) or not board.is_valid():
            continue
        if step:
            doubles = [
                move
                for move in board.legal_moves
                if board.piece_type_at(move.from_square) == chess.PAWN
                and abs(move.to_square - move.from_square) == 16
            ]
            if not doubles:
                continue
            board.push(rng.choice(doubles))
        boards.append(board)
    return boards
