"""What ``al0 verify`` writes for people: the HTML page (``--html``) and the
games as PGN (``--pgn``), and the PGN of ``al0 play``."""

from __future__ import annotations

import io
import json
import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from al0 import tablebase
from al0.cli import cli
from al0.engine.play import Ending
from al0.lang import load_table
from al0.lang.specs import DefenderSpec, PositionsSpec
from al0.report.html import shown_note
from al0.report.pgn import PgnGame, pgn_text, today
from conftest import FAKE_ENGINE, POSITIONS, ROOT, TEST_TABLES

KRK = str(ROOT / "advice_tables" / "krk.yaml")
BRATKO = str(ROOT / "advice_tables" / "krk_bratko.yaml")
MIXED = str(POSITIONS / "krk_report.epd")
STALEMATES = {
    "8/8/8/8/8/8/1R6/k1K5 w - - 0 1",
    "8/8/8/8/8/8/3R4/k1K5 w - - 0 1",
    "8/8/8/8/8/8/4R3/k1K5 w - - 0 1",
}


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


class Page(HTMLParser):
    """The parts of a report page the tests look at: the visible text of
    each section (by id), the embedded JSON, and every URL it would load."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, str] = {}
        self.json_text = ""
        self.urls: list[str] = []
        self.tags: list[str] = []
        self._stack: list[str | None] = []
        self._in_json = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append(tag)
        self.urls += [
            value for name, value in attrs if name in ("src", "href", "xlink:href", "action") and value
        ]
        self._in_json = tag == "script" and attributes.get("id") == "al0-report"
        if tag == "div" and "id" in attributes:
            self._stack.append(attributes["id"])
        elif tag == "div":
            self._stack.append(None)

    def handle_endtag(self, tag):
        if tag == "div":
            self._stack.pop()
        self._in_json = False

    def handle_data(self, data):
        if self._in_json:
            self.json_text += data
        for name in self._stack:
            if name:
                self.sections[name] = self.sections.get(name, "") + data + " "


def read_games(path: Path) -> list[chess.pgn.Game]:
    """The games of a PGN file as python-chess reads them, after checking
    what chess tools expect: no reading errors, movetext within 80 columns,
    a standard Termination and al0's own ending in its own header."""
    text = path.read_text()
    movetext = [line for line in text.splitlines() if not line.startswith("[")]
    assert max(map(len, movetext)) <= 80
    stream = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors
        assert game.headers["Termination"] == STANDARD_TERMINATION[game.headers["Al0Ending"]]
        games.append(game)
    return games


STANDARD_TERMINATION = {
    "mate": "normal",
    "stalemate": "normal",
    "threefold repetition": "normal",
    "50-move rule": "normal",
    "no plan": "unterminated",
    "move limit": "unterminated",
    "opponent quit": "abandoned",
}


def check_distances(game: chess.pgn.Game, table) -> None:
    """Each move's comment holds the tablebase's distance to mate after it
    as an ``[%eval #N]`` that python-chess reads as a mate score (none at
    mate), or says there is no forced mate."""
    for node in game.mainline():
        board = node.board()
        dtm = table.dtm(board, chess.WHITE)
        score = node.eval()
        if dtm is None:
            assert score is None and "no forced mate" in node.comment
        elif dtm == 0:
            assert score is None and board.is_checkmate()
        else:
            assert score is not None and score.white() == chess.engine.Mate(dtm)


@pytest.fixture(scope="module")
def book_reports(tmp_path_factory):
    """One verify run of the book's table over the mixed positions, writing
    JSON, HTML and PGN."""
    folder = tmp_path_factory.mktemp("reports")
    result = run(
        "verify",
        BRATKO,
        "--positions",
        MIXED,
        "--json",
        str(folder / "r.json"),
        "--html",
        str(folder / "r.html"),
        "--pgn",
        str(folder / "r.pgn"),
    )
    assert result.exit_code == 0, result.output
    return folder


# ---------------------------------------------------------------- HTML


def test_html_holds_the_json_report(book_reports):
    page = Page()
    page.feed((book_reports / "r.html").read_text())
    page.close()
    data = json.loads((book_reports / "r.json").read_text())
    assert json.loads(page.json_text) == data
    assert data["endings"] == {"mate": 3, "stalemate": 3}
    # What the JSON says is shown, too.
    endings = page.sections["endings"].split()
    assert endings[endings.index("mate") + 1] == "3"
    assert endings[endings.index("stalemate") + 1] == "3"
    summary = " ".join(page.sections["summary"].split())
    moves = data["moves_to_mate"]
    assert f"mean {moves['mean']}, median {moves['median']}, max {moves['max']}" in summary
    failures = " ".join(page.sections["failures"].split())
    for example in data["failure_examples"]["stalemate"]:
        assert example["fen"] in failures
    assert "1. Kc2 1/2-1/2" in failures and "edge_rule: keeproom" in failures
    assert "1. Rb2 1/2-1/2" in failures and "edge_rule: divide_in_2" in failures
    command = page.sections["command"].split()
    assert command[command.index("verify") + 1 :][:3] == [BRATKO, "--positions", MIXED]
    # The defender as it is written on the command line, so the line can be pasted.
    assert command[command.index("--defender") + 1] == "tablebase"


def test_html_is_self_contained(book_reports):
    page = Page()
    page.feed((book_reports / "r.html").read_text())
    # Nothing fetched or linked: only references inside the page (the pieces
    # python-chess's boards define once and use).
    assert page.urls and all(url.startswith("#") for url in page.urls)
    assert "link" not in page.tags and "img" not in page.tags and "iframe" not in page.tags
    assert page.tags.count("svg") >= 1 + 2 * 3  # the chart, two boards per failure
    assert "chart" in page.sections and "rect" in page.tags


def test_html_shows_the_expectations(tmp_path):
    html = tmp_path / "krk.html"
    result = run("verify", KRK, "--positions", MIXED, "--html", str(html))
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed(html.read_text())
    checks = " ".join(page.sections["expectations"].split())
    for name in ("mates-all ok", "stalemates ok", "max-moves ok"):
        assert name in checks
    assert "None: every game was mated." in page.sections["failures"]


def mirror_images(fen: str) -> list[str]:
    """``fen`` and its seven mirror images (as EPD lines)."""
    board = chess.Board(fen)
    images = []
    for diagonal in (False, True):
        turned = board.transform(chess.flip_diagonal) if diagonal else board
        for flips in (
            (),
            (chess.flip_vertical,),
            (chess.flip_horizontal,),
            (chess.flip_vertical, chess.flip_horizontal),
        ):
            image = turned
            for flip in flips:
                image = image.transform(flip)
            images.append(image.epd())
    return images


def test_html_shows_one_example_per_symmetry_class(tmp_path):
    """Eight mirror images of one stalemate, then five other stalemates:
    the examples are five positions of five classes, and the page says how
    many of the games it shows."""
    stalemates = [
        line
        for line in (POSITIONS / "krk_bratko_stalemates.epd").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    epd = tmp_path / "mirrors.epd"
    epd.write_text("\n".join(mirror_images(stalemates[0] + " 0 1") + stalemates[1:6]) + "\n")
    html, report = tmp_path / "r.html", tmp_path / "r.json"
    result = run("verify", BRATKO, "--positions", str(epd), "--html", str(html), "--json", str(report))
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    assert data["endings"] == {"stalemate": 13}
    shown = [example["fen"] for example in data["failure_examples"]["stalemate"]]
    assert shown == [line + " 0 1" for line in stalemates[:5]]
    page = Page()
    page.feed(html.read_text())
    failures = " ".join(page.sections["failures"].split())
    assert "stalemate: 13 games 5 of 13 shown, each of a different symmetry class." in failures
    assert all(fen in failures for fen in shown)
    assert "nothing to chart" in page.sections["chart"] and "Across" not in page.sections["chart"]


@pytest.mark.parametrize(
    "shown, count, note",
    [
        (5, 88, "5 of 88 shown, each of a different symmetry class."),
        (2, 9, "2 of 9 shown: the other 7 are mirror images of these."),
        (1, 4, "1 of 4 shown: the other 3 are mirror images of this one."),
    ],
)
def test_the_page_says_how_many_failures_it_shows(shown, count, note):
    assert shown_note(shown, count) == note


def test_html_says_why_there_was_no_plan(tmp_path):
    names = ["mate_in_one_move", "mate_at_once"]
    table = tmp_path / "mates_only.yaml"
    table.write_text(
        "name: mates_only\nmaterial: KRK\nrules:\n"
        f"  - {{name: mate_or_nothing, if: true, then: [{', '.join(names)}]}}\n"
        "advice:\n"
        + "".join(
            f"  {name}: {{better-goal: mate, holding-goal: true, "
            "us-moves: {0: legal}, them-moves: nomove}\n"
            for name in names
        )
    )
    epd = tmp_path / "one.epd"
    epd.write_text("8/8/4R3/8/3K4/8/2k5/8 w - -\n")
    html = tmp_path / "r.html"
    result = run("verify", str(table), "--positions", str(epd), "--html", str(html))
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed(html.read_text())
    failures = " ".join(page.sections["failures"].split())
    assert "no plan: 1 game " in failures and "shown" not in failures
    assert (
        "rule mate_or_nothing applies, and each piece of advice it tried was passed over: "
        "mate_in_one_move : no forcing tree within its move constraints "
        "mate_at_once : no forcing tree within its move constraints"
    ) in failures
    chart = " ".join(page.sections["chart"].split())
    assert chart == "No mated game with a known optimal distance: nothing to chart."


def test_html_says_how_many_games_went_on_with_another_table(tmp_path, tablebase_cache):
    """kqkr_take takes the rook and the bundled kqk mates: the page counts
    both games as handed on, as the JSON does."""
    html = tmp_path / "r.html"
    result = CliRunner().invoke(
        cli,
        ["verify", str(TEST_TABLES / "kqkr_take.yaml"), "--positions", str(POSITIONS / "kqkr_forks.epd")]
        + ["--html", str(html)],
        env={"AL0_CACHE_DIR": str(tablebase_cache)},
    )
    assert result.exit_code == 0, result.output
    page = Page()
    page.feed(html.read_text())
    assert json.loads(page.json_text)["handed_on"] == 2
    assert "went on with another table 2" in " ".join(page.sections["summary"].split())


# ----------------------------------------------------------------- PGN


def test_verify_pgn_holds_every_failure_and_the_longest_mate(book_reports):
    games = read_games(book_reports / "r.pgn")
    assert len(games) == 4
    table = tablebase.load("KRK")
    for game in games:
        assert game.headers["Date"] == today()
        assert game.headers["White"] == "al0 (krk_bratko)" and game.headers["Black"] == "tablebase"
        end = game.end().board()
        if game.headers["Al0Ending"] == "stalemate":
            assert game.headers["FEN"] in STALEMATES
            assert end.is_stalemate() and game.headers["Result"] == "1/2-1/2"
            assert game.end().comment.endswith("stalemate: a draw")
        else:
            assert game.headers["Al0Ending"] == "mate"
            assert end.is_checkmate() and game.headers["Result"] == "1-0"
        check_distances(game, table)
        ours = [node for node in game.mainline() if node.turn() == chess.BLACK]
        assert all(re.match(r"\w+_rule: \w+", node.comment) for node in ours)
    assert [g.headers["Al0Ending"] for g in games].count("stalemate") == 3


def test_verify_pgn_of_the_worst_case_replays_its_lines(tmp_path):
    pgn = tmp_path / "worst.pgn"
    result = run("verify", BRATKO, "--positions", MIXED, "--defender", "worst", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    games = read_games(pgn)
    assert sorted(g.headers["Al0Ending"] for g in games) == ["mate"] + ["stalemate"] * 3
    for game in games:
        end = game.end().board()
        assert end.is_checkmate() if game.headers["Al0Ending"] == "mate" else end.is_stalemate()


def test_verify_pgn_of_the_worst_case_keeps_games_that_end_before_their_move(tmp_path):
    # A table that only mates in one has no plan at most starts: the worst
    # case then records no line, and the replay is the start position alone.
    table = tmp_path / "mate_in_1.yaml"
    table.write_text(
        "name: mate_in_1\nmaterial: KRK\nrules:\n  - {name: r, if: true, then: [m]}\n"
        "advice:\n  m: {better-goal: mate, holding-goal: true, us-moves: {0: legal},"
        " them-moves: nomove}\n"
    )
    pgn = tmp_path / "worst.pgn"
    result = run("verify", str(table), "--positions", "sample:6", "--defender", "worst", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    games = read_games(pgn)
    assert [g.headers["Al0Ending"] for g in games] == ["no plan"] * 6
    assert all(g.headers["Termination"] == "unterminated" for g in games)
    assert all(not list(g.mainline_moves()) for g in games)
    # The game's comment says why, for a game that ends before its first move.
    assert all(g.comment.startswith("no plan: rule r: no advice gives a move") for g in games)


def test_verify_pgn_of_random_games_are_the_judged_games(tmp_path):
    """A random defender is seeded per position: the replay is the game judged."""
    pgn, report = tmp_path / "random.pgn", tmp_path / "random.json"
    result = run(
        "verify",
        BRATKO,
        "--positions",
        MIXED,
        "--defender",
        "random",
        "--seed",
        "3",
        "--pgn",
        str(pgn),
        "--json",
        str(report),
    )
    assert result.exit_code == 0, result.output
    data = json.loads(report.read_text())
    games = read_games(pgn)
    mated = [g for g in games if g.headers["Al0Ending"] == "mate"]
    assert len(mated) == 1 and mated[0].end().board().is_checkmate()
    assert (len(list(mated[0].mainline_moves())) + 1) // 2 == data["moves_to_mate"]["max"]
    assert len(games) == 1 + sum(n for kind, n in data["endings"].items() if kind != "mate")


def test_verify_report_files_cannot_be_written(tmp_path):
    missing = tmp_path / "no" / "r.html"
    result = run("verify", BRATKO, "--positions", MIXED, "--html", str(missing))
    assert result.exit_code == 2
    assert f"{missing}: cannot write" in result.output and "Traceback" not in result.output


def test_play_pgn_has_the_distance_to_mate_and_a_date(tmp_path):
    pgn = tmp_path / "game.pgn"
    result = run("play", BRATKO, "--opponent", "random", "--seed", "1", "--no-board", "--pgn", str(pgn))
    assert result.exit_code == 0, result.output
    (game,) = read_games(pgn)
    assert re.fullmatch(r"\d{4}\.\d\d\.\d\d", game.headers["Date"])
    assert game.headers["Date"] == today()
    assert (game.headers["Termination"], game.headers["Al0Ending"]) == ("normal", "mate")
    check_distances(game, tablebase.load("KRK"))
    assert game.end().comment.endswith("checkmate: they are mated")


def test_play_pgn_of_a_game_al0_stops(tmp_path):
    """A game stopped without a result is ``unterminated``, with al0's reason
    in its own header and after the last move."""
    pgn = tmp_path / "game.pgn"
    result = run(
        "play", BRATKO, "--opponent", "tablebase", "--max-moves", "3", "--no-board", "--pgn", str(pgn)
    )
    assert result.exit_code == 0, result.output
    (game,) = read_games(pgn)
    assert (game.headers["Result"], game.headers["Termination"]) == ("*", "unterminated")
    assert game.headers["Al0Ending"] == "move limit"
    assert game.end().comment.startswith("stopped after 3 moves")  # after their move
    assert len(list(game.mainline_moves())) == 6
    check_distances(game, tablebase.load("KRK"))


def test_pgn_breaks_a_comment_longer_than_a_line_between_words(tmp_path):
    words = " ".join(f"advice_{n}" for n in range(30))
    start = chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")
    game = PgnGame(
        start,
        ((chess.Move.from_uci("e6e3"), "r: a"),),
        "*",
        Ending.NO_PLAN,
        "e",
        "w",
        "b",
        chess.WHITE,
        f"no plan: tried {words}",
    )
    path = tmp_path / "long.pgn"
    path.write_text(pgn_text([game], tablebase.load("KRK")))
    (read,) = read_games(path)
    node = read.end()
    assert node.eval() == chess.engine.PovScore(chess.engine.Mate(9), chess.WHITE)
    assert " ".join(node.comment.split()) == f"r: a; no plan: tried {words} [%eval #9]"


def test_a_name_with_a_newline_stays_in_its_header(tmp_path):
    # The name ended its header line and began a game 1. e4, won by White.
    name = 'evil"]\n[Result "1-0"]\n\n1. e4 {x\u2028y}'
    start = chess.Board("8/8/4R3/8/3K4/8/2k5/8 w - - 0 1")
    game = PgnGame(
        start,
        ((chess.Move.from_uci("e6e3"), "r: a"),),
        "*",
        Ending.MOVE_LIMIT,
        f"al0 play {name}",
        f"al0 ({name})",
        "tablebase",
        chess.WHITE,
    )
    path = tmp_path / "named.pgn"
    path.write_text(pgn_text([game], None))
    (read,) = read_games(path)
    # Its quotes escaped as the PGN standard says (python-chess reads the
    # value as written, backslashes and all).
    assert read.headers["Event"] == 'al0 play evil\\"] [Result \\"1-0\\"] 1. e4 {x y}'
    assert read.headers["Result"] == "*" and read.errors == []
    assert [move.uci() for move in read.mainline_moves()] == ["e6e3"]


def test_verify_pgn_against_a_uci_engine(tmp_path):
    """The engine is still running when the games are replayed."""
    engine = f"uci:{sys.executable} {FAKE_ENGINE}"
    pgn = tmp_path / "engine.pgn"
    result = run("verify", KRK, "--positions", MIXED, "--defender", engine, "--pgn", str(pgn))
    assert result.exit_code in (0, 1), result.output
    games = read_games(pgn)
    assert games and all(g.headers["Black"] == engine for g in games)
    for game in games:
        end = game.end().board()
        if game.headers["Al0Ending"] == "mate":
            assert end.is_checkmate()


# A table's name is anyone's: none may break the page around the embedded JSON.
HOSTILE_NAMES = [
    "<!--<script>",
    "</script>",
    "</SCRIPT >x",
    "<!--<script></script>-->",
    "<script>alert(1)</script>",
    "]]>&amp;<",
    "\u2028\u2029",
    "a\\u003cb",
]


def parsed_report(name: str) -> tuple[dict, object]:
    """The report of a run of table ``name`` (no games: the page's frame)
    and its page as an HTML5 parser reads it, as a browser would."""
    import html5lib  # the test extra's; html.parser is not HTML5's script states

    from al0.report.html import render
    from al0.verify.tally import Report

    summary = Report(
        name, DefenderSpec("tablebase"), PositionsSpec("file", path=f"sample:3 {name}"), 3
    ).summary()
    page = render(summary, [], [], f"al0 verify '{name}.yaml'", load_table("krk"))
    return summary.to_json(), html5lib.parse(page, namespaceHTMLElements=False)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_embedded_json_survives_any_table_name(name):
    data, document = parsed_report(name)
    scripts = document.findall(".//script")
    assert [script.get("id") for script in scripts] == ["al0-report"]
    assert json.loads(scripts[0].text) == data
    # The page goes on after the script, and shows the name as text.
    assert document.find(".//title").text == f"al0 verify: {name} against tablebase"
    assert [element.tag for element in document.find("body")][-1] == "script"


@given(st.text(max_size=30))
@settings(max_examples=60, deadline=None)
def test_the_embedded_json_survives_arbitrary_names(name):
    data, document = parsed_report(name)
    script = document.find(".//script[@id='al0-report']")
    # Control characters, which an HTML parser changes, are JSON escapes in the page.
    assert json.loads(script.text) == data


# A tag line as the PGN standard reads it: a name, then a string whose " and \ are escaped.
TAG = re.compile(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]')


@pytest.mark.parametrize(
    "name, written",
    [
        ('x"] [Result "0-1', 'x\\"] [Result \\"0-1'),
        ("back\\slash", "back\\\\slash"),
        ("ends in \\", "ends in \\\\"),
        ("two\nlines", "two lines"),
        ("plain", "plain"),
    ],
)
def test_a_header_value_is_escaped_so_it_adds_no_tag(name, written):
    game = PgnGame(
        chess.Board(),
        ((chess.Move.from_uci("e2e4"), ""),),
        "*",
        Ending.QUIT,
        f"al0 play {name}",
        name,
        "random",
        chess.WHITE,
    )
    headers = [line for line in pgn_text([game], None).splitlines() if line.startswith("[")]
    tags = [TAG.fullmatch(line) for line in headers]
    assert all(tags), headers  # each line one tag, read by the standard's tokens
    values = {tag.group(1): tag.group(2) for tag in tags if tag}
    assert values["White"] == written and values["Result"] == "*"
    assert len(tags) == len({tag.group(1) for tag in tags if tag})  # no tag twice


def test_html_names_the_tables_rules_and_advice_in_its_words():
    # The page showed the advice's names in its game lines, never what they mean.
    _, document = parsed_report("krk")
    rows = document.find(".//div[@id='table']").findall(".//tr")[1:]
    table = load_table("krk")
    assert [row.find("th").text for row in rows] == [r.name for r in table.rules] + list(table.advice)
    said = {row.find("th").text: row.findall("td")[1].text for row in rows}
    assert said["squeeze"] == table.advice["squeeze"].description != ""
