"""Deep Dive (深潜模式, rulebook p.33, guide L1453-1473): missions played in order, each
dwarf's resources carried to the next one instead of refilled; the first failure ends it.

What is carried (L1461-1471): health, ammo, Rock and Stone cards, throwables and overclocked
secondaries; each class's own special tokens (platforms, ziplines...) are replenished; an
unconscious dwarf of a successful mission starts the next one with 1 health; every unspent
Gold becomes 1 health, 1 ammo, 1 throwable or 1 Rock and Stone card for any dwarf, at most
one card per dwarf this way. Weapon upgrades are kept, and a dwarf may discard them to fully
restore their own health or refill one weapon's ammo, theirs or a teammate's (one upgrade per
refill: rule deep_dive_upgrade_rate, the rate is not stated).
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine, load_mission
from tomecraft.runtime.engines.deep_rock_galactic.mission_setup import setup
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf
from tomecraft.runtime.engines.deep_rock_galactic.turns import play_mission

CARRIED = ("health", "ammo", "secondary_ammo", "overclocked", "primary", "secondary")


def gold_options(engine: Engine, carded: set[int]) -> list[dict]:
    """What one Gold can become, per dwarf, within the caps of its board (health_cap,
    ammo_cap)."""
    out = []
    for d in engine.state.dwarves:
        if d.health < engine.health_cap(d):
            out.append({"dwarf": d.seat, "take": "health"})
        if d.ammo < engine.ammo_cap(d, "ammo"):
            out.append({"dwarf": d.seat, "take": "ammo"})
        if d.secondary_ammo < engine.ammo_cap(d, "secondary_ammo"):
            out.append({"dwarf": d.seat, "take": "secondary_ammo"})
        out.append({"dwarf": d.seat, "take": "throwable"})
        if d.seat not in carded:
            out.append({"dwarf": d.seat, "take": "rock_and_stone"})
    return out


def convert_gold(engine: Engine) -> Counter:
    """Each unspent Gold in the Shared Supply becomes one thing for any dwarf (L1469); the
    team's choice is asked of the first seat's agent. Returns what was taken."""
    st, taken, carded = engine.state, Counter(), set()
    throwables = sorted(t.id for t in engine.data.of("throwable"))
    while st.shared["gold"] > 0:
        choice = engine.agents[0].choose("gold_conversion", gold_options(engine, carded), engine)
        st.shared["gold"] -= 1
        d = st.dwarves[choice["dwarf"]]
        take = choice["take"]
        if take == "throwable":     # drawn at random, as at setup (L249)
            d.throwables.append(engine.rng.choice(throwables))
        elif take == "rock_and_stone":
            engine.draw_rock_and_stone(d, 1)
            carded.add(d.seat)
        else:
            setattr(d, take, getattr(d, take) + 1)
        taken[take] += 1
        engine.log(f"Deep Dive: 1 Gold becomes 1 {take} for the {d.cls}")
    return taken


def upgrade_trades(engine: Engine, d: Dwarf) -> list[dict]:
    """What one of d's upgrades (installed or spare) can be discarded for (L1467)."""
    owned = sorted(set(d.spare_upgrades) | set(d.upgrades.values()))
    out: list[dict] = [{"keep": True}]
    if len(d.spare_upgrades) + len(d.upgrades) < int(engine.rules["deep_dive_upgrade_rate"]):
        return out
    for up in owned:
        if d.health < engine.health_cap(d):
            out.append({"discard": up, "refill": "health", "dwarf": d.seat})
        for other in engine.state.dwarves:
            for resource in ("ammo", "secondary_ammo"):
                if getattr(other, resource) < engine.ammo_cap(other, resource):
                    out.append({"discard": up, "refill": resource, "dwarf": other.seat})
    return out


def trade_upgrades(engine: Engine) -> Counter:
    """Between missions, each dwarf in turn may discard upgrades for full refills."""
    done = Counter()
    for d in engine.state.dwarves:
        while True:
            choice = engine.agents[d.seat % len(engine.agents)].choose(
                "upgrade_trade", upgrade_trades(engine, d), engine)
            if choice.get("keep"):
                break
            up = choice["discard"]
            rest = [u for u in d.spare_upgrades + sorted(d.upgrades.values()) if u != up]
            for gone in [up] + rest[:int(engine.rules["deep_dive_upgrade_rate"]) - 1]:
                _discard_upgrade(d, gone)
            who = engine.state.dwarves[choice["dwarf"]]
            resource = choice["refill"]
            setattr(who, resource, engine.health_cap(who) if resource == "health"
                    else engine.ammo_cap(who, resource))
            done[resource] += 1
            engine.log(f"Deep Dive: the {d.cls} discards {up} to refill the {who.cls}'s {resource}")
    return done


def _discard_upgrade(d: Dwarf, up: str) -> None:
    if up in d.spare_upgrades:
        d.spare_upgrades.remove(up)
    else:
        d.upgrades = {slot: u for slot, u in d.upgrades.items() if u != up}


def carry_over(before: Engine, after: Engine) -> None:
    """Set up the next mission's dwarves from the last one's (L1461-1471)."""
    for old, new in zip(before.state.dwarves, after.state.dwarves):
        for name in CARRIED:
            setattr(new, name, getattr(old, name))
        # the hand comes along: the card just dealt goes back, the carried ones leave the deck
        deck = after.state.rs_deck
        deck.extend(new.rock_and_stone)
        for card in old.rock_and_stone:
            if card in deck:
                deck.remove(card)
        new.throwables, new.rock_and_stone = list(old.throwables), list(old.rock_and_stone)
        after.rng.shuffle(deck)
        new.upgrades, new.spare_upgrades = dict(old.upgrades), list(old.spare_upgrades)
        for up in [*old.upgrades.values(), *old.spare_upgrades]:   # kept, so not in the supply
            if up in after.state.upgrade_supply:
                after.state.upgrade_supply.remove(up)
        # the class's own tokens are replenished: the new dwarf keeps the set its mission's
        # set-up dealt, less the tokens that mission pre-places (mission_play.place_tokens)
        if not old.conscious:
            new.health = 1                      # unconscious at a success: back with 1 health


def dwarves_summary(dwarves: list[Dwarf]) -> dict:
    return {d.cls: {"health": d.health, "ammo": d.ammo, "throwables": len(d.throwables),
                    "rock_and_stone": len(d.rock_and_stone)} for d in dwarves}


def missions_of(data, options: dict) -> list[dict]:
    """The Deep Dive's missions: the given list, else every mission of the content in order
    (the book's Missions 1 to 14; packs may add more)."""
    chosen = options.get("deep_dive")
    if isinstance(chosen, list):
        return chosen
    return [load_mission(data, {"mission_id": m.id}) for m in sorted(data.of("mission"), key=lambda m: m.id)]


def play_deep_dive(data, players: int, rng, agents, options: dict) -> dict:
    """Play the missions in order; the first failure (or round cap) ends the Deep Dive."""
    missions = missions_of(data, options)
    before, done, rounds, gold = None, 0, 0, Counter()
    for i, mission in enumerate(missions):
        engine = setup(data, players, rng.fork(f"mission{i}"), agents,
                       {**options, "deep_dive": None, "mission": mission})
        if before is not None:
            carry_over(before, engine)
        play_mission(engine)
        rounds += engine.state.round
        if engine.state.result != "success":
            break
        done += 1
        gold += convert_gold(engine)
        trade_upgrades(engine)
        before = engine
    success = done == len(missions)
    st = engine.state
    return {"scores": [100 * done // len(missions)] * players, "rounds": rounds,
            "capped": st.result is None, "finished": [d.in_pod for d in st.dwarves],
            "end": "deep dive complete" if success else f"failed mission {done + 1}",
            "stats": {"success_rate": success, "missions_completed": done,
                      "gold_converted": sum(gold.values())},
            "success": success, "result": st.result}
