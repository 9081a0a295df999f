"""Collect scenario files (tests/scenarios/**/*.yaml) as pytest items, one per file."""
from __future__ import annotations

from pathlib import Path

import pytest


def pytest_collect_file(parent, file_path: Path):
    if file_path.suffix in (".yaml", ".yml") and "scenarios" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    pass


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self) -> None:
        from compiler import scenarios
        outcome = scenarios.run_file(self.path)
        if not outcome.ok:
            raise ScenarioFailed("\n".join(f"{outcome.file}:{line}: {message}"
                                           for line, message in outcome.failures))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailed):
            return f"scenario failed:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario {self.path.name}"
