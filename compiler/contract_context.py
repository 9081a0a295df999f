"""Verbs and queries used where play hands them nothing to act on (Contract.context_needs).

A handler that reads what only some effects are handed (the move being made, the room whose
effect it is, the tunnel being crossed, the card on the field, the block being lost) checked
clean anywhere, and then stopped the sim or changed nothing: The Cave's `depth_levels()` in an
`on_discover` ("AttributeError 'NoneType' ... 'depth'"), Clank!'s `can_record()` in a card's
play, Dungeontology's `refuse_loss` outside an `on block_loss` trigger. What each effect field
is handed (Contract.site_context), and what a trigger on each event is handed on top
(Contract.event_context), are the engine's; a keyword's body is read where it is called.
"""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.model import EffectSite, Entity, Game
from tomecraft.dsl import nodes as n
from tomecraft.runtime.contract import Contract


def check_context(game: Game, entity: Entity, site: EffectSite, contract: Contract,
                  field_name: str, reporter: dg.Reporter, seen: dict | None = None) -> None:
    """Report each use in the site's effect that its field leaves unhanded. `seen` remembers
    the uses by AST and what the field hands (a pack repeats effect texts, and the parser
    gives each text one AST; the AST is kept beside its answer, so its id stays its own)."""
    if not contract.context_needs:
        return
    given = frozenset(contract.site_context.get(f"{entity.kind}.{field_name}", ()))
    key = ("context", id(site.ast), given)
    found = seen.get(key) if seen is not None else None
    if found is None:
        found = (site.ast, tuple(_unhanded(game, contract, site.ast, given, {}, frozenset())))
        if seen is not None:
            seen[key] = found
    for node, name, via in found[1]:
        _report(entity, site, contract, field_name, node, name, via, reporter)


def _unhanded(game: Game, contract: Contract, node, given: frozenset, memo: dict,
              calling: frozenset):
    """(node, verb or query, keyword called or "") for each use under `node` that play runs
    without what it acts on; a keyword's call is reported for the use inside it."""
    if isinstance(node, n.On):
        given = given | frozenset(contract.event_context.get(node.event, ()))
    name = node.verb if isinstance(node, n.Call) else node.name if isinstance(node, n.Func) \
        else None
    if name is not None:
        needs = contract.context_needs.get(name)
        if needs is not None and not given & set(needs.takes):
            yield node, name, ""
        site = game.keyword_sites.get(name) if isinstance(node, n.Call) else None
        if site is not None and site.ast is not None:
            for inner in _inside_keyword(game, contract, name, site.ast, given, memo, calling):
                yield node, inner, name
    for attr in node.__dataclass_fields__:
        if attr == "pos":
            continue
        value = getattr(node, attr)
        for child in value if isinstance(value, tuple) else (value,):
            if hasattr(child, "__dataclass_fields__") and not isinstance(child, n.Pos):
                yield from _unhanded(game, contract, child, given, memo, calling)


def _inside_keyword(game: Game, contract: Contract, name: str, body, given: frozenset,
                    memo: dict, calling: frozenset) -> tuple[str, ...]:
    """The uses in keyword `name`'s body that `given` leaves unhanded, walked once per keyword
    and context: 30 keywords each calling the next twice were 2**30 walks, and check hung.
    A keyword calling itself (through others) is not walked again inside itself."""
    if name in calling:
        return ()
    key = (name, given)
    if key not in memo:
        memo[key] = tuple(dict.fromkeys(
            inner for _, inner, _ in _unhanded(game, contract, body, given, memo,
                                                calling | {name})))
    return memo[key]


def handed_where(contract: Contract, name: str) -> list[str]:
    """Where play hands what `name` acts on: effect fields, then triggers on events."""
    takes = set(contract.context_needs[name].takes)
    where = [site for site, given in contract.site_context.items() if takes & set(given)]
    where += [f"an `on {event}` trigger" for event, given in contract.event_context.items()
              if takes & set(given)]
    return where


def _report(entity: Entity, site: EffectSite, contract: Contract, field_name: str, node,
            name: str, via: str, reporter: dg.Reporter) -> None:
    needs = contract.context_needs[name]
    use = f"`{name}()`" if isinstance(node, n.Func) else f"`{name}`"
    through = f" (through keyword {via!r})" if via else ""
    where = handed_where(contract, name)
    kind = f"{'an' if entity.kind[0] in 'aeiou' else 'a'} {entity.kind}"
    pos = getattr(node, "pos", n.Pos())
    line, column = entity.doc.effect_position(site.path, pos.line, pos.column)
    reporter.add(dg.CONTRACT_CONSTRUCT,
                 f"the engine cannot run {use}{through} in {kind} field {field_name!r}: it acts "
                 f"on {needs.what}, which play hands it only in "
                 f"{', '.join(where) or 'no effect'}: {needs.outcome}",
                 entity.display, line, column,
                 f"use {use} in {', '.join(where)}, or something else here" if where else
                 f"remove {use}: no effect of this game can use it")
