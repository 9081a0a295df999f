"""The Cave's rule handlers the verbs call: discovering a tile, and the equipment and camp
rules (loadouts, re-equipping, discarding, the camp). Each takes the engine (for its state,
content, decisions and log); what an item does comes from its fields (equipment.py).
"""
from __future__ import annotations

import weakref
from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave.equipment import item_of
from tomecraft.runtime.engines.the_cave.state import (
    BACKPACK_SLOTS, CAMP_SLOTS, OPPOSITE, PACKED_CAMP_SLOTS, UPKEEP, Cell, Team, step,
)
from tomecraft.runtime.lookahead import copy_counter

SUGGESTED = {"consumable": 4, "rope": 1, "oxygen": 1, "camera": 1, "raft": 1}   # L54
CAMP_PLAN = {"consumable": 3, "rope": 1}      # what the candidate loadouts put in the camp


_MEMOS: dict = {}     # id(content) -> (a weak reference to it, its memos)


def content_memos(data) -> tuple[dict, dict]:
    """The loadout and camp exchange memos for the content `data`: what they hold
    depends only on the content's equipment and the memo's key, so every game with the same
    content shares them (a sim plays many). Keyed by the content's id, checked against a
    weak reference to it (an id may be reused once the content is gone)."""
    found = _MEMOS.get(id(data))
    if found is None or found[0]() is not data:
        for key in [k for k, (ref, _) in _MEMOS.items() if ref() is None]:
            del _MEMOS[key]         # (contents no longer alive)
        found = _MEMOS[id(data)] = (weakref.ref(data), ({}, {}))
    return found[1]


def owned(engine, team: Team, item: str) -> int:
    n = engine.items.count(team.backpack, item)
    if team.camp in ("packed", "set"):
        n += engine.items.count(team.camp_items, item)
    return n


def slots_used(engine, team: Team) -> int:
    return team.slots_used(engine.items.slots)


def discard(engine, team: Team, item: str, amount: int = 1) -> None:
    """Discard from the backpack (the only bag a rule discards from in place: the camp's is
    replaced, never changed in place, see trials.copy_team)."""
    bag = team.backpack
    for _ in range(amount):
        if item not in engine.items.by_term or not engine.items.count(bag, item):
            raise EffectError(f"{team.name} has no {item} to discard")
        engine.items.take_out(bag, item)
    if item in engine.limits:
        # L291-292; a new bag, not changed in place: a trial copy of the team shares it
        team.lost = lost = copy_counter(team.lost)
        lost[item] += amount
    if engine.log_enabled:     # no formatting when logging is off
        engine.log(f"{team.name} discards {amount} {item}")


def _fit(engine, wanted: dict, room: int, allowed: dict) -> Counter:
    """As many of each wanted item, in order, as fit in `room` slots and are allowed; the
    consumables last, so that in a backpack a packed camp makes smaller they give way (the
    rest of the room is filled with them anyway, `_filled`)."""
    out, free = Counter(), room
    for item, n in sorted(wanted.items(), key=lambda kv: kv[0] == UPKEEP):
        if item not in engine.items:
            continue
        n = min(n, allowed.get(item, n), free // engine.items.slots(item))
        if n > 0:
            out[item] = n
            free -= n * engine.items.slots(item)
    return out


def _filled(engine, bag: Counter, room: int) -> Counter:
    """The rest of the room filled with consumables (L54: they fill the loadout)."""
    free = room - engine.items.slots_used(bag)
    if UPKEEP in engine.items and free >= engine.items.slots(UPKEEP):
        bag[UPKEEP] += free // engine.items.slots(UPKEEP)
    return bag


def loadouts(engine, team: Team, setup: bool = False) -> list[dict]:
    """Candidate re-equip choices (agents may also answer with any legal loadout): new
    dicts each call."""
    return [_copied(o) for o, _ in _known_loadouts(engine, team, setup)]


def _copied(option: dict) -> dict:
    """A copy of a loadout (`_loadouts`: its backpack and camp, and maybe pack_camp)."""
    return dict(option, backpack=dict(option["backpack"]), camp=dict(option["camp"]))


def _known_loadouts(engine, team: Team, setup: bool) -> list[tuple[dict, bool]]:
    """The candidate loadouts, each with whether `re_equip` may take it as it is without
    `check_loadout` (False: it is checked when chosen). They depend only on the camp, the
    limited items the team may still take and `setup`, and so does the check of a loadout
    that does not pack the camp: remembered per engine (a trial copy of the game shares the
    memo), only read."""
    camp_with_bank = team.camp == "packed" or (team.camp == "set" and team.camp_pos == engine.state.base)
    allowed = _limited_allowed(engine, team, camp_with_bank)
    memo = engine.__dict__.setdefault("loadout_memo", {})
    key = (team.camp, camp_with_bank, tuple(sorted(allowed.items())), setup)
    found = memo.get(key)
    if found is None:
        found = memo[key] = [
            (o, not o.get("pack_camp") and _accepted(engine, team, o, camp_with_bank))
            for o in _loadouts(engine, team, setup, camp_with_bank, allowed)]
    return found


def _accepted(engine, team: Team, choice: dict, camp_with_bank: bool) -> bool:
    """Whether `check_loadout` accepts a loadout that does not pack the camp."""
    try:
        check_loadout(engine, team, choice, team.camp == "packed", camp_with_bank)
    except EffectError:
        return False
    return True


def _loadouts(engine, team: Team, setup: bool, camp_with_bank: bool, allowed: dict) -> list[dict]:
    room = BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if team.camp == "packed" else 0)
    plans = [SUGGESTED, {"consumable": 6, "rope": 2},
             {"consumable": 5, "rope": 1, "oxygen": 1, "raft": 1},
             {"consumable": 4, "rope": 3, "oxygen": 1},
             {"consumable": 4, "rope": 1, "oxygen": 2, "raft": 1},
             {"consumable": 3, "rope": 4, "camera": 1}]
    plans += _content_plans(engine, plans)
    camp = _fit(engine, CAMP_PLAN, CAMP_SLOTS, {}) if camp_with_bank else Counter()
    out = []
    for plan in plans:
        bp = _filled(engine, _fit(engine, plan, room, allowed), room)
        out.append({"backpack": dict(sorted(bp.items())), "camp": dict(sorted(camp.items()))})
    if setup:
        room = BACKPACK_SLOTS - PACKED_CAMP_SLOTS
        camp = _fit(engine, CAMP_PLAN, CAMP_SLOTS, {})
        for plan in ({"consumable": 3, "rope": 1, "oxygen": 1, "camera": 1}, SUGGESTED):
            bp = _filled(engine, _fit(engine, plan, room, allowed), room)
            out.append({"backpack": dict(sorted(bp.items())), "camp": dict(sorted(camp.items())),
                        "pack_camp": True})
    return out


def _content_plans(engine, plans: list) -> list[dict]:
    """One more plan per equipment no base plan names (a pack's new item): the suggested
    loadout with that item in place of consumables, so every item can be carried."""
    named = {item for plan in plans for item in plan}
    return [{item: 1, **SUGGESTED, "consumable": SUGGESTED["consumable"] - engine.items.slots(item)}
            for item in engine.items.order if item not in named]


def _limited_allowed(engine, team: Team, camp_with_bank: bool) -> dict:
    allowed = {}
    for item, limit in engine.limits.items():
        elsewhere = engine.items.count(team.camp_items, item) \
            if (team.camp == "set" and not camp_with_bank) else 0
        allowed[item] = max(0, limit - team.lost[item] - elsewhere)
    return allowed


def check_loadout(engine, team: Team, choice: dict, packed: bool, camp_with_bank: bool) -> None:
    bp = Counter(choice.get("backpack", {}))
    camp = Counter(choice.get("camp", {}))
    for item in list(bp) + list(camp):
        if item not in engine.items:
            raise EffectError(f"unknown equipment {item!r}")
        if item not in engine.items.keys(item_of(item)):     # oxygen@3, rope@1: no such side
            raise EffectError(f"{item!r} is no side of {item_of(item)!r}")
    room = BACKPACK_SLOTS - (PACKED_CAMP_SLOTS if packed else 0)
    if engine.items.slots_used(bp) > room:
        raise EffectError(f"the backpack has {room} slots here, not {engine.items.slots_used(bp)}")
    if camp and not camp_with_bank:
        raise EffectError("the camp cannot be filled from the bank now")
    if engine.items.slots_used(camp) > CAMP_SLOTS:
        raise EffectError(f"the camp holds {CAMP_SLOTS} slots")
    allowed = _limited_allowed(engine, team, camp_with_bank)
    for item, limit in engine.limits.items():
        if engine.items.count(bp, item) + engine.items.count(camp, item) > allowed[item]:
            raise EffectError(f"{team.name} may not take a {item} "
                              f"(limit {limit} per team, L287-292)")


def check_answer(choice, keys: tuple) -> None:
    """A free-form equipment answer (an agent's or a scenario's `free:` loadout or camp
    exchange) is a mapping of `keys` to bags, each bag mapping items to whole counts of 0 or
    more. Anything else is refused with a message: a misspelt key would otherwise empty a bag
    and a negative count free slots."""
    if not isinstance(choice, dict):
        raise EffectError(f"an equipment answer maps {', '.join(keys)} to items, not {choice!r}")
    for key, bag in choice.items():
        if key not in keys:
            raise EffectError(f"an equipment answer has no {key!r} (it names {', '.join(keys)})")
        if key == "pack_camp":      # `pack_camp: "no"` was read as true: the camp packed
            if not isinstance(bag, bool):
                raise EffectError(f"pack_camp: true or false, not {bag!r:.40}")
            continue
        if not isinstance(bag, dict) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in bag.values()):
            raise EffectError(f"{key}: items with counts of 0 or more, not {bag!r}")


def re_equip(engine, team: Team, setup: bool = False) -> None:
    """L241-243 (+ D-23): free exchange between the bank and backpack (and camp)."""
    known = _known_loadouts(engine, team, setup)
    choice = engine.ask(team, "loadout" if setup else "re_equip", [_copied(o) for o, _ in known])
    matched = [accepted for offered, accepted in known if choice == offered]
    if not matched:     # not an option as offered: a free answer, checked for its shape
        check_answer(choice, ("backpack", "camp", "pack_camp"))
    pack = bool(choice.get("pack_camp"))
    if pack and team.camp != "beside":
        # only the camp never taken along is packed this way (free, L253-256); an abandoned
        # one is gone for good (L273-274), a set one is packed on its tile for 1 AP (L263)
        raise EffectError(f"{team.name}'s camp is {team.camp}: a re-equip packs only the camp "
                          "beside the board")
    camp_with_bank = pack or team.camp == "packed" or (team.camp == "set" and team.camp_pos == engine.state.base)
    if camp_with_bank and "camp" not in choice:
        # an answer that names only the backpack leaves the camp as it is (it is not emptied
        # into the bank: a camera or raft in it stays the team's, L287-289)
        choice = dict(choice, camp=dict(team.camp_items))
    if not any(matched):
        check_loadout(engine, team, choice, team.camp == "packed" or pack, camp_with_bank)
    team.backpack = _bag(choice.get("backpack", {}))
    if camp_with_bank:
        team.camp_items = _bag(choice.get("camp", {}))
    if pack:
        team.camp = "packed"
        team.camp_packed_before = True
    if engine.log_enabled:     # no formatting when logging is off
        engine.log(f"{team.name} equips {dict(team.backpack)}" + (f", camp {dict(team.camp_items)}" if camp_with_bank else ""))


def _bag(items) -> Counter:
    """Counter(items), for a dict without the Counter constructor's checks (copy_counter)."""
    return copy_counter(items) if type(items) is dict else Counter(items)


def set_camp(engine, team: Team) -> None:
    team.camp, team.camp_pos = "set", team.pos
    if engine.log_enabled:     # no formatting when logging is off
        engine.log(f"{team.name} sets up camp at {team.pos}")


def swap_camp(engine, team: Team) -> None:
    options, total, checked = _exchanges(engine, team.backpack, team.camp_items)
    choice = engine.ask(team, "camp_exchange", options)
    for offered, ok in checked:
        if choice == offered:       # an option as offered: checked once, with its bags
            bp, camp = copy_counter(choice["backpack"]), copy_counter(choice["camp"])
            break
    else:
        check_answer(choice, ("backpack", "camp"))
        bp, camp = Counter(choice.get("backpack", {})), Counter(choice.get("camp", {}))
        ok = _exchange_ok(engine, bp, camp, total)
    if not ok:
        raise EffectError("a camp exchange must keep the same items within 8 + 4 slots")
    team.backpack, team.camp_items = bp, camp


def _exchange_ok(engine, bp: Counter, camp: Counter, total: Counter) -> bool:
    """A camp exchange shares out the same items (`total`) within 8 + 4 slots."""
    return +(bp + camp) == +total and engine.items.slots_used(bp) <= BACKPACK_SLOTS \
        and engine.items.slots_used(camp) <= CAMP_SLOTS


def _exchanges(engine, backpack: Counter, camp: Counter) -> tuple[list[dict], Counter, tuple]:
    """The camp exchange's options (as they are, and everything with the backpack filled in
    the content's item order), the items they share out, and each option as offered with
    whether it is a legal exchange (`_exchange_ok`). They depend only on the two bags, so
    they are remembered per engine (a player's trial copies share the memo); the options are
    new dicts each call, the rest is only read."""
    key = (tuple(sorted(backpack.items())), tuple(sorted(camp.items())))
    memo = engine.__dict__.setdefault("exchange_memo", {})
    found = memo.get(key)
    if found is None:
        total = backpack + camp
        rank = {term: i for i, term in enumerate(engine.items.order)}
        keys = sorted(total, key=lambda k: (rank.get(item_of(k), len(rank)), k))
        bp = _fit(engine, {k: total[k] for k in keys}, BACKPACK_SLOTS, {})
        offered = ({"backpack": dict(key[0]), "camp": dict(key[1])},
                   {"backpack": dict(sorted(bp.items())), "camp": dict(sorted((total - bp).items()))})
        found = memo[key] = (offered, total, tuple(
            (o, _exchange_ok(engine, Counter(o["backpack"]), Counter(o["camp"]), total))
            for o in offered))
    offered, total, checked = found
    return [{"backpack": dict(o["backpack"]), "camp": dict(o["camp"])} for o in offered], \
        total, checked


def pack_camp(engine, team: Team) -> None:
    """L255-256, L263-264: the packed camp takes 2 slots; make room by discarding."""
    while BACKPACK_SLOTS - engine.items.slots_used(team.backpack) < PACKED_CAMP_SLOTS:
        options = []
        camp_free = CAMP_SLOTS - engine.items.slots_used(team.camp_items)
        for key in sorted(k for k, n in team.backpack.items() if n > 0):    # (+backpack's keys)
            if team.camp == "set" and camp_free >= engine.items.slots(key):
                options.append({"to_camp": key})
            options.append({"discard": key})
        choice = engine.ask(team, "make_room", options)
        if "to_camp" in choice:
            team.backpack[choice["to_camp"]] -= 1
            # a new bag, not changed in place: a trial copy of the team shares it
            team.camp_items = camp = copy_counter(team.camp_items)
            camp[choice["to_camp"]] += 1
        else:
            discard(engine, team, item_of(choice["discard"]), 1)
    team.camp, team.camp_pos = "packed", None
    team.camp_packed_before = True
    if engine.log_enabled:     # no formatting when logging is off
        engine.log(f"{team.name} packs the camp")


def abandon_camp(engine, team: Team) -> None:
    team.lost = lost = copy_counter(team.lost)     # (a trial copy of the team shares it)
    for item in engine.limits:
        lost[item] += engine.items.count(team.camp_items, item)    # L289-291
    team.camp, team.camp_items = "abandoned", Counter()
    if engine.log_enabled:     # no formatting when logging is off
        engine.log(f"{team.name} abandons the camp")


def boulder_kinds(data) -> list:
    """The tile kinds a team may place instead of a tile that fits nowhere (L76-80): the
    `boulder` the contract needs, then any other kind set aside like it (no tile of the stacks
    has it, L39) whose edges new tiles need not match (`match_edges: false`, L79), by id. A
    pack's copy of the boulder is so a boulder too, not an inert kind."""
    kinds = data.kinds["tile_kind"]
    stacked = {t.tile_kind for t in data.kinds["tile"].values()}
    others = [k for i, k in sorted(kinds.items()) if i != "boulder" and k.match_edges is False
              and i not in stacked and not k.is_base]
    return [kinds["boulder"]] + others


def discover(engine, team: Team) -> None:
    state = engine.state
    stack_no = next(i for i, s in enumerate(state.stacks) if s) + 1
    # the stack drawn from is replaced, not popped in place (and so is the discard pile
    # below): a player's trial copy of the game shares these lists (trials.trial_copy)
    pile = state.stacks[stack_no - 1]
    tile, state.stacks[stack_no - 1] = pile[-1], pile[:-1]
    cell = state.cells[team.pos]
    options = engine.placements(cell, tile)
    state.stats[f"drawn:{tile.tile_kind}"] += 1
    if options:
        choice = engine.ask(team, "place", options)
        kind = engine.kinds[tile.tile_kind]
        new = Cell(step(cell.pos, choice["dir"]), kind, choice["exits"], cell.depth,
                   tile_id=tile.id, stack=stack_no)
        state.cells[new.pos] = new
        if engine.log_enabled:     # no formatting when logging is off
            engine.log(f"{team.name} places {kind.id} {new.exits} at {new.pos} (stack {stack_no})")
        if kind.on_discover is not None:
            kind.on_discover(engine.ctx(team, new))
    else:
        # L76-77: the tile is discarded unseen by the rules and a boulder goes instead.
        state.discarded = state.discarded + [tile]
        # Which boulder, if the content has several (`boulder_kinds`), the team picks.
        choice = engine.ask(team, "boulder", [{"dir": d, "kind": kind.id}
                                              for d in engine.unexplored(cell)
                                              for kind in engine.boulders])
        kind = engine.kinds[choice.get("kind", engine.boulders[0].id)]
        pos = step(cell.pos, choice["dir"])
        state.cells[pos] = new = Cell(pos, kind, OPPOSITE[choice["dir"]], cell.depth,
                                      tile_id=kind.id, stack=stack_no)
        state.stats["boulders"] += 1
        state.stats[f"boulder:{kind.id}"] += 1
        if engine.log_enabled:     # no formatting when logging is off
            engine.log(f"{team.name} cannot place {tile.tile_kind} {tile.exits}: {kind.id} at {pos}")
        if kind.on_discover is not None:
            kind.on_discover(engine.ctx(team, new))
    # L303-304: the last stack-4 tile placed (or its boulder). Stack 4 is drawn last (L72-73),
    # so that is the last tile of all; a setup whose stack 4 is empty (a scenario's, a pack's)
    # ends with its last tile, not never (the cave is explored, L28).
    if not any(state.stacks) and not state.end_triggered:
        state.end_triggered = True
        if engine.log_enabled:     # no formatting when logging is off
            engine.log(f"{team.name} placed the last tile (stack {stack_no}): the end is triggered")
