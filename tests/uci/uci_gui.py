"""A GUI in process for the UCI tests: each line to the engine, then what
it answered once the search that line started (if any) has ended."""

from __future__ import annotations

from al0.lang.loader import load_table
from al0.uci import UciEngine
from conftest import ROOT

KRK = str(ROOT / "advice_tables" / "krk.yaml")
"""The table a GUI starts the engine with unless told another."""


class Gui:
    """A GUI in process: the lines the engine sent, in order."""

    def __init__(self, table: str | None = KRK):
        self.sent: list[str] = []
        self.engine = UciEngine(
            self.sent.append, None if table is None else load_table(table), table_spec=table or "auto"
        )

    def ask(self, line: str) -> list[str]:
        """Send ``line``; what came back once its search (if any) ended."""
        seen = len(self.sent)
        self.engine.handle(line)
        if self.engine.search is not None:
            self.engine.search.wait()
        return self.sent[seen:]

    def bestmoves(self) -> list[str]:
        """Every move the engine has answered, in order."""
        return [line.split()[1] for line in self.sent if line.startswith("bestmove")]
