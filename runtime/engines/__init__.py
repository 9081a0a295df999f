"""One engine per game: `runtime.engines.<GameData.engine>` with play_game and run_scenario.

An engine package names what it offers without importing it (`lazy`): `tomecraft build` and
`check` import each engine's contract.py (and the Cave's handlers), and importing a package
runs its __init__, which must not load the whole engine for that."""
from __future__ import annotations

import importlib


def lazy(package: str, names: dict[str, str]):
    """A module `__getattr__` for `package` giving each name of `names` ({name: module}) from
    its module, imported when the name is first read."""
    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
        setattr(importlib.import_module(package), name, value)
        return value
    return __getattr__
