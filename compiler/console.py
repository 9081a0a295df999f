"""What every command-facing stage shares, below the command line: usage errors and progress.

compiler/cli.py sits on top of everything; modules such as compiler/sheets/ raise UsageError and
print progress through this module, so nothing below the command layer imports compiler/cli.py.
"""
from __future__ import annotations

import errno
import os
import sys
import tempfile
from pathlib import Path

from tomecraft.compiler import diagnostics as dg

UsageError = dg.UsageError  # a mistake in how tomecraft was called: exit 2


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    # One write per line, newline included: build workers share stderr, and print() writes
    # the text and the newline apart, so two processes' lines could run together.
    # names can be hostile: a newline in a path (--out 'x\nerror[...]') would forge a line
    sys.stderr.write(dg.one_line(message) + "\n")
    sys.stderr.flush()


def write_atomic(path: Path, data: bytes, root: Path | None = None) -> None:
    """`data` into `path` through a temporary file beside it: a write that fails (a full disk)
    leaves no half-written file behind as if it were good. `root`, the folder the user chose:
    a symlinked folder below it (planted at out/<game>) would lead the file out of it, and is
    refused with an OSError the command reports."""
    if root is not None:
        for folder in [path.parent, *path.parent.parents]:
            if folder == root:
                break
            if folder.is_symlink():
                raise OSError(errno.ELOOP, "a symbolic link there leads out of the folder",
                              str(folder))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
