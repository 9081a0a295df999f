"""Deep Rock Galactic's verbs that act on a space, a target or the acting dwarf (`place`,
`destroy`, `retrieve`, `forbid_move`; `deal`, `push`, `scare`, `inflict`...; `move`, `pay ammo`,
`raise_shield`...) used where play hands the effect none: an event card's `place platform 1;
destroy wall` was clean in `check` and stopped the sim at its first draw ("place platform: no
space chosen", "destroy: no area"); a `deal` with no target changed nothing, a monster's special
(run with no dwarf) stopped the sim on `raise_shield`, and a `push` in a monster's bang (whose
target is the dwarf it attacks) moved nothing. The queries that measure from the acting dwarf
(`in_range`, `line_of_sight`, `adjacent`) in a monster's special were always false. What each
effect is handed is the engine's (SITE_CONTEXT, CONTEXT_VERBS, CONTEXT_QUERIES in
runtime/engines/deep_rock_galactic/contract.py); a keyword's body is read where it is called."""
from __future__ import annotations

from dataclasses import fields, is_dataclass

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.model import Game
from tomecraft.dsl import nodes as n


def check_spaces(game: Game, reporter: dg.Reporter) -> None:
    from tomecraft.runtime.engines.deep_rock_galactic.contract import (
        NATIVE_ABILITIES, NO_DWARF, RUN_NATIVE_ABILITIES, SITE_CONTEXT)
    memo: dict = {}
    for entity in game.all():
        for site in entity.effects:
            rel = site.path[len(entity.path):]
            if site.ast is None or not rel:
                continue
            key = f"{entity.kind}.{rel[0]}"
            if entity.kind == "dwarf" and rel[0] == "abilities" and len(rel) > 1:
                ability = (entity.data.get("abilities") or [{}])[rel[1]]
                ability_id = ability.get("id") if isinstance(ability, dict) else None
                if ability_id in NATIVE_ABILITIES and ability_id not in RUN_NATIVE_ABILITIES:
                    continue        # printed, carried out by the engine as its own action
                key = f"dwarf.abilities.{ability_id}"
            given = frozenset(SITE_CONTEXT.get(key, ())) | (set() if key in NO_DWARF else {"you"})
            for node, verb in _unhanded(game, site.ast, given, frozenset(), memo):
                _report(entity, site, node, verb, reporter)


def _unhanded(game: Game, node, given: frozenset, seen: frozenset, memo: dict):
    """(call, verb) for each verb under `node` that play runs without what it acts on; a
    keyword's call is reported for the verb inside it."""
    from tomecraft.runtime.engines.deep_rock_galactic.contract import (
        CONTEXT_QUERIES, CONTEXT_VERBS, DWARF_IT_EVENTS, DWARF_RESOURCES, IT_EVENTS, SPACE_EVENTS)
    if isinstance(node, n.On):
        if node.event in SPACE_EVENTS and "at" not in given:
            return          # heard only by an effect lying on a space: never runs here
        inner = set(given) - {"target_obj", "target", "dwarf_target", "dwarf_it"}
        if "at" in given:
            inner.add("origin")         # ranges and areas from where it lies
        if node.event == "struck":
            inner.add("at")             # the struck space
        if node.event in IT_EVENTS:     # what the event happened to
            inner.add("dwarf_it" if node.event in DWARF_IT_EVENTS else "target")
        given = frozenset(inner)
    elif isinstance(node, (n.Target, n.Each)):
        given = given | _bound(node)
    if isinstance(node, n.Func):
        needs = CONTEXT_QUERIES.get(node.name)
        if needs is not None and not given & set(needs[1]):
            yield node, node.name
    if isinstance(node, n.Call):
        needs = CONTEXT_VERBS.get(node.verb)
        if needs is not None and not given & set(needs[1]) and not (
                node.verb == "place" and "target_obj" in given and _first_name(node) == "flame") and not (
                node.verb in ("pay", "gain") and _first_name(node) not in DWARF_RESOURCES):
            yield node, node.verb
        site = game.keyword_sites.get(node.verb)
        if site is not None and site.ast is not None and node.verb not in seen:
            for verb in _inside_keyword(game, node.verb, site.ast, given, seen, memo):
                yield node, verb
    if is_dataclass(node):
        for f in fields(node):
            value = getattr(node, f.name)
            for child in value if isinstance(value, tuple) else (value,):
                if is_dataclass(child) and not isinstance(child, n.Pos):
                    yield from _unhanded(game, child, given, seen, memo)


def _inside_keyword(game: Game, name: str, body, given: frozenset, seen: frozenset,
                    memo: dict) -> tuple[str, ...]:
    """The verbs in keyword `name`'s body that `given` leaves unhanded, walked once per keyword
    and context: 26 keywords each calling the next twice were 2**26 walks, and check hung."""
    key = (name, given)
    if key not in memo:
        memo[key] = tuple(dict.fromkeys(
            verb for _, verb in _unhanded(game, body, given, seen | {name}, memo)))
    return memo[key]


def _bound(node) -> set:
    """What a `target` or `each` block binds: a dwarf (`target dwarf`, `each dwarf` as `it`,
    `each player` as `you`, engine.select) or a monster; another selector kind, either."""
    kind = node.selector.kind
    dwarf = "dwarf_target" if isinstance(node, n.Target) else "dwarf_it"
    if kind in ("player", "opponent", "other_player"):
        return {dwarf, "you"} if isinstance(node, n.Each) else {dwarf}
    if kind == "dwarf":
        return {dwarf}
    if kind == "monster":
        return {"target"}
    return {"target", dwarf}


def _first_name(call: n.Call) -> str:
    arg = call.args[0] if call.args else None
    return ".".join(arg.parts) if isinstance(arg, n.Name) else ""


_WORDS = {"throwable.effect": "a throwable's effect", "monster.on_kill": "a monster's on_kill",
          "monster.special": "a monster's special", "monster.bang": "a monster's bang",
          "monster.teeth": "a monster's teeth",
          "weapon.modes": "a weapon's fire modes",
          "weapon.overclocked": "a weapon's overclocked mode",
          "dwarf.abilities.sentry_gun": "the sentry_gun ability"}


def _report(entity, site, node, verb: str, reporter: dg.Reporter) -> None:
    from tomecraft.runtime.engines.deep_rock_galactic.contract import (
        CONTEXT_QUERIES, CONTEXT_VERBS, SITE_CONTEXT)
    called = node.name if isinstance(node, n.Func) else node.verb
    if verb in CONTEXT_QUERIES:
        measures, takes, outcome = CONTEXT_QUERIES[verb]
        what = f"measures from {measures}"
    else:
        what, takes, outcome = CONTEXT_VERBS[verb]
        what = f"acts on {what}"
    through = f" (through keyword {called!r})" if verb != called else ""
    field = ".".join(str(p) for p in site.path[len(entity.path):])
    where = [_WORDS.get(k, k) for k, given in SITE_CONTEXT.items() if set(given) & set(takes)]
    where += ["an `on struck:` trigger (the struck space)"] if "at" in takes else []
    where += ["every effect but a monster's special"] if "you" in takes else []
    where += ["a `target monster` or `each monster` block, or a trigger on what an event "
              "happened to a monster"] if "target" in takes else []
    where += ["a `target dwarf` block"] if "dwarf_target" in takes else []
    where += ["an `each dwarf` block, or an `on dwarf_enters:` trigger"] if "dwarf_it" in takes else []
    line, column = entity.doc.effect_position(site.path, node.pos.line, node.pos.column)
    reporter.add(dg.GAME_RULE, f"`{verb}`{through} {what}, and play hands the "
                 f"{entity.kind} {entity.id!r} ({field}) none here: {outcome}",
                 entity.display, line, column, f"`{verb}` works in " + ", ".join(where))
