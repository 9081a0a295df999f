"""The compiler's intermediate representation: a game's vocabulary and its entities."""
from __future__ import annotations

from dataclasses import dataclass, field

from tomecraft.compiler.loader import Document
from tomecraft.compiler.vocabulary import Vocabulary
from tomecraft.dsl import nodes


@dataclass
class EffectSite:
    """One effect string inside an entity (or a keyword), with its parsed AST."""
    path: tuple            # path of the string inside its document
    text: str
    ast: nodes.Block | None = None


@dataclass
class Entity:
    kind: str
    id: str
    data: dict
    pack: str
    doc: Document
    display: str           # file name as shown to the user
    path: tuple            # path of the entity inside its document
    effects: list[EffectSite] = field(default_factory=list)
    refs: list[tuple[tuple, str, str]] = field(default_factory=list)  # (path, kind, id)
    replaced: "Entity | None" = None   # the entity this one replaces (`replace: true`)

    @property
    def line(self) -> int:
        return self.doc.mark(self.path).line

    @property
    def source(self) -> str:
        return self.data.get("source", "")


@dataclass
class Pack:
    id: str
    game: str
    version: str
    root: str
    manifest: dict = field(default_factory=dict)


@dataclass
class Game:
    """Everything one build of one game needs: vocabulary, packs, entities by kind and id."""
    vocab: Vocabulary
    packs: list[Pack] = field(default_factory=list)
    entities: dict[str, dict[str, Entity]] = field(default_factory=dict)
    keyword_sites: dict[str, EffectSite] = field(default_factory=dict)
    documents: list[Document] = field(default_factory=list)
    pending: list[tuple] = field(default_factory=list)     # (pack, doc, display) to validate
    removals: dict[str, list] = field(default_factory=dict)  # pack id -> removals
    # (kind, id) -> (the entity a pack removed, the pack.yaml, the `remove` index)
    removed: dict[tuple, tuple] = field(default_factory=dict)
    # kind -> id -> fields of an entity its schema refused (reported there): what names it is
    # not reported again as naming nothing
    refused: dict[str, dict[str, dict]] = field(default_factory=dict)
    # packs a loaded pack `requires` that are not loaded (reported there): a name unknown in
    # its effects may be one of theirs
    unloaded_requires: list[str] = field(default_factory=list)

    def of_kind(self, kind: str) -> list[Entity]:
        return [self.entities[kind][i] for i in sorted(self.entities.get(kind, {}))]

    def all(self) -> list[Entity]:
        return [e for kind in sorted(self.entities) for e in self.of_kind(kind)]

    @property
    def id(self) -> str:
        return self.vocab.game
