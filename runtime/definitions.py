"""Frozen definitions that generated modules are made of."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Text:
    zh: str
    en: str

    def get(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an entity's facts come from: rulebook, public fact, or approximation."""
    source: str
    ref: str = ""
    note: str = ""
    approximations: tuple[tuple[str, str], ...] = ()
    public: tuple[tuple[str, str], ...] = ()

    @property
    def approximate(self) -> bool:
        return self.source == "approximation" or bool(self.approximations)


class Record:
    """An immutable bag of fields for nested content (an entry option, a cell...)."""
    __slots__ = ("_fields",)

    def __init__(self, /, **fields) -> None:  # positional-only: a field may be named `self`
        object.__setattr__(self, "_fields", MappingProxyType(dict(fields)))

    def __getattr__(self, name: str):
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, name: str):
        return self._fields[name]

    def get(self, name: str, default=None):
        return self._fields.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self._fields

    def __setattr__(self, name, value):
        raise AttributeError("Record is immutable")

    def __eq__(self, other) -> bool:
        return isinstance(other, Record) and dict(self._fields) == dict(other._fields)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._fields)))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self._fields.items())
        return f"Record({inner})"


@dataclass(frozen=True, slots=True)
class Definition:
    """Fields every entity has. Generated kinds subclass this with their own fields."""
    id: str
    name: Text
    provenance: Provenance
    source_file: str = ""
    source_line: int = 0
    pack: str = ""


@dataclass(frozen=True, slots=True)
class Keyword:
    name: str
    params: tuple[str, ...]
    text: Text | None
    effect: object = field(default=None, compare=False)


@dataclass(frozen=True)
class GameData:
    """What a generated package exports: the vocabulary's texts and every definition."""
    game: str
    name: Text
    engine: str
    players: MappingProxyType
    input_hash: str
    names: MappingProxyType          # name -> {type: Text}
    verbs: MappingProxyType          # verb -> Text template
    handlers: tuple[str, ...]        # verb and query handler names the engine must provide
    kinds: MappingProxyType          # kind -> {id: Definition}
    keywords: MappingProxyType       # keyword -> Keyword

    def of(self, kind: str) -> tuple:
        table = self.kinds.get(kind, {})
        return tuple(table[i] for i in sorted(table))

    def get(self, kind: str, entity_id: str):
        return self.kinds[kind][entity_id]

    def text(self, name: str, lang: str = "en") -> str:
        infos = self.names.get(name)
        if not infos:
            return name
        return next(iter(infos.values())).get(lang)
