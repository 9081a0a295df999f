"""Scholar.stats hands out a Side: its Record's fields as plain attributes (a Record's field
read goes through a failed lookup and __getattr__), equal to the Record and read as one; where
the Record's fields are swapped (`sim --usage` wraps effects so), a new Side reads them."""
from __future__ import annotations

from types import MappingProxyType

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.loadgen import game_data
from tomecraft.runtime.definitions import Record
from tomecraft.runtime.engines.dungeontology.state import Scholar


def test_a_side_reads_as_its_record_and_follows_its_fields():
    data = game_data("dungeontology", [], dg.Reporter())
    card = data.kinds["scholar"]["rebecca"]
    record = next(s for s in card.sides if s.side == "standard")
    who = Scholar(0, card)
    side = who.stats()
    assert isinstance(side, Record) and side == record and side is who.stats()
    for name in record._fields:
        assert getattr(side, name) == record._fields[name] and side[name] == record[name]
    assert side.get("speed") == record.get("speed")          # Record's own names stay methods
    before = record._fields
    try:
        object.__setattr__(record, "_fields", MappingProxyType({**before, "speed": 99}))
        assert who.stats().speed == 99
    finally:
        object.__setattr__(record, "_fields", before)
    assert who.stats().speed == before["speed"]
