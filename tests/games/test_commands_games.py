"""``al0 solve`` and ``al0 reversi`` through click's test runner."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from al0.cli import cli
from al0.errors import SearchBudgetExceeded


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_solve_prints_mate_and_the_proof_tree() -> None:
    result = run("solve", "--fen", "k1K5/1R6/8/8/8/8/8/8 w - - 0 1", "--moves", "3")
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        "mate in 3",
        "1. Rb6",
        "   1... Ka7 2. Kc7",
        "      2... Ka8 3. Ra6#",
    ]


def test_solve_lists_every_reply() -> None:
    result = run("solve", "--fen", "8/k7/8/2K5/8/8/4R3/8 w - - 0 1", "-n", "3")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[:2] == ["mate in 3", "1. Kc6"]
    assert sorted(line.split()[1] for line in lines if line.startswith("   1... ")) == ["Ka6", "Ka8", "Kb8"]


@pytest.mark.parametrize(
    ("fen", "said"),
    [
        ("k1K5/1R6/8/8/8/8/8/8 w - - 0 1", "no mate in 2\n"),
        # The side to move can never mate here: say why, not as if the search found none.
        ("R3k3/8/4K3/8/8/8/8/8 b - - 0 1", "no mate in 2: the game is over (checkmate)\n"),
        ("k7/8/1QK5/8/8/8/8/8 b - - 0 1", "no mate in 2: the game is over (stalemate)\n"),
        ("k7/8/1K6/8/8/8/8/8 w - - 0 1", "no mate in 2: the game is over (insufficient material)\n"),
    ],
)
def test_solve_says_when_there_is_no_mate(fen: str, said: str) -> None:
    result = run("solve", "--fen", fen, "--moves", "2")
    assert (result.exit_code, result.output) == (0, said)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--fen", "k1K5/1R6/8/8 w - - 0 1"], "Error: bad FEN 'k1K5/1R6/8/8 w - - 0 1'"),
        (["--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "Error: illegal position"),
        (
            ["--fen", "8/k7/8/2K5/8/8/4R3/8 w - - 0 1", "--nodes", "50"],
            "Error: AND/OR search spent its budget",
        ),
    ],
)
def test_solve_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run("solve", *args)
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1
    assert "Traceback" not in result.output


def test_reversi_perft() -> None:
    result = run("reversi", "--perft", "6")
    assert result.exit_code == 0 and result.output.startswith("perft 6: 8200 (")


def test_interactive_game_ends_cleanly_at_end_of_input() -> None:
    result = run("reversi", "--black", "human", "--white", "novice", input="d3\n")
    assert result.exit_code == 0, result.output
    assert "Black plays d3" in result.output and "White plays" in result.output
    assert result.output.rstrip().endswith("game abandoned")


def test_interactive_game_reprompts_on_bad_input_and_quits() -> None:
    result = run("reversi", "--black", "human", "--white", "pro", input="z9\ne4\n\nc4\nquit\n")
    assert result.exit_code == 0, result.output
    assert "not a square: 'z9'" in result.output
    assert "illegal move: 'e4' (legal: d3 c4 f5 e6)" in result.output
    assert "Black plays c4" in result.output
    assert result.output.count("Black to move [") == 5  # z9, e4, the blank line, c4, then quit.
    assert result.output.rstrip().endswith("game abandoned")


def test_a_human_can_play_white() -> None:
    result = run("reversi", "--black", "novice", "--white", "human", "--seed", "3", input="quit\n")
    assert result.exit_code == 0 and "White to move [" in result.output


def test_computer_game_is_shown_to_the_end() -> None:
    result = run("reversi", "--black", "novice", "--white", "alphabeta:1:discs", "--seed", "1")
    assert result.exit_code == 0
    assert "game over: Black" in result.output.splitlines()[-1]


def test_match_prints_a_line_per_game_and_a_score_table() -> None:
    result = run("reversi", "--black", "pro", "--white", "novice", "--games", "4", "--seed", "2")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert [line[:9] for line in lines[:4]] == ["game   1:", "game   2:", "game   3:", "game   4:"]
    assert "Black A" in lines[0] and "White A" in lines[1]
    header = next(i for i, line in enumerate(lines) if line.startswith("player"))
    assert lines[header + 1].startswith("A pro") and lines[header + 2].startswith("B novice")
    a_wins, a_draws, a_losses = (int(x) for x in lines[header + 1].split()[3:6])
    assert a_wins + a_draws + a_losses == 4
    again = run("reversi", "--black", "pro", "--white", "novice", "--games", "4", "--seed", "2")
    assert again.output.splitlines()[:-1] == lines[:-1]  # Same seed, same games (the last line is the time).


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "2"], "Error: no human can play here"),
        (["--black", "wizard", "--games", "2"], "Error: unknown player 'wizard'"),
        (
            ["--black", "alphabeta:99"],
            "Error: 'alphabeta:99': the depth of alphabeta:D must be a whole number from 1 to 8",
        ),
    ],
)
def test_reversi_errors_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run("reversi", *args, input="")
    assert result.exit_code == 2
    assert result.output.startswith(message) and result.output.count("\n") == 1


def test_every_game_search_has_a_default_budget_and_says_when_it_is_spent() -> None:
    from al0.games.reversi import PERFT_BUDGET, perft, start_position
    from al0.games.solvers import PROOF_BUDGET

    assert f"[default: {PROOF_BUDGET}]" in run("solve", "--help").output
    result = run("solve", "--fen", "8/k7/8/2K5/8/8/4R3/8 w - - 0 1", "-n", "3", "--nodes", "50")
    assert result.output == (
        "Error: AND/OR search spent its budget of 50 nodes undecided (--nodes N allows more)\n"
    )
    assert perft(start_position(), 5) == 1396  # within the default budget
    assert perft.__defaults__ == (PERFT_BUDGET,)
    with pytest.raises(SearchBudgetExceeded, match="perft 9: gave up after making 1,000 positions"):
        perft(start_position(), 9, max_nodes=1000)
