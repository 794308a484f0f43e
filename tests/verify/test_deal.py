"""Dealing a run's start positions to workers (:class:`StartsDeal`): each a
stretch of its own, the longest stretch shared once a worker is done, and
the segments each worker made passed on to the others once."""

from __future__ import annotations

import chess
import pytest

from al0.lang.specs import PositionsSpec
from al0.verify.deal import LARGEST_CHUNK, StartsDeal


def spans(deal: StartsDeal, order: list[int]) -> list[tuple[int, int, int]]:
    """The chunks dealt, asking the workers in ``order`` (repeated, each
    round's chunks answered before the next) until none is left."""
    dealt = []
    while True:
        chunks = [(worker, deal.chunk(worker)) for worker in order]
        found = [(worker, chunk.first, chunk.stop) for worker, chunk in chunks if chunk is not None]
        if not found:
            return dealt
        for worker, _, _ in found:
            deal.answered(worker, b"")
        dealt += found


@pytest.mark.parametrize(
    "count, jobs, order, dealt",
    [
        # Each worker its own stretch, in chunks of at least 10; the run's
        # first chunk alone (worker 1 gets none until it is answered). A
        # worker done with its own takes half of the longest stretch left,
        # from its back.
        (40, 2, [0, 1], [(0, 0, 10), (0, 10, 20), (1, 20, 30), (0, 35, 40), (1, 30, 35)]),
        (40, 2, [1, 0], [(1, 20, 30), (1, 30, 40), (0, 0, 10), (1, 15, 20), (0, 10, 15)]),
        (40, 2, [0, 0, 0, 1], [(0, 0, 10), (0, 10, 20), (0, 30, 40), (0, 25, 30), (1, 20, 25)]),
        # Three workers, 25 starts: stretches of 8, 8 and 9; worker 2 alone
        # takes the others' halves in turn, from their backs.
        (
            25,
            3,
            [2, 2],
            [
                (2, 16, 25),
                (2, 4, 8),
                (2, 12, 16),
                (2, 2, 4),
                (2, 10, 12),
                (2, 1, 2),
                (2, 9, 10),
                (2, 0, 1),
                (2, 8, 9),
            ],
        ),
        # A larger run: every start dealt once all the same.
        (3_200, 2, [0, 1], None),
    ],
)
def test_starts_are_dealt_by_stretches(count, jobs, order, dealt):
    deal = StartsDeal([chess.Board()] * count, PositionsSpec("all"), jobs)
    got = spans(deal, order)
    if dealt is not None:
        assert got == dealt
    # Every start dealt once.
    assert sorted(start for _, first, stop in got for start in range(first, stop)) == list(range(count))


@pytest.mark.parametrize(
    "count, jobs, cap, largest",
    [
        (312_951, 8, LARGEST_CHUNK, 1_000),  # all of KBBK: at most 1,000 a chunk
        (312_951, 2, LARGEST_CHUNK, 1_000),
        (312_951, 2, 4_000, 4_000),  # a cluster's (cluster.LARGEST_CHUNK): its tasks cost more
        (20_000, 2, LARGEST_CHUNK, 313),  # else at least 32 chunks a worker
        (3_000, 8, LARGEST_CHUNK, 12),
    ],
)
def test_chunks_grow_from_ten_to_a_32nd_of_a_share_and_1000_at_most(count, jobs, cap, largest):
    deal = StartsDeal([chess.Board()] * count, PositionsSpec("all"), jobs, largest=cap)
    sizes = []
    for _ in range(10):
        chunk = deal.chunk(0)
        assert chunk is not None
        deal.answered(0, b"")
        sizes.append(chunk.stop - chunk.first)
    assert sizes[0] == 10 and max(sizes) == sizes[-1] == largest


def test_a_run_begun_here_deals_the_rest_in_chunks_of_the_size_it_measured():
    # No first chunk alone: the workers are forked with what this process made.
    deal = StartsDeal([chess.Board()] * 100, PositionsSpec("all"), 2, first=30, size=3)
    chunks = [deal.chunk(worker) for worker in (0, 1, 0)]
    assert [(chunk.first, chunk.stop) for chunk in chunks] == [(30, 33), (65, 68), (33, 36)]


def test_the_first_chunk_goes_alone_and_the_others_follow_its_answer():
    deal = StartsDeal([chess.Board()] * 100, PositionsSpec("all"), 3)
    assert deal.chunk(1) is not None
    assert [deal.chunk(worker) for worker in (0, 1, 2)] == [None] * 3
    deal.answered(1, b"first")
    assert [deal.chunk(worker).shared for worker in (0, 1, 2)] == [(b"first",), (), (b"first",)]


def test_each_worker_hears_of_the_others_segments_once_and_they_go_once_all_have_read_them():
    deal = StartsDeal([chess.Board()] * 100, PositionsSpec("all"), 3)
    assert deal.chunk(0).shared == ()
    assert deal.answered(0, b"zero") == []
    assert deal.chunk(1).shared == (b"zero",)
    assert deal.chunk(2).shared == (b"zero",)
    assert deal.answered(1, "one") == []  # a file: worker 2 has not read "zero" yet
    assert deal.chunk(0).shared == ("one",)  # not its own
    assert deal.chunk(0).shared == ()  # heard already
    assert deal.chunk(2).shared == ("one",)
    assert deal.answered(2, b"") == []  # worker 0 has answered no chunk since "zero" came
    assert deal.answered(0, b"") == [b"zero"]  # every worker has read it since (or made it)
    assert deal.answered(0, b"") == []  # worker 1 has not read "one"
    assert deal.chunk(1).shared == ()
    assert deal.answered(1, b"") == [] and deal.answered(2, b"") == ["one"]
    assert deal.made == []  # every worker has read all: forgotten


def test_starts_travel_as_fens_when_no_listing_names_them():
    boards = [chess.Board(), chess.Board("8/8/8/8/8/2k5/8/K6Q w - - 0 1")] * 10
    chunk = StartsDeal(boards, None, 2).chunk(0)
    assert chunk.listing is None and chunk.fens == tuple(board.fen() for board in boards[:10])
    listed = StartsDeal(boards, PositionsSpec("all"), 2).chunk(1)
    assert (
        listed.listing == PositionsSpec("all")
        and listed.fens == ()
        and (listed.first, listed.stop) == (10, 20)
    )


@pytest.mark.parametrize("positions", ["all", "sample:300"])
def test_a_tablebase_s_starts_travel_as_its_classes_squares(positions):
    # Made and packed in the main process, they cost it 0.4 s of CPU on
    # all of KBBK; the worker makes the same starts from the squares.
    from al0.bundled import table_path
    from al0.lang.loader import load_table
    from al0.tablebase import load_if_any
    from al0.verify.sources import LazyBoards, chain_starts, start_positions

    table = load_table(table_path("kqk"))
    boards = start_positions(PositionsSpec.parse(positions), table, load_if_any("KQK"))
    assert isinstance(boards, LazyBoards)
    chunk = StartsDeal(boards, None, 2, chains=True).chunk(1)
    assert chunk is not None and chunk.part is not None and chunk.starts == chunk.fens == ()
    count = chunk.stop - chunk.first
    assert chain_starts(chunk.part, 0, count) == chain_starts(boards, chunk.first, chunk.stop)
    assert [board.fen() for board in chunk.part] == [
        board.fen() for board in boards[chunk.first : chunk.stop]
    ]
