"""What every command-facing stage shares, below the command line: usage errors and progress.

compiler/cli.py sits on top of everything; modules such as compiler/sheets/ raise UsageError and
print progress through this module, so nothing below the command layer imports compiler/cli.py.
"""
from __future__ import annotations

import sys

from tomecraft.compiler import diagnostics as dg

UsageError = dg.UsageError  # a mistake in how tomecraft was called: exit 2


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    # One write per line, newline included: build workers share stderr, and print() writes
    # the text and the newline apart, so two processes' lines could run together.
    sys.stderr.write(dg.escape_controls(message) + "\n")    # names can be hostile
    sys.stderr.flush()
