"""The ``al0`` command line: the only package that prints or exits.

What the commands share is one module an idea: the group
(:mod:`~al0.cli.group`), errors as one line (:mod:`~al0.cli.messages`),
signals, broken pipes and closed streams (:mod:`~al0.cli.process`), the
parameter types and shared options (:mod:`~al0.cli.params`), output files
(:mod:`~al0.cli.outputs`), the terminal (:mod:`~al0.cli.terminal`) and a
table's position (:mod:`~al0.cli.positions`). Each other module is one
command, imported when that command runs (so ``al0 uci`` starts without
the others' imports).
"""

import sys

try:
    from al0.cli.group import cli
except KeyboardInterrupt:
    # Ctrl-C while the commands load (half a second; seconds on a busy
    # machine): the line and exit code a command gives (130: 128 + SIGINT),
    # no traceback.
    if sys.stderr is not None:  # closed (2>&-): nothing to say it on
        sys.stderr.write("\nAborted!\n")
    raise SystemExit(130) from None

__all__ = ["cli"]

cli.lazy = {
    "bench": "al0.cli.bench:bench",
    "check": "al0.cli.check:check",
    "fit": "al0.cli.fit:fit",
    "plan": "al0.cli.plan:plan",
    "play": "al0.cli.play:play",
    "practice": "al0.cli.practice:practice",
    "progress": "al0.cli.progress:progress",
    "reversi": "al0.cli.games:reversi",
    "serve": "al0.cli.serve:serve",
    "solve": "al0.cli.games:solve",
    "tablebase": "al0.cli.tablebase:tablebase",
    "tables": "al0.cli.tables:tables",
    "uci": "al0.cli.uci:uci",
    "verify": "al0.cli.verify:verify",
}
