"""al0 serve in a real browser: headless Chromium (Debian's ``chromium``
and ``chromium-driver``, driven by Selenium) plays a KQK exercise by
clicking and clicks through a KBBK plan tree; screenshots go to a temporary
folder (its path is printed). Skipped where no Chromium is installed."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from al0.serve import Api, Tables
from al0.serve.server import Server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None or DRIVER is None,
        reason="no chromium and chromedriver (Debian: apt-get install chromium chromium-driver)",
    ),
]

KQK = "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"
"""Mate in one (Qb7#); Qb6 stalemates."""
KBBK = "8/8/8/2B5/8/8/2K3B1/k7 w - - 0 1"
"""The kbbk table mates in three here: a forcing tree five plies deep."""
WAIT = 60.0
"""Seconds a step may take on a loaded machine; a step that passes returns at once."""


@pytest.fixture(scope="module")
def url(tablebase_cache: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    record = tmp_path_factory.mktemp("record") / "progress.json"
    server = Server(Api(Tables(), record=record))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1100,800",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(DRIVER)), options=options)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("serve-screenshots")
    print(f"screenshots in {folder}")
    return folder


def until(browser: Any, condition: Callable[[], Any]) -> Any:
    """``condition()`` once it is true. The page redraws its board, lists and
    tree as answers come in, so an element found a moment before may be gone
    (stale): the condition is then asked again, not failed."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
    return wait.until(lambda _: condition())


def plan_kbbk(browser: Any, url: str) -> Any:
    """Load the page, choose the KBBK table, set its test position and
    plan there, until the tree shows our first move; the FEN box."""
    from selenium.webdriver.support.ui import Select

    loaded(browser, url)
    Select(browser.find_element("id", "table")).select_by_value("kbbk")
    fen = browser.find_element("id", "fen")
    until(browser, lambda: fen.get_attribute("value").startswith("8/8/8/3k4/8/8/8/2BBK3"))
    fen.clear()
    fen.send_keys(KBBK)
    browser.find_element("id", "set-fen").click()
    until(browser, lambda: fen.get_attribute("value") == KBBK)
    browser.find_element("id", "plan-here").click()
    until(browser, lambda: browser.find_elements("css selector", "#tree .node.us"))
    return fen


def text(browser: Any, element: str) -> str:
    return str(browser.find_element("id", element).text)


def line(browser: Any) -> list[str]:
    """The moves of the line explored in the plan tab."""
    return [span.text for span in browser.find_elements("css selector", "#line span")]


def click_square(browser: Any, square: str) -> None:
    def click() -> bool:  # found and clicked in one go: the board may be redrawn between
        browser.find_element("css selector", f'[data-square="{square}"]').click()
        return True

    until(browser, click)


def click_move(browser: Any, uci: str) -> None:
    click_square(browser, uci[:2])
    until(browser, lambda: browser.find_elements("css selector", ".sq.target"))
    click_square(browser, uci[2:4])


def screenshot(browser: Any, path: Path) -> None:
    browser.execute_script("window.scrollTo(0, 0)")
    browser.save_screenshot(str(path))


def loaded(browser: Any, url: str) -> None:
    browser.get(url)
    until(browser, lambda: len(browser.find_elements("css selector", ".sq svg")) >= 3)


def test_a_kqk_exercise_by_clicking(browser: Any, url: str, shots: Path) -> None:
    loaded(browser, url)
    browser.find_element("id", "tab-practice").click()
    until(browser, lambda: "Your move" in text(browser, "status"))
    fen = browser.find_element("id", "fen")
    fen.clear()
    fen.send_keys(KQK)
    browser.find_element("id", "set-fen").click()
    until(browser, lambda: "mate in 1" in text(browser, "status"))
    browser.find_element("id", "hint").click()
    until(browser, lambda: text(browser, "hint-text").startswith("Hint: play "))
    click_move(browser, "b1b6")  # stalemate
    verdict = until(browser, lambda: "blunder" in text(browser, "verdict") and text(browser, "verdict"))
    assert "stalemate" in verdict
    assert [span.text for span in browser.find_elements("css selector", "#moves span.blunder")] == ["Qb6??"]
    screenshot(browser, shots / "kqk-blunder.png")
    browser.find_element("id", "retry").click()
    until(browser, lambda: "Taken back" in text(browser, "verdict"))
    assert not browser.find_elements("css selector", "#moves span")  # the move and its mark gone
    for _ in range(10):  # the method mates within a few moves
        browser.find_element("id", "hint").click()
        hint = browser.find_element("id", "hint-text")
        until(browser, lambda: hint.text)  # cleared by each move
        move = hint.get_attribute("data-move")
        click_move(browser, move)
        until(browser, lambda: not hint.text)  # the move's answer came
        if "Game over" in text(browser, "status"):
            break
    status = text(browser, "status")
    assert "checkmate" in status and "you mated" in status, status
    assert browser.find_elements("css selector", ".sq.last")
    screenshot(browser, shots / "kqk-mate.png")
    browser.find_element("id", "start").click()  # a new exercise: this one is counted
    until(browser, lambda: "mate in 8" in text(browser, "status"))
    browser.find_element("id", "show-progress").click()
    until(browser, lambda: text(browser, "progress").startswith("KQK: 1 of 1 exercises solved"))


def test_a_kbbk_plan_tree_by_clicking(browser: Any, url: str, shots: Path) -> None:
    fen = plan_kbbk(browser, url)
    assert text(browser, "caption")  # the advice in the table's words
    depth = 0
    while True:  # down the first branch, each click showing its position
        nodes = [
            node
            for node in browser.find_elements("css selector", "#tree .node")
            if node.is_displayed() and node.text != "start"
        ]
        node = nodes[depth] if depth < len(nodes) else None
        if node is None:
            break
        # Read before the click: the tree may be redrawn after it.
        wanted, label = node.get_attribute("data-fen"), node.text
        node.click()
        until(browser, lambda: fen.get_attribute("value") == wanted)
        assert browser.find_elements("css selector", ".sq.last")
        depth += 1
        if "#" in label:
            break
    assert depth == 5 and "#" in label
    screenshot(browser, shots / "kbbk-plan.png")


def drag(browser: Any, start: str, end: str) -> None:
    """Drag the piece on ``start`` to ``end`` (the board is redrawn as the
    piece is picked up, so by offset, not by element)."""
    from selenium.webdriver.common.action_chains import ActionChains

    source = browser.find_element("css selector", f'[data-square="{start}"]').rect
    target = browser.find_element("css selector", f'[data-square="{end}"]').rect
    start_element = browser.find_element("css selector", f'[data-square="{start}"]')
    ActionChains(browser).move_to_element(start_element).click_and_hold().move_by_offset(
        target["x"] - source["x"], (target["y"] - source["y"]) // 2
    ).move_by_offset(0, (target["y"] - source["y"]) - (target["y"] - source["y"]) // 2).release().perform()


def test_drag_flip_and_the_move_list(browser: Any, url: str, shots: Path) -> None:
    loaded(browser, url)  # KQK's start, in the plan tab: moves explore a line

    def square(name: str) -> Any:
        return browser.find_element("css selector", f'[data-square="{name}"]')

    drag(browser, "e1", "e2")
    until(browser, lambda: line(browser) == ["Ke2"])
    until(browser, lambda: "last" in square("e2").get_attribute("class"))
    assert (
        until(browser, lambda: browser.find_elements("css selector", ".sq")[0].get_attribute("data-square"))
        == "a8"
    )
    browser.find_element("id", "flip").click()
    until(
        browser, lambda: browser.find_elements("css selector", ".sq")[0].get_attribute("data-square") == "h1"
    )
    drag(browser, "d5", "c4")
    until(browser, lambda: line(browser) == ["Ke2", "Kc4"])
    assert len(browser.find_elements("css selector", "#line li")) == 1  # one move, two plies
    browser.find_element("css selector", "#line li span").click()  # back to after Ke2
    until(browser, lambda: square("d5").get_attribute("data-piece") == "k")
    until(browser, lambda: "last" in square("e2").get_attribute("class"))
    screenshot(browser, shots / "kqk-line-flipped.png")


def test_a_pawn_on_its_last_rank_becomes_the_piece_chosen(browser: Any, url: str, shots: Path) -> None:
    """KPK in the plan tab: the pawn dragged to e8 offers the four pieces,
    the queen focused; Escape puts it back, a rook chosen is played."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    loaded(browser, url)
    Select(browser.find_element("id", "table")).select_by_value("kpk")
    fen = browser.find_element("id", "fen")
    until(browser, lambda: "P" in fen.get_attribute("value"))
    fen.clear()
    fen.send_keys("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1")
    browser.find_element("id", "set-fen").click()
    until(browser, lambda: fen.get_attribute("value").startswith("8/4P3/"))
    drag(browser, "e7", "e8")
    chooser = browser.find_element("id", "promotion")
    until(browser, chooser.is_displayed)
    buttons = chooser.find_elements("css selector", "button")
    assert [button.get_attribute("data-move") for button in buttons] == ["e7e8q", "e7e8r", "e7e8b", "e7e8n"]
    assert browser.switch_to.active_element == buttons[0]
    screenshot(browser, shots / "kpk-promotion.png")
    buttons[0].send_keys(Keys.ESCAPE)
    until(browser, lambda: not chooser.is_displayed())
    assert line(browser) == []
    click_move(browser, "e7e8")
    until(browser, chooser.is_displayed)
    chooser.find_element("css selector", '[data-move="e7e8r"]').click()
    until(browser, lambda: line(browser) == ["e8=R"])


def test_an_epd_files_positions_step_by_step_with_the_plan(browser: Any, tablebase_cache: Any) -> None:
    import chess

    positions = ("failures.epd", [chess.Board(KBBK)])
    server = Server(Api(Tables("kbbk"), positions=positions))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        loaded(browser, server.url)
        until(browser, lambda: text(browser, "positions-name") == "failures.epd")
        browser.find_element("css selector", "#positions span").click()
        until(browser, lambda: browser.find_elements("css selector", "#tree .node.us"))
        assert browser.find_element("id", "fen").get_attribute("value") == KBBK
        assert "Mate in three" in text(browser, "plan-caption")
    finally:
        server.shutdown()
        server.server_close()


def test_a_game_reviewed_with_its_variation_marks_arrows_and_graph(
    browser: Any, tablebase_cache: Any, tmp_path: Path, shots: Path
) -> None:
    from click.testing import CliRunner

    from al0.cli import cli
    from al0.engine import Tablebases
    from al0.serve.review import read_games, tablebase_probe

    pgn = tmp_path / "game.pgn"
    CliRunner().invoke(
        cli,
        ["practice", "kqk", "--fen", KQK, "--pgn", str(pgn), "--no-board"],
        input="Qb6\nretry\nQa2\nQb2\nquit\n",
    )
    games = read_games(str(pgn), tablebase_probe(Tablebases()))
    server = Server(Api(Tables(), games=("game.pgn", games)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        loaded(browser, server.url)
        until(browser, lambda: browser.find_element("id", "tab-review").is_displayed())
        browser.find_element("id", "tab-review").click()
        points = until(browser, lambda: browser.find_elements("css selector", "#graph circle"))
        assert len(points) == 5  # the start and every ply, the replies included
        assert "mistake" in points[1].get_attribute("class")
        moves = [
            span.text for span in browser.find_elements("css selector", "#review-moves span:not(.variation)")
        ]
        assert moves == ["Qa2+?", "Qb6??", "Kb8", "Qb2+", "Ka7"], moves  # the blunder taken back beside

        def click_point(index: int) -> None:  # the graph is drawn anew at each ply shown
            until(
                browser, lambda: browser.find_elements("css selector", "#graph circle")[index].click() or True
            )

        click_point(1)
        until(browser, lambda: text(browser, "review-comment").startswith("mistake"))
        assert browser.find_element("id", "fen").get_attribute("value").startswith("k7/8/2K5")
        # The PGN's arrows on the board: the method's move and the fastest.
        arrows = until(browser, lambda: browser.find_elements("css selector", "#arrows .pgn-arrow"))
        assert sorted(arrow.get_attribute("data-move") for arrow in arrows) == ["b1b5", "b1b7"]
        assert "current" in browser.find_element("css selector", "#review-moves span.mistake").get_attribute(
            "class"
        )
        screenshot(browser, shots / "kqk-review.png")
        browser.find_element("css selector", "#review-moves .variation span.blunder").click()
        until(browser, lambda: text(browser, "review-comment").startswith("blunder: stalemate"))
        assert browser.find_element("id", "fen").get_attribute("value").startswith("k7/8/1QK5")
        squares = browser.find_elements("css selector", "#arrows .pgn-square")
        assert [square.get_attribute("data-square") for square in squares] == ["b6"]
        click_point(0)  # back to the start, on the main line
        until(browser, lambda: browser.find_element("id", "fen").get_attribute("value") == KQK)
        browser.set_window_size(400, 860)  # the graph and the moves fit a phone too
        try:
            no_horizontal_scroll(browser)
            graph = browser.find_element("id", "graph").rect
            assert graph["x"] >= 0 and graph["x"] + graph["width"] <= 400
        finally:
            browser.set_window_size(1100, 800)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """The module's Chromium 400 px wide, a phone held upright, then as wide
    as before: one browser a module, not a second one started for the phone."""
    browser.set_window_size(400, 860)
    try:
        yield browser
    finally:
        browser.set_window_size(1100, 800)


def no_horizontal_scroll(browser: Any) -> None:
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert width <= 400, width
    scroll = browser.execute_script("return document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} px wide in {width}"


def controls_fit(browser: Any, panel: str) -> None:
    """Every control of the page and of ``panel`` shown, and inside the width
    (the plan tree's moves aside: a subtree opens when asked)."""
    width = browser.execute_script("return document.documentElement.clientWidth")
    selector = ", ".join(
        ["header button:not([hidden])", "header select", "#left button", "#left input"]
        + [f"#{panel} {kind}:not(.node)" for kind in ("button", "input", "select")]
    )
    controls = browser.find_elements("css selector", selector)
    assert len(controls) >= 6
    for control in controls:
        rect = control.rect
        name = control.get_attribute("id") or control.text
        assert control.is_displayed(), name
        assert rect["x"] >= 0 and rect["x"] + rect["width"] <= width + 0.5, (name, rect, width)


def press(browser: Any, *keys: str) -> None:
    """Keys sent to whatever has the focus: the keyboard alone."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(*keys).perform()


def focus_on(browser: Any, wanted: Callable[[Any], bool], backwards: bool = False, limit: int = 60) -> None:
    """Tab (Shift+Tab ``backwards``) until the element with the focus is
    ``wanted``, as a person would."""
    from selenium.webdriver.common.keys import Keys

    for _ in range(limit):
        if wanted(browser.switch_to.active_element):
            return
        press(browser, *((Keys.SHIFT, Keys.TAB, Keys.SHIFT) if backwards else (Keys.TAB,)))
    raise AssertionError("not reached with Tab")


def by_id(name: str) -> Callable[[Any], bool]:
    return lambda element: element.get_attribute("id") == name


def arrow_keys(start: str, end: str) -> list[str]:
    """The arrow keys from square ``start`` to ``end`` on a board seen from White."""
    from selenium.webdriver.common.keys import Keys

    files = ord(end[0]) - ord(start[0])
    ranks = int(end[1]) - int(start[1])
    return [Keys.ARROW_RIGHT if files > 0 else Keys.ARROW_LEFT] * abs(files) + [
        Keys.ARROW_UP if ranks > 0 else Keys.ARROW_DOWN
    ] * abs(ranks)


def type_in_move_box(browser: Any, words: str) -> None:
    from selenium.webdriver.common.keys import Keys

    focus_on(browser, by_id("move-input"))
    press(browser, words, Keys.ENTER)


def test_a_class_at_400_px_plays_kqk_to_mate_with_the_keyboard_alone(
    phone: Any, url: str, shots: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    browser = phone
    loaded(browser, url)
    no_horizontal_scroll(browser)
    controls_fit(browser, "plan-panel")
    # File letters along the bottom, rank numbers up the side.
    assert [c.text for c in browser.find_elements("css selector", ".coord.file")] == list("abcdefgh")
    ranks = [c.text for c in browser.find_elements("css selector", ".coord.rank")]
    assert ranks == [str(rank) for rank in range(8, 0, -1)]
    board = browser.find_element("id", "board").rect
    assert board["width"] <= 400 and abs(board["width"] - board["height"]) < 2
    focus_on(browser, by_id("tab-practice"))
    press(browser, Keys.ENTER)
    until(browser, lambda: "Your move" in text(browser, "status") and "mate in" in text(browser, "status"))
    no_horizontal_scroll(browser)
    controls_fit(browser, "practice-panel")
    height = browser.execute_script("return window.innerHeight")
    for name in ("hint", "retry", "undo", "move-input"):  # above the fold
        rect = browser.find_element("id", name).rect
        assert rect["y"] + rect["height"] <= height, (name, rect, height)
    # A hint is an arrow on the board, not a piece picked up with its targets dotted.
    type_in_move_box(browser, "hint")
    arrow = until(browser, lambda: browser.find_elements("css selector", "#arrows .hint-arrow"))[0]
    move = arrow.get_attribute("data-move")
    assert until(browser, lambda: text(browser, "hint-text")).startswith("Hint: play ")
    assert not browser.find_elements("css selector", ".sq.target")
    screenshot(browser, shots / "kqk-400px-hint.png")
    # The hinted move with the squares: back onto the board, arrows to the piece, Enter, to its square, Enter.
    focus_on(browser, lambda element: element.get_attribute("data-square") is not None, backwards=True)
    here = browser.switch_to.active_element.get_attribute("data-square")
    press(browser, *arrow_keys(here, move[:2]), Keys.ENTER)
    until(browser, lambda: browser.find_elements("css selector", ".sq.target"))
    press(browser, *arrow_keys(move[:2], move[2:4]), Keys.ENTER)
    until(browser, lambda: len(browser.find_elements("css selector", "#moves span")) == 2)
    for _ in range(20):  # then the move box: hint, and the hinted move in SAN
        if "Game over" in text(browser, "status"):
            break
        played = len(browser.find_elements("css selector", "#moves span"))
        type_in_move_box(browser, "hint")
        hinted = until(browser, lambda: text(browser, "hint-text"))
        san = hinted.removeprefix("Hint: play ").split()[0]
        type_in_move_box(browser, san)
        until(browser, lambda: len(browser.find_elements("css selector", "#moves span")) > played)
    status = text(browser, "status")
    assert "checkmate" in status and "you mated" in status, status
    no_horizontal_scroll(browser)
    screenshot(browser, shots / "kqk-400px-mate.png")
    browser.set_window_size(320, 700)  # the narrowest phone
    try:
        until(browser, lambda: browser.execute_script("return document.documentElement.clientWidth") <= 320)
        no_horizontal_scroll(browser)
        controls_fit(browser, "practice-panel")
    finally:
        browser.set_window_size(400, 860)


def test_at_400_px_the_plan_tree_ends_in_checkmate_and_hides_its_figures(
    phone: Any, url: str, shots: Path
) -> None:
    browser = phone
    plan_kbbk(browser, url)
    assert not browser.find_element("id", "plan-status").is_displayed()  # no nodes, no ms
    leaves = browser.execute_script(
        "return [...document.querySelectorAll('#tree li')].filter(li => !li.querySelector('ul'))"
        ".map(li => li.textContent)"
    )
    assert leaves and all(leaf.endswith("# checkmate") for leaf in leaves), leaves
    browser.find_element("id", "show-figures").click()
    assert "nodes" in text(browser, "plan-status")
    no_horizontal_scroll(browser)
    controls_fit(browser, "plan-panel")
    screenshot(browser, shots / "kbbk-400px-plan.png")
    browser.set_window_size(320, 700)  # the narrowest phone: still no sideways scroll
    try:
        until(browser, lambda: browser.execute_script("return document.documentElement.clientWidth") <= 320)
        no_horizontal_scroll(browser)
        controls_fit(browser, "plan-panel")
    finally:
        browser.set_window_size(400, 860)
