"""What every command-facing stage shares, below the command line: usage errors and progress.

compiler/cli.py sits on top of everything; modules such as compiler/sheets/ raise UsageError and
print progress through this module, so nothing below the command layer imports compiler/cli.py.
"""
from __future__ import annotations

import sys


class UsageError(Exception):
    """A mistake in how tomecraft was called (unknown game, bad option value): exit 2."""


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    print(message, file=sys.stderr, flush=True)
