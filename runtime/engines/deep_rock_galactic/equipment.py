"""Class equipment (sentry gun, Shield Generator, platforms, zipline, flares; L660-844),
throwables (L566-584), Rock and Stone cards and class abilities."""
from __future__ import annotations


from tomecraft.runtime.effects import Context, EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.contract import NATIVE_ABILITIES
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.state import OPEN, Dwarf, spend
from tomecraft.runtime.usage import registering


SENTRY = "sentry_gun"        # the class ability the sentry action deploys, and its board token


def sentry_ability(engine: Monsters, cls: str):
    """The class's Sentry Gun ability, or None."""
    return next((a for a in engine.data.get("dwarf", cls).abilities or () if a.id == SENTRY), None)


def sentry(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Deploy or relocate the Sentry Gun on an adjacent empty space: its ability's effect pays
    (1 action, 1 ammo, primary or secondary: L650-652), places it and holds its triggers."""
    st = engine.state
    at = tuple(act["at"])
    found = sentry_ability(engine, d.cls)
    if found is None or hx.distance(d.pos, at) != 1 or st.terrain(at) not in OPEN \
            or st.monster_at(at) or st.dwarf_at(at):
        raise EffectError("the sentry goes on an adjacent empty space")
    if not engine.run(found.effect, you=d, at=at, any_ammo=True, source="the sentry"):
        raise EffectError("the sentry costs 1 action and 1 ammo")


def place_sentry(engine: Monsters, at) -> None:
    """A sentry gun the mission (or a scenario) sets up: placed unpaid, the ability of the
    dwarf whose class has it holding its triggers (with no such dwarf, it has no owner)."""
    owner = next((d for d in engine.state.dwarves if sentry_ability(engine, d.cls)), None)
    found = sentry_ability(engine, owner.cls) if owner is not None else next(
        (a for c in engine.data.of("dwarf") for a in c.abilities or () if a.id == SENTRY), None)
    engine.state.sentry = tuple(at)
    if found is not None:
        engine.run(found.effect, you=owner, at=tuple(at), unpaid=True, source="the sentry")


def hold_passive_abilities(engine: Monsters, d: Dwarf) -> None:
    """A passive ability (`passive: true`: Light-Footed) is not an action: its effect runs
    once at setup, so its triggers hear their events all mission. That run only registers
    them (`usage.registering`): `sim --usage` counted it as a use, so a passive whose
    trigger never ran was reported used in every game (sixteenth packs blind round)."""
    for found in engine.data.get("dwarf", d.cls).abilities or ():
        if found.get("passive"):
            with registering():
                engine.run(found.effect, you=d)


def throw(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Throw a throwable card (L566-584): range from the card, only walls block the throw;
    area effects hit every space around the landing space with the whole roll."""
    card = act["card"]
    if card not in d.throwables:
        raise EffectError(f"{d.cls} holds no {card}")
    tdef = engine.data.get("throwable", card)
    at = tuple(act["at"])
    if hx.distance(d.pos, at) > (tdef.range or 0) or not engine.los(d.pos, at, "arc"):
        raise EffectError(f"{card} cannot reach {list(at)}")
    before = (d.actions, list(d.throwables))
    if not act.get("free"):
        spend(d, 1)
    d.throwables.remove(card)
    single = engine.state.monster_at(at) if not (tdef.area or 0) else None   # single-target throwables
    try:
        engine.run(tdef.effect, you=d, origin=at, target_obj=single, at=at, card=card,
                   delayed=bool(tdef.delayed), source=f"the {card}")
    except Exception:
        d.actions, d.throwables = before        # a refused choice: the card stays in hand
        raise
    if not tdef.delayed:    # used: onto the discard pile (L580); a delayed one when it discards itself
        engine.state.throwable_discard.append(card)


def shield(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Shield Generator (L724-738): 1 action, on your space or next to it; 7 spaces where
    monsters cannot enter or leave and attacks on dwarves have no effect."""
    at = tuple(act["at"])
    if not engine.has_ability(d, "shield_generator") or d.tokens["shield"] < 1 or hx.distance(d.pos, at) > 1:
        raise EffectError("the Gunner places his shield on or next to his space")
    spend(d, 1)
    d.tokens["shield"] -= 1
    engine.shield = at

def platforms(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Platform Gun (L670-678): 1 action, up to 3 platforms on pits in line of sight."""
    spots = [tuple(h) for h in act["at"]]
    st = engine.state
    if not engine.has_ability(d, "platform_gun") or not 0 < len(spots) <= 3:
        raise EffectError("the Engineer places 1 to 3 platforms")
    for h in spots:
        if st.terrain(h) != "o" or not engine.los(d.pos, h):
            raise EffectError(f"a platform goes on a pit in line of sight, not {list(h)}")
    placed = st.tokens.setdefault("platform", {})
    # all 6 in use: the Engineer takes back ones laid before (L680), those he names in
    # `take_back`, else the oldest
    room = engine.token_room("platform")
    take_back = [tuple(h) for h in act.get("take_back", [])]
    if any(h not in placed or h in spots for h in take_back) or len(set(take_back)) != len(take_back) \
            or len(take_back) > max(0, len(spots) - room):
        raise EffectError("take back only platforms already laid elsewhere, as many as are missing")
    spend(d, 1)
    for h in spots:
        if engine.token_room("platform") <= 0:
            placed.pop(take_back.pop(0) if take_back else next(iter(placed)))
        placed[h] = d.seat


def zipline(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Zipline Launcher (L710-722): next to a pit, 1 action: 1-2 zipline tokens in a straight
    line from the Gunner's space across the pit to ground on the far side."""
    st = engine.state
    pits = [tuple(h) for h in act["over"]]
    land = tuple(act["land"])
    line = [d.pos] + pits + [land]
    if not engine.has_ability(d, "zipline_launcher") or not 1 <= len(pits) <= 2 \
            or d.tokens["zipline"] + sum(len(p) for p in _laid_ziplines(engine).values()) < len(pits):
        raise EffectError("the Gunner lays 1 or 2 zipline tokens")
    step = None
    for a, b in zip(line, line[1:]):
        if b not in hx.neighbours(a):
            raise EffectError("a zipline runs in a straight line of touching spaces")
        cube = tuple(y - x for x, y in zip(hx.to_cube(a), hx.to_cube(b)))
        if step is not None and cube != step:
            raise EffectError("a zipline runs in a straight line")
        step = cube
    if any(st.terrain(h) != "o" for h in pits) or st.terrain(land) not in OPEN:
        raise EffectError("a zipline crosses pits and lands on ground")
    spend(d, 1)
    while d.tokens["zipline"] < len(pits):       # none left: take back one laid earlier (L722)
        _take_down_zipline(engine, d)
    d.tokens["zipline"] -= len(pits)
    for h in pits:
        st.tokens.setdefault("zipline", {})[h] = d.seat
    engine.ziplines.add((d.pos, land))


def _laid_ziplines(engine: Monsters) -> dict:
    """The ziplines on the board: (one end, other end) -> the pit spaces between them
    (a straight line, so each is one step further along from the first end)."""
    laid = {}
    for a, b in sorted(engine.ziplines):
        prev, h = a, min(hx.neighbours(a), key=lambda n: hx.distance(n, b))
        pits = []
        for _ in range(hx.distance(a, b) - 1):
            pits.append(h)
            prev, h = h, hx.ahead(prev, h)
        laid[(a, b)] = pits
    return laid


def _take_down_zipline(engine: Monsters, d: Dwarf) -> None:
    """The Gunner takes back a zipline he laid (L722): its tokens return to his hand and it
    can no longer be ridden. Several laid: he chooses which (named by its first pit)."""
    laid = _laid_ziplines(engine)
    firsts = {pits[0]: ends for ends, pits in laid.items()}
    first = engine.decide(Context(engine, you=d), "zipline_take_back", sorted(firsts))
    ends = firsts[first]
    engine.ziplines.discard(ends)
    for h in laid[ends]:
        engine.state.tokens.get("zipline", {}).pop(h, None)
    d.tokens["zipline"] += len(laid[ends])
    engine.log(f"the {d.cls} takes back the zipline over {[list(h) for h in laid[ends]]}")


def flare(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Flare Shot (L832-844): 1 action, a flare on any space in line of sight; it lights its
    space and the 6 around it until the Scout's next turn."""
    at = tuple(act["at"])
    st = engine.state
    if not engine.has_ability(d, "flare_shot") or d.tokens["flare"] - len([1 for o in st.tokens.get("flare", {}).values() if o == d.seat]) < 1:
        raise EffectError("the Scout has no flare left")
    if st.terrain(at) not in OPEN | {"o"} or not engine.los(d.pos, at):    # a pit is a space too
        raise EffectError(f"a flare goes on a space in line of sight, not {list(at)}")
    spend(d, 1)
    st.tokens.setdefault("flare", {})[at] = d.seat

def rock_and_stone_playable(engine: Monsters, d: Dwarf, card: str) -> bool:
    """Whether the card's effect can happen now (its costs paid, its target there): a pack's
    `pay nitra 6 -> call_supply_pod` with 5 Nitra in the Shared Supply was played, did
    nothing and went to the discard pile (fourth packs blind test)."""
    fx = engine.data.get("rock_and_stone_card", card).effect
    return fx is None or fx.can(Context(engine, you=d, info={"free": True}))


def rock_and_stone(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Play a Rock and Stone card: no action (L632); its effect, then the discard."""
    card = act["card"]
    if card not in d.rock_and_stone:
        raise EffectError(f"{d.cls} holds no {card}")
    if not rock_and_stone_playable(engine, d, card):
        raise EffectError(f"{card} cannot be played now")
    before = (d.actions, list(d.rock_and_stone))
    d.rock_and_stone.remove(card)
    try:
        engine.run(engine.data.get("rock_and_stone_card", card).effect, you=d, free=True)
    except Exception:
        d.actions, d.rock_and_stone = before
        raise
    d.actions = before[0]
    engine.state.rs_discard.append(card)
    engine.log(f"{d.cls} plays {card}")


# The base classes' abilities (contract.NATIVE_ABILITIES) are carried out by the actions
# above; any other ability (a pack's new class) is run from its effect.


def class_abilities(engine: Monsters, d: Dwarf) -> list:
    """The class's abilities used as actions (passive ones are held from setup)."""
    return [a for a in engine.data.get("dwarf", d.cls).abilities or () if not a.get("passive")]


def ability(engine: Monsters, d: Dwarf, act: dict) -> None:
    """Use a class ability by running its effect (its costs are part of it)."""
    found = next((a for a in class_abilities(engine, d) if a.id == act["id"]), None)
    if found is None:
        raise EffectError(f"the {d.cls} has no ability {act['id']!r}")
    if found.id in NATIVE_ABILITIES:
        raise EffectError(f"{found.id} is the {NATIVE_ABILITIES[found.id]} action")
    # asked before it runs: an effect that pays then finds nothing to target (`pay actions
    # 1 -> target monster where adjacent(): ...`) would spend the action on nothing
    if found.effect is None or not found.effect.can(Context(engine, you=d)) \
            or not engine.run(found.effect, you=d):
        raise EffectError(f"{found.id} cannot be used now")
    engine.log(f"{d.cls} uses {found.id}")
