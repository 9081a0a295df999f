"""The simulated players' trials (policy.py): an option tried on a copy of the game, weighed by
`evaluate`, how well the team stands, against the game as it is (`Baseline`). An ability is
also weighed by the monsters' next activation on the copy, when it changes what they meet."""
from __future__ import annotations

from collections import Counter
from functools import cached_property

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.deep_rock_galactic import hexgrid as hx
from tomecraft.runtime.engines.deep_rock_galactic.actions import PLACES_ONLY, perform
from tomecraft.runtime.engines.deep_rock_galactic.engine import Engine
from tomecraft.runtime.engines.deep_rock_galactic.hexgrid import Hex
from tomecraft.runtime.engines.deep_rock_galactic.state import Dwarf
from tomecraft.runtime.lookahead import FirstOption, copy_game
from tomecraft.runtime.rng import seeded
from tomecraft.runtime.usage import quiet


class Baseline:
    """What one decision's trials are measured against, read once (the game is unchanged meanwhile)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        # the team's score once the monsters have acted with no ability used, per situation
        # (see ability_gain): an ability's gain is measured against it, so it is kept for this
        # decision alone, where the game is the one the trials copy
        self.idle: dict = {}

    @cached_property
    def score(self) -> float:
        return evaluate(self.engine)

    @cached_property
    def met(self) -> tuple:
        return _what_monsters_meet(self.engine)


def needs(engine: Engine) -> Counter:
    """What the objective still lacks: items not yet in the Shared Supply nor carried."""
    st = engine.state
    obj = engine.mission["objective"]
    left: Counter = Counter()
    for k, n in obj.get("targets", {}).items():
        have = st.shared.get(k, 0) + sum(x.carried.get(k, 0) for x in st.dwarves)   # no __missing__ call
        if have < n:
            left[k] = n - have
    return left


def _trial(engine: Engine, d: Dwarf):
    """(a copy of the game for trying an option out, the copy of `d`). Its dice come from a
    stream of its own seeded by the game's seed and clock: a trial neither consumes the real game's
    rolls nor peeks at them; its decisions take the first option."""
    # the game's dice stream and agents are replaced on the copy, so shared rather than copied
    # (a generator's state is 625 numbers: most of a copy's cost)
    trial = copy_game(engine, shared=(engine.rules, engine.rng, engine.agents, engine.mission,
                                      engine.options, engine.token_defs, engine.entry_stops,
                                      engine.moved_when_out, engine.creatures, engine.swarm_squares))
    trial.rng = seeded(f"{getattr(engine.rng, 'seed', 'game')}/trial/{engine.state.clock}")
    trial.agents = [FirstOption()] * len(engine.agents)
    at = next(i for i, x in enumerate(engine.state.dwarves) if x is d)    # not index(): == compares every field
    return trial, trial.state.dwarves[at]


def trial_gain(engine: Engine, d: Dwarf, act: dict, now: Baseline) -> float | None:
    """How much doing `act` changes `evaluate` (`now`: the game's), tried on a copy; None if refused."""
    trial, you = _trial(engine, d)
    try:
        with quiet():                          # a trial is not a use (`sim --usage`)
            perform(trial, you, act)
    except EffectError:
        return None
    return evaluate(trial) - now.score


def card_gain(engine: Engine, d: Dwarf, act: dict, now: Baseline) -> float | None:
    """`trial_gain` of a Rock and Stone card, tried once per dwarf, round, health and ammo
    (a turn asks again before each of its actions; copies are the player's main cost)."""
    held = engine.__dict__.get("_card_trials")
    if held is None or held[0] != engine.state.round:      # this round's trials only
        held = engine.__dict__["_card_trials"] = (engine.state.round, {})
    memo = held[1]
    key = (act["card"], d.seat, d.health, d.ammo)
    if key not in memo:
        memo[key] = trial_gain(engine, d, act, now)
    return memo[key]


STRONG = 4.0      # an ability worth this much (2 health kept) outranks a shot


def ability_gain(engine: Engine, d: Dwarf, act: dict, now: Baseline) -> float | None:
    """How much an ability's action changes `evaluate` once the monsters have acted next
    (what a shield, a sentry or a stun is for), against the monsters acting without it: both
    tried on copies with the same dice, the second once per decision (`Baseline.idle`: a later
    decision's game may differ in what the situation below leaves out, a monster's wounds, a
    mineral mined). None if the engine refuses it. Tried again only when
    the round, the dwarf's space or tokens, the tokens on the board, whether it has ammo, or
    the monsters that may strike it change (copies and the monsters' moves are the player's
    main cost; each ability action costs 1 action, which a dwarf choosing has), and not when
    this turn's trial found it worth nothing (`_worthless_this_turn`)."""
    threats = _threats(engine, d)
    if weighs_nothing(engine, act["do"], bool(threats)):
        return 0.0
    held = engine.__dict__.get("_ability_trials")
    if held is None or held[0] != engine.state.round:      # this round's trials only
        held = engine.__dict__["_ability_trials"] = (engine.state.round, {})
    memo = held[1]
    st = engine.state
    situation = (d.seat, d.pos, d.ammo > 0, d.secondary_ammo > 0, tuple(sorted(d.tokens.items())),
                 tuple(sorted((k, len(v)) for k, v in st.tokens.items())), st.sentry, engine.shield,
                 tuple(sorted(threats)))
    key = (situation, (act["do"], act.get("id") or act.get("card")), repr(sorted(act.items())))
    if key not in memo:
        gain = _worthless_this_turn(memo, key)
        if gain is None:
            with quiet():
                gain = _try_ability(engine, d, act, threats, situation, now)
        memo[key] = gain
    return memo[key]


def _worthless_this_turn(memo: dict, key: tuple) -> float | None:
    """The gain of an earlier trial this round (this dwarf's turn), worth nothing, of the same
    kind of action by the same dwarf, with the monsters' activation and no monster that may
    strike now that was not there then (heuristic: once the turn's first trial found an ability
    worth nothing, the dwarf's shots and steps seldom made it worth more while no monster came
    into reach; the retrials of a turn were a third of the trials). None when there is none."""
    situation, kind, _ = key
    seat, threats = situation[0], set(situation[-1])
    for (seen, seen_kind, _), gain in memo.items():
        if gain is not None and gain <= 0 and seen[0] == seat and seen_kind == kind and seen[-1] \
                and threats <= set(seen[-1]):
            return gain
    return None


def _try_ability(engine: Engine, d: Dwarf, act: dict, threats: set[int], situation,
                 now: Baseline) -> float | None:
    trial, you = _trial(engine, d)
    try:
        perform(trial, you, act)
    except EffectError:
        return None
    at_once = evaluate(trial) - now.score
    if not threats or at_once >= STRONG or _what_monsters_meet(trial) == now.met:
        # no monster can strike here next, or the action left all they meet as it was: their
        # activation would go alike with it or without. Or what it does at once is worth a
        # strong option already (a throw that kills or wounds a monster near the team): the
        # estimate decides, without the monsters' activation on two copies (most of a
        # trial's cost)
        return at_once
    if situation not in now.idle:              # the monsters acting with no ability used
        idle, _ = _trial(engine, d)
        _monsters_act(idle, threats)
        now.idle[situation] = evaluate(idle)
    _monsters_act(trial, threats)
    return evaluate(trial) - now.idle[situation]


def weighs_nothing(engine: Engine, kind: str, threatened: bool = True) -> bool:
    """Whether trying an action of `kind` is sure to weigh 0 (so it is not offered), its copy
    made for nothing: an action that only places something (actions.PLACES_ONLY) leaves
    `evaluate` as it was (it reads no token, nor the shield), and all the monsters meet
    (`_what_monsters_meet`) too unless it compares what is placed (the shield, tokens of a
    kind it compares): then only `threatened` (a monster may strike next) tries the monsters'
    activation."""
    if kind not in PLACES_ONLY:
        return False
    token = PLACES_ONLY[kind]
    return not threatened or (token is not None and token not in _met_tokens(engine))


def unweighed(engine: Engine) -> frozenset:
    """The kinds of action `weighs_nothing` tells now, whatever monsters are near."""
    return frozenset(k for k in PLACES_ONLY if weighs_nothing(engine, k))


_MET: list = []       # [(token definitions, the kinds of them _met_tokens tells)]: the last engine's


def _met_tokens(engine: Engine) -> list:
    """The board tokens `_what_monsters_meet` compares: those that block, stop or hurt; read
    once per game (its token definitions, read-only and shared by its trials)."""
    defs = engine.token_defs
    if not _MET or _MET[0][0] is not defs:
        _MET[:] = [(defs, [k for k, t in defs.items() if t.blocks_monster_movement or t.blocks_line_of_sight
                           or t.stops_movement_on_entry or t.damage_on_entry or t.removed_on_entry])]
    return _MET[0][1]


def _what_monsters_meet(engine: Engine) -> tuple:
    """What a monster's activation reads: monsters, dwarves, held triggers, the shield, the
    sentry, and the board tokens that block, stop or hurt (by their flags)."""
    st = engine.state
    flagged = _met_tokens(engine)
    return (tuple((m.uid, m.pos, m.damage, tuple(sorted(m.statuses))) for m in st.monsters.values()),
            tuple((x.pos, x.health, tuple(sorted(x.statuses)), x.in_pod) for x in st.dwarves),
            len(engine.subs), engine.shield, st.sentry, tuple(sorted(st.stalagmites)),
            tuple(tuple(sorted(st.tokens.get(k, {}))) for k in flagged))


# the attack dice of the monsters that could strike a dwarf under which an ability is weighed by
# what it does at once (heuristic: with one die coming, a trial with the monsters' activation
# found a gain that changed the pick about once in twelve, at two copies and two activations)
STRIKES_WORTH_A_TRIAL = 2


def _threats(engine: Engine, d: Dwarf) -> set[int]:
    """The monsters that could reach `d` (or a dwarf next to it) and attack in their next
    activation: the ones an ability used here may matter to. None unless those that could
    strike `d` itself roll STRIKES_WORTH_A_TRIAL dice or more (heuristic: an ability was seldom
    worth its place with fewer, and the monsters' activation on two copies is the player's
    main cost): then the ability is weighed by what it does at once."""
    out, dice = set(), 0
    for m in engine.state.monsters.values():
        mdef = engine.monster_def(m)
        if mdef.attacks is False:
            continue
        reach = (mdef.move or 0) + (mdef.attack_range or 0)
        far = hx.distance(m.pos, d.pos)
        if far <= reach + 1:
            out.add(m.uid)
            if far <= reach:
                dice += max(1, mdef.attack_dice or 0)      # an attack with no dice still strikes
    return out if dice >= STRIKES_WORTH_A_TRIAL else set()


def threatened(engine: Engine, d: Dwarf) -> bool:
    """Whether a monster may strike `d` (or a dwarf next to it) in its next activation, with
    dice enough to weigh an option by that activation (`_threats`)."""
    return bool(_threats(engine, d))


def _monsters_act(trial: Engine, only: set[int]) -> None:
    """The next activation of the monsters `only` on a trial copy (an Event's, in a window of
    its own); the others would act alike with or without the option tried."""
    if trial.state.result:
        return
    trial.open_window()
    try:
        trial.activate_all(skip={uid for uid in trial.state.monsters if uid not in only})
    except EffectError:
        pass


def strike_gain(engine: Engine, d: Dwarf, at: Hex, now: Baseline) -> float:
    """How much the struck pickup's effect (not the swing's dice) changes `evaluate`."""
    trial, you = _trial(engine, d)
    kind = trial.state.pickups.pop(at)[0]
    try:
        with quiet():
            trial.emit("struck", you=you, effect=trial.data.get("pickup", kind).effect, info={"at": at})
    except EffectError:
        return -1.0
    return evaluate(trial) - now.score


def evaluate(engine: Engine) -> float:
    """How well the team stands, for weighing options by what they do rather than by name:
    the mission's result first, then the objective still missing, the dwarves' health and
    ammo, the minerals in hand, and the monsters' threat (their health, nearer counts more)."""
    st = engine.state
    if st.result:
        return 1000.0 if st.result == "success" else -1000.0
    score = -10.0 * sum(needs(engine).values())
    alive = [x.pos for x in st.dwarves if not x.in_pod]
    for x in st.dwarves:
        score += (2.0 * x.health + 0.5 * x.ammo) if x.conscious else -15.0
        score -= 3.0 * ("knocked_over" in x.statuses)
        score += sum(x.carried.values()) + len(x.throwables) + 0.5 * len(x.rock_and_stone)
    score += 1.0 * sum(st.shared.values())
    for m in st.monsters.values():
        near = not hx.disc(m.pos, 3).isdisjoint(alive)       # a dwarf within 3 hexes
        score -= max(0, engine.hp(m) - m.damage) * (3.0 if near else 1.5)
    return score
