"""A small generic game-search toolkit: one game interface, search written once.

- :mod:`al0.games.base` — the :class:`~al0.games.base.Game` interface, the
  play loop and the incremental-score wrapper;
- :mod:`al0.games.solvers` — the AND/OR win prover, minimax and alpha-beta;
- :mod:`al0.games.players` — pluggable players (human, random, 1-ply static
  evaluation, minimax, alpha-beta);
- :mod:`al0.games.reversi` — Reversi (Othello) on bitboards, the second game;
- :mod:`al0.games.chess_game` — chess as a :class:`~al0.games.base.Game`, so
  the AND/OR prover becomes a mate-in-N prover.

Nothing generic here knows about chess; only ``chess_game`` imports python-chess.

The folder's face: the names the commands use, each imported from its
module when first asked for (the UCI engine's short search needs none of
Reversi); Reversi itself is a game of its own, used as ``games.reversi``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from al0.faces import lazy_face

if TYPE_CHECKING:
    from al0.games.base import Player, Side, play
    from al0.games.chess_game import ChessGame, ChessState, mate_in, mate_lines
    from al0.games.players import HumanPlayer
    from al0.games.solvers import PROOF_BUDGET, Proof, SearchResult, alphabeta, prove_win

_HOMES = {
    "Player": "base",
    "Side": "base",
    "play": "base",
    "ChessGame": "chess_game",
    "ChessState": "chess_game",
    "mate_in": "chess_game",
    "mate_lines": "chess_game",
    "HumanPlayer": "players",
    "PROOF_BUDGET": "solvers",
    "Proof": "solvers",
    "SearchResult": "solvers",
    "alphabeta": "solvers",
    "prove_win": "solvers",
}
"""Each name of the face and the module it lives in."""

__all__ = [
    "PROOF_BUDGET",
    "ChessGame",
    "ChessState",
    "HumanPlayer",
    "Player",
    "Proof",
    "SearchResult",
    "Side",
    "alphabeta",
    "mate_in",
    "mate_lines",
    "play",
    "prove_win",
]

__getattr__ = lazy_face(__name__, _HOMES)
