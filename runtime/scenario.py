"""Run scenario dicts with the game's engine: `run(data, scenario) -> list of failures`.

A failure is a string starting with the path of the failing entry, e.g. "expect[2]: ...",
which the CLI maps back to a file and line.
"""
from __future__ import annotations

import importlib


def run(data, scenario: dict) -> list[str]:
    engine = importlib.import_module(f"runtime.engines.{data.engine}")
    return engine.run_scenario(data, scenario)


def check_expectations(expectations: list, check) -> list[str]:
    """Every failed expectation as "expect[i]: problem"; `check(exp)` returns the problem or
    None. An expectation the checker cannot read is a failure, not a crash."""
    failures = []
    for i, exp in enumerate(expectations or []):
        try:
            problem = check(exp)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as err:
            problem = f"bad expectation: {type(err).__name__}: {err}"
        if problem:
            failures.append(f"expect[{i}]: {problem}")
    return failures
