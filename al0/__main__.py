"""``python -m al0``: the command line, where the ``al0`` script is not on PATH."""

from al0.cli import cli

if __name__ == "__main__":
    cli()
