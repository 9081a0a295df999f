"""What every command-facing stage shares, below the command line: usage errors and progress.

compiler/cli.py sits on top of everything; modules such as compiler/sheets/ raise UsageError and
print progress through this module, so nothing below the command layer imports compiler/cli.py.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tomecraft.compiler import diagnostics as dg

UsageError = dg.UsageError  # a mistake in how tomecraft was called: exit 2


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    # One write per line, newline included: build workers share stderr, and print() writes
    # the text and the newline apart, so two processes' lines could run together.
    sys.stderr.write(dg.escape_controls(message) + "\n")    # names can be hostile
    sys.stderr.flush()


def pack_folder(text: str) -> str:
    """An argparse type for `--pack DIR`: an existing folder (a usage error otherwise, exit 2,
    as for a missing path argument; it was a content error, exit 1, under the usage code)."""
    path = Path(text)
    if path.is_dir():
        return text
    if path.exists():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a pack folder: give the folder "
                                         "that holds the pack's pack.yaml")
    from tomecraft.compiler.packs import shipped_hint   # only when the folder is missing
    hint = shipped_hint(text)
    raise argparse.ArgumentTypeError(f"no pack folder {text}" + (f" ({hint})" if hint else ""))
