"""``al0 fit``: whole weights of vocabulary features fitted to the
tablebase's moves to mate after each winning move, over a seeded sample;
its agreement with the tablebase checked against python-chess and the
tablebase's own best moves, its line a table's ``prefer:``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import chess
import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.errors import TableSyntaxError
from al0.lang.loader import parse_table
from al0.progress.fitting import fit
from al0.tablebase import load


@pytest.fixture(scope="module")
def krk():
    return load("KRK")


def hand_value(board: chess.Board, weights: tuple[int, int]) -> int:
    """``a*dist(K, k) + b*mdist(R, k)``, computed by hand."""
    ours, theirs = board.king(chess.WHITE), board.king(chess.BLACK)
    rook = board.pieces(chess.ROOK, chess.WHITE).pop()
    assert ours is not None and theirs is not None
    return weights[0] * chess.square_distance(ours, theirs) + weights[1] * chess.square_manhattan_distance(
        rook, theirs
    )


@pytest.mark.parametrize("target", ["dtm", "rank"])
def test_the_agreement_is_the_tablebases_best_moves(krk, target):
    found = fit(krk, ("dist(K, k)", "mdist(R, k)"), sample=30, seed=4, target=target)
    assert found.positions == len(found.starts) == 30
    agree = excess = 0
    for text in found.starts:
        board = chess.Board(text)
        winning = []
        for move in board.legal_moves:
            board.push(move)
            distance = 0 if board.is_checkmate() else krk.dtm(board, chess.WHITE)
            if distance is not None and not board.is_stalemate():
                winning.append((hand_value(board, found.whole), distance, move))
            board.pop()
        chosen = min(winning, key=lambda one: one[0])  # the first of least value
        best = min(distance for _, distance, _ in winning)
        agree += chosen[1] == best
        excess += chosen[1] - best
        assert krk.best_moves(board) and (chosen[1] == best) == (chosen[2] in krk.best_moves(board))
    assert (found.agree, found.excess) == (agree, excess)
    assert len(found.errs) == found.positions - found.agree
    for line in found.errs:  # each a position where the choice errs, its best moves
        board, ops = chess.Board.from_epd(line)
        assert set(ops["bm"]) == set(krk.best_moves(board)) and ops["c0"].startswith("chose ")
    assert found.agree > found.first_agree  # the fitted choice beats the first winning move


def test_a_fit_is_the_same_for_the_same_seed_and_not_for_another(krk):
    args = (krk, ("dist(K, k)", "room(k)"))
    assert fit(*args, sample=20, seed=1) == fit(*args, sample=20, seed=1)
    assert fit(*args, sample=20, seed=1).starts != fit(*args, sample=20, seed=2).starts


def test_a_feature_our_move_cannot_change_weighs_nothing_in_the_rank_fit(krk):
    found = fit(krk, ("dist(K, k)", "edge_dist(k)"), sample=30, target="rank")
    assert abs(found.weights[1]) < 1e-9 and found.whole == (1, 0) and found.expression == "dist(K, k)"


def test_the_phase_is_where_the_precondition_holds(krk):
    found = fit(krk, ("dist(K, k)",), pre="edge(k)", sample=15)
    assert all(
        chess.square_file(k) in (0, 7) or chess.square_rank(k) in (0, 7)
        for k in (chess.Board(text).king(chess.BLACK) for text in found.starts)
    )


def test_the_printed_line_is_a_tables_prefer(tmp_path):
    result = CliRunner().invoke(cli, ["fit", "KRK", "dist(K, k)", "mdist(R, k)", "--sample", "20"])
    assert result.exit_code == 0, result.output
    line = result.output.strip().splitlines()[-1]
    assert line.startswith("prefer: ") and "of 20 (" in result.output
    table = parse_table(
        "name: t\nmaterial: KRK\nrules: [{name: r, if: true, then: [a]}]\nadvice:\n  a:\n"
        "    better-goal: themtomove\n    holding-goal: true\n    us-moves: {0: legal}\n"
        f"    them-moves: nomove\n    {line}\n",
        "t.yaml",
        Path("."),
    )
    assert table.advice["a"].prefer
    errors = tmp_path / "errors.epd"
    wrote = CliRunner().invoke(cli, ["fit", "KRK", "dist(K, k)", "--sample", "20", "--errors", str(errors)])
    agreed = re.search(r"best moves in (\d+) of 20", wrote.output)
    assert agreed is not None and len(errors.read_text().splitlines()) == 20 - int(agreed[1])
    data = json.loads(CliRunner().invoke(cli, ["fit", "KRK", "dist(K, k)", "--sample", "5", "--json"]).output)
    assert data["positions"] == 5 and data["prefer"] == "dist(K, k)"


@pytest.mark.parametrize(
    "args, message",
    [
        (["dist(K, k)", "2*nonesuch(k)"], "term 2 '2*nonesuch(k)':3: unknown feature 'nonesuch(k)'"),
        (["dist(K, q)"], "term 1 'dist(K, q)':1: dist: KRK has no piece 'q'"),
        (["mate"], "term 1 'mate':1: unknown feature 'mate'"),
        (
            ["room(k)", "dist(K, k)", "room( k )"],
            "term 3 'room( k )' repeats term 1: a feature is fitted once",
        ),
        (["dist(K, k)", "--pre", "edge(k) and"], "--pre 'edge(k) and':12: expected"),
    ],
)
def test_a_bad_term_or_phase_is_one_line_naming_it(args, message):
    result = CliRunner().invoke(cli, ["fit", "KRK", *args, "--sample", "5"])
    assert result.exit_code == 2 and message in result.output, result.output


def test_a_term_that_cannot_vary_is_warned_of_as_al0_progress_does():
    # dist(K, K) was fitted a weight of 0 in silence.
    result = CliRunner().invoke(cli, ["fit", "KRK", "dist(K, K)", "room", "--sample", "5"])
    assert result.exit_code == 0, result.output
    assert result.stderr.startswith(
        "warning: term 1 'dist(K, K)':1: dist(K, K) is the distance from K to itself, always 0: "
        "did you mean dist(K, k)?\n"
    )


def test_a_phase_without_positions_is_an_error(krk):
    with pytest.raises(TableSyntaxError, match="--pre .false. holds at no won position"):
        fit(krk, ("dist(K, k)",), pre="false", sample=5)


def test_a_larger_scale_never_agrees_less(krk):
    """Of the scalings up to --scale, the one that agrees most is kept: a
    larger bound can only add candidates; at 1 each weight is its sign."""
    terms = ("dist(K, k)", "mdist(R, k)", "room(k)")
    found = [fit(krk, terms, sample=40, seed=2, scale=scale) for scale in (1, 3, 10)]
    assert found[0].agree <= found[1].agree <= found[2].agree
    assert set(found[0].whole) <= {-1, 0, 1} and max(map(abs, found[2].whole)) <= 10
