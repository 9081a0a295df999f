"""`tomecraft scenario format deep_rock_galactic` tells the defaults a scenario's setup gets:
a dwarf put in the bottom-left corner of the open 9x9 cave stands on the default drop pod,
which monsters never enter while he is on it (rulebook L374, L978). A blind tester's Grunt
would not walk up to a Scout at [8, 0] and the format said nothing of a pod there."""
from __future__ import annotations

import importlib
import re

import yaml

from tomecraft.runtime.engines.deep_rock_galactic import scenario

BASE = importlib.import_module("tomecraft.generated.deep_rock_galactic").GAME


def test_the_format_names_the_default_drop_pod_the_setup_places():
    found = re.search(r"pod \[\[r,c\] x4\] \(default (\[\[[^)]*?\]\])", scenario.__doc__)
    assert found, "the scenario format gives no default for `pod`"
    listed = {tuple(h) for h in yaml.safe_load(found.group(1))}
    engine, _ = scenario.build(BASE, {})
    assert set(engine.state.pod) == listed

