"""The ``al0 fit`` command: a ``prefer:`` fitted to the tablebase
(:mod:`al0.progress.fitting`)."""

from __future__ import annotations

import json

import click

from al0.board import Material
from al0.cli.messages import reports_errors
from al0.cli.outputs import OutputPath, write_output
from al0.cli.params import MaterialParam, WholeNumber
from al0.cli.terminal import build_progress


@click.command()
@click.argument("material", type=MaterialParam())
@click.argument("terms", nargs=-1, required=True, metavar="FEATURE...")
@click.option(
    "--pre", metavar="EXPR", help="A phase's precondition: fit over the won positions where it holds."
)
@click.option(
    "--sample",
    type=WholeNumber(minimum=1, maximum=100_000),
    default=1000,
    show_default=True,
    metavar="N",
    help="Won positions (us to move) to fit over, drawn with --seed.",
)
@click.option("--seed", type=WholeNumber(minimum=0), default=0, show_default=True, help="Seed of the sample.")
@click.option(
    "--target",
    type=click.Choice(["dtm", "rank"]),
    default="dtm",
    show_default=True,
    help="Fit the moves to mate after each move (dtm), or their order within each position (rank).",
)
@click.option(
    "--scale",
    type=WholeNumber(minimum=1, maximum=1000),
    default=10,
    show_default=True,
    help="The largest whole weight: the fitted weights are scaled to each of 1 … K and rounded, and the "
    "scaling that agrees most with the tablebase is kept.",
)
@click.option(
    "--errors",
    "errors_path",
    type=OutputPath("errors", stdout=False),
    metavar="FILE",
    help="Write the positions where the sum's choice is not the tablebase's to FILE, one EPD line "
    "each: the best moves (bm), the move chosen (c0), the moves to mate (dm).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@reports_errors
def fit(
    material: Material,
    terms: tuple[str, ...],
    pre: str | None,
    sample: int,
    seed: int,
    target: str,
    scale: int,
    errors_path: str | None,
    as_json: bool,
) -> None:
    """Fit whole weights of vocabulary FEATUREs (dist(K, k), room(k), …)
    to the tablebase's moves to mate after each of our moves that keeps the
    win, over a seeded sample of MATERIAL's won positions (of a phase, with
    --pre), and print the weighted sum as a `prefer:` line a piece of advice
    can take, with how often its choice (the move leading to its least
    value) is one of the tablebase's best moves.

    \b
    Example (KQK, seconds):
      al0 fit KQK "area(k)" "dist(K, k)" "edge_dist(k)" --sample 500

    The reference is docs/progress.md (Fitting a preference).
    """
    if pre is not None and not pre.strip():
        raise click.UsageError("--pre is empty: give a goal expression")
    from al0.progress import Options, agreement_text, summary, warnings
    from al0.progress import fit as fitted
    from al0.tablebase import load

    for warning in warnings(Options(material, terms, pre=pre)):  # as al0 progress warns
        click.echo(f"warning: {warning}", err=True)

    table = load(str(material), progress=build_progress())
    result = fitted(table, terms, pre, sample, seed, target, scale)
    if errors_path is not None:
        write_output(errors_path, "".join(line + "\n" for line in result.errs), "errors")
    if as_json:
        click.echo(json.dumps(summary(result)))
        return
    click.echo(
        f"{material}, {result.positions:,} won positions{f' where {pre} holds' if pre else ''} (seed {seed})"
    )
    click.echo(agreement_text(result))
    click.echo(result.yaml())
