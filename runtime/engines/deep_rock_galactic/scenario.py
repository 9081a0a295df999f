"""Scenario files for Deep Rock Galactic (filled in below)."""
from __future__ import annotations


def run_scenario(data, scenario: dict) -> list[str]:
    from runtime.engines.deep_rock_galactic.scenarios import run
    return run(data, scenario)
