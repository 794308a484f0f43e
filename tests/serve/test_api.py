"""al0 serve's JSON API, called directly and over HTTP (no browser): what
it refuses, the plan tree it sends, and a practice game through it."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from typing import Any, Iterator

import chess
import pytest

from al0.board import Material
from al0.serve import Api, ApiError, Tables
from al0.serve.server import MAX_BODY, SEARCH_WORKERS, Server
from conftest import TEST_TABLES

KQK_SHORT = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"
"""KQK, mate in 1 (Qb7#), with a stalemate among White's moves (Qb6?)."""


@pytest.fixture(scope="module")
def api(tablebase_cache: Any) -> Api:
    return Api(Tables(), budget=1_000_000)


@pytest.fixture(scope="module")
def server(api: Api) -> Iterator[Server]:
    served = Server(api)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()


def request(
    server: Server,
    path: str,
    body: Any = None,
    headers: dict[str, str] | None = None,
    data: bytes | None = None,
) -> tuple[int, Any]:
    """(status, JSON answer) of a GET, or a POST of ``body`` as JSON."""
    if data is None and body is not None:
        data = json.dumps(body).encode()
    sent = urllib.request.Request(server.url + path.lstrip("/"), data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(sent, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize(
    "route, body, status",
    [
        ("position", {"fen": "not a fen"}, 400),
        ("position", {"fen": "8/8/8/8/8/8/8/8 w - - 0 1"}, 400),  # no kings: not a position
        ("position", {}, 400),
        ("position", {"fen": "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", "table": "krk"}, 400),  # material
        ("plan", {"table": "/etc/passwd"}, 403),
        ("plan", {"table": "kqk", "fen": "8/8/8/3k4/8/8/8/Q3K3 b - - 0 1"}, 400),  # their move
        ("practice/start", {"table": "kqk", "level": "5..1"}, 400),
        # A field of the wrong type is refused, not taken for one left out
        # (each of these started the table's start position, or checked no material).
        ("practice/start", {"table": "kqk", "level": 3}, 400),
        ("practice/start", {"table": "kqk", "level": True}, 400),
        ("practice/start", {"table": "kqk", "level": ""}, 400),
        ("practice/start", {"table": "kqk", "level": "1..3", "seed": True}, 400),
        ("practice/start", {"table": "kqk", "level": "1..3", "fen": "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"}, 400),
        ("practice/start", {"table": "kqk", "fen": None}, 400),
        ("position", {"fen": "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", "table": ["krk"]}, 400),
        ("plan", {"table": "kqk", "fen": 5}, 400),
        ("plan", {"table": "../advice_tables/krk.yaml"}, 403),
        ("practice/move", {"session": "nope", "move": "a1a2"}, 404),
        ("nothing", {}, 404),
        # Pawns: a game the 50-move rule has ended, or ends before any mate,
        # is refused as al0 plan refuses it (the plan was made, at clock 150 too).
        ("plan", {"table": "kpk", "fen": "8/8/8/8/8/8/4P3/K6k w - - 100 1"}, 400),
        ("plan", {"table": "kpk", "fen": "8/8/8/8/8/8/4P3/K6k w - - 150 1"}, 400),
        ("plan", {"table": "kqk", "fen": "8/8/8/8/8/8/4Q3/K6k w - - 99 1"}, 400),
        ("plan", {"table": "kpk_hold", "fen": "8/8/8/8/8/3k4/3P4/3K4 w - - 0 1"}, 400),  # their move
        ("practice/start", {"table": "kpk", "fen": "8/8/8/8/8/8/4P3/K6k w - - 100 1"}, 400),
        ("play", {"fen": "8/4P3/8/8/8/8/8/K6k w - - 0 1", "move": "e7e8k"}, 400),
    ],
)
def test_the_api_refuses_with_a_status(api: Api, route: str, body: dict[str, Any], status: int) -> None:
    with pytest.raises(ApiError) as refused:
        api.call(route, body)
    assert refused.value.status == status


@pytest.mark.parametrize(
    "named, turn, ours",
    [("KPK", "white", "KPK"), ("KKP", "black", "KPK")],
)
def test_a_material_served_alone_is_practised_by_its_stronger_side(named: str, turn: str, ours: str) -> None:
    # KKP's level started White's pawn, then refused it as not KKP (400).
    alone = Api(Tables(named))
    assert alone.call("table", {"table": named})["material"] == ours
    started = alone.call("practice/start", {"table": named, "level": "2..4"})
    board = chess.Board(started["fen"])
    assert started["turn"] == turn and Material.of(board, board.turn).name == ours


def test_a_position_comes_with_its_legal_moves(api: Api) -> None:
    answer = api.call("position", {"fen": KQK_SHORT})
    board = chess.Board(KQK_SHORT)
    assert sorted(answer["legal"]) == sorted(move.uci() for move in board.legal_moves)
    # The same moves in SAN, in the same order: what the page's move box matches a typed move against.
    assert answer["sans"] == [board.san(chess.Move.from_uci(uci)) for uci in answer["legal"]]
    assert "Qb7#" in answer["sans"]
    after = api.call("play", {"fen": KQK_SHORT, "move": "b1b7"})
    assert after["san"] == "Qb7#" and after["ended"] and after["fen"].startswith("k7/1Q6/2K5")


def test_the_plan_tree_carries_each_position(api: Api) -> None:
    plan = api.call("plan", {"table": "kbbk"})
    assert plan["advice"] is not None and plan["advice_description"]
    board = chess.Board(plan["fen"])

    def walk(tree: dict[str, Any]) -> int:
        assert tree["fen"] == board.fen()
        count = 1
        for branch in tree["moves"]:
            board.push_uci(branch["uci"])
            count += walk(branch["tree"])
            board.pop()
        return count

    assert walk(plan["tree"]) > 1


def test_a_practice_game_hint_blunder_retry_mate(api: Api) -> None:
    start = api.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})
    session = start["session"]
    assert start["distance"] == 1 and start["moves"] == []
    hint = api.call("practice/hint", {"session": session})
    assert hint["words"].startswith(f"play {hint['san']}")
    blunder = api.call("practice/move", {"session": session, "move": "b1b6"})
    assert blunder["turn"]["verdict"]["grade"] == "blunder"
    assert "stalemate" in blunder["turn"]["verdict"]["reason"]
    assert blunder["state"]["over"] is not None
    retried = api.call("practice/retry", {"session": session})
    assert retried["taken_back"] and retried["state"]["fen"] == chess.Board(KQK_SHORT).fen()
    while True:
        hint = api.call("practice/hint", {"session": session})
        played = api.call("practice/move", {"session": session, "move": hint["move"]})
        assert played["turn"]["verdict"]["grade"] in ("method", "fastest")
        if played["state"]["over"] is not None:
            break
    assert played["state"]["solved"] and played["state"]["played"] >= 1
    assert played["state"]["moves"][-1].endswith("#")


def test_a_practice_game_of_a_table_that_holds(api: Api) -> None:
    # The student defends krkb_hold's start against the most testing attack.
    start = api.call("practice/start", {"table": "krkb_hold"})
    assert start["holds"] and start["optimal"] == 50 and start["us"] == "black"
    hint = api.call("practice/hint", {"session": start["session"]})
    assert hint["san"] == "Bg2"
    played = api.call("practice/move", {"session": start["session"], "move": "f3g2"})
    assert played["turn"]["reply"] == "Kf2" and played["turn"]["verdict"]["grade"] == "method"
    lost = api.call("practice/move", {"session": start["session"], "move": "d5e6"})
    assert lost["turn"]["verdict"]["grade"] == "blunder" and not lost["state"]["solved"]
    assert lost["turn"]["verdict"]["reason"].startswith("the draw is gone: Kxg2 takes the bishop on g2")


def test_an_exercise_of_a_level(api: Api) -> None:
    first = api.call("practice/start", {"table": "kqk", "level": "1..3", "seed": 1})
    again = api.call("practice/start", {"table": "kqk", "level": "1..3", "seed": 1})
    assert 1 <= first["distance"] <= 3 and first["fen"] == again["fen"]
    assert first["session"] != again["session"]


def test_measures_with_the_same_numbers_are_said_once_on_the_page(api: Api) -> None:
    start = api.call("practice/start", {"table": "kbbk"})
    played = api.call("practice/move", {"session": start["session"], "move": "c1d2"})
    said = played["turn"]["explanation"]["said"]
    assert [line for line in said if "35 to 32" in line] == [
        "the box their king is held in shrinks from 35 to 32 squares, as do the room the pieces "
        "leave their king and the smallest box their king can step into"
    ]


def test_the_explanation_shades_their_kings_box(api: Api) -> None:
    start = api.call("practice/start", {"table": "kqk"})
    hint = api.call("practice/hint", {"session": start["session"]})
    played = api.call("practice/move", {"session": start["session"], "move": hint["move"]})
    explanation = played["turn"]["explanation"]
    assert explanation["goal"] and explanation["because"]
    box = explanation["squares"]
    assert len(box["after"]) < len(box["before"])


def test_http_refuses_bad_input_with_json(server: Server) -> None:
    assert request(server, "/api/position", {"fen": "x"})[0] == 400
    status, answer = request(server, "/api/plan", {"table": "/etc/passwd"})
    assert status == 403 and "not a table this server serves" in answer["error"]
    for path in ("/../etc/passwd", "/static/../../api.py", "/api.py", "/%2e%2e/setup.py"):
        assert request(server, path)[0] == 404
    status, answer = request(server, "/api/position", data=b"x" * (MAX_BODY + 1))
    assert status == 413 and answer["status"] == 413
    assert request(server, "/api/position", data=b"{not json")[0] == 400
    assert request(server, "/api/position", data=b"[1]")[0] == 400


def test_http_serves_the_page(server: Server) -> None:
    with urllib.request.urlopen(server.url, timeout=60) as page:
        assert b'<script src="/app.js">' in page.read()
    for name in ("app.js", "style.css"):
        with urllib.request.urlopen(server.url + name, timeout=60) as asset:
            assert asset.status == 200 and asset.read()


def test_other_clients_are_answered_while_searches_run(server: Server) -> None:
    """Every search worker held busy: the page's other requests still answer."""
    release = threading.Event()
    busy = [server.searches.submit(release.wait, 60) for _ in range(SEARCH_WORKERS)]
    try:
        status, answer = request(server, "/api/position", {"fen": KQK_SHORT})
        assert status == 200 and answer["legal"]
        assert not any(job.done() for job in busy)
    finally:
        release.set()
    assert all(job.result() for job in busy)


def test_an_epd_files_positions_are_listed(tablebase_cache: Any) -> None:
    boards = [chess.Board(KQK_SHORT), chess.Board("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1")]
    listed = Api(Tables("kqk"), positions=("failures.epd", boards)).call("positions", {})
    assert listed == {"name": "failures.epd", "table": "kqk", "fens": [board.fen() for board in boards]}
    assert Api(Tables()).call("positions", {})["fens"] == []


def test_a_stopping_server_ends_the_searches(tablebase_cache: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C sets the stop flag every search of the page looks at (the
    Python search: it looks every 64 nodes, and this one takes 221)."""
    monkeypatch.setenv("AL0_CORE", "python")
    stopping = Api(Tables())
    stopping.stop.set()
    with pytest.raises(ApiError, match="stopped searching") as stopped:
        stopping.call("plan", {"table": "kbbk", "fen": "8/8/8/2B5/8/8/2K3B1/k7 w - - 0 1"})
    assert stopped.value.status == 503


def test_an_exercise_left_counts_in_the_progress_record(tablebase_cache: Any, tmp_path: Any) -> None:
    recording = Api(Tables(), record=tmp_path / "progress.json")
    assert recording.call("progress", {})["lines"] == ["no exercises recorded yet"]
    untouched = recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})
    assert not recording.call("practice/leave", {"session": untouched["session"]})["recorded"]
    session = recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})["session"]
    recording.call("practice/move", {"session": session, "move": "b1b6"})  # stalemate
    recording.call("practice/retry", {"session": session})
    recording.call("practice/move", {"session": session, "move": "b1b7"})  # mate
    assert recording.call("practice/leave", {"session": session})["recorded"]
    assert not recording.call("practice/leave", {"session": session})["recorded"]  # once
    line, queue, *_ = recording.call("progress", {})["lines"]  # the blunder's position queued for review
    assert line.startswith("KQK: 1 of 1 exercises solved") and "1 blunders" in line
    assert queue.startswith("review queue:")


def test_no_exercise_is_dropped_uncounted(
    tablebase_cache: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session cap drops the oldest session counted, and the server
    stopping counts every session still open (the page cannot say it left)."""
    monkeypatch.setattr("al0.serve.sessions.MAX_SESSIONS", 2)
    recording = Api(Tables(), record=tmp_path / "progress.json")

    def blunder() -> str:
        session = recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})["session"]
        recording.call("practice/move", {"session": session, "move": "b1b6"})  # stalemate
        return session

    oldest = blunder()
    recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})
    recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})  # drops the oldest
    with pytest.raises(ApiError):
        recording.call("practice/state", {"session": oldest})
    assert recording.call("progress", {})["lines"][0].startswith("KQK: 0 of 1 exercises solved")
    blunder()  # drops an untouched one: nothing to count
    recording.close()
    assert recording.call("progress", {})["lines"][0].startswith("KQK: 0 of 2 exercises solved")


def test_an_exercise_the_record_cannot_take_is_kept_until_it_can(
    tablebase_cache: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A leave (or the session cap's drop) that the record refuses (here a
    folder where the record was) fails, and the exercise stays open: the
    next leave counts it, and the cap's drop is undone with the new session."""
    monkeypatch.setattr("al0.serve.sessions.MAX_SESSIONS", 1)
    record = tmp_path / "progress.json"
    recording = Api(Tables(), record=record)
    session = recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})["session"]
    recording.call("practice/move", {"session": session, "move": "b1b6"})  # stalemate
    record.mkdir()
    with pytest.raises(ApiError, match="Is a directory"):
        recording.call("practice/leave", {"session": session})
    with pytest.raises(ApiError, match="Is a directory"):
        recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})  # would drop it
    assert recording.call("practice/state", {"session": session})["session"] == session  # still open
    record.rmdir()
    assert recording.call("practice/leave", {"session": session})["recorded"]
    assert recording.call("progress", {})["lines"][0].startswith("KQK: 0 of 1 exercises solved")


def test_a_tables_plans_and_games_share_its_match(tablebase_cache: Any) -> None:
    """Every plan and practice game of a table uses the planner of its one
    Match: a position planned twice is searched once."""
    fresh = Api(Tables(), budget=1_000_000)
    start = "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1"
    first = fresh.call("plan", {"table": "kqk", "fen": start})
    again = fresh.call("plan", {"table": "kqk", "fen": start})
    planner = fresh.matches.get("kqk").match.planner
    assert first == again and len(planner.search_seconds) == 1
    session = fresh.call("practice/start", {"table": "kqk", "fen": start})["session"]
    assert fresh.sessions.get(session).game.planner is planner


def test_a_material_is_practised_from_the_tablebase_alone(tablebase_cache: Any, tmp_path: Any) -> None:
    """``al0 serve KRK``, as ``al0 practice KRK``: no table, so no plan,
    but exercises, hints and verdicts from the tablebase, counted under KRK."""
    alone = Api(Tables("KRK"), record=tmp_path / "progress.json")
    assert alone.call("tables", {})["first"] == "KRK"
    assert alone.call("table", {"table": "KRK"}) == {
        "name": "KRK",
        "material": "KRK",
        "us": "white",
        "start": None,
    }
    with pytest.raises(ApiError, match="no table, so no plan"):
        alone.call("plan", {"table": "KRK", "fen": "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"})
    with pytest.raises(ApiError, match="give a fen or a level"):
        alone.call("practice/start", {"table": "KRK"})
    session = alone.call("practice/start", {"table": "KRK", "level": "2..3", "seed": 1})["session"]
    hint = alone.call("practice/hint", {"session": session})
    assert hint["words"].endswith("(the tablebase's fastest move: there is no table)")
    played = alone.call("practice/move", {"session": session, "move": hint["move"]})
    assert played["turn"]["verdict"]["grade"] == "fastest" and played["turn"]["explanation"] is None
    assert played["state"]["table"] == "KRK"
    assert alone.call("practice/leave", {"session": session})["recorded"]
    assert alone.call("progress", {})["lines"][0].startswith("KRK: 0 of 1 exercises solved")


def test_a_position_missed_on_the_page_comes_back_in_the_review_queue(
    tablebase_cache: Any, tmp_path: Any
) -> None:
    """The page keeps the review queue as ``al0 practice`` does, on the
    server's clock (stated here: a day after the miss it is due)."""
    recording = Api(Tables(), record=tmp_path / "progress.json")
    recording.sessions.clock = lambda: 1_000_000_000_000
    session = recording.call("practice/start", {"table": "kqk", "fen": KQK_SHORT})["session"]
    recording.call("practice/move", {"session": session, "move": "b1b6"})  # stalemate: a blunder
    assert recording.call("practice/leave", {"session": session})["recorded"]
    lines = recording.call("progress", {})["lines"]
    assert lines[1] == "review queue: 0 of 1 positions due now"
    assert lines[2].startswith("  the next due in 1 day")
    recording.sessions.clock = lambda: 1_000_000_000_000 + 86_400_000
    assert recording.call("progress", {})["lines"][1].startswith("review queue: 1 of 1 positions due now")


def test_a_practice_game_goes_on_with_the_table_of_the_new_material(tablebase_cache: Any) -> None:
    """The student takes the rook: the page's hint and caption name the
    bundled kqk table that plays on."""
    api = Api(Tables(str(TEST_TABLES / "kqkr_take.yaml")), budget=1_000_000)
    start = api.call("practice/start", {"table": "kqkr_take", "fen": "8/8/3k4/8/4r3/8/2Q5/3K4 w - - 0 1"})
    session = start["session"]
    taken = api.call("practice/move", {"session": session, "move": "c2e4"})
    assert (taken["turn"]["table"], taken["turn"]["handed_on"]) == ("kqkr_take", False)
    hint = api.call("practice/hint", {"session": session})
    assert hint["table"] == "kqk" and hint["words"].startswith(f"play {hint['san']} — kqk: ")
    played = api.call("practice/move", {"session": session, "move": hint["move"]})
    assert (played["turn"]["table"], played["turn"]["handed_on"]) == ("kqk", True)
    assert played["turn"]["explanation"]["goal"] == hint["goal"]


def test_a_kpk_exercise_queens_and_the_queens_table_plays_on(api: Api) -> None:
    """A KPK exercise on the page: kpk's hint promotes, the game goes on
    with the bundled kqk table, whose hint the page shows next."""
    start = api.call("practice/start", {"table": "kpk", "fen": "8/4P1k1/4K3/8/8/8/8/8 w - - 0 1"})
    session = start["session"]
    hint = api.call("practice/hint", {"session": session})
    assert (hint["table"], hint["move"]) == ("kpk", "e7e8q")
    played = api.call("practice/move", {"session": session, "move": hint["move"]})
    assert played["turn"]["table"] == "kpk"
    assert api.call("practice/hint", {"session": session})["table"] == "kqk"
