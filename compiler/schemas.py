"""JSON Schemas (2020-12): the vocabulary meta-schema and one schema per entity kind.

Kind schemas are built from the `fields:` of each kind in game.yaml plus the fields every
entity shares (id, name, provenance). They are exported under schemas/<game>/ so editors with
yaml-language-server validate content while it is typed.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache

try:  # a compiled validator (Rust): the fast path; jsonschema stays the reference
    import jsonschema_rs
except ImportError:  # pragma: no cover - an install without the wheel is only slower
    jsonschema_rs = None

from tomecraft.compiler import names

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID_PATTERN = names.ID_PATTERN

TEXT = {
    "type": "object",
    "description": "A text in Chinese and English.",
    "required": ["zh", "en"],
    "additionalProperties": False,
    "properties": {"zh": {"type": "string", "minLength": 1, "maxLength": 400},
                   "en": {"type": "string", "minLength": 1, "maxLength": 400}},
}
# How a name reads in rules text beyond its zh/en: the English plural (when it is not the
# regular one; a mass noun gives itself) and the Chinese measure word put between a number and
# the name (张, 个, 枚, 点...).
WORD_FORMS = {"en_plural": {"type": "string", "minLength": 1, "maxLength": 100},
              "zh_measure": {"type": "string", "minLength": 1, "maxLength": 2}}
# An event field: its type, or its type with the zh/en noun phrase rules text shows for it.
FIELD_ENTRY = {"oneOf": [{"type": "string"},
                         {"type": "object", "required": ["type", "zh", "en"],
                          "additionalProperties": False,
                          "properties": {"type": {"type": "string"}, **TEXT["properties"]}}]}
NAME_ENTRY = {**TEXT, "properties": {**TEXT["properties"], **WORD_FORMS,
                                     "fields": {"type": "object",
                                                "additionalProperties": FIELD_ENTRY}}}
PARAM = {
    "type": "object", "required": ["name", "type"], "additionalProperties": False,
    "properties": {"name": {"type": "string", "pattern": ID_PATTERN},
                   "type": {"type": "string", "pattern": "^(int|bool|any|[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)?)$"},
                   "min": {"type": "integer", "minimum": -10_000, "maximum": 10_000, "description": (
                       "For an int parameter: the least value it may be given. A constant below "
                       "it is refused (TC-N009): `gain skill 0` gains nothing, `draw -2` draws "
                       "nothing.")}},
    # `min:` on a zone or a name is a least no argument can be below: refused where it stands
    "dependentSchemas": {"min": {"properties": {"type": {"const": "int"}}}},
}
TEMPLATE = {**TEXT, "description": "zh/en text with {param} placeholders."}
PURE = {"type": "boolean", "description": (
    "The handler only reads or changes the state it is handed: it fires no event, runs no "
    "effect and does bounded work. The compiler may copy its body into the effect "
    "(compiler/inline.py), and an effect that calls nothing else counts no run-time step.")}
NAMES = {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
         "additionalProperties": NAME_ENTRY}

GAME_SCHEMA = {
    "$schema": DIALECT,
    "$id": "https://tomecraft.invalid/schemas/game.schema.json",
    "title": "tomecraft game vocabulary (content/<game>/game.yaml)",
    "type": "object",
    "required": ["game", "name", "engine", "players", "verbs", "kinds"],
    "additionalProperties": False,
    "$defs": {"text": TEXT},
    "properties": {
        "game": {"type": "string", "pattern": ID_PATTERN},
        "name": TEXT,
        "rulebook": {"type": "string"},
        "script": {"enum": ["hant", "hans"],
                   "description": "Chinese script of the rulebook: Traditional or Simplified."},
        "engine": {"type": "string", "pattern": ID_PATTERN},
        "players": {"type": "object", "required": ["min", "max", "default"],
                    "additionalProperties": False,
                    "properties": {k: {"type": "integer", "minimum": 1, "maximum": 8}
                                   for k in ("min", "max", "default")}},
        "resources": NAMES, "zones": NAMES, "stats": NAMES, "statuses": NAMES,
        "scopes": NAMES, "events": NAMES,
        "terms": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                  "additionalProperties": NAMES},
        "verbs": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                  "additionalProperties": {
                      "type": "object", "required": ["params", "text"],
                      "additionalProperties": False,
                      "properties": {"params": {"type": "array", "items": PARAM},
                                     "cost": {"type": "boolean"},
                                     "handler": {"type": "string", "pattern": ID_PATTERN},
                                     "inline": {"enum": ["you_stat"], "description": (
                                         "The verb is pure arithmetic the compiler may write "
                                         "in place of the handler call: `you_stat` pays "
                                         "(`verb stat n`: has `you.stat >= n`, then "
                                         "`you.stat -= n`).")},
                                     "pure": PURE,
                                     "text": TEMPLATE}}},
        "queries": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                    "additionalProperties": {
                        "type": "object", "required": ["params", "returns", "text"],
                        "additionalProperties": False,
                        "properties": {"params": {"type": "array", "items": PARAM},
                                       "returns": {"type": "string",
                                                   "pattern": "^(int|bool|any|[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)?)$"},
                                       "handler": {"type": "string", "pattern": ID_PATTERN},
                                       "pure": PURE,
                                       "text": TEMPLATE,
                                       "step": {**TEMPLATE, "description":
                                                "How `let x = query(...)` reads as a step of its "
                                                "own (roll 2 dice); x then reads as `result`."},
                                       "result": {**TEXT, "description":
                                                  "How the value bound by a step reads (the roll)."},
                                       "min": {"type": "integer", "minimum": 0, "maximum": 10_000,
                                               "description": (
                                                   "For a query returning int: the least value "
                                                   "its handler ever returns (a count: 0). A "
                                                   "count read in play below 0 does nothing, and "
                                                   "the compiler leaves that test out where the "
                                                   "count is known not to be below 0.")},
                                       "max": {"type": "integer", "minimum": 0, "maximum": 10_000,
                                               "description": (
                                                   "For a query returning int: the most its "
                                                   "handler ever returns (the Hazard level: 5). "
                                                   "The checker's bounds on repeats and "
                                                   "amounts take it, not a guess of 1,000.")}},
                        "dependentSchemas": {"min": {"properties": {"returns": {"const": "int"}}},
                                             "max": {"properties": {"returns": {"const": "int"}}}}}},
        "keywords": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                     "additionalProperties": {
                         "type": "object", "required": ["params", "effect"],
                         "additionalProperties": False,
                         "properties": {"params": {"type": "array", "items": PARAM},
                                        "effect": {"type": "string"},
                                        "text": TEMPLATE}}},
        "kinds": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                  "additionalProperties": {
                      "type": "object", "required": ["plural", "zh", "en", "fields"],
                      "additionalProperties": False,
                      "properties": {"plural": {"type": "string", "pattern": ID_PATTERN},
                                     "zh": {"type": "string"}, "en": {"type": "string"},
                                     **WORD_FORMS,
                                     "fields": {"type": "object"},
                                     "required": {"type": "array",
                                                  "items": {"type": "string"}}}}},
    },
}

def _replaceable(section: dict, depth: int) -> dict:
    """A game.yaml section as a pack may write it: each entry may say `replace: true`."""
    if depth == 0:
        return {**section, "properties": {**section["properties"], "replace": REPLACE}}
    return {**section, "additionalProperties": _replaceable(section["additionalProperties"],
                                                            depth - 1)}


REPLACE = {"type": "boolean",
           "description": "In a pack: override the game's (or a required pack's) definition."}

PACK_SCHEMA = {
    "$schema": DIALECT,
    "title": "tomecraft pack manifest (pack.yaml)",
    "type": "object",
    "required": ["id", "game", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": ID_PATTERN},
        "game": {"type": "string", "pattern": ID_PATTERN},
        "version": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)*$",
                    "description": "numbers joined by dots, in quotes: \"1.0\""},
        "name": TEXT,
        "requires": {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}},
        "remove": {"type": "array", "items": {
            "type": "object", "required": ["kind", "id"], "additionalProperties": False,
            "properties": {"kind": {"type": "string"}, "id": {"type": "string"}}}},
        "vocabulary": {"type": "object", "additionalProperties": False,
                       "properties": {k: _replaceable(GAME_SCHEMA["properties"][k], depth)
                                      for k, depth in (("terms", 2), ("keywords", 1),
                                                       ("zones", 1), ("stats", 1),
                                                       ("statuses", 1), ("resources", 1),
                                                       ("scopes", 1))}},
    },
}

COMMON_FIELDS = {
    "id": {"type": "string", "pattern": ID_PATTERN, "description": "Unique per kind."},
    "name": {"$ref": "#/$defs/text"},
    "source": {"enum": ["rulebook", "public", "approximation"],
               "description": "Where the facts come from."},
    "ref": {"type": "string", "description": "Rulebook lines or section, e.g. L173-176."},
    "note": {"type": "string", "minLength": 1,
             "description": "Why the facts are public or approximated, and from what."},
    "approximations": {"type": "object", "additionalProperties": {"type": "string"},
                       "description": "Fields approximated inside an otherwise sourced entity."},
    "note_of": {"type": "string", "pattern": ID_PATTERN,
                "description": "The id of the approximated rule whose note states the same fact "
                               "as this entity's: sheets mark both with one footnote."},
    "public": {"type": "object", "additionalProperties": {"type": "string"},
               "description": "Fields holding public facts about the published game, with their source."},
    "replace": {"type": "boolean", "description": "In a pack: replace the entity of that id."},
}


def entity_schema(kind: str, spec: dict) -> dict:
    """The JSON Schema of one entity of `kind`, from its game.yaml declaration."""
    properties = {**COMMON_FIELDS, **spec.get("fields", {})}
    return {
        "$schema": DIALECT,
        "title": f"{kind} ({spec.get('en', kind)})",
        "type": "object",
        "required": ["id", "name", "source", *spec.get("required", [])],
        "additionalProperties": False,
        "properties": properties,
        "$defs": {"text": TEXT},
        "allOf": [{"if": {"properties": {"source": {"enum": ["public", "approximation"]}}},
                   "then": {"required": ["note"]}},
                  {"if": {"properties": {"source": {"const": "rulebook"}}},
                   "then": {"required": ["ref"]}}],
    }


def content_file_schema(game: str, kinds: dict) -> dict:
    """Schema of a whole content file: `<plural>: [entities...]` for the game's kinds."""
    return {
        "$schema": DIALECT,
        "title": f"tomecraft content file for {game}",
        "type": "object",
        "additionalProperties": False,
        "properties": {spec["plural"]: {"type": "array",
                                        "items": {"$ref": f"{kind}.schema.json"}}
                       for kind, spec in sorted(kinds.items())},
    }


def _pattern(validator, pattern, instance, schema):
    from jsonschema import ValidationError
    """`pattern` with ECMA-262 meaning: `$` is the end of the string (names.ecma)."""
    if validator.is_type(instance, "string"):
        regex = names.compiled(pattern)
        if regex is None or not regex.search(instance):
            if pattern == ID_PATTERN:
                yield ValidationError(names.problem(instance) or f"{instance!r} is not a name")
            else:
                yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator, properties, instance, schema):
    if validator.is_type(instance, "object"):
        for pattern, subschema in properties.items():
            regex = names.compiled(pattern)
            for key, value in instance.items():
                if regex is not None and regex.search(key):
                    yield from validator.descend(value, subschema, path=key, schema_path=pattern)


@lru_cache(maxsize=1)
def _reference_class():
    """Draft 2020-12 with patterns matched as JSON Schema means them (Python's `$` would
    accept a trailing newline: `"id\n"` would pass `^[a-z]+$`). Built on first use: the CLI's
    `--help` and `explain` do not import jsonschema."""
    from jsonschema import Draft202012Validator, validators
    return validators.extend(Draft202012Validator, {"pattern": _pattern,
                                                    "patternProperties": _pattern_properties})


class Validator:
    """Validates with jsonschema-rs first and asks jsonschema only about invalid data.

    jsonschema (Python) is the reference: its errors, messages and paths make the
    diagnostics. The compiled validator only answers "valid" quickly, and only for schemas
    where it cannot disagree with the reference (`_fast_path_safe`); any doubt (a value it
    cannot read, a schema it refuses) sends the data to jsonschema, so the diagnostics are
    exactly the ones jsonschema gives.
    """

    def __init__(self, schema: dict) -> None:
        self.schema = schema
        self._reference = None
        self._fast = None
        if jsonschema_rs is not None and _fast_path_safe(schema):
            try:
                self._fast = jsonschema_rs.validator_for(schema)
            except Exception:  # a schema it cannot compile: the reference alone decides
                self._fast = None

    @property
    def reference(self):
        if self._reference is None:
            self._reference = _reference_class()(self.schema)
        return self._reference

    def is_valid(self, data) -> bool:
        return next(iter(self.iter_errors(data)), None) is None

    def iter_errors(self, data):
        if self._fast is not None:
            try:
                if self._fast.is_valid(data):
                    return iter(())
            except Exception:  # e.g. an integer too large for it: ask the reference
                pass
        return self.reference.iter_errors(data)


_DIALECT_ESCAPE = re.compile(r"\\[A-Za-z0-9]")
# `(?:...)`, `(?=...)` and `(?!...)` mean the same in both dialects (the id pattern's keyword
# look-ahead); any other `(?` group (flags, names, look-behind) does not.
_OTHER_GROUP = re.compile(r"\(\?(?![:=!])")


def _fast_path_safe(schema: dict) -> bool:
    """Whether jsonschema-rs's "valid" implies jsonschema's for this schema.

    They differ only in regular expressions (ECMA-262 against Python's re): on patterns
    without letter or digit escapes (`\\d`, `\\Z`...: classes and anchors of one dialect)
    or `(?` groups other than `(?:`, `(?=` and `(?!`, ECMA is as strict or stricter (its `$` does not accept a trailing
    newline), so a value it accepts, Python accepts too; an escaped punctuation mark (`\\.`)
    means itself in both. Patterns Python cannot compile go to the reference, which reports
    them.
    """
    for pattern in _patterns(schema):
        if _DIALECT_ESCAPE.search(pattern) or _OTHER_GROUP.search(pattern):
            return False
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError):
            return False
    return True


@lru_cache(maxsize=None)
def _validator(schema_json: str) -> Validator:
    return Validator(json.loads(schema_json))


def validator(schema: dict) -> Validator:
    """A cached validator; schemas are keyed by their canonical JSON text."""
    return _validator(json.dumps(schema, sort_keys=True))


def schema_problems(schema: dict) -> list[str]:
    """Problems with a schema written by a content author (kind fields in game.yaml)."""
    return list(_schema_problems(json.dumps(schema, sort_keys=True)))


@lru_cache(maxsize=None)
def _schema_problems(schema_json: str) -> tuple[str, ...]:
    schema = json.loads(schema_json)
    # A fan's pattern that could take exponential time, or is no regex, is never run.
    patterns = tuple(dict.fromkeys(problem for pattern in _patterns(schema)
                                   if (problem := names.pattern_problem(pattern))))
    if patterns:
        return patterns
    if jsonschema_rs is not None and _fast_path_safe(schema):
        try:
            if jsonschema_rs.meta.is_valid(schema):
                return ()
        except Exception:  # anything it cannot read: the reference decides
            pass
    from jsonschema import Draft202012Validator
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as err:  # jsonschema raises SchemaError; message is what we need
        return (getattr(err, "message", str(err)),)
    return ()


def _patterns(schema):
    """Every `pattern` and `patternProperties` key of a schema, at any depth."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            if isinstance(node.get("patternProperties"), dict):
                yield from node["patternProperties"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def walk_annotated(schema: dict, data, path: tuple = (), defs: dict | None = None):
    """Yield (path, annotation, value) for every value whose schema has `x-tomecraft`.

    Follows properties, items, prefixItems and local `#/$defs/` references, which is all
    the kind schemas use; an object whose `propertyNames` has `x-tomecraft` yields each key
    (a monster's resistances name damage types: a pack's new one too).
    """
    defs = defs if defs is not None else schema.get("$defs", {})
    ref = schema.get("$ref", "")
    if ref.startswith("#/$defs/"):
        schema = defs.get(ref[len("#/$defs/"):], {})
    note = schema.get("x-tomecraft")
    if note is not None:
        yield path, note, data
        return
    if isinstance(data, dict):
        names = schema.get("propertyNames")
        if isinstance(names, dict) and names.get("x-tomecraft") is not None:
            for key in data:            # keys that name something (a monster's resistances)
                yield path + (key,), names["x-tomecraft"], key
        for key, sub in schema.get("properties", {}).items():
            if key in data:
                yield from walk_annotated(sub, data[key], path + (key,), defs)
    elif isinstance(data, list):
        prefix = schema.get("prefixItems", [])
        items = schema.get("items")
        for i, value in enumerate(data):
            sub = prefix[i] if i < len(prefix) else items
            if isinstance(sub, dict):
                yield from walk_annotated(sub, value, path + (i,), defs)
