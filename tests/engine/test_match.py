"""A Match is a table ready to play, its tablebase loaded once through a
Tablebases memo that front ends share."""

from __future__ import annotations

import chess
import pytest

import al0.tablebase
from al0.board import Material
from al0.engine.defenders import RandomDefender, TablebaseDefender
from al0.engine.match import Match
from al0.engine.play import GameEnd
from al0.engine.tablebases import Tablebases
from al0.lang import DefenderSpec


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The materials al0.tablebase.load is asked for."""
    asked: list[str] = []
    load = al0.tablebase.load

    def counted(material: str, **options: object) -> al0.tablebase.Tablebase:
        asked.append(material)
        return load(material, **options)

    monkeypatch.setattr(al0.tablebase, "load", counted)
    return asked


def test_a_tablebase_is_loaded_once_and_its_smaller_tables_with_it(loads: list[str]) -> None:
    tablebases = Tablebases()
    kbk = tablebases.get(Material.parse("KBK"))
    assert kbk is not None and tablebases.get(Material.parse("KBK")) is kbk
    assert tablebases.get(Material.parse("KK")) is kbk.smaller["KK"]  # read with KBK, not again
    assert tablebases.get(Material.parse("KRRRK")) is None  # five men: no tablebase, no error
    assert loads == ["KBK"]


def test_a_build_is_announced_to_whoever_hears(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AL0_CACHE_DIR", str(tmp_path))
    heard: list[str] = []
    tablebases = Tablebases(heard.append)
    assert tablebases.cached(Material.parse("KBK")) is None  # a search's leaf builds nothing
    assert not heard and not (tmp_path / "KBK.dtm").exists()
    kbk = tablebases.get(Material.parse("KBK"))
    assert heard[0] == f"building the KBK tablebase, once: it is kept in {tmp_path}"
    assert tablebases.cached(Material.parse("KBK")) is kbk
    heard.clear()
    assert Tablebases(heard.append).cached(Material.parse("KBK")) is not None  # on disk now: read
    Tablebases(heard.append).get(Material.parse("KBK"))  # cached: nothing to say
    assert heard == []


def test_a_match_plays_against_its_own_tablebase(loads: list[str]) -> None:
    match = Match.load("kqk")
    assert match.default_opponent() == DefenderSpec("tablebase")
    defender = match.opponent(DefenderSpec("tablebase"))
    assert isinstance(defender, TablebaseDefender) and defender.table is match.tablebase
    assert isinstance(match.opponent(DefenderSpec("random"), seed=3), RandomDefender)
    events = list(match.play(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), defender, max_moves=2))
    assert isinstance(events[-1], GameEnd)
    assert loads == ["KQK"]
    assert match.with_budget(10).tablebases is match.tablebases
