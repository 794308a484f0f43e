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
    screenshot(browser, shots / "kqk-blunder.png")
    browser.find_element("id", "retry").click()
    until(browser, lambda: "Taken back" in text(browser, "verdict"))
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
    loaded(browser, url)
    select = browser.find_element("id", "table")
    from selenium.webdriver.support.ui import Select

    Select(select).select_by_value("kbbk")
    fen = browser.find_element("id", "fen")
    until(browser, lambda: fen.get_attribute("value").startswith("8/8/8/3k4/8/8/8/2BBK3"))
    fen.clear()
    fen.send_keys(KBBK)
    browser.find_element("id", "set-fen").click()
    until(browser, lambda: fen.get_attribute("value") == KBBK)
    browser.find_element("id", "plan-here").click()
    until(browser, lambda: browser.find_elements("css selector", "#tree .node.us"))
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


def test_a_game_reviewed_with_its_distance_graph(
    browser: Any, tablebase_cache: Any, tmp_path: Path, shots: Path
) -> None:
    from click.testing import CliRunner

    from al0.cli import cli
    from al0.serve.review import read_games

    pgn = tmp_path / "game.pgn"
    CliRunner().invoke(
        cli,
        ["practice", "kqk", "--fen", KQK, "--pgn", str(pgn), "--no-board"],
        input="Qb6\nretry\nQa2\nQb2\nquit\n",
    )
    server = Server(Api(Tables(), games=("game.pgn", read_games(str(pgn)))))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        loaded(browser, server.url)
        until(browser, lambda: browser.find_element("id", "tab-review").is_displayed())
        browser.find_element("id", "tab-review").click()
        points = until(browser, lambda: browser.find_elements("css selector", "#graph circle"))
        assert len(points) == 2  # the two moves with an [%eval]
        points[0].click()
        until(browser, lambda: text(browser, "review-comment").startswith("mistake"))
        assert browser.find_element("id", "fen").get_attribute("value").startswith("k7/8/2K5")
        until(
            browser,
            lambda: (
                "current" in browser.find_element("css selector", "#review-moves span").get_attribute("class")
            ),
        )
        screenshot(browser, shots / "kqk-review.png")
    finally:
        server.shutdown()
        server.server_close()
