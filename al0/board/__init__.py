"""The board: al0's compact, immutable position and its moves, the board's
eight symmetries, FEN and EPD reading, and seeded position sampling.

It knows chess, not advice: nothing here imports the language, the engine or
the tablebase."""
