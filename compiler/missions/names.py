"""What a mission may name (the roster of the compiled game, with its packs) and the hints
for a wrong name: a look-alike Unicode letter, a name listed under the wrong heading."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tomecraft.compiler import diagnostics as dg, pipeline

# Letters from other scripts that look like the Latin letters of a lower_snake_case id.
_CONFUSABLE = {"а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "і": "i",
               "ј": "j", "ѕ": "s", "к": "k", "м": "m", "н": "h", "т": "t", "в": "b", "ԁ": "d",
               "ο": "o", "α": "a", "ι": "i", "κ": "k", "ν": "v", "ρ": "p", "τ": "t", "υ": "u",
               "χ": "x", "ɡ": "g", "ı": "i", "‐": "_", "‑": "_", "－": "_", "＿": "_"}


def ascii_fold(name: str) -> str:
    """`name` with look-alike letters replaced by the ASCII letters they imitate."""
    out = []
    for ch in name:
        if ch.isascii():
            out.append(ch)
            continue
        folded = unicodedata.normalize("NFKC", ch).lower()
        out.append(folded if folded.isascii() else _CONFUSABLE.get(ch.lower(), ch))
    return "".join(out)


@dataclass
class Roster:
    """What a mission may name, from the compiled game (and its packs)."""
    creatures: set[str]
    minerals: set[str]
    pickups: set[str]
    cards: set[str]
    game: object = None
    collectable: set[str] = field(default_factory=set)      # pickups that reach the Shared Supply
    token_supply: dict[str, int] = field(default_factory=dict)   # class tokens in the box
    rules: dict = field(default_factory=dict)
    pack_errors: list = field(default_factory=list)
    creature_terms: set[str] = field(default_factory=set)  # every creature name an effect may use
    shipped: dict = field(default_factory=dict)     # (kind, id) -> the shipped pack that has it

    def in_pack(self, name: str, what: str) -> str:
        """The shipped pack whose `what` (card, creature...) `name` is, when it is not loaded."""
        return self.shipped.get((what, name), "")

    def kind_names(self, what: str) -> set[str]:
        return {"mineral": self.minerals, "pickup": self.pickups, "creature": self.creatures,
                "card": self.cards}.get(what, set())

    def kind_of(self, name: str) -> str:
        for what, names in (("mineral", self.minerals), ("pickup", self.pickups),
                            ("creature", self.creatures), ("card", self.cards),
                            ("class token", set(self.token_supply))):
            if name in names:
                return what
        return ""

    def hint(self, name: str, what: str, known: set[str], heading: str = "") -> str:
        """How to fix an unknown `what` called `name`: look-alike letters, the right heading,
        the closest known names."""
        from tomecraft.compiler.checks import did_you_mean
        folded = ascii_fold(name)
        if folded != name:
            odd = next(ch for ch in name if not ch.isascii())
            where = f"{odd!r} (U+{ord(odd):04X} {unicodedata.name(odd, 'unnamed')})"
            if folded in known:
                return f"{where} only looks like an ASCII letter: type `{folded}`"
            return f"{where} is not an ASCII letter: ids are lower_snake_case ASCII"
        pack = self.in_pack(name, what)
        if pack:
            return (f"{name} is a {what} of the pack {pack}: check and play the mission with "
                    f"`--pack {pack}`")
        other = self.kind_of(name)
        if other and other != what:
            place = {"mineral": "`minerals:`", "pickup": "`pickups:`", "creature": "a creature field",
                     "card": "`remove_cards:`", "class token": "`tokens:`"}[other]
            return f"{name} is a {other}, not a {what}: list it under {place}" + (
                f", not {heading}" if heading else "")
        return did_you_mean(name, sorted(known)) or f"known: {', '.join(sorted(known))}"


def roster(game=None, packs: tuple[Path, ...] = ()) -> Roster:
    if game is not None:
        return _from_game(game, [])
    return _cached(str(pipeline.content_root()), tuple(str(Path(p).resolve()) for p in packs))


@lru_cache(maxsize=8)
def _cached(root: str, packs: tuple[str, ...]) -> Roster:
    reporter = dg.Reporter()
    game = pipeline.compile_game(Path(root) / "deep_rock_galactic", [Path(p) for p in packs], reporter)
    found = _from_game(game, [d for d in reporter.diagnostics if d.severity == "error"])
    found.shipped = {key: pack for key, pack in _shipped(root).items()
                     if key[1] not in found.kind_names(key[0])}
    return found


# the YAML list of a pack file that holds what a mission names, by the kind the hint speaks of
_PACK_LISTS = {"event_cards": "card", "monsters": "creature", "pickups": "pickup", "minerals": "mineral"}


@lru_cache(maxsize=2)
def _shipped(root: str) -> dict:
    """(kind, id) -> pack id, for the packs shipped under content/deep_rock_galactic/packs/: a
    name a mission takes from one of them gets a hint naming the `--pack` it needs."""
    out: dict = {}
    for manifest in sorted((Path(root) / "deep_rock_galactic" / "packs").glob("*/pack.yaml")):
        for key, pack in pack_names(manifest).items():
            out.setdefault(key, pack)
    return out


def pack_names(manifest: Path, shown: str = "") -> dict:
    """(kind, id) -> `shown` (default: the pack's id) for what a Deep Rock Galactic pack's
    files define that a mission may name; {} for a pack of another game or one unreadable."""
    from tomecraft.compiler import loader
    out: dict = {}

    def read(path: Path):
        # through the loader and its limits: a FIFO, /dev/zero behind a link or an alias bomb
        # among a fan pack's files hung or exhausted memory (yaml.safe_load of read_text())
        doc = loader.load(path, dg.Reporter())
        return None if doc is None else doc.data

    try:
        head = read(manifest)
        if not isinstance(head, dict) or head.get("game") != "deep_rock_galactic":
            return {}
        pack = shown or head.get("id") or manifest.parent.name
        for part in sorted(manifest.parent.glob("*.yaml")):
            data = read(part)
            for key, kind in _PACK_LISTS.items():
                entities = data.get(key, []) if isinstance(data, dict) else []
                for entity in entities if isinstance(entities, list) else []:
                    if isinstance(entity, dict) and isinstance(entity.get("id"), str):
                        out.setdefault((kind, entity["id"]), pack)
    except (OSError, AttributeError, ValueError):
        return {}
    return out


def with_packs_beside(names: Roster, folder: Path, loaded: list[Path]) -> Roster:
    """`names`, whose hints also name the packs in the mission file's own folder (a fan's
    repository: the pack and the missions that use it side by side) not loaded with `--pack`:
    `check .` said of the folder's own creature only "a pack's creature is known with
    `--pack DIR`", not which pack."""
    from dataclasses import replace
    from tomecraft.compiler.packs import display_path
    taken = {Path(p).resolve() for p in loaded}
    beside: dict = {}
    try:
        manifests = sorted(folder.glob("*/pack.yaml"))
    except OSError:
        return names
    for manifest in manifests:
        if manifest.parent.resolve() in taken:
            continue
        for key, shown in pack_names(manifest, display_path(manifest.parent)).items():
            if key[1] not in names.kind_names(key[0]):
                beside.setdefault(key, shown)
    return replace(names, shipped={**beside, **names.shipped}) if beside else names


def _from_game(game, errors: list) -> Roster:
    if game is None:
        return Roster(set(), set(), set(), set(), pack_errors=errors)
    # a creature the engine can play: a monster entity (the vocabulary may name a pack's
    # creatures the base game has no monster for)
    creatures = set(game.entities.get("monster", {}))
    pickups = game.entities.get("pickup", {})
    # a pickup reaches the Shared Supply when it is picked up with no strike effect and stays
    # in stock: not a Weapon Upgrade, which goes on a weapon or the dwarf board (rulebook
    # L1367-1369, `after_use: keep`), nor one used up when taken (`after_use: removed`)
    collectable = {pid for pid, p in pickups.items()
                   if (not p.data.get("needs_pickaxe") or not p.data.get("effect"))
                   and p.data.get("after_use", "stock") == "stock"}
    # a class token: one a dwarf class carries (its `equipment`, rulebook L252-260), which the
    # mission's `tokens:` takes out of that class's hand; a pack's goo (placed by Goo Bombers)
    # has a supply but no class: `tokens: {goo: 2}` checked clean and play ignored it
    carried = {name for d in game.entities.get("dwarf", {}).values()
               for name in (d.data.get("equipment") or {})}
    supply = {t.data.get("token", tid): t.data.get("supply", 0)
              for tid, t in game.entities.get("board_token", {}).items()
              if t.data.get("supply") and t.data.get("token", tid) in carried}
    rules = {rid: r.data.get("value") for rid, r in game.entities.get("rule", {}).items()}
    terms = {name for name, infos in game.vocab.names.items() if "creature" in infos}
    return Roster(creatures, set(game.entities.get("mineral", {})), set(pickups),
                  set(game.entities.get("event_card", {})), game, collectable, supply, rules, errors,
                  terms | creatures)
