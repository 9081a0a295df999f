"""Diagnostics for people, editors and CI: text, json, GitHub workflow annotations and SARIF.

`tomecraft check --format github` prints one `::error file=...,line=...,col=...` command per
diagnostic, which GitHub Actions shows on the pull request's lines; `--format sarif` writes a
SARIF 2.1.0 log for code-scanning tools. Both carry the same facts as text and json.
"""
from __future__ import annotations

import json
import os
from pathlib import Path, PurePath
from urllib.parse import quote

from tomecraft.compiler import diagnostics as dg


def _escape_data(text: str) -> str:
    # controls escaped first (a file name holding ESC or U+202E reached the log raw), then
    # what a workflow command itself reads
    text = dg.escape_controls(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(reporter: dg.Reporter) -> str:
    """One workflow command per diagnostic, then the text verdict line."""
    out = []
    for d in reporter.sorted():
        level = "error" if d.severity == dg.ERROR else "warning"
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        out.append(f"::{level} file={_escape_property(d.file)},line={d.line},col={d.column},"
                   f"title={_escape_property(d.code)}::{_escape_data(message)}")
    errors, warnings = reporter.errors, reporter.warnings
    out.append(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}")
    return "\n".join(out)


def format_sarif(reporter: dg.Reporter) -> str:
    """A SARIF 2.1.0 log: one run, one rule per code used, one result per diagnostic."""
    used = sorted({d.code for d in reporter.diagnostics})
    rules = [{"id": code, "name": dg.CODES[code].title if code in dg.CODES else code,
              "shortDescription": {"text": dg.CODES[code].title if code in dg.CODES else code},
              "fullDescription": {"text": dg.CODES[code].explanation if code in dg.CODES else code}}
             for code in used]
    results = []
    for d in reporter.sorted():
        text = d.message + (f" (hint: {d.hint})" if d.hint else "")
        results.append({
            "ruleId": d.code,
            "ruleIndex": used.index(d.code),
            "level": "error" if d.severity == dg.ERROR else "warning",
            "message": {"text": text},
            "locations": [{"physicalLocation": {
                "artifactLocation": _artifact_location(d.file),
                "region": {"startLine": d.line, "startColumn": d.column}}}],
        })
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "tomecraft", "rules": rules}},
                  "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
                  "results": results}],
    }
    return dg.json_controls(json.dumps(log, ensure_ascii=False, indent=2))  # C1, bidi: escaped


SRCROOT = "%SRCROOT%"   # the working folder, which diagnostics' paths are relative to


def _artifact_location(file: str) -> dict:
    """SARIF's artifactLocation of a diagnostic's path: a URI (SARIF 2.1.0 §3.4.3, RFC 3986),
    not a raw path (a space, `#`, `%` or a non-ASCII letter broke it): relative to SRCROOT, or a
    file: URI for a path outside the working folder."""
    posix = PurePath(file).as_posix()       # backslashes are separators on Windows only
    if os.path.isabs(file):
        return {"uri": Path(file).as_uri()}
    if posix == ".." or posix.startswith("../"):    # a pack given as ../fans/x: outside it
        return {"uri": Path(os.path.abspath(file)).as_uri()}
    return {"uri": quote(os.fsencode(posix), safe="/"), "uriBaseId": SRCROOT}


FORMATTERS = {"text": dg.format_text, "json": dg.format_json, "github": format_github,
              "sarif": format_sarif}
