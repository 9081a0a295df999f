"""JSON Schemas (2020-12): the vocabulary meta-schema and one schema per entity kind.

Kind schemas are built from the `fields:` of each kind in game.yaml plus the fields every
entity shares (id, name, provenance). They are exported under schemas/<game>/ so editors with
yaml-language-server validate content while it is typed.
"""
from __future__ import annotations

import json
from functools import lru_cache

from jsonschema import Draft202012Validator, ValidationError, validators

from compiler import names

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
NAME_ENTRY = {**TEXT, "properties": {**TEXT["properties"],
                                     "fields": {"type": "object",
                                                "additionalProperties": {"type": "string"}}}}
PARAM = {
    "type": "object", "required": ["name", "type"], "additionalProperties": False,
    "properties": {"name": {"type": "string", "pattern": ID_PATTERN},
                   "type": {"type": "string", "pattern": "^(int|bool|any|[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)?)$"}},
}
TEMPLATE = {**TEXT, "description": "zh/en text with {param} placeholders."}
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
                                     "text": TEMPLATE}}},
        "queries": {"type": "object", "propertyNames": {"pattern": ID_PATTERN},
                    "additionalProperties": {
                        "type": "object", "required": ["params", "returns", "text"],
                        "additionalProperties": False,
                        "properties": {"params": {"type": "array", "items": PARAM},
                                       "returns": {"type": "string",
                                                   "pattern": "^(int|bool|any|[a-z][a-z0-9_]*(:[a-z][a-z0-9_]*)?)$"},
                                       "handler": {"type": "string", "pattern": ID_PATTERN},
                                       "text": TEMPLATE}}},
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
                                     "fields": {"type": "object"},
                                     "required": {"type": "array",
                                                  "items": {"type": "string"}}}}},
    },
}

PACK_SCHEMA = {
    "$schema": DIALECT,
    "title": "tomecraft pack manifest (pack.yaml)",
    "type": "object",
    "required": ["id", "game", "version"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": ID_PATTERN},
        "game": {"type": "string", "pattern": ID_PATTERN},
        "version": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)*$"},
        "name": TEXT,
        "requires": {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}},
        "remove": {"type": "array", "items": {
            "type": "object", "required": ["kind", "id"], "additionalProperties": False,
            "properties": {"kind": {"type": "string"}, "id": {"type": "string"}}}},
        "vocabulary": {"type": "object", "additionalProperties": False,
                       "properties": {k: GAME_SCHEMA["properties"][k]
                                      for k in ("terms", "keywords", "zones", "stats",
                                                "statuses", "resources", "scopes")}},
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


# Draft 2020-12 with patterns matched as JSON Schema means them (Python's `$` would accept
# a trailing newline: `"id\n"` would pass `^[a-z]+$`).
Validator = validators.extend(Draft202012Validator, {"pattern": _pattern,
                                                     "patternProperties": _pattern_properties})


@lru_cache(maxsize=None)
def _validator(schema_json: str):
    return Validator(json.loads(schema_json))


def validator(schema: dict) -> Draft202012Validator:
    """A cached validator; schemas are keyed by their canonical JSON text."""
    return _validator(json.dumps(schema, sort_keys=True))


def schema_problems(schema: dict) -> list[str]:
    """Problems with a schema written by a content author (kind fields in game.yaml)."""
    return list(_schema_problems(json.dumps(schema, sort_keys=True)))


@lru_cache(maxsize=None)
def _schema_problems(schema_json: str) -> tuple[str, ...]:
    schema = json.loads(schema_json)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as err:  # jsonschema raises SchemaError; message is what we need
        return (getattr(err, "message", str(err)),)
    return tuple(dict.fromkeys(problem for pattern in _patterns(schema)
                               if (problem := names.pattern_problem(pattern))))


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
    the kind schemas use.
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
