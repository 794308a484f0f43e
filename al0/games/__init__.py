"""A small generic game-search toolkit: one game interface, search written once.

- :mod:`al0.games.base` — the :class:`~al0.games.base.Game` interface, the
  play loop and the incremental-score wrapper;
- :mod:`al0.games.search` — the AND/OR win prover, minimax and alpha-beta;
- :mod:`al0.games.players` — pluggable players (human, random, 1-ply static
  evaluation, minimax, alpha-beta);
- :mod:`al0.games.reversi` — Reversi (Othello) on bitboards, the second game;
- :mod:`al0.games.chess_game` — chess as a :class:`~al0.games.base.Game`, so
  the AND/OR prover becomes a mate-in-N prover.

Nothing generic here knows about chess; only ``chess_game`` imports python-chess.
"""
