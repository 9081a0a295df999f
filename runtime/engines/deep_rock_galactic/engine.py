"""The Deep Rock Galactic engine: setup from a mission, the dwarves' Action Phase, the Event
Phase, swarms, monster activation, success and failure.

Content drives the rules: monster stats and "!" effects, weapon modes (dice, range, cost,
assignment), event and swarm cards, pickups and the mission event are generated definitions;
effects run through the verbs and queries (verbs.py, queries.py; runtime/effects.py Context API).

Modules, each importing only the ones before it: triggers (who hears an event) <- board
(state queries, geometry, dice) <- combat (damage, attacks) <- monsters (spawning,
activation, movement, threat) <- the dwarves' actions (movement, equipment, actions) <-
verbs, queries <- engine (this: the Engine, its choices and the effect Context protocol) <-
mission_setup, turns (with policy, its trials) <- deep_dive <- game. Below the engine, `engine`
parameters are typed by the layer the Engine extends.
Rule choices where the guide is silent are the `rule` entities of content/.../rules.yaml.
"""
from __future__ import annotations

from collections import Counter

from tomecraft.runtime.effects import EffectError, check_handlers
from tomecraft.runtime.engines.deep_rock_galactic.board import parse_map, plain
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.monsters import Monsters
from tomecraft.runtime.engines.deep_rock_galactic.queries import Queries
from tomecraft.runtime.engines.deep_rock_galactic.state import ATOMIC, Dwarf, Monster, State, deep_twin, flat_copy
from tomecraft.runtime.engines.deep_rock_galactic.verbs import Verbs

__all__ = ["Engine", "load_mission", "parse_map", "plain", "MAX_ROUNDS"]

MAX_ROUNDS = 60


def load_mission(data, options: dict) -> dict:
    """The mission to play: options["mission"] (a mapping), else the content's mission
    options["mission_id"], else the content's first mission by id (Mission 1, `m01`, unless a
    pack removed it)."""
    chosen = options.get("mission")
    if isinstance(chosen, dict):
        return chosen
    if chosen:
        # The runtime never reads files: `tomecraft sim --mission` validates the file with
        # compiler.missions.load_mission and passes the mission mapping here.
        raise ValueError("pass the mission as the mapping compiler.missions.load_mission returns")
    m = data.get("mission", options.get("mission_id") or min(m.id for m in data.of("mission")))
    out = {k: plain(getattr(m, k)) for k in ("objective", "hazard", "minerals", "pickups",
                                              "remove_cards", "hidden_monsters", "tokens", "drop_pod",
                                              "tunnel_exits", "mine_head", "stalagmites", "mineral_spaces",
                                              "drones", "map")}
    out["id"], out["mission_event_fx"] = m.id, m.mission_event
    return {k: v for k, v in out.items() if v is not None}


class Engine(Monsters):
    def __init__(self, data, state: State, agents: list, rng, options: dict | None = None,
                 log_enabled: bool = False) -> None:
        self.data, self.state, self.agents, self.rng = data, state, agents, rng
        self.options = dict(options or {})
        self.rules = {r.id: r.value for r in data.of("rule")}
        track = plain(self.rules["g11_track_length"])
        self.track_len, self.swarm_squares = track["squares"], set(track["swarm_squares"])
        self.hazard = int(self.options.get("hazard", 2))
        self.verbs, self.queries = Verbs(self), Queries(self)
        self.token_defs = {t.token: t for t in data.of("board_token")}
        # per token: (stops a walker on entry, flyers too, removed then), read once (Board.stops_walker)
        self.entry_stops = {t.token: (bool(t.stops_movement_on_entry), bool(t.affects_flying),
                                      bool(t.removed_on_entry)) for t in data.of("board_token")}
        # tokens taken from elsewhere on the board once their supply is out (goo, L1253)
        self.moved_when_out = frozenset(t.token for t in data.of("board_token") if t.moved_when_out)
        # the monster entity each creature term names (`spawn grunt`, a mission's hidden monsters)
        self.creatures = {m.creature: m.id for m in data.of("monster") if m.creature}
        check_handlers(data, self.verbs, self.queries)
        self.move_ended = False         # set by the end_move verb during a move
        self.upgrade_to: dict = {}      # during a Move: where the upgrades picked up go (L1369-1371)
        self.worn_webs: set = set()     # scenario start_turn: seats Webbed for this turn (L312)
        self.log_enabled, self.lines = log_enabled, []
        self.mission_event = None
        self.shots: set = set()         # once-per marks of effects (Engine.once)
        self.window = 0                 # which Event, Swarm or dwarf action is under way
        self.subs: dict = {}            # (trigger key, owner) -> (event, where, body, ctx) (triggers.py)
        self.placed: dict = {}          # play id -> [(token, hex)] an effect placed
        self.plays = 0                  # runs of effects so far (Triggers.new_play)
        self.last_roll: list = []
        self.last_die = ""
        self.plan: list | None = None   # scripted hit assignment (scenarios)
        self.acting: Dwarf | None = None
        self.flares: dict[Hex, int] = {}
        self.shield: Hex | None = None
        self.mine_head_mission = False
        self.forced_rolls: list[list[dict]] = []
        self.ziplines: set[tuple[Hex, Hex]] = set()   # (one end, other end) ground spaces
        self.spawned: Counter = Counter()
        self.activated: Counter = Counter()
        self.mission: dict = {"objective": {"type": "collect", "targets": {}}}

    def __deepcopy__(self, memo: dict) -> "Engine":
        """A copy for the players' trials (runtime/lookahead.copy_game): what the memo already
        maps (the content, the tables copy_game is told to share) is shared; the fields holding
        only immutable items are copied flat (deepcopy walked every once-mark's tuple); the
        players' memos of trials are left out; the rest is deep-copied with the same memo."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        fields = new.__dict__
        for name, value in vars(self).items():
            if type(value) in ATOMIC:            # numbers, flags, None, text: kept as they are
                fields[name] = value
                continue
            if name in _NOT_COPIED:
                continue
            twin = memo.get(id(value), _MISSING)
            if twin is _MISSING:
                twin = flat_copy(value) if name in _FLAT else deep_twin(value, memo)
            fields[name] = twin
        return new

    def decide(self, ctx, key: str, options: list):
        seat = ctx.you.seat if isinstance(ctx.you, Dwarf) else 0
        if key.endswith("!target") and ctx.info.get("target") is not None:
            wanted = ctx.info["target"]
            for o in options:
                if o is wanted:
                    return o
            raise EffectError(f"target {wanted} is not a legal target")
        if "shot" in ctx.info and options == [True, False]:
            # a Move's then_fire or then_throw answers its `may`
            return ctx.info["shot"] is not None or ctx.info.get("throw") is not None
        if len(options) == 1:
            return options[0]
        agent = self.agents[seat % len(self.agents)]
        if options and isinstance(options[0], Monster):
            choice = agent.choose("target", [m.uid for m in options], self)
            return next(m for m in options if m.uid == choice)
        return agent.choose(key, options, self)

    def suggest(self, key: str, options: list) -> list:
        if key == "upgrade_trade":              # Deep Dive: trade an upgrade only when in need
            needy = [o for o in options if not o.get("keep") and (
                (o["refill"] == "health" and self.state.dwarves[o["dwarf"]].health <= 2)
                or (o["refill"] == "ammo" and self.state.dwarves[o["dwarf"]].ammo <= 1))]
            return needy or [o for o in options if o.get("keep")]
        if key in ("pod_landing", "flame", "monster_end"):  # where a player places: the engine's old pick
            return options[:1]
        if key.endswith(":may2") or "may" in key:
            return [True] if self.acting and self.acting.health > 3 else [False]
        return []

    # Context protocol
    def attr(self, ctx, obj, name):
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        if kind == "monster":
            only = ctx.info.get("only_target")
            if only is not None:               # actions._takes: may the shot take this one?
                return [only] if only.hidden_from is None or not isinstance(ctx.you, Dwarf) or \
                    only.hidden_from != ctx.you.seat else []
            return [m for m in self.state.monsters.values()
                    if m.hidden_from is None or not isinstance(ctx.you, Dwarf) or m.hidden_from != ctx.you.seat]
        if kind == "player":
            return [d for d in self.state.dwarves if d.conscious]
        if kind == "dwarf":                     # every dwarf on the board, unconscious ones too
            return [d for d in self.state.dwarves if not d.in_pod]
        return []

    def watch(self, ctx, cond, body, key) -> None:
        raise EffectError("`when` is not used by Deep Rock Galactic content")

    def continuous(self, ctx, body, key) -> None:
        body(ctx)

    def modify(self, ctx, obj, name, op, value, key) -> None:
        raise EffectError("value layering is not used by Deep Rock Galactic content")


_MISSING = object()
# Engine fields holding flat containers of immutable items (hexes, ids, numbers, once-marks)
_FLAT = frozenset({"shots", "flares", "ziplines", "spawned", "activated", "lines"})
# the players' per-round memos of trials (trials.py): a trial never chooses an action, so it
# never reads them; copying them grew with each trial of the round
_NOT_COPIED = frozenset({"_ability_trials", "_card_trials"})
