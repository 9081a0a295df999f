"""The game's vocabulary (content/<game>/game.yaml): what every name in an effect means."""
from __future__ import annotations

from dataclasses import dataclass, field

from tomecraft.compiler import diagnostics as dg, names
from tomecraft.compiler import schemas
from tomecraft.compiler.loader import Document
from tomecraft.dsl.parser import KEYWORDS

# Sections of game.yaml that declare plain names, and the type their names get.
NAME_SECTIONS = {"resources": "resource", "zones": "zone", "stats": "stat",
                 "statuses": "status", "scopes": "scope", "events": "event"}
# Names every effect may use without declaring them.
LOCALS = {"you": "player", "self": "entity", "it": "any", "target": "any", "event": "event"}
LOCAL_MEANINGS = {"you": "the acting player", "self": "the entity the effect is printed on",
                  "it": "what an event or an `each` is about", "target": "what `target` chose",
                  "event": "the event a trigger heard"}


@dataclass(frozen=True, slots=True)
class Text:
    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    least: int | None = None     # `min:` of an int parameter: a constant below it is refused


@dataclass(frozen=True, slots=True)
class Callable:
    """A verb, query or keyword: something called with typed arguments."""
    name: str
    role: str  # "verb", "query" or "keyword"
    params: tuple[Param, ...]
    text: Text | None
    cost: bool = False
    returns: str = ""
    handler: str = ""
    effect: str = ""
    origin: tuple = ()  # (document, path) of the declaration, for diagnostics
    step: Text | None = None    # a query bound by `let`, read as a step of its own
    result: Text | None = None  # ...and how the bound value then reads
    inline: str = ""    # a verb the compiler may inline (see codegen.EffectCompiler.inlined)
    pure: bool = False  # its handler fires no event and runs no effect (see compiler/inline.py)
    least: int | None = None    # a query's `min:`: the least int its handler returns
    most: int | None = None     # a query's `max:`: the most it returns (bounds, checks.py)


@dataclass(frozen=True, slots=True)
class NameInfo:
    type: str
    text: Text
    fields: tuple[tuple[str, str], ...] = ()
    en_plural: str = ""      # English plural when not the regular one
    zh_measure: str = ""     # Chinese measure word between a number and the name
    field_texts: tuple[tuple[str, Text], ...] = ()  # an event's fields, as noun phrases


@dataclass
class Vocabulary:
    game: str
    name: Text
    engine: str
    players: dict
    rulebook: str = ""
    script: str = "hant"   # the rulebook's Chinese script; rendered zh text follows it
    names: dict[str, dict[str, NameInfo]] = field(default_factory=dict)
    verbs: dict[str, Callable] = field(default_factory=dict)
    queries: dict[str, Callable] = field(default_factory=dict)
    keywords: dict[str, Callable] = field(default_factory=dict)
    kinds: dict[str, dict] = field(default_factory=dict)
    plurals: dict[str, str] = field(default_factory=dict)  # plural -> kind
    term_types: set[str] = field(default_factory=set)
    entity_names: dict[str, Text] = field(default_factory=dict)  # id -> name, for rules text

    def add_name(self, name: str, info: NameInfo) -> None:
        self.names.setdefault(name, {})[info.type] = info

    def types_of(self, name: str) -> set[str]:
        return set(self.names.get(name, {}))

    def text_of(self, name: str, lang: str, prefer: str | None = None) -> str:
        infos = self.names.get(name)
        if not infos:
            return name
        info = infos.get(prefer) if prefer else None
        info = info or next(iter(infos.values()))
        return info.text.get(lang)

    def callable(self, name: str) -> Callable | None:
        return self.verbs.get(name) or self.keywords.get(name) or self.queries.get(name)

    def all_names(self) -> list[str]:
        return sorted(set(self.names) | set(self.verbs) | set(self.queries)
                      | set(self.keywords) | set(LOCALS))

    def info(self, name: str, prefer: str | None = None) -> NameInfo | None:
        """What the vocabulary says about `name` (as a `prefer`, if it is declared as one)."""
        infos = self.names.get(name)
        if not infos:
            return None
        return (infos.get(prefer) if prefer else None) or next(iter(infos.values()))

    def field_text(self, name: str, event: str | None = None) -> Text | None:
        """The rules text of an attribute: a stat, the event's field, or a kind's field
        (its `x-text`)."""
        if event is not None:
            info = self.names.get(event, {}).get("event")
            texts = dict(info.field_texts) if info else {}
            if name in texts:
                return texts[name]
        stat = self.names.get(name, {}).get("stat")
        if stat is not None:
            return stat.text
        for kind in sorted(self.kinds):
            spec = self.kinds[kind].get("fields", {}).get(name)
            if isinstance(spec, dict):
                text = _text(spec.get("x-text"))
                if text is not None:
                    return text
        return None

    def note_entity_names(self, entities) -> None:
        """Remember the names of entities, so rules text can name one an effect mentions."""
        for entity in entities:
            text = _text(entity.data.get("name"))
            if text is not None:
                self.entity_names.setdefault(entity.id, text)

    def event_fields(self, event: str) -> dict[str, str]:
        info = self.names.get(event, {}).get("event")
        return dict(info.fields) if info else {}


def _text(raw) -> Text | None:
    if isinstance(raw, dict) and "zh" in raw and "en" in raw:
        return Text(str(raw["zh"]), str(raw["en"]))
    return None


def _params(raw) -> tuple[Param, ...]:
    return tuple(Param(p["name"], p["type"], p.get("min")) for p in raw or ())


def validate_document(doc: Document, schema: dict, reporter: dg.Reporter, display: str,
                      code: str) -> bool:
    """Validate a whole document against a schema, one diagnostic per problem."""
    ok = True
    for err in sorted(schemas.validator(schema).iter_errors(doc.data),
                      key=lambda e: [str(p) for p in e.absolute_path]):
        path = tuple(err.absolute_path)
        # a name refused by `propertyNames` (reported as its `pattern`) is at the mapping's path
        named = isinstance(err.instance, str) and _holds_key(doc.data, path, err.instance)
        at_key = err.validator in ("additionalProperties", "propertyNames") or named
        mark = doc.mark(path)
        message = err.message
        if err.validator == "additionalProperties":
            extra = [k for k in (err.instance or {}) if k not in err.schema.get("properties", {})]
            if extra:
                mark = doc.mark(path + (extra[0],), key=True)
                message = f"unknown field {extra[0]!r}"
        elif at_key:   # the name at fault, not the mapping's first key
            mark = doc.mark(path + (err.instance,) if named else path, key=True)
        elif err.validator == "const" and err.validator_value == "int" and path[-1:] == ("type",):
            # schemas.PARAM's dependentSchemas: `{name: z, type: zone, min: 1}` was taken as is
            message = f"`min:` is the least of an int parameter; this one is a {err.instance}"
        reporter.add(code, message, display, mark.line, mark.column,
                     _schema_hint(err))
        ok = False
    return ok


def _holds_key(data, path: tuple, key: str) -> bool:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(data, dict) and key in data


def _schema_hint(err) -> str:
    if err.validator == "additionalProperties":
        allowed = sorted(err.schema.get("properties", {}))
        return "allowed fields: " + ", ".join(allowed) if len(allowed) <= 25 else ""
    if err.validator == "required":
        return "add the missing field"
    if err.validator == "pattern":
        if err.validator_value == schemas.ID_PATTERN:
            return names.HINT
        # a field whose schema says how it is written ("numbers joined by dots...") says so
        return err.schema.get("description") or "the value must match the pattern"
    if err.validator == "enum":     # `card_type: aquire` gets the close value first
        from tomecraft.compiler.checks import did_you_mean  # late: checks imports this module
        options = [str(v) for v in err.validator_value]
        close = did_you_mean(str(err.instance), options) if isinstance(err.instance, str) else ""
        return (close + " (" if close else "") + "one of: " + ", ".join(options) + (")" if close else "")
    if err.validator == "type" and {"zh", "en"} <= set(err.schema.get("properties", {})):
        return "a text is written in both languages: {zh: 水域版塊, en: Water}"
    if err.validator == "type" and err.validator_value == "string" \
            and isinstance(err.instance, (int, float, bool)):
        # `version: 0.1`, `exits: no`: YAML reads an unquoted number, yes or no as no text
        if isinstance(err.instance, bool):
            return "YAML reads yes, no, true and false unquoted as true/false: put the word in quotes"
        return f"YAML reads it as a number: put it in quotes, \"{err.instance}\""
    return ""


def installed_engines() -> list[str]:
    """The engines this tomecraft plays: the packages under runtime/engines/."""
    from pathlib import Path

    from tomecraft.runtime import engines
    folder = Path(engines.__file__).parent
    return sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())


def build(doc: Document, reporter: dg.Reporter, display: str) -> Vocabulary | None:
    """Read game.yaml into a Vocabulary, reporting what is wrong with it."""
    if not validate_document(doc, schemas.GAME_SCHEMA, reporter, display, dg.VOCAB):
        return None
    raw = doc.data
    if raw["engine"] not in installed_engines():   # sim and scenario imported it: exit 3
        mark = doc.mark(("engine",))
        reporter.add(dg.VOCAB, f"engine {raw['engine']!r} is not one of tomecraft's engines",
                     display, mark.line, mark.column,
                     "engines: " + ", ".join(installed_engines()))
        return None
    vocab = Vocabulary(game=raw["game"], name=_text(raw["name"]), engine=raw["engine"],
                       players=dict(raw["players"]), rulebook=raw.get("rulebook", ""),
                       script=raw.get("script", "hant"))
    merge(vocab, raw, doc, reporter, display)
    for kind, spec in raw["kinds"].items():
        for field_name in spec.get("fields", {}):
            if not names.is_identifier(field_name) or field_name in schemas.COMMON_FIELDS:
                mark = doc.mark(("kinds", kind, "fields", field_name), key=True)
                reporter.add(dg.VOCAB, f"field name {field_name!r} of kind {kind!r} must be a "
                             "lower_snake_case name, not a Python keyword or a common field",
                             display, mark.line, mark.column)
        for problem in schemas.schema_problems(schemas.entity_schema(kind, spec)):
            mark = doc.mark(("kinds", kind))
            reporter.add(dg.VOCAB, f"kind {kind!r}: {problem}", display, mark.line, mark.column)
        vocab.kinds[kind] = spec
        vocab.plurals[spec["plural"]] = kind
    return vocab


def taken_by_the_language(name: str) -> str | None:
    """Why a declared name cannot be `name`: a word of the effect language, or one of its
    built-in names (a keyword `it` was read as the event's thing; a resource `you` as the
    player), else None."""
    if name in KEYWORDS:
        return f"{name!r} is a reserved word of the effect language"
    if name in LOCALS:
        return f"{name!r} is a built-in name of the effect language ({LOCAL_MEANINGS[name]})"
    return None


def merge(vocab: Vocabulary, raw: dict, doc: Document, reporter: dg.Reporter,
          display: str, at: tuple = ()) -> None:
    """Add the names, verbs, queries and keywords of `raw` (game.yaml or a pack's additions),
    found at path `at` of `doc` (a pack's are under `vocabulary:`: without it, a pack
    keyword's diagnostics pointed at pack.yaml's line 1)."""
    def refuse(path: tuple, message: str, hint: str = "") -> None:
        mark = doc.mark(at + path, key=True)
        reporter.add(dg.VOCAB, message, display, mark.line, mark.column, hint)

    reserved = ("give it a name of its own: the effect language's words (" +
                ", ".join(sorted(KEYWORDS)) + ") and built-in names (" + ", ".join(LOCALS) +
                ") mean the same in every game")

    for section, type_ in NAME_SECTIONS.items():
        for name, entry in (raw.get(section) or {}).items():
            if (why := taken_by_the_language(name)) is not None:
                refuse((section, name), why, reserved)
                continue
            fields = (entry.get("fields") or {}).items()
            vocab.add_name(name, NameInfo(
                type_, _text(entry),
                tuple(sorted((k, v if isinstance(v, str) else v["type"]) for k, v in fields)),
                entry.get("en_plural", ""), entry.get("zh_measure", ""),
                tuple(sorted((k, _text(v)) for k, v in fields if _text(v)))))
    for term_type, entries in (raw.get("terms") or {}).items():
        vocab.term_types.add(term_type)
        for name, entry in (entries or {}).items():
            if (why := taken_by_the_language(name)) is not None:
                refuse(("terms", term_type, name), why, reserved)
                continue
            vocab.add_name(name, NameInfo(term_type, _text(entry), (),
                                          entry.get("en_plural", ""), entry.get("zh_measure", "")))
    tables = (("verbs", vocab.verbs, "verb"), ("queries", vocab.queries, "query"),
              ("keywords", vocab.keywords, "keyword"))
    for section, table, role in tables:
        for name, entry in (raw.get(section) or {}).items():
            if (why := taken_by_the_language(name)) is not None:
                refuse((section, name), why, reserved)
                continue
            clash = vocab.callable(name)
            if clash is not None:
                refuse((section, name), f"{name!r} is already declared as a {clash.role}",
                       f"give the {role} a name of its own: effects call a {clash.role} and a "
                       f"{role} alike, by name")
                continue
            seen: set = set()
            for i, param in enumerate(entry.get("params") or ()):
                if param["name"] in seen:  # became `def kw_k(ctx, p_a, p_a)`: a SyntaxError
                    mark = doc.mark(at + (section, name, "params", i, "name"))
                    reporter.add(dg.VOCAB, f"{role} {name!r} has two parameters named "
                                 f"{param['name']!r}", display, mark.line, mark.column,
                                 "give each parameter its own name")
                seen.add(param["name"])
            table[name] = Callable(
                name=name, role=role, params=_params(entry.get("params")),
                text=_text(entry.get("text")), cost=bool(entry.get("cost", False)),
                returns=entry.get("returns", ""), handler=entry.get("handler", name),
                effect=entry.get("effect", ""), origin=(doc, at + (section, name, "effect")),
                step=_text(entry.get("step")), result=_text(entry.get("result")),
                inline=entry.get("inline", ""), pure=bool(entry.get("pure", False)),
                least=entry.get("min") if role == "query" else None,
                most=entry.get("max") if role == "query" else None)
