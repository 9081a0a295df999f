"""The schema stage's fast path (jsonschema-rs) never changes what jsonschema reports."""
from __future__ import annotations

import pytest

from tomecraft.compiler import schemas

KIND = schemas.entity_schema("tile_kind", {"fields": {
    "cost": {"type": "integer", "minimum": 0},
    "exits": {"type": "string", "pattern": "^[NESW]{0,4}$"},
    "code": {"type": "string", "pattern": "^\\d+\\Z"},          # Python-only meaning of \Z
    "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
}})
GOOD = {"id": "rappel", "name": {"zh": "垂降", "en": "Rappel"}, "source": "rulebook", "ref": "L1"}
CASES = [
    GOOD,
    {**GOOD, "id": "zz_nl\n"},             # Python's `$` accepts one trailing newline
    {**GOOD, "id": "Bad"},
    {**GOOD, "cost": True}, {**GOOD, "cost": 1.0}, {**GOOD, "cost": -1}, {**GOOD, "cost": 10 ** 40},
    {**GOOD, "exits": "NE\n"}, {**GOOD, "exits": "NX"},
    {**GOOD, "code": "12"}, {**GOOD, "code": "١٢"}, {**GOOD, "code": "12\n"},
    {**GOOD, "pair": ["a", 1]}, {**GOOD, "pair": [1, "a"]},
    {**GOOD, "cost": float("nan")}, {**GOOD, "extra": 1}, {"id": "x"}, [], "text", None,
]


def _errors(validator, data) -> list[tuple]:
    return sorted((tuple(map(str, e.absolute_path)), e.validator, e.message)
                  for e in validator.iter_errors(data))


@pytest.mark.parametrize("data", CASES, ids=[repr(c)[:40] for c in CASES])
def test_same_errors_as_jsonschema(data):
    reference = schemas._reference_class()(KIND)   # 2020-12 with JSON Schema's `$`
    assert _errors(schemas.validator(KIND), data) == _errors(reference, data)


def test_only_patterns_that_mean_the_same_in_both_dialects_take_the_fast_path():
    assert schemas._fast_path_safe(schemas.PACK_SCHEMA)   # `\\.` is a dot in both
    assert schemas._fast_path_safe(schemas.GAME_SCHEMA)
    assert not schemas._fast_path_safe(KIND)              # `\\d` and `\\Z` differ
    assert not schemas._fast_path_safe({"pattern": "(?P<x>a)"})
    assert not schemas._fast_path_safe({"pattern": "("})   # Python cannot compile it


def test_schema_problems_match_jsonschema():
    bad = {"type": "intger"}
    assert schemas.schema_problems(bad) and not schemas.schema_problems({"type": "integer"})
    assert schemas.schema_problems({"type": "string", "pattern": "(?<x>a)"})  # ECMA-only syntax
