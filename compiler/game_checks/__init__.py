"""Game rules checked at compile time: counts, maps, placement legality, mission constraints.

Each game's checks live in their own module, compiler/game_checks/<game>.py, defining
`check(game, reporter)`; it reports through the Reporter with positions of the offending
entity fields. A game without a module has no game-specific checks.
"""
from __future__ import annotations

import importlib
import importlib.util
import re

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.model import Entity, Game


def report(reporter: dg.Reporter, entity: Entity, field: str | tuple, message: str,
           hint: str = "", code: str = dg.GAME_RULE) -> None:
    path = entity.path + ((field,) if isinstance(field, str) else tuple(field))
    mark = entity.doc.mark(path)
    reporter.add(code, message, entity.display, mark.line, mark.column, hint)


def at_fault(game: Game, entities: list, field: str = ""):
    """The entity a count's diagnostic stands at: the last one a pack brought (added or
    replaced), so that `check` of the pack's file shows it; else the game's last. With
    `field`, a replacement that changed it comes first: a pack raising Bat Swarm's count from
    4 to 5 was told of its Wraith's unchanged count, the last card in its file."""
    brought = [e for e in entities if e.pack != game.id]
    if field:
        changed = [e for e in brought if e.replaced is None
                   or e.replaced.data.get(field) != e.data.get(field)]
        brought = changed or brought
    return (brought or entities)[-1]


def report_at_removal(reporter: dg.Reporter, game: Game, kind: str, plural: str, match,
                      message: str, hint: str = "") -> bool:
    """Report at the pack.yaml `remove` entry that took away a base entity of `kind` for
    which `match(data)` holds (a pack removing the game's only gold loot card), so the
    diagnostic stands in the pack, not in the base content; False if no removal did."""
    from tomecraft.compiler.checks import removal_entry
    for doc in game.documents:
        data = doc.data if isinstance(doc.data, dict) else {}
        for entry in data.get(plural) or ():
            if not (isinstance(entry, dict) and match(entry)):
                continue
            removal = removal_entry(game, kind, entry.get("id", ""))
            if removal is not None:
                where, i, _ = removal
                mark = where.mark(("remove", i))
                from tomecraft.compiler.packs import display_path
                reporter.add(dg.GAME_RULE, message, display_path(where.path), mark.line,
                             mark.column, hint)
                return True
    return False


def report_count(reporter: dg.Reporter, game: Game, entity: Entity, field: str | tuple,
                 message: str, hint: str, removed: tuple) -> None:
    """A count's diagnostic (`at_fault`'s entity): when no pack brought an entity of the count
    but a pack's `remove` took one away (`removed`: kind, plural, match as report_at_removal),
    at that entry, since the fan's removal is what changed it. A Cave pack removing one tile
    was told "stack 1 holds 18 tiles" at a base tile's line in content/, and checking its own
    pack.yaml said nothing at all (found by the sixteenth packs blind round)."""
    if entity.pack == game.id and report_at_removal(reporter, game, *removed, message, hint):
        return
    report(reporter, entity, field, message, hint)


def run(game: Game, reporter: dg.Reporter) -> None:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", game.id):
        return
    if importlib.util.find_spec(f"{__name__}.{game.id}") is None:
        return
    importlib.import_module(f"{__name__}.{game.id}").check(game, reporter)


def rule_value(game: Game, rule_id: str, default=None):
    """The `value` of the content's rule `rule_id`, else `default`."""
    entity = game.entities.get("rule", {}).get(rule_id)
    return entity.data.get("value", default) if entity is not None else default


def check_turn_costs(game: Game, reporter: dg.Reporter, resource: str, rule_id: str) -> None:
    """`pay RESOURCE N` with N above what a turn gives (the content's rule `rule_id`, e.g. The
    Cave's 5 AP) can never be paid: legal, but the sheets print it as playable. Only literal
    amounts are checked (`pay ap (level + 1)` depends on play)."""
    from tomecraft.dsl import nodes as n
    most = rule_value(game, rule_id)
    if not isinstance(most, int) or isinstance(most, bool):
        return
    ref = (game.entities.get("rule", {})[rule_id].data.get("ref") or "").strip()
    for entity in game.all():
        for site in entity.effects:
            if site.ast is None:
                continue
            for node in n.walk(site.ast):
                if isinstance(node, n.Call) and node.verb == "pay" and len(node.args) >= 2 \
                        and getattr(node.args[0], "parts", None) == (resource,) \
                        and isinstance(node.args[1], n.Num) and node.args[1].value > most:
                    line, column = entity.doc.effect_position(site.path, node.pos.line,
                                                              node.pos.column)
                    reporter.add(dg.GAME_RULE_WARNING,
                                 f"`pay {resource} {node.args[1].value}` can never be paid: a "
                                 f"turn gives at most {most} {resource}"
                                 + (f" ({ref})" if ref else "")
                                 + ", so this is never playable", entity.display, line, column,
                                 f"cost at most {most} {resource} (rule {rule_id!r})")
