"""Run scenario dicts with the game's engine: `run(data, scenario) -> list of failures`.

A failure is a string starting with the path of the failing entry, e.g. "expect[2]: ...",
which the CLI maps back to a file and line.
"""
from __future__ import annotations

import importlib


def run(data, scenario: dict) -> list[str]:
    engine = importlib.import_module(f"runtime.engines.{data.engine}")
    return engine.run_scenario(data, scenario)
