"""Event cards: drawing one and carrying it out (the Event Phase, L858-925, and the
`draw_event` verb). Below the verbs and the turn structure, which both call it."""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf


def carry_out_event(engine, d: Dwarf) -> None:
    """Draw one Event card and carry it out for `d` (the Event Phase after its trigger, and
    the `draw_event` verb)."""
    card = engine.draw("event")
    if card is None:
        return
    engine.log(f"{d.cls} draws {card.id}")
    engine.open_window()
    d.acted_at = engine.tick()
    if card.event_kind == "mission_specific":
        engine.run(engine.mission_event, you=d)
        engine.emit("mission_event", you=d)
    elif card.event_kind == "reaction":
        if not reaction_attacks(engine, d):
            engine.run(card.effect, you=d)
    elif card.event_kind == "optional" and "knocked_over" in d.statuses:
        return
    else:
        engine.run(card.effect, you=d, placed=[])


def reaction_attacks(engine, d: Dwarf) -> bool:
    """Reaction Event (L909-925): a 1-HP monster traps the drawer; every other teammate (and
    the sentry, BOSCO) with range and line of sight to the drawer's space takes one action-free
    attack with a 1-action fire mode, in turn, paying its ammo only when it shoots (L915-919);
    once the monster is killed nobody else shoots. True if the monster is killed."""
    st = engine.state
    n = len(st.dwarves)
    for other in (st.dwarves[(d.seat + i) % n] for i in range(1, n)):
        if not other.conscious or other.in_pod or "knocked_over" in other.statuses:
            continue
        mode, purse = reaction_mode(engine, other, d.pos)
        if mode is not None:
            setattr(other, purse, getattr(other, purse) - (mode.get("ammo") or 0))
            if reaction_shot(engine, mode.get("die"), mode.get("dice") or 1):
                return True
    for helper in (st.sentry, st.bosco if st.bosco_alive else None):
        if helper is not None and hx.distance(helper, d.pos) <= 3 and engine.los(helper, d.pos):
            if reaction_shot(engine, "bullet_die", 1):
                return True
    return False


def reaction_mode(engine, shooter: Dwarf, at: Hex):
    """The shooter's first 1-action fire mode it can pay for that reaches `at`, of its primary
    weapon, else of its secondary one (L915 names any weapon's 1-action mode), and the ammo
    it pays from; (None, None) if none."""
    for weapon_id, purse in ((shooter.primary, "ammo"), (shooter.secondary, "secondary_ammo")):
        if not weapon_id:
            continue
        for mode in engine.data.get("weapon", weapon_id).modes:
            if (mode.get("actions") or 0) == 1 and (mode.get("ammo") or 0) <= getattr(shooter, purse) \
                    and hx.distance(shooter.pos, at) <= (mode.get("range") or 1) \
                    and engine.los(shooter.pos, at, mode.get("ignores_line_of_sight") or "none"):
                return mode, purse
    return None, None


def reaction_shot(engine, die: str, n: int) -> bool:
    if sum(f.get("hits") or 0 for f in engine.roll(die, n)) > 0:
        engine.log("a reaction attack kills the ambusher")
        return True
    return False
