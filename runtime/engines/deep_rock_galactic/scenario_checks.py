"""Deep Rock Galactic scenario setups no play reaches, refused at their line (split from
scenario_setup.py): what a setup may put where, the Hazard level's own setup, who may draw
an Event card."""
from __future__ import annotations

from tomecraft.runtime.engines.deep_rock_galactic import mission_setup
from tomecraft.runtime.engines.deep_rock_galactic.scenario_setup import ScenarioError, _hex, _is_space
from tomecraft.runtime.scenario import unknown_names


# a status only a dwarf takes: a monster set up with one tested a board no game has (L1067 a
# web holds a dwarf's Move, L314 a dwarf stands up, L316/L482 at its health a monster is dead)
DWARF_ONLY = {"webbed": "L1067", "knocked_over": "L314", "unconscious": "L316, L482"}
ROCK = ("#", "*", "h", "x")
# what never lies on a pit: the sentry goes on an empty space beside the Engineer (L650), the
# Mine Head and pickups on cave spaces (V-19, L217), a mineral falls where its wall was (L1199),
# an upgrade token on its segment's marked space (L552)
PIT_FREE = {"setup.sentry": "the sentry stands on an empty space (L650)",
            "setup.mine_head": "the Mine Head stands on cave (V-19)",
            "setup.pickups": "a pickup lies on a flare-stick space (L217)",
            "setup.ground": "what falls from a wall lies where the wall was (L1199)",
            "setup.upgrade_tokens": "an upgrade token lies on its segment's space (L552)"}


def what_may_be_there(data, setup: dict, cells: dict) -> None:
    """What a setup puts down is something play can put there: a Hazard level the players may
    choose (1-5, L167); a monster's statuses a monster takes, never Stunned on a stun-resistant
    one (L1133, L1153, L1193); the sentry only with the Engineer (L648-650), the shield only with the
    Gunner (L724-726), BOSCO only beside a lone dwarf (L272, L1423); Exits 1 and 2 on revealed cave
    (V-12: only Exit 3 lies on a hidden segment); every piece, token and mineral on the ground on
    cave, not in rock or on a face-down segment, and a mineral in a wall (`*`, its diamond space,
    L215; or `#`). Each passed and played: a Hazard 6 Grunt's '!' hurt nobody, a stunned Brood Nexus
    skipped its turn, a shield with no Gunner stopped the Grunts, a Mine Head in rock."""
    levels = sorted(h.level for h in data.of("hazard_level"))
    for key in ("hazard", "hazard_setup"):
        if isinstance(setup.get(key), int) and setup[key] not in levels:
            raise ValueError(f"{key} {setup[key]}: the Hazard level is one of {levels} (L167)")
    immune = {m.id for m in data.of("monster") if m.stun_immune}
    for i, spec in enumerate(setup.get("monsters", [])):
        for status in spec.get("statuses", []):
            if status in DWARF_ONLY:
                raise ValueError(f"monsters[{i}]: {status} is a dwarf's status ({DWARF_ONLY[status]}); "
                                 f"no monster takes it")
            if status == "stunned" and spec["kind"] in immune:
                raise ValueError(f"monsters[{i}]: a {spec['kind']} resists Stun (its card): it is "
                                 f"never stunned")
    classes = {d.get("cls") for d in setup.get("dwarves", [])}
    for key, cls, line in (("sentry", "engineer", "L648-650"), ("shield", "gunner", "L724-726")):
        if setup.get(key) and cls not in classes:
            raise ValueError(f"setup.{key}: the {key} is the {cls}'s ({line}); no {cls} is set up")
    if setup.get("bosco") and len(setup.get("dwarves", [])) > 1:
        raise ValueError(f"setup.bosco: BOSCO comes only with a lone dwarf (L272, L1423), not "
                         f"{len(setup['dwarves'])}")
    for k, at in setup.get("exits", {}).items():
        if str(k) in ("1", "2") and cells[_hex(at)] == "h":
            raise ValueError(f"exits {k}: {at} is on a face-down hidden segment; Exits 1 and 2 "
                             f"open on revealed cave (V-12), only Exit 3 on a hidden segment")
    spaces = [(f"setup.{key}", setup[key]) for key in ("sentry", "shield", "bosco", "supply_pod", "mine_head")
              if setup.get(key)]
    spaces += [(f"stalagmites[{i}]", h) for i, h in enumerate(setup.get("stalagmites", []))]
    spaces += [(f"setup.tokens {kind}", h) for kind, hexes in (setup.get("tokens") or {}).items() for h in hexes]
    spaces += [(f"setup.{key}[{k!r}]", _key_space(k)) for key in ("pickups", "ground", "upgrade_tokens")
               for k in (setup.get(key) or {})]
    for where, at in spaces:
        if not (_is_space(at) and _hex(at) in cells):
            raise ValueError(f"{where}: {at!r} is not a space of the map")
        if cells[_hex(at)] in ROCK:
            raise ValueError(f"{where}: {list(at)} is {'a face-down hidden segment' if cells[_hex(at)] == 'h' else 'rock'}"
                             f", not a cave space it can be on")
        on_pit = cells[_hex(at)] == "o"
        if where == "setup.tokens platform" and not on_pit:     # fired onto pits only (L672)
            raise ValueError(f"{where}: {list(at)} is no pit; the Platform Gun puts platforms on pits (L672-678)")
        if on_pit and where.split("[")[0].split(" ")[0] in PIT_FREE:
            raise ValueError(f"{where}: {list(at)} is a pit; {PIT_FREE[where.split('[')[0].split(' ')[0]]}")
    for k in setup.get("minerals") or {}:
        at = _key_space(k)
        if not (_is_space(at) and _hex(at) in cells):
            raise ValueError(f"setup.minerals[{k!r}]: not a space of the map")
        if cells[_hex(at)] not in ("*", "#"):
            raise ValueError(f"setup.minerals[{k!r}]: a mineral lies in a wall's diamond space (`*`, L215), "
                             f"not on {cells[_hex(at)]!r}; a mineral on the ground is `ground`")


def hazard_setup(engine, data, setup: dict) -> None:
    """`hazard_setup: N`: the Hazard level's own setup (threat start, extra Grunts at the exits).
    An extra Grunt beside a held exit whose space is a tie is the drawer's (L878), and no step
    answers a setup's choices: said so, not an internal error."""
    level = mission_setup.hazard_of(data, int(setup["hazard_setup"]))
    engine.hazard = level.level
    try:
        mission_setup.hazard_setup(engine, level, setup.get("threat"))
    except ScenarioError as tie:
        raise ValueError(f"hazard_setup {setup['hazard_setup']}: {tie}: no step answers the "
                         f"setup's own choices; set that Grunt up under `monsters:`") from None


def event_drawer(st, seat: int):
    """The dwarf an `event` step has draw: never an unconscious one or one aboard the pod, who
    draw no Event card (L864; an unconscious dwarf's turn advances the threat, L316, L628)."""
    d = st.dwarves[seat]
    if not d.conscious or d.in_pod:
        raise ScenarioError(f"dwarf {seat} is {'aboard the pod' if d.in_pod else 'unconscious'} and "
                            f"draws no Event card (L864); his turn is `{{do: turn, dwarf: {seat}}}`")
    return d


def _key_space(k):
    """The space a "r,c" key names, or the key itself when it names none."""
    try:
        r, c = str(k).split(",")
        return [int(r), int(c)]
    except ValueError:
        return k


def check_actor(engine, step: dict, shots: list) -> None:
    """What an action step has its dwarf use exists: a weapon, an ability of some class
    (`ability: nosuch` passed as a refusal, so a typo could). Another class's weapon or
    ability is his player's mistake in play too: the engine refuses it (a Gunner firing the
    Scout's M1000 was carried out)."""
    weapons = {w.id for w in engine.data.of("weapon")}
    for shot in shots:
        if "weapon" in shot and shot["weapon"] not in weapons:
            raise ScenarioError(f"weapon {shot['weapon']!r}: no such weapon")
    abilities = sorted({a.id for c in engine.data.of("dwarf") for a in c.abilities or ()})
    if step.get("do") == "ability" and step.get("id") not in abilities:
        raise ScenarioError(unknown_names(f"ability {step.get('id')!r}", [step.get("id")], abilities))
    # ...and the names its fields give: `take: {helth: 1}`, `give: {amo: 1}`, `upgrade: nosuch`
    # or `slot: tertiary` passed as refused too
    upgrades = [u.id for u in engine.data.of("weapon_upgrade")]
    throwables, kind = list(engine.data.kinds["throwable"]), step.get("do")
    names = []
    if kind == "install":
        names = [("upgrade", [step.get("upgrade")], upgrades), ("slot", [step.get("slot")], ["primary", "secondary"])]
    elif kind == "collect_supply":
        names = [("take", list(step.get("take") or {}), ["ammo", "health", "secondary_ammo"])]
    elif kind == "exchange":
        for side in ("give", "take"):
            what = step.get(side) or {}
            names += [(side, list(what), ["ammo", "health", "rock_and_stone", "secondary_ammo", "throwables", "upgrades"]),
                      (f"{side}.throwables", what.get("throwables") or [], throwables),
                      (f"{side}.upgrades", what.get("upgrades") or [], upgrades)]
    elif kind == "move" and isinstance(step.get("upgrade_to"), dict):
        names = [("upgrade_to", list(step["upgrade_to"]), upgrades),
                 ("upgrade_to", list(step["upgrade_to"].values()), ["primary", "secondary", "spare"])]
    for where, given, known in names:
        if not (isinstance(given, list) and all(isinstance(n, str) for n in given)):
            raise ScenarioError(f"{where}: names, not {given!r:.40}")
        if problem := unknown_names(where, given, known):
            raise ScenarioError(problem)


def check_seats(st, step: dict) -> None:
    """The seats a step names are dwarves': its `dwarf`, `drawer` and the seats `choose_for`
    scripts answers for (one no dwarf sits at is never asked: on a refused step they passed)."""
    seats = [(key, step[key]) for key in ("dwarf", "drawer") if key in step]
    seats += [("choose_for", seat) for seat in step.get("choose_for") or {}]
    for key, seat in seats:
        seat = int(seat) if isinstance(seat, str) and seat.isdigit() else seat
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(st.dwarves)):
            raise ScenarioError(f"{key} {seat!r}: no such dwarf (seats 0-{len(st.dwarves) - 1})")
