"""Deep Rock Galactic's compile-time rules: Mission Book missions obey inventory §9.5, the
monster info board has one monster per activation slot, dice have six faces, each class has
exactly one default primary weapon, and a pack's minerals and pickups are laid out by some
mission."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import check_turn_costs, report
from tomecraft.compiler.model import Game


def _check_slots(game: Game, reporter: dg.Reporter) -> None:
    """One monster per activation slot (info board order, L940-962). Said at the pack's
    monster, not the base's it clashes with: a fan's Cave Leech in slot 1 was blamed at the
    Grunt's line in the base game's file (found by the sixteenth packs blind round)."""
    by_slot: dict[int, list] = {}
    for monster in game.of_kind("monster"):
        by_slot.setdefault(monster.data["order"], []).append(monster)
    taken = sorted(by_slot)
    for order, monsters in by_slot.items():
        if len(monsters) < 2:
            continue
        fans = [m for m in monsters if m.pack != game.id] or monsters[1:]
        for monster in fans:
            others = ", ".join(repr(m.id) for m in monsters if m is not monster)
            report(reporter, monster, "order",
                   f"activation slot {order} is already taken by {others} (info board order, "
                   f"L940-962)", f"take a free slot: {max(taken) + 1} (slots taken: "
                   f"{', '.join(map(str, taken))})")


def check(game: Game, reporter: dg.Reporter) -> None:
    from tomecraft.compiler import missions
    names = missions.roster(game)
    for mission in game.of_kind("mission"):
        missions.MissionChecker(mission.doc, mission.display, reporter, names,
                                base=mission.path, check_event=False).run()
    _check_slots(game, reporter)
    for die in game.of_kind("die"):
        if len(die.data["faces"]) != 6:
            report(reporter, die, "faces", f"a die has 6 faces, not {len(die.data['faces'])}")
    defaults: dict[str, str] = {}
    for weapon in game.of_kind("weapon"):
        if weapon.data.get("default"):
            dwarf = weapon.data.get("dwarf", "")
            if dwarf in defaults:
                report(reporter, weapon, "default",
                       f"{dwarf} already has the default primary {defaults[dwarf]!r}")
            defaults[dwarf] = weapon.id
    for dwarf in game.of_kind("dwarf"):
        if dwarf.id not in defaults:
            report(reporter, dwarf, "id", f"{dwarf.id} has no default primary weapon")
    _check_laid_out(game, reporter)
    _check_spawned(game, reporter)
    _check_pickup_events(game, reporter)
    _check_negative_amounts(game, reporter)
    _check_faces_of_rolls(game, reporter)
    _check_decks_left(game, reporter)
    _check_inert_dice_and_ends(game, reporter)
    check_turn_costs(game, reporter, "actions", "turn_actions")   # L268-270: 3 actions a turn
    _check_native_abilities(game, reporter)
    _check_equipment_placed(game, reporter)
    from tomecraft.compiler.game_checks.drg_spaces import check_spaces
    check_spaces(game, reporter)
    from tomecraft.compiler.game_checks.drg_modes import check_printed_numbers
    check_printed_numbers(game, reporter)


def _check_negative_amounts(game: Game, reporter: dg.Reporter) -> None:
    """A negative amount given to a verb (`advance_threat -2`, `spawn grunt -1`): every verb's
    number counts what it does, so the effect did nothing in play and checked clean. A
    mission file's event is checked alike (missions/event_checks.py, V-21)."""
    from tomecraft.compiler.missions.by_hazard import findings
    from tomecraft.compiler.missions.event_checks import NEGATIVE, NEGATIVE_HINT, negative_amounts
    from tomecraft.compiler.packs import display_path
    sites = [(entity.doc, entity.display, site) for entity in game.all() for site in entity.effects]
    for name, site in sorted(game.keyword_sites.items()):     # a keyword's body too
        doc = game.vocab.keywords[name].origin[0]
        sites.append((doc, display_path(doc.path), site))
    for doc, display, site in sites:
        if site.ast is None:
            continue
        for call, arg in negative_amounts(site.ast, game.vocab.keywords):
            line, column = doc.effect_position(site.path, arg.pos.line, arg.pos.column)
            reporter.add(dg.GAME_RULE, NEGATIVE.format(verb=call.verb).removeprefix("V-21: "),
                         display, line, column, NEGATIVE_HINT)
        # what an effect comes to at each Hazard level, 1-5 (missions/by_hazard.py): a pack's
        # `advance_threat (hazard_level() - 3)` or `if hazard_level() > 5: ...` alike
        for node, message, hint in findings(site.ast, game.vocab.keywords):
            line, column = doc.effect_position(site.path, node.pos.line, node.pos.column)
            reporter.add(dg.GAME_RULE, message, display, line, column, hint)


def _check_decks_left(game: Game, reporter: dg.Reporter) -> None:
    """What a pack's `remove` leaves of the Event and Swarm decks: a Mission Specific Event card
    (it plays every mission's `mission_event`, rulebook L896-900), a Swarm card (a Swarm draws
    one, L890-894) and an Event card that surely advances the Swarm Threat Track (it brings the
    Swarms and runs the mission out of time, L884-895, L1295). A mission file is held to the
    same after its own `remove_cards` (missions/checker.py, V-20); a pack removing them all
    checked clean, and every mission then played without its event, its Swarms or its clock."""
    from tomecraft.compiler.missions.event_checks import advances_threat
    removed = [(entity, doc, i) for (kind, _), (entity, doc, i) in game.removed.items()
               if kind == "event_card"]
    if not removed:
        return
    cards = game.of_kind("event_card")

    def surely_advances(card) -> bool:
        # a removed card's effect was never parsed (it left the game before the effects stage)
        from tomecraft.dsl.parser import EffectSyntaxError, parse
        try:
            ast = parse(card.data["effect"]) if card.data.get("effect") else None
        except EffectSyntaxError:
            return False
        return advances_threat(ast, game.keyword_sites)
    needs = [
        (lambda c: c.data.get("deck") == "event" and c.data.get("event_kind") == "mission_specific",
         "no Mission Specific Event card is left in the Event deck: no mission's `mission_event` "
         "would ever be played (rulebook L896-900)"),
        (lambda c: c.data.get("deck") == "swarm",
         "the Swarm deck is left empty: a Swarm draws a Swarm card and places its monsters "
         "(rulebook L890-894), so no Swarm would ever come"),
        (lambda c: c.data.get("deck") == "event" and surely_advances(c),
         "no Event card left surely advances the Swarm Threat Track: it never moves, so no "
         "Swarm comes and time never runs out (rulebook L884-895, L1295)"),
    ]
    for kept, message in needs:
        if any(kept(c) for c in cards):
            continue
        took = [(entity, doc, i) for entity, doc, i in removed if kept(entity)]
        if not took:
            continue            # not removed here (a replaced card): not a removal's doing
        entity, doc, i = took[-1]
        mark = doc.mark(("remove", i))
        from tomecraft.compiler.packs import display_path
        reporter.add(dg.GAME_RULE, f"removing event_card {entity.id!r}: {message}",
                     display_path(doc.path), mark.line, mark.column,
                     "keep " + ", ".join(sorted(e.id for e, _, _ in took)) + " (or add a card of "
                     "the pack that does the same)")


REROLL = ("`reroll` rerolls the last roll, and this effect has rolled nothing before it: it "
          "would reroll an earlier roll of the game, changing nothing")
REROLL_HINT = ("roll first in the same effect (`let r = roll(bullet_die, 2); reroll 1; deal "
               "bullet hits(r)`), or use it in an `on attack_rolled:` trigger")
DISCARD_SELF = ("`discard_self` ends what this effect left in play (its tokens, its triggers), "
                "and {where} runs once and leaves nothing: it changes nothing")
DISCARD_SELF_HINT = "remove it: it belongs to an effect that stays in play (a delayed throwable)"
RUNS_ONCE = {"event_card": "an Event or Swarm card", "rock_and_stone_card": "a Rock and Stone card"}


def inert_dice_and_ends(ast, runs_once: bool):
    """(call, message, hint) for a `reroll` no roll precedes (in the effect, or the attack roll
    of an `on attack_rolled:` trigger), and for `discard_self` where the effect runs once."""
    from tomecraft.dsl import nodes as n
    handed = {id(x) for node in n.walk(ast) if isinstance(node, n.On) and node.event == "attack_rolled"
              for x in n.walk(node.body)}
    rolled = False
    for node in n.walk(ast):
        if isinstance(node, n.Func) and node.name == "roll":
            rolled = True
        elif isinstance(node, n.Call) and node.verb == "reroll" and not rolled \
                and id(node) not in handed:
            yield node, REROLL, REROLL_HINT
        elif isinstance(node, n.Call) and node.verb == "discard_self" and runs_once:
            yield node, None, DISCARD_SELF_HINT


def _check_inert_dice_and_ends(game: Game, reporter: dg.Reporter) -> None:
    """Verbs that act on what an earlier step left and were found doing nothing in a mission
    event by the sixth missions blind test, as on an event card: `reroll 1` with no roll
    before it (it rerolled the last attack's dice, long resolved), `discard_self` in an effect
    run once (it ends the tokens and triggers the effect placed, and such an effect places
    none)."""
    for entity in game.all():
        for site in entity.effects:
            if site.ast is None:
                continue
            runs_once = entity.kind in RUNS_ONCE and site.path[len(entity.path):][:1] == ("effect",)
            for node, message, hint in inert_dice_and_ends(site.ast, runs_once):
                if entity.kind == "weapon" and message is REROLL:
                    continue        # a fire mode runs on the attack's own roll (verbs.attack)
                line, column = entity.doc.effect_position(site.path, node.pos.line, node.pos.column)
                reporter.add(dg.GAME_RULE, message or DISCARD_SELF.format(
                    where=RUNS_ONCE[entity.kind]), entity.display, line, column, hint)


def die_faces(game: Game) -> dict[str, set[str]]:
    """die term (`monster_die`) -> the faces its content gives it."""
    return {d.data.get("die", d.id): {f.get("face") for f in d.data.get("faces") or ()
                                      if isinstance(f, dict)} for d in game.of_kind("die")}


def roll_reads(ast):
    """(query node, die) for each `faces`, `hits` or `best_die` read of a roll (`roll(DIE, N)`,
    or a `let` bound to one), the die it rolled."""
    from tomecraft.dsl import nodes as n
    rolled: dict[str, str] = {}

    def die_of(expr):
        if isinstance(expr, n.Func) and expr.name == "roll" and expr.args \
                and isinstance(expr.args[0], n.Name) and len(expr.args[0].parts) == 1:
            return expr.args[0].parts[0]
        if isinstance(expr, n.Name) and len(expr.parts) == 1:
            return rolled.get(expr.parts[0])
        return None
    for node in n.walk(ast):
        if isinstance(node, n.Let):
            die = die_of(node.value)
            if die is not None:
                rolled[node.name] = die
        elif isinstance(node, n.Func) and node.name in ("faces", "hits", "best_die") and node.args:
            die = die_of(node.args[0])
            if die is not None:
                yield node, die


def wrong_faces(ast, faces_of: dict[str, set[str]]):
    """(node, die, face) for each `faces(ROLL, FACE)` whose roll is of a die that has no such
    face: it counts 0 every time."""
    from tomecraft.dsl import nodes as n
    for node, die in roll_reads(ast):
        if node.name == "faces" and len(node.args) == 2 and isinstance(node.args[1], n.Name) \
                and len(node.args[1].parts) == 1:
            face = node.args[1].parts[0]
            if die in faces_of and face not in faces_of[die]:
                yield node.args[1], die, face


def hitless_reads(ast, hitless: set[str]):
    """(node, die) for each `hits(ROLL)` or `best_die(ROLL)` of a die none of whose faces
    shows a hit (the monster die: teeth, '!', blank): it is 0 on every roll."""
    for node, die in roll_reads(ast):
        if node.name in ("hits", "best_die") and die in hitless:
            yield node, die


def hitless_dice(game: Game) -> set[str]:
    """The die terms whose content faces show no hits."""
    return {d.data.get("die", d.id) for d in game.of_kind("die")
            if not any(isinstance(f, dict) and (f.get("hits") or 0) > 0 for f in d.data.get("faces") or ())}


HITLESS_MESSAGE = ("the {die} shows no hits on any face: `{query}(...)` of its roll is 0 on every "
                   "roll (`faces(roll, FACE)` counts a face)")


FACE_MESSAGE = "the {die} has no {face!r} face: `faces(..., {face})` counts 0 on every roll"


def face_hint(die: str, faces_of: dict[str, set[str]]) -> str:
    return f"the {die}'s faces: " + ", ".join(sorted(faces_of.get(die, ())))


def _check_faces_of_rolls(game: Game, reporter: dg.Reporter) -> None:
    """`let r = roll(monster_die, 2); spawn grunt faces(r, four_squares)` type-checks (a face
    is a face) and spawned nothing, ever: the monster die has no four-squares face (found by
    the sixth missions blind test, in a mission event; an event card did the same)."""
    from tomecraft.compiler.packs import display_path
    faces_of, hitless = die_faces(game), hitless_dice(game)
    sites = [(entity.doc, entity.display, site) for entity in game.all() for site in entity.effects]
    for name, site in sorted(game.keyword_sites.items()):
        doc = game.vocab.keywords[name].origin[0]
        sites.append((doc, display_path(doc.path), site))
    for doc, display, site in sites:
        if site.ast is None:
            continue
        for node, die, face in wrong_faces(site.ast, faces_of):
            line, column = doc.effect_position(site.path, node.pos.line, node.pos.column)
            reporter.add(dg.GAME_RULE, FACE_MESSAGE.format(die=die, face=face), display, line,
                         column, face_hint(die, faces_of))
        for node, die in hitless_reads(site.ast, hitless):
            line, column = doc.effect_position(site.path, node.pos.line, node.pos.column)
            reporter.add(dg.GAME_RULE, HITLESS_MESSAGE.format(die=die, query=node.name), display,
                         line, column, face_hint(die, faces_of))


def _original(entity):
    """The entity a chain of `replace: true` started from."""
    while entity.replaced is not None:
        entity = entity.replaced
    return entity


def _check_native_abilities(game: Game, reporter: dg.Reporter) -> None:
    """A pack's dwarf whose ability has a base ability's id keeps that ability's effect: the
    engine carries out the base abilities as its own actions (a changed Drill Attack was
    printed on the board and played as the rulebook's)."""
    from tomecraft.runtime.engines.deep_rock_galactic.contract import (
        NATIVE_ABILITIES, RUN_NATIVE_ABILITIES)
    base_pack = game.packs[0].id
    played = {ab["id"]: " ".join(str(ab.get("effect", "")).split())
              for dwarf in map(_original, game.of_kind("dwarf")) if dwarf.pack == base_pack
              for ab in dwarf.data.get("abilities") or () if isinstance(ab, dict)}
    for dwarf in game.of_kind("dwarf"):
        if dwarf.pack == base_pack:
            continue
        for i, ab in enumerate(dwarf.data.get("abilities") or ()):
            ability_id = ab.get("id") if isinstance(ab, dict) else None
            if ability_id not in NATIVE_ABILITIES or ability_id in RUN_NATIVE_ABILITIES \
                    or ab.get("passive"):
                continue
            if " ".join(str(ab.get("effect", "")).split()) != played.get(ability_id):
                report(reporter, dwarf, ("abilities", i, "effect"),
                       f"{ability_id} is the engine's own {NATIVE_ABILITIES[ability_id]} action: "
                       "its effect is printed, not run, so a changed effect would not be played",
                       f"keep the base game's effect, or give the ability a new id (a new ability "
                       "runs from its effect)")


def _check_laid_out(game: Game, reporter: dg.Reporter) -> None:
    """A mineral or pickup lies on the map only where a mission lays it out (its `minerals`,
    `mineral_spaces`, `pickups`) or asks for it (objective targets): one that no mission names
    is never seen in `sim`, so check says so of a pack's (a warning: a fan's mission file may
    still name it)."""
    named: set[str] = set()
    for mission in game.of_kind("mission"):
        data = mission.data
        named |= set(data.get("minerals") or {}) | set(data.get("pickups") or {})
        named |= {spot.get("mineral") for spot in data.get("mineral_spaces") or () if isinstance(spot, dict)}
        named |= set((data.get("objective") or {}).get("targets") or {})
    for kind, field in (("mineral", "minerals"), ("pickup", "pickups")):
        for entity in game.of_kind(kind):
            # the base game's Aquarq is laid out by its mission files (content/.../missions/)
            if entity.pack != game.id and entity.id not in named:
                report(reporter, entity, "id",
                       f"{kind} {entity.id!r} is in no mission: play never lays it out",
                       hint=f"name it in a mission's `{field}` (with how many), or remove it",
                       code=dg.GAME_RULE_WARNING)


def _check_spawned(game: Game, reporter: dg.Reporter) -> None:
    """A monster comes on the map only where an effect spawns its creature (a Swarm or Event
    card's `spawn`, a monster's own) or a mission hides it (`hidden_monsters`): a pack's Cave
    Leech no card spawned checked clean and was never seen (sixteenth packs blind round). Said
    of a pack's monster, as a warning (a fan's mission file may still hide it)."""
    from tomecraft.dsl import nodes as n
    named: set[str] = set()
    for mission in game.of_kind("mission"):
        named |= {h.get("creature") for h in mission.data.get("hidden_monsters") or ()
                  if isinstance(h, dict)}
    for entity in game.all():
        for site in entity.effects:
            for node in n.walk(site.ast) if site.ast is not None else ():
                if isinstance(node, (n.Call, n.Func)):
                    named |= {a.parts[0] for a in node.args
                              if isinstance(a, n.Name) and len(a.parts) == 1}
    for site in game.keyword_sites.values():
        for node in n.walk(site.ast) if site.ast is not None else ():
            if isinstance(node, (n.Call, n.Func)):
                named |= {a.parts[0] for a in node.args
                          if isinstance(a, n.Name) and len(a.parts) == 1}
    for monster in game.of_kind("monster"):
        creature = monster.data.get("creature")
        if monster.pack != game.id and monster.replaced is None and creature not in named:
            report(reporter, monster, "creature",
                   f"no effect spawns {creature!r} and no mission hides it: play never puts "
                   f"monster {monster.id!r} on the map",
                   hint=f"spawn it from a card (`spawn {creature} 1`, `spawn_at_exits "
                        f"{creature} 1`), or hide it in a mission's `hidden_monsters`",
                   code=dg.GAME_RULE_WARNING)


def _check_pickup_events(game: Game, reporter: dg.Reporter) -> None:
    """A pickup's effect runs for one event (triggers.py: now, or never): `struck` when it
    needs the pickaxe (L528-540), else `picked_up` as a dwarf passes it (L356-360). A trigger
    on the other event never runs: a fan's Glow Moss (`needs_pickaxe: true`, `on picked_up:
    heal 2`) checked clean, healed no one, and `sim --usage` counted it used (sixteenth packs
    blind round). Refused at the trigger."""
    from tomecraft.dsl import nodes as n
    for pickup in game.of_kind("pickup"):
        heard = "struck" if pickup.data.get("needs_pickaxe") else "picked_up"
        other = "picked_up" if heard == "struck" else "struck"
        for site in pickup.effects:
            for node in n.walk(site.ast) if site.ast is not None else ():
                if not (isinstance(node, n.On) and node.event == other):
                    continue
                line, column = pickup.doc.effect_position(site.path, node.pos.line,
                                                          node.pos.column)
                reporter.add(dg.GAME_RULE,
                             f"this trigger never runs: a pickup "
                             f"{'that needs' if heard == 'struck' else 'with no need of'} the "
                             f"pickaxe is {'struck' if heard == 'struck' else 'picked up'}, "
                             f"never {'picked up' if heard == 'struck' else 'struck'}, and its "
                             f"effect runs for that event only (L356-360, L528-540)",
                             pickup.display, line, column,
                             f"write `on {heard}: ...`, or set needs_pickaxe: "
                             f"{'false' if heard == 'struck' else 'true'}")


def _check_equipment_placed(game: Game, reporter: dg.Reporter) -> None:
    """A class's equipment (L252-260) is the supply of board tokens its dwarf lays: a pack's
    Medic with `equipment: {medkit: 3}` checked clean, its class card printed 'Class equipment:
    medkit × 3', and play never used one. The base classes lay theirs through the engine's own
    actions; a token no effect places and no mission lays out never reaches the board (a
    warning, as a Clank! token type no effect gains: a fan's mission file may lay it out)."""
    from tomecraft.dsl import nodes
    placed: set[str] = set()
    sites = [site for entity in game.all() for site in entity.effects]
    sites += list(game.keyword_sites.values())
    for site in sites:
        for node in nodes.walk(site.ast) if site.ast is not None else ():
            if isinstance(node, nodes.Call) and node.verb in ("place", "place_around_target") \
                    and node.args and isinstance(node.args[0], nodes.Name):
                placed.add(node.args[0].head)
    for mission in game.of_kind("mission"):
        placed |= set(mission.data.get("tokens") or {})
    for dwarf in game.of_kind("dwarf"):
        if dwarf.pack == game.id:
            continue
        for token in dwarf.data.get("equipment") or {}:
            if token not in placed:
                report(reporter, dwarf, ("equipment", token),
                       f"no effect places {token!r} and no mission lays it out: the class's "
                       f"{token} tokens never reach the board (L252-260)",
                       hint=f"place it where play hands an effect a space (a throwable's effect, "
                            f"a monster's on_kill, the sentry_gun ability), or leave it out of "
                            f"`equipment`",
                       code=dg.GAME_RULE_WARNING)
