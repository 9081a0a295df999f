"""What every command-facing stage shares, below the command line: usage errors, progress,
atomic writes (write_atomic) and the standard output a command writes through (GuardedOutput).

compiler/cli.py sits on top of everything; modules such as compiler/sheets/ raise UsageError and
print progress through this module, so nothing below the command layer imports compiler/cli.py.
"""
from __future__ import annotations

import argparse
import errno
import io
import os
import sys
import tempfile
from pathlib import Path

from tomecraft.compiler import diagnostics as dg

UsageError = dg.UsageError  # a mistake in how tomecraft was called: exit 2


def whole_number(text: str) -> int:
    """An argparse type for a numeric option: ASCII digits, an optional leading '-', nothing
    else. int() also takes ' 3', '1_0', '+3' and other scripts' digits ('３'), which a user
    who typed them did not mean as 3 (a usage error, exit 2)."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (digits 0-9)")
    return int(text)


def progress(message: str) -> None:
    """Progress goes to stderr so --format json stays clean on stdout."""
    # One write per line, newline included: build workers share stderr, and print() writes
    # the text and the newline apart, so two processes' lines could run together.
    # names can be hostile: a newline in a path (--out 'x\nerror[...]') would forge a line
    tell(dg.one_line(message))


def tell(line: str) -> None:
    """One line on stderr, best effort: a stderr that refuses it (2>/dev/full, closed) must not
    stop the command's work or its output (sim printed no summary and exited 1)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


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


class OutputError(Exception):
    """Standard output refused a write (a full disk, /dev/full, an I/O error): not a bug."""


class GuardedOutput:
    """sys.stdout while a command runs: a write or flush the file, pipe or terminal refuses
    becomes OutputError (a broken pipe stays BrokenPipeError: the reader has stopped)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as err:
            raise OutputError(err.strerror or str(err)) from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def silence(stream) -> None:
    """Point a refusing stdout at /dev/null, so the interpreter's last flush does not fail
    again with a traceback at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass   # not a real file (a test's capture): nothing is flushed at exit


# The --pack help of every command that takes one (cli.py, balance/command.py).
PACK_HELP = ("; PACK is a pack folder, or the id of a pack shipped with the game (tomb_party, "
             "goo_from_above): a folder of that name here wins")


def pack_folder(text: str) -> str:
    """An argparse type for `--pack DIR|ID`: a file is a usage error here (exit 2, as for a
    missing path argument). A name that is no folder may be the id of a pack shipped with the
    command's game: the command resolves it once it knows the game (pipeline.resolve_pack),
    and refuses it there when it is neither."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a pack folder: give the folder "
                                         "that holds the pack's pack.yaml")
    return text
