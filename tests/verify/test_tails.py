"""A game read off its chain ends in the tail of a position read before
only where its history cannot change that tail (al0.verify.segments.walk):
on seeded random chains over a few positions, so that games repeat
positions, cross the 50-move rule and the move limit and take men, every
game read with the tails of the games before it is the game read half-move
by half-move."""

from __future__ import annotations

import random

from al0.engine.play import Ending
from al0.errors import SearchBudgetExceeded
from al0.verify.segments import Segment, Tail, walk

DECIDED = (Ending.MATE, Ending.STALEMATE, Ending.MATERIAL_LOST)


def _chains(rng: random.Random, positions: int) -> dict[int, Segment]:
    """A segment from every position: most go on to another position after
    two or four half-moves, some end the game, one in twenty has no plan
    and one in twenty a search that reached a limit.
    Each position has one DTM, as the tablebase gives."""
    dtm = {key: rng.choice([None, 1, 2, 3, 4, 5]) for key in range(positions)}
    segments = {}
    for start in range(positions):
        advice = ("rule", rng.choice(["a", "b", "c"]))
        kind = rng.random()
        if kind < 0.05:
            segments[start] = Segment(*advice, dtm[start], (), (), 0, Ending.NO_PLAN)
            continue
        if kind > 0.95:  # its search reaches a limit: the game ends, named by its position
            spent = SearchBudgetExceeded(f"node budget spent searching from position {start}")
            segments[start] = Segment(None, None, dtm[start], (), (), 0, None, spent)
            continue
        ends = kind < 0.25
        length = rng.choice([1, 2, 3]) if ends else rng.choice([2, 4])
        keys = tuple(rng.randrange(positions) for _ in range(length))
        captures = sum(1 << index for index in range(length) if rng.random() < 0.05)
        segments[start] = Segment(
            *advice,
            dtm[start],
            keys,
            tuple(dtm[key] for key in keys),
            captures,
            rng.choice(DECIDED) if ends else None,
        )
    return segments


def test_games_that_end_in_tails_are_the_games_read_half_move_by_half_move() -> None:
    remembered = 0
    for seed in range(40):
        rng = random.Random(seed)
        segments = _chains(rng, rng.choice([6, 12, 40]))
        tails: dict[int, Tail] = {}
        max_moves = rng.choice([3, 8, 30])
        for _ in range(60):
            start, clock = rng.randrange(len(segments)), rng.choice([0, 0, 0, 90, 97])
            read = walk(start, clock, max_moves, segments.__getitem__, tails)
            assert read == walk(start, clock, max_moves, segments.__getitem__), (seed, start, clock)
        remembered += len(tails)
    assert remembered > 200  # games did end in decided endings and left their tails
