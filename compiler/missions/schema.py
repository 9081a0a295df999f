"""The mission file's JSON Schema, and its errors reported under the constraint they break."""
from __future__ import annotations

import re

from tomecraft.compiler import diagnostics as dg, loader, schemas

# a name the briefing prints: not empty, not only spaces (the content's texts, plus that)
_NAME_TEXT = {"type": "string", "maxLength": 400, "pattern": "\\S"}
_TEXT = {"type": "object", "required": ["zh", "en"], "additionalProperties": False,
         "properties": {"zh": _NAME_TEXT, "en": _NAME_TEXT}}
_HEX = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2,
        "description": "[row, column] of a hex of the map, both from 0"}
# Names are checked against the game's roster (with look-alike hints), not by a pattern here.
_COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}

MISSION_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Deep Rock Galactic mission file",
    "type": "object",
    "required": ["game", "mission"],
    "additionalProperties": False,
    "properties": {
        "game": {"const": "deep_rock_galactic"},
        "mission": {
            "type": "object",
            "required": ["id", "name", "source", "objective", "minerals", "pickups", "map"],
            "additionalProperties": False,
            "properties": {
                "id": {"type": "string", "pattern": schemas.ID_PATTERN},
                "number": {"type": "integer", "minimum": 1},
                "name": _TEXT,
                "source": {"enum": ["rulebook", "public", "approximation"]},
                "ref": {"type": "string", "minLength": 1},
                "note": {"type": "string", "minLength": 1},
                "approximations": {"type": "object", "additionalProperties": {"type": "string"}},
                "public": {"type": "object", "additionalProperties": {"type": "string"}},
                "objective": {
                    "type": "object", "required": ["type"], "additionalProperties": False,
                    "properties": {
                        "type": {"enum": ["collect", "eliminate"]},
                        "targets": _COUNTS,
                        "creature": {"type": "string"},
                    }},
                "hazard": {"type": "integer", "minimum": 1, "maximum": 5,
                           "description": "recommended Hazard level; the players choose"},
                "threat_start": {"description": "refused (V-26): the Hazard level sets it"},
                "minerals": _COUNTS,
                "pickups": _COUNTS,
                "remove_cards": {"type": "array", "items": {"type": "string"}},
                "mission_event": {"type": "string"},
                "hidden_monsters": {"type": "array", "items": {
                    "type": "object", "required": ["creature", "count"], "additionalProperties": False,
                    "properties": {"creature": {"type": "string"},
                                   "count": {"type": "integer", "minimum": 1}}}},
                "tokens": _COUNTS,
                "drop_pod": {"type": "array", "items": _HEX},
                "tunnel_exits": {"type": "array", "items": {
                    "type": "object", "required": ["exit", "at"], "additionalProperties": False,
                    "properties": {"exit": {"type": "integer", "minimum": 1}, "at": _HEX}}},
                "mine_head": _HEX,
                "stalagmites": {"type": "array", "items": _HEX},
                "mineral_spaces": {"type": "array", "items": {
                    "type": "object", "required": ["mineral", "at"], "additionalProperties": False,
                    "properties": {"mineral": {"type": "string"}, "at": _HEX}},
                    "description": "minerals placed on a fixed diamond space instead of at random"},
                "drones": {"type": "array", "items": _HEX},
                "map": {"type": "string"},
            },
            # provenance, as every content entity's (schemas.entity_schema, README: `source`)
            # (`required` in each `if`: without a source neither applies, F-01 says it is missing)
            "allOf": [{"if": {"required": ["source"],
                              "properties": {"source": {"enum": ["public", "approximation"]}}},
                       "then": {"required": ["note"]}},
                      {"if": {"required": ["source"], "properties": {"source": {"const": "rulebook"}}},
                       "then": {"required": ["ref"]}}]},
    },
}

# The constraint each field's schema errors break (README: "Constraints"); F-01 is the file's
# own shape (game, id, name, provenance, unknown fields).
FIELD_RULE = {"objective": "V-01", "hazard": "V-26", "threat_start": "V-26", "minerals": "V-15",
              "pickups": "V-17", "remove_cards": "V-20", "mission_event": "V-21",
              "hidden_monsters": "V-23", "tokens": "V-24", "drop_pod": "V-07", "tunnel_exits": "V-12",
              "mine_head": "V-19", "stalagmites": "V-06", "mineral_spaces": "V-15", "drones": "V-25",
              "map": "V-04"}
_OBJECTIVE_RULE = {"creature": "V-02", "targets": "V-03"}
_HINTS = {"V-01": "objective is `{type: collect, targets: {morkite: 5}}` or "
                  "`{type: eliminate, creature: praetorian}` (lower case)",
          "V-26": "hazard is a whole number from 1 to 5",
          "V-04": "the map is a block of text: `map: |` then one row per line",
          "V-07": "drop_pod: [[row, col], [row, col], [row, col], [row, col]]",
          "V-12": "tunnel_exits: [{exit: 1, at: [row, col]}, {exit: 2, at: [row, col]}]",
          # the shape of every other field, so that no schema error comes without a hint
          "V-02": "creature: one monster id, e.g. `creature: praetorian`",
          "V-03": "targets is a mapping of minerals or pickups to whole numbers of at least 1: "
                  "`targets: {morkite: 5}`",
          "V-06": "stalagmites: [[row, col], [row, col]]",
          "V-15": "minerals: {morkite: 4, gold: 1} (whole numbers); "
                  "mineral_spaces: [{mineral: aquarq, at: [row, col]}]",
          "V-17": "pickups: {apoca_bloom: 2, loot_bug: 1} (whole numbers)",
          "V-19": "mine_head: [row, col]",
          "V-20": "remove_cards is a list of card ids: `remove_cards: [oh_oh_oppressor]`",
          "V-21": "mission_event is one string in the effect language: "
                  "`mission_event: \"spawn_at_exits grunt 1; activate_monsters\"`",
          "V-23": "hidden_monsters: [{creature: grunt, count: 1}] (count at least 1)",
          "V-24": "tokens: {platform: 2} (whole numbers)",
          "V-25": "drones: [[row, col], [row, col]]"}
# the last resort for an F-01 no field hint or schema hint covers
_FILE_HINT = ("the file is `game: deep_rock_galactic` and `mission:` with the fields of "
                  "content/deep_rock_galactic/missions/README.md (`number` is a whole number, "
                  "`note` and `ref` are text)")

# F-01's fields each say how they are written
_FIELD_HINTS = {"name": "name: {zh: 盐坑, en: Salt Pits}: the briefing prints both",
                "note": "a source `public` or `approximation` says why in a `note:` (text)",
                "ref": "a source `rulebook` gives the rulebook lines in `ref:`, e.g. `ref: L140-221`",
                "number": "number: a whole number of at least 1",
                "source": "source: rulebook (with `ref:`), public or approximation (with `note:`)"}


def rule_of(path: tuple) -> str:
    """The constraint id for a schema error at `path` (relative to the file's root)."""
    if len(path) < 2 or path[0] != "mission":
        return "F-01"
    field = path[1]
    if field == "objective" and len(path) > 2:
        return _OBJECTIVE_RULE.get(path[2], "V-01")
    return FIELD_RULE.get(field, "F-01")

def fractional_numbers(value, path: tuple = ()):
    """(path, value) of every float in the file. Every number a mission holds is a whole one,
    but JSON Schema counts 2.0 as an integer: the set-up then stopped on `range(2.0)`, a
    slice or a bit mask (a float coordinate), and the briefing printed `× 2.0`."""
    if isinstance(value, float):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from fractional_numbers(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from fractional_numbers(item, path + (i,))


def _once_per_list(errors: list) -> list:
    """One error for the items of a list that break the same rule the same way: a flat
    `drop_pod: [2, 2, 2, 3, ...]` gave eight '2 is not of type array', one per number."""
    seen, out = set(), []
    for err in errors:
        path = tuple(err.absolute_path)
        key = (path[:-1], err.validator, repr(err.validator_value))
        if path and isinstance(path[-1], int) and key in seen:
            continue
        seen.add(key)
        out.append(err)
    return out


def report_schema_errors(doc: loader.Document, display: str, reporter: dg.Reporter) -> bool:
    """Report every schema error, each naming its constraint; True if there was any."""
    from tomecraft.compiler import vocabulary
    from tomecraft.compiler.checks import did_you_mean
    validator = schemas.validator(MISSION_SCHEMA)   # jsonschema-rs first, then jsonschema
    errors = sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path)))
    # a value the YAML reader refused (`!level 3`) is None here: the reader's F-01 says why,
    # at the value; its schema error ("None is not of type ...") pointed at the parent
    refused = [e for e in errors if e.instance is None and doc.refused(tuple(e.absolute_path))]
    errors = _once_per_list([e for e in errors if e not in refused])
    for err in errors:
        path = tuple(err.absolute_path)
        mark = doc.mark(path)
        message, hint = err.message, ""
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
            if extra:
                mark = doc.mark(path + (extra[0],), key=True)
                message = f"unknown field {extra[0]!r}"
                hint = did_you_mean(str(extra[0]), sorted(err.schema.get("properties", {})))
        rule = rule_of(path)
        if err.validator == "required" and isinstance(err.instance, dict):
            # each missing field is an error of its own: its rule and hint are its own (all
            # took the first missing field's: `minerals` and `map` missing were both V-15)
            named = re.match(r"^'(.+)' is a required property", err.message)
            missing = named.group(1) if named else next(
                (k for k in err.validator_value if k not in err.instance), None)
            rule = rule_of(path + (missing,)) if missing else rule
            if missing in ("note", "ref") and isinstance(err.instance.get("source"), str):
                # required by the source named: said there, not at the mission's first line
                mark = doc.mark(path + ("source",))
                message += f" with `source: {err.instance['source']}`"
        if err.validator == "pattern" and err.validator_value == _NAME_TEXT["pattern"]:
            message = f"an empty name {err.instance!r}"
        field = path[1] if len(path) > 1 and rule == "F-01" else None
        if err.validator == "required" and rule == "F-01":
            field = missing or field
        # a number or yes/no where F-01 wants text: the reader's own hint (quote it) first
        typed = vocabulary._schema_hint(err) if err.validator == "type" and rule == "F-01" else ""
        hint = (hint or typed or _FIELD_HINTS.get(field, "") or _HINTS.get(rule, "")
                or vocabulary._schema_hint(err) or _FILE_HINT)
        code = dg.SCHEMA
        if err.validator == "required" and any(
                repr(p) in message for p in ("source", "ref", "note") if p not in err.instance):
            code = dg.PROVENANCE
        if len(message) > 300:
            message = message[:300] + "..."
        reporter.add(code, f"{rule}: {message}", display, mark.line, mark.column, hint)
    floats = [] if errors else list(fractional_numbers(doc.data))
    for path, value in floats:
        mark = doc.mark(path)
        reporter.add(dg.SCHEMA, f"{rule_of(path)}: {value!r} is not a whole number", display,
                     mark.line, mark.column, f"every number of a mission file is a whole number: "
                     f"write {int(value)}" if value.is_integer() else "write a whole number")
    return bool(errors or floats or refused)    # the checker never reads a refused value
