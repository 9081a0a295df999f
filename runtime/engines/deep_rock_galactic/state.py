"""The state of one Deep Rock Galactic mission: map, dwarves, monsters, supply, track."""
from __future__ import annotations

import copy
import types
from collections import Counter
from dataclasses import dataclass, field

from tomecraft.runtime.effects import Context, EffectError, step
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.lookahead import copy_counter

WALLS = {"#", "*"}
OPEN = {".", "^", "?"}


class Ctx(Context):
    """The effect Context of Deep Rock Galactic, which also keeps `subject`: the innermost of
    what the effect was bound to, the item of an `each` or the candidate of a where-clause
    (`it`), the chosen `target`, the subject of the event a trigger hears (its `target`).
    Verbs and queries that act on or ask about "it" (a dwarf to hurt, heal, draw for; a
    creature to hit; whose status) read `subject(ctx)`, so `each dwarf: take_damage 1` under
    an event drawn by one dwarf hurts each dwarf once."""

    def bind(self, **changes) -> "Ctx":
        new = Context.bind(self, **changes)
        if "target" in changes:
            new.__dict__["subject"] = changes["target"]
        elif "it" in changes:
            new.__dict__["subject"] = changes["it"]
        return new

    # Context.select and Context.each, the item also made the subject
    def select(self, kind: str, zone: str | None, where) -> list:
        items = self.engine.select(self, kind, zone)
        if where is None:
            return list(items)
        out = []
        mine, make, cls = self.__dict__, object.__new__, type(self)
        for x in items:
            bound = make(cls)
            bound.__dict__.update(mine, it=x, subject=x)
            if where(bound):
                out.append(x)
        return out

    def each(self, kind: str, zone: str | None, where, body) -> None:
        mine, make, cls = self.__dict__, object.__new__, type(self)
        for item in self.select(kind, zone, where):
            step()
            bound = make(cls)
            bound.__dict__.update(mine, it=item, subject=item)
            if kind in ("player", "opponent", "other_player"):
                bound.__dict__["you"] = item
            body(bound)


def subject(ctx):
    """What the effect is about (Ctx): the innermost of `it` and `target`; for a Context made
    without one, `target`, else `it`."""
    found = ctx.__dict__.get("subject", _NO_SUBJECT)
    if found is not _NO_SUBJECT:
        return found
    return ctx.target if ctx.target is not None else ctx.it


_NO_SUBJECT = object()


@dataclass
class Dwarf:
    seat: int
    cls: str
    pos: Hex
    health: int = 5
    ammo: int = 5
    secondary_ammo: int = 3
    secondary: str = "zhukov"
    primary: str = ""
    overclocked: bool = False
    statuses: set[str] = field(default_factory=set)
    actions: int = 0
    carried: Counter = field(default_factory=Counter)     # Mine Head missions: not yet deposited
    throwables: list[str] = field(default_factory=list)
    rock_and_stone: list[str] = field(default_factory=list)   # Rock and Stone card ids in hand
    upgrades: dict[str, str] = field(default_factory=dict)     # installed: weapon slot -> upgrade id
    spare_upgrades: list[str] = field(default_factory=list)   # picked up, not installed
    in_pod: bool = False
    tokens: Counter = field(default_factory=Counter)      # class tokens still in hand
    used: Counter = field(default_factory=Counter)        # per-turn uses (flaming_ground...)
    acted_at: int = -1                                    # when it last acted (monster tie-break)
    last_action: tuple | None = None                      # (do, weapon, mode) of its last action

    @property
    def conscious(self) -> bool:
        return "unconscious" not in self.statuses

    def __deepcopy__(self, memo: dict) -> "Dwarf":
        """Every field holds strings, numbers, hexes or flat containers of them."""
        return _flat_twin(self, memo)


def spend(d: Dwarf, n: int) -> None:
    """The dwarf pays `n` of its actions, or the action is refused."""
    if d.actions < n:
        raise EffectError(f"{n} actions needed, {d.actions} left")
    d.actions -= n


@dataclass
class Monster:
    uid: int
    kind: str
    pos: Hex
    damage: int = 0
    statuses: set[str] = field(default_factory=set)
    facing: Hex | None = None          # the hex its front looks towards (Praetorian, Oppressor)
    tail: Hex | None = None            # the Oppressor's second space
    hidden_from: int | None = None     # seat of the dwarf it hides from (hides_when_damaged)

    def __deepcopy__(self, memo: dict) -> "Monster":
        return _flat_twin(self, memo)

    def spaces(self) -> tuple[Hex, ...]:
        """The spaces it stands on: its own, and the Oppressor's second one (L1197)."""
        return (self.pos,) if self.tail is None else (self.pos, self.tail)


def _flat_twin(obj, memo: dict):
    """A deep copy of an object whose fields hold immutable values or flat containers of
    them (a set of statuses, a Counter, a list of ids): each container copied one level.
    Only the fields that hold containers are looked at (`_CONTAINER_FIELDS`: the others hold
    numbers, text, hexes or None, tests/deep_rock_galactic/test_sim.py checks it at every
    copy of several games); an object with other fields than its class's is looked at whole."""
    new = object.__new__(type(obj))      # copy.copy's reduce protocol cost more than the rest
    memo[id(obj)] = new
    fields = new.__dict__
    fields.update(vars(obj))
    names, count = _CONTAINER_FIELDS[type(obj)]
    _copy_containers(fields, names if len(fields) == count else list(fields))
    return new


def _copy_containers(fields: dict, names) -> None:
    """`_flat_twin`'s copy, one level deep, of the containers among `fields[name]` (`fields`:
    the copy's)."""
    copier_of = _TWIN_COPIERS.get
    for name in names:
        value = fields[name]
        copier = copier_of(type(value), _OTHER)  # one lookup: kept (None), a usual container's copier
        if copier is None:
            continue
        if copier is not _OTHER:
            fields[name] = copier(value)
        elif isinstance(value, (set, list, dict)):
            fields[name] = flat_copy(value)


# per class copied by _flat_twin: (the fields holding containers, how many fields it has)
_CONTAINER_FIELDS = {
    Dwarf: (("statuses", "carried", "throwables", "rock_and_stone", "upgrades", "spare_upgrades",
             "tokens", "used"), len(Dwarf.__dataclass_fields__)),
    Monster: (("statuses",), len(Monster.__dataclass_fields__)),
}


@dataclass
class State:
    cells: dict[Hex, str]                       # terrain character per hex (see missions/README.md)
    pod: list[Hex]
    exits: dict[int, Hex]
    mine_head: Hex | None = None
    dwarves: list[Dwarf] = field(default_factory=list)
    monsters: dict[int, Monster] = field(default_factory=dict)
    stalagmites: set[Hex] = field(default_factory=set)
    minerals: dict[Hex, str] = field(default_factory=dict)       # diamond wall -> mineral inside
    ground: dict[Hex, Counter] = field(default_factory=dict)     # minerals / health cubes lying on the ground
    pickups: dict[Hex, list] = field(default_factory=dict)       # hex -> [kind, face_up]
    hidden: list[dict] = field(default_factory=list)             # {hexes, pickups, revealed}
    tokens: dict[str, dict[Hex, int]] = field(default_factory=dict)   # board tokens: kind -> {hex: owner seat}
    sentry: Hex | None = None
    supply_pod: Hex | None = None
    supply_stock: Counter = field(default_factory=Counter)
    shared: Counter = field(default_factory=Counter)            # Shared Supply Space
    killed: Counter = field(default_factory=Counter)
    threat: int = 0
    pod_returned: bool = False
    result: str | None = None           # "success" | "failure"
    round: int = 0
    clock: int = 0
    next_uid: int = 1
    event_deck: list = field(default_factory=list)
    event_discard: list = field(default_factory=list)
    swarm_deck: list = field(default_factory=list)
    swarm_discard: list = field(default_factory=list)
    supply_deck: list = field(default_factory=list)
    rs_deck: list = field(default_factory=list)      # Rock and Stone card ids, top last
    rs_discard: list = field(default_factory=list)
    throwable_deck: list = field(default_factory=list)    # Throwable card ids, top last (L153)
    throwable_discard: list = field(default_factory=list)  # used throwables (L580)
    segment_pool: list = field(default_factory=list)      # hidden cave segment tiles not drawn (L196)
    pod_left: bool = False              # every dwarf has left the drop pod: its spaces are cave (L374)
    upgrade_supply: list = field(default_factory=list)    # weapon upgrade ids, face down
    upgrade_tokens: dict[Hex, str] = field(default_factory=dict)   # on the board
    bosco: Hex | None = None
    bosco_alive: bool = False
    drones: set[Hex] = field(default_factory=set)                 # "!" tokens still to recover

    def __deepcopy__(self, memo: dict) -> "State":
        """A copy for the players' trials (runtime/lookahead.py): the fields holding only
        hexes, ids and numbers are copied flat (deepcopy walked every hex's tuple); the rest,
        dwarves and monsters that other objects point at, through deepcopy and its memo."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        fields = new.__dict__
        for name, value in vars(self).items():
            if type(value) in ATOMIC:            # numbers, flags, None: the copy's own already
                fields[name] = value
                continue
            if id(value) in memo:
                fields[name] = memo[id(value)]
                continue
            if name in _FLAT:
                copier = _FLAT_COPIERS.get(type(value))
                twin = copier(value) if copier is not None else flat_copy(value)
            elif name in _NESTED:         # one more level of flat containers (or dicts of them)
                twin = {k: _flat(v) for k, v in value.items()} if isinstance(value, dict) \
                    else [_flat(v) for v in value]
            else:
                twin = deep_twin(value, memo)
            memo[id(value)] = twin
            fields[name] = twin
        return new

    def terrain(self, h: Hex) -> str:
        return self.cells.get(h, "x")

    def monster_at(self, h: Hex) -> Monster | None:
        for m in self.monsters.values():
            if m.pos == h or m.tail == h:
                return m
        return None

    def dwarf_at(self, h: Hex) -> Dwarf | None:
        for d in self.dwarves:
            if d.pos == h and not d.in_pod:
                return d
        return None


# State fields holding only hexes, ids and numbers (immutable items): a flat copy is a deep one
_FLAT = {"cells", "pod", "exits", "stalagmites", "minerals", "supply_stock", "shared", "killed",
         "event_deck", "event_discard", "swarm_deck", "swarm_discard", "supply_deck", "rs_deck",
         "rs_discard", "throwable_deck", "throwable_discard", "upgrade_supply", "upgrade_tokens",
         "drones"}
# State fields holding flat containers (or dicts of them) of such items
_NESTED = {"tokens", "pickups", "ground", "hidden", "segment_pool"}


# the types of the values a copy keeps as they are (State, Engine and deep_twin)
ATOMIC = frozenset({int, float, str, bool, type(None)})
_KEPT = ATOMIC | {tuple}         # a flat twin keeps these as they are (hexes, last actions)
_MISSING = object()
# what deepcopy returns as it is: numbers, strings, None, and functions (a trigger's body and
# condition, the mission event's effect: deepcopy's dispatch found them atomic, one call each)
_SHARED_AS_IS = ATOMIC | {types.FunctionType, types.BuiltinFunctionType}


def deep_twin(value, memo: dict):
    """`copy.deepcopy(value, memo)` with its cases for numbers, strings, plain dicts, lists
    and tuples, and effect contexts, run here without its dispatch (a trial copies the
    triggers' contexts, their info and the dice just rolled). Same copies, same sharing
    through `memo`; any other object goes to copy.deepcopy."""
    kind = type(value)
    if kind in _SHARED_AS_IS:
        return value
    got = memo.get(id(value), _MISSING)
    if got is not _MISSING:
        return got
    if kind is Dwarf or kind is Monster:       # their own __deepcopy__, without the dispatch
        return _flat_twin(value, memo)
    if kind is tuple:
        for v in value:                        # a hex, a once-mark: kept without a call per item
            if type(v) not in _SHARED_AS_IS:
                break
        else:
            return value
        items = [v if type(v) in _SHARED_AS_IS else deep_twin(v, memo) for v in value]
        for a, b in zip(items, value):
            if a is not b:
                break
        else:
            return value                       # immutable all through: shared, as deepcopy does
        twin = memo[id(value)] = tuple(items)
        return twin
    # below, an item deep_twin would return as it is (a number, text, a function) is not
    # passed to it: most of a trigger's context and info are such items
    as_is = _SHARED_AS_IS
    if kind is dict:
        twin = memo[id(value)] = {}
        for k, v in value.items():
            twin[k if type(k) in as_is else deep_twin(k, memo)] = v if type(v) in as_is else deep_twin(v, memo)
        return twin
    if kind is list:
        twin = memo[id(value)] = []
        append = twin.append
        for v in value:                        # a loop: a generator cost more (the dwarves)
            append(v if type(v) in as_is else deep_twin(v, memo))
        return twin
    if kind is set:                            # copy.deepcopy's reduce protocol cost ten times this
        twin = memo[id(value)] = set()
        for v in value:
            twin.add(v if type(v) in as_is else deep_twin(v, memo))
        return twin
    if kind is Ctx or kind is Context:       # frozen: its fields set as deepcopy sets them
        twin = memo[id(value)] = object.__new__(kind)
        fields = twin.__dict__
        for name, v in vars(value).items():
            fields[name] = v if type(v) in as_is else deep_twin(v, memo)
        return twin
    copier = getattr(kind, "__deepcopy__", None)
    if copier is not None:                    # a Dwarf, a Monster: their own copy, as deepcopy calls it
        twin = copier(value, memo)
        if twin is not value:
            memo[id(value)] = twin
        return twin
    return copy.deepcopy(value, memo)


def engine_twin(engine, memo: dict):
    """The engine's twin for an object of a trial's copy that points back at it (its verbs,
    queries): the one the memo holds (Engine.__deepcopy__ puts itself there first), without
    copy.deepcopy's dispatch; else its deep copy."""
    got = memo.get(id(engine), _MISSING)
    return got if got is not _MISSING else copy.deepcopy(engine, memo)


def flat_copy(value):
    """A copy of a set, list, dict or Counter of immutable items."""
    if type(value) is Counter:            # Counter(value) runs its __init__ and update in Python
        return copy_counter(value)
    return type(value)(value)


# flat_copy of a container of exactly these types
_FLAT_COPIERS = {set: set, list: list, dict: dict, Counter: copy_counter}
# _flat_twin's table by a field's type: None for the kept types, else the container's copier
_TWIN_COPIERS = {**{kind: None for kind in _KEPT}, **_FLAT_COPIERS}
_OTHER = object()


def _flat(value):
    """A copy of a flat container; a dict's (a Counter's) container values copied flat too."""
    if isinstance(value, dict):
        # never type(value)(pairs): a Counter built from (item, count) pairs counts the pairs
        twin = flat_copy(value)
        for k, v in value.items():
            if isinstance(v, (set, list, dict)):
                twin[k] = flat_copy(v)
        return twin
    return type(value)(value) if isinstance(value, (set, list)) else value
