"""A simple heuristic for sims: the random agent picks among `View.suggest`'s options.

It aims for ties (both sides to the graveyard, no HP lost, L139-141), avoids lethal rows,
rests when the hand is empty, and cashes loot at every clean-up. Relic uses and event cards,
whatever content adds them, are weighed by a one-step lookahead: the option is applied to a
copy of the game and the copy scored by `value` (never by the relic's or event's name).
Battles are planned by planner.py.
`engine` below is the game's Engine (engine.py imports this module, not the other way).
"""
from __future__ import annotations

from tomecraft.runtime.engines.dm_crawl_decks.planner import column_scores, next_play, plan, row_tenths
from tomecraft.runtime.engines.dm_crawl_decks.snapshot import copy_engine
from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Virtual
from tomecraft.runtime.engines.dm_crawl_decks.twins import twin_classes
from tomecraft.runtime.timing import Fizzle
from tomecraft.runtime.usage import quiet


class _Probe:
    """A trial's agent: answers the first decisions by `script` (option indices), every later
    one by its first option, and records each decision it is asked (key, number of options)
    so that the search can try the other answers. Only a search's first trial (empty script)
    reads the first decision's twins and places: every trial reaches that decision from the
    same game with no answer given yet, so the others would read the same."""

    def __init__(self, script: tuple = ()) -> None:
        self.script = script
        self.asked: list = []
        self.twins = None            # the first decision's twin classes (twins.py), if known
        self.places = None           # where its options (battlefield targets) are: _places

    def choose(self, key, options, view=None):
        n = len(self.asked)
        i = self.script[n] if n < len(self.script) else 0
        self.asked.append((key, len(options)))
        if n == 0 and view is not None and not self.script:
            self.twins = twin_classes(view.engine, key, options)
            self.places = _places(view.engine, key, options)
        return options[i]


def _places(engine, key: str, options: list) -> tuple | None:
    """For a target among battlefield cards: each option's side, its row's outcome as it
    stands (_row_class), its points and power; None for an option off the battlefield."""
    if key != "target" or not engine.state.rows:
        return None
    where = {}
    for row in engine.state.rows:
        outcome = None
        for side, cards in (("enemy", row.enemy), ("player", row.player)):
            for c in cards:
                if outcome is None:
                    outcome = _row_class(engine, row)
                where[repr(c)] = (side, outcome, engine.points(c), engine.power(c))
    return tuple([where.get(o) for o in options])


_SET_ASIDE = ("agent", "policy_plan", "policy_script", "policy_idle")


class _SetAside:
    """The player's agent, plan and pending answers, which a trial replaces, set aside (None)
    on the game while its trials are copied (instead of copied with it), and put back after.
    One block for all the trials of a search."""

    def __init__(self, engine) -> None:
        self.engine = engine

    def __enter__(self) -> None:
        engine = self.engine
        self.kept = [getattr(engine, name, None) for name in _SET_ASIDE]
        for name in _SET_ASIDE:
            setattr(engine, name, None)

    def __exit__(self, *exc) -> None:
        for name, was in zip(_SET_ASIDE, self.kept):
            setattr(self.engine, name, was)


def _trial(engine, agent):
    """A copy of the whole game (state, triggers, random stream) played by `agent`, made
    inside a _SetAside block. The engine's own deep copy (snapshot.py) shares the content by
    itself, so lookahead.copy_game's memo of every definition is not needed."""
    trial = copy_engine(engine, {}, disposable=True)
    trial.agent = agent
    trial.log_enabled = False
    return trial


RESOURCE = 0.5     # a resource is worth what a relic turns it into: its use is what counts
LOOT = 0.75        # a loot card gives 1 resource at clean-up, more beside its kind (L244)
EXPLORED = 0.5     # what an exploration card will cost: its power (HP), its points (cards)


def value(engine, gained: str | None = None) -> float:
    """How good the game looks for the player: HP and misses first (a miss is the score,
    HP 0 loses), then what helps later battles (cards in hand, face-up attribute tokens,
    resources, loot, relics), and the battle under way, or else what the cards of the
    exploration area will cost (their power and points: a redraw or a move can lower it).
    `gained`: a pile with one card more than it holds (a loot card taken, event_gain), the
    value a trial taking it would find, to the last bit."""
    s = engine.state
    if s.won or s.lost:
        return 1e6 if s.won else -1e6
    v = 12.0 * s.hp - 4.0 * s.misses + 40.0 * s.descends
    # (piles read by size, exploration cards by exploration_seen: a trial copy does not copy
    # the piles it has not read for this)
    hand, loot = s.size("hand"), s.size("loot")
    if gained is not None:
        hand += gained == "hand"
        loot += gained == "loot"
    v += 2.0 * hand + sum([1.5 * t.up + 0.5 * t.down for t in s.tokens.values()])
    v += RESOURCE * sum(s.resources.values()) + LOOT * loot + 2.0 * s.size("equipment")
    for r in s.rows:
        if r.enemy:
            return v + _battle_value(engine)
    # every exploration card is fought (or missed) before the area is dealt again (L109):
    # engine.power(c) + 0.25 * engine.points(c) for each, read from the layers in place
    lv = engine.layers.value
    ahead = sum([(0 if type(c) is Virtual else lv(c, "power"))
                 + 0.25 * (c.size if type(c) is Virtual else lv(c, "points"))
                 for c in s.exploration_seen()])
    return v - EXPLORED * ahead


def _battle_value(engine) -> float:
    """The battle under way: while rows are being filled, the row in play as it stands and
    the plan for the others; once they are filled (pre-battle, rows), each row as it is."""
    s = engine.state
    if engine.battle_windows.current is None:
        row = engine.current_row
        if row is not None:
            p = sum(engine.points(c) for c in row.player)
            e = sum(engine.points(c) for c in row.enemy)
            power = sum(engine.power(c) for c in row.enemy)
            return row_tenths(p, e, len(row.player), 0, power, 0) / 10
        rows = [(sum(engine.points(c) for c in r.enemy), sum(engine.power(c) for c in r.enemy))
                for r in reversed(s.rows)]
        return plan(engine, rows)[0]
    total = 0
    points = engine.points
    for row in s.rows:
        if row.enemy:
            p = 0
            for c in row.player:
                p += points(c)
            e = power = 0
            for c in row.enemy:
                e += points(c)
                power += engine.power(c)
            total += row_tenths(p, e, len(row.player), 0, power, 0)
    return total / 10


PROBE_TRIALS = 8      # the most trials one option gets (its own decisions' answers)
PROBE_DEPTH = 1       # how many of its decisions are searched; later ones take the first option


def _try(engine, apply, script: tuple, before: float) -> tuple[float, _Probe]:
    """(value after `apply(trial)` minus `before`, the probe that answered the trial's
    decisions) on a copy of the game whose agent answers by `script` (inside search's quiet
    and _SetAside blocks)."""
    probe = _Probe(script)
    trial = _trial(engine, probe)
    try:
        try:
            apply(trial)
        except (Fizzle, LookupError, ValueError):
            return -1e9, probe
        return value(trial) - before, probe
    finally:
        # The copy is a web of cycles (its handlers, contexts and effects point back at it):
        # emptying it lets reference counting free it at once, instead of leaving ~1,000
        # objects per trial to the cyclic garbage collector (a third of the run time). The
        # state's pending copies (snapshot.copy_state) hold the copier, whose memo holds the
        # state: they go first.
        state = trial.__dict__.get("state")
        if state is not None:
            state.__dict__.pop("_lazy", None)
        trial.__dict__.clear()


def search(engine, apply, before: float | None = None, what: tuple | None = None) -> tuple[float, tuple]:
    """(best gain, answers) of `apply` over the answers to the decisions it asks on the way
    (the target of an effect, an option of a `choose`, a relic to keep): the first trial
    answers each with its first option, and each trial's decisions open the other answers
    at the first PROBE_DEPTH of them, breadth first, up to PROBE_TRIALS trials. `answers`:
    (key, number of options, index) per decision of the best trial, for the real game to
    replay (View.suggest); the trial runs on the same random stream, so the real game asks
    the same decisions. Of twin options (twins.py: a `choose` of token flips whose
    attributes have the same tokens) only the first is tried: the others would tie with it,
    and the first best is the one taken. A battlefield target (`what`'s, see _places) on a
    side and in a row of an outcome where a target of this option did not gain in this game
    is not tried again (_idle_search's memo, per answer)."""
    if before is None:
        before = value(engine)
    top, answers = None, ()
    queue, tried, places = [()], 0, None
    idle = _memo(engine)
    with quiet(), _SetAside(engine):         # (trials are not uses; one block for all)
        while queue and tried < PROBE_TRIALS:
            script = queue.pop(0)
            got, probe = _try(engine, apply, script, before)
            asked = probe.asked
            tried += 1
            if top is None or got > top:
                full = tuple(script) + (0,) * (len(asked) - len(script))
                top, answers = got, tuple((k, n, i) for (k, n), i in zip(asked, full))
            places = places or probe.places
            if what is not None and places is not None and got <= 0:
                idle.add((what, places[script[0] if script else 0]))
            for at in range(len(script), min(len(asked), PROBE_DEPTH)):
                twins = probe.twins if at == 0 else None
                queue += [script + (0,) * (at - len(script)) + (j,) for j in range(1, asked[at][1])
                          if (twins is None or twins[j] not in twins[:j])
                          and not (what is not None and places is not None
                                   and places[j] is not None and (what, places[j]) in idle)]
    return top, answers


def gain(engine, apply, before: float | None = None) -> float:
    """value after `apply(trial)` on a copy of the game, minus value before (`before`: the
    game's value, when the caller weighs several options of one decision), with the best
    answers to the decisions `apply` asks."""
    return search(engine, apply, before)[0]


IDLE = -1e-9       # the gain of an option skipped as idle (_idle_search): below skipping's 0


def _row_class(engine, row) -> tuple:
    """A row's outcome as it stands: a tie, a win, or a defeat by how much (1, 2, 3 or
    more) and whether the player's side is empty (row_tenths' cases)."""
    p = sum(engine.points(c) for c in row.player)
    e = sum(engine.points(c) for c in row.enemy)
    return ("tie",) if p == e else ("win",) if p > e else ("lose", min(e - p, 3), p == 0)


def situation(engine) -> tuple:
    """What an option's gain hangs on, coarsely: where `value` has room to rise (HP below
    its maximum, a hand below its limit, cards to draw, face-down tokens to flip) and the
    outcome of the row in play, or else of every row of the battle under way."""
    s = engine.state
    room = (s.hp < s.hp_max, len(engine.playable()) < engine.hand_limit(), bool(s.main_deck),
            any([t.down for t in s.tokens.values()]))
    row = engine.current_row
    if row is not None and engine.battle_windows.current == "battle_round":
        return room + (_row_class(engine, row),)
    return room + tuple([_row_class(engine, r) for r in s.rows if r.enemy])


def _idle_search(engine, what: tuple, apply, before: float | None,
                 where: tuple | None = None) -> tuple[float, tuple]:
    """`search(engine, apply, before, what)`, or (IDLE, ()) when the option (`what`: its
    kind and the decision) was found idle: an option whose search did not raise the game's
    value (gain <= 0) is not searched again in this game while the situation (`where`, else
    `situation(engine)`) is the same; one that did is searched every time. (A skipped
    search would have found a gain about once in 100 skips: tests/dm_crawl_decks/
    test_policy_idle.py.)"""
    key = what + (situation(engine) if where is None else where)
    memo = _memo(engine)
    if key in memo:
        return IDLE, ()
    got, answers = search(engine, apply, before, what)
    if got <= 0:
        memo.add(key)
    return got, answers


# A battle's relic windows: there the player's rows are laid, and a relic is weighed only
# while a row it may still change stands lost (Phase B of the fifteenth speed round: over
# 1,200 seeded games, a use worth taking at a won or tied row was found a few times in
# thousands of searches; the searches skipped were 8% of a game's instructions; win rate
# 9.7% -> 10.3%, misses 17.14 -> 17.24, floors and turns alike, each relic used as often
# (within 2%), no entity left unused; the shipped test packs alike).
BATTLE_WINDOWS = ("relic_pre_battle", "relic_battle_round")


def _row_lost(engine, key: str) -> bool:
    """Whether the row in play (a battle round) or any row (pre-battle) stands lost."""
    if key == "relic_battle_round" and engine.current_row is not None:
        return _row_class(engine, engine.current_row)[0] == "lose"
    return any(_row_class(engine, r)[0] == "lose" for r in engine.state.rows if r.enemy)


def _memo(engine) -> set:
    memo = engine.__dict__.get("policy_idle")
    if memo is None:
        memo = engine.policy_idle = set()
    return memo


def relic_gain(engine, option: dict, before: float | None = None, key: str = "action",
               where: tuple | None = None) -> tuple[float, tuple]:
    """(gain, answers) of using a relic (`search`), IDLE when it was found idle
    (_idle_search; `where`: the situation, when the caller has it)."""
    what = ("relic", engine.state.named("equipment", option["id"]).defn.id, key)
    return _idle_search(engine, what, lambda t: t.use_relic(option["id"]), before, where)


def _take_event(trial, name) -> None:
    s = trial.state
    card = next(c for c in s.revealed if repr(c) == name)
    if card.defn.card_type == "loot":
        trial.gain_loot(card)
    else:
        trial.activate_event(card)


def _event_kind(s, name):
    """Options that are worth the same: copies of one event card, and any loot card (taking
    loot runs no effect, it only moves the card: L73), so one trial answers for each."""
    if name is None:
        return None
    card = next(c for c in s.revealed if repr(c) == name)
    return ("loot",) if card.defn.card_type == "loot" else card.defn.id


def event_gain(engine, option: dict, before: float | None = None) -> tuple[float, tuple]:
    """(gain, answers) of taking a revealed event card (`search`); skipping gains 0. A loot
    card only moves to the engine's loot_zone (rules.gain_loot): its gain is read off the
    game as it is, the value a trial would find, without one."""
    name = option["event"]
    if name is None:
        return 0.0, ()
    if _event_kind(engine.state, name) == ("loot",):
        if before is None:
            before = value(engine)
        return value(engine, gained=engine.loot_zone()) - before, ()
    what = ("event", _event_kind(engine.state, name))
    return _idle_search(engine, what, lambda t: _take_event(t, name), before)


def best(options: list, score) -> list:
    scored = [(score(o), i) for i, o in enumerate(options)]
    top = max(s for s, _ in scored)
    return [options[i] for s, i in scored if s == top]


def replay(engine, key: str, options: list) -> list:
    """The answer the lookahead found for a decision of the option the player took (the
    target of its effect, a `choose` option, a relic to keep): the trial ran on the same
    random stream, so the real game asks the same decisions in the same order. A decision
    that differs (another agent answered the option) drops the rest of the answers."""
    script = getattr(engine, "policy_script", None)
    if not script:
        return []
    k, n, i = script[0]
    if k == key and n == len(options):
        engine.policy_script = script[1:]
        return [options[i]]
    engine.policy_script = None
    return []


def take(engine, scored: list) -> list:
    """The best of `scored` [(gain, answers, option)]: the tied options when none asks a
    decision of its own, else one of them (the agent's seeded random stream breaks the tie)
    whose answers the real game then replays."""
    top = max(g for g, _, _ in scored)
    tied = [(a, o) for g, a, o in scored if g == top]
    if all(not a for a, _ in tied):
        return [o for _, o in tied]
    rng = getattr(engine.agent, "rng", None)
    answers, option = tied[rng.randrange(len(tied)) if rng is not None and len(tied) > 1 else 0]
    engine.policy_script = answers
    return [option]


class View:
    def __init__(self, engine, key: str) -> None:
        self.engine = engine
        self.key = key

    def suggest(self, key: str, options: list) -> list:  # noqa: C901 - one branch per decision
        e, s = self.engine, self.engine.state
        replayed = replay(e, key, options)
        if replayed:
            return replayed
        if key == "play" and e.current_row is not None:
            row = e.current_row
            order = list(reversed(s.rows))                  # played from the bottom end
            i = next(i for i, r in enumerate(order) if r is row)
            fresh = i == 0 and not row.player
            if fresh or getattr(e, "policy_plan", None) is None:
                rows = [(sum(e.points(c) for c in r.enemy), sum(e.power(c) for c in r.enemy))
                        for r in order]
                e.policy_plan = plan(e, rows)[1]
            want = e.policy_plan[i] if i < len(e.policy_plan) else None
            return [next_play(row, want, options)]
        if key == "action":
            return self._action(options)
        if key == "event":
            by_kind: dict = {}
            before = value(e)
            for o in options:
                kind = _event_kind(s, o["event"])
                if kind not in by_kind:
                    by_kind[kind] = event_gain(e, o, before)
            return take(e, [(*by_kind[_event_kind(s, o["event"])], o) for o in options])
        if key == "cleanup":
            return [o for o in options if o.get("cash") is not None] or options
        if key == "round_order":
            short = len(s.main_deck) < e.hand_limit() + e.board.brightness * s.space
            return [o for o in options if o["first"] == ("rest" if short else "reset")]
        if key == "return":
            return [o for o in options if o["return"] is None]
        if key == "first_label":
            return [True]
        if key in ("attribute", "level_up"):
            return best(options, lambda o: s.tokens[o["attribute"]].total)
        if key in ("relic_battle_round", "relic_pre_battle"):
            return self._relics(options, key) or [o for o in options if o["do"] == "done"]
        return []

    def _relics(self, options: list, key: str = "action") -> list:
        """The relic uses that make the game look best, if any makes it look better."""
        relics = [o for o in options if o["do"] == "relic"]
        if not relics or (key in BATTLE_WINDOWS and not _row_lost(self.engine, key)):
            return []
        where = situation(self.engine)            # (the same for each relic)
        before = None                             # the game's value, once one is searched
        scored = []
        for o in relics:
            if before is None and ("relic", self.engine.state.named("equipment", o["id"]).defn.id,
                                   key) + where not in _memo(self.engine):
                before = value(self.engine)
            scored.append((*relic_gain(self.engine, o, before, key, where), o))
        scored = [t for t in scored if t[0] > 0]
        return take(self.engine, scored) if scored else []

    def _action(self, options: list) -> list:
        e, s = self.engine, self.engine.state
        relics = self._relics(options)
        if relics:
            return relics
        battles = [o for o in options if o["do"] == "battle"]
        hand = e.playable()
        up = sum(s.tokens[a].up for a in ATTRIBUTES)
        if s.main_deck and len(hand) <= 1 and not up:
            rest = [o for o in options if o["do"] == "long_rest"]
            if rest:
                return rest
        if not battles:
            return [o for o in options if o["do"] in ("short_rest", "long_rest")]
        scores = column_scores(e, battles)
        top = max(scores.values())
        rests = [o for o in options if o["do"] == "long_rest"]
        if top < 0 and rests and len(s.hand) < e.hand_limit():
            return rests
        if top < 5 and len(hand) < 3 and rests:     # a thin hand: refill before it costs HP
            return rests
        return [o for o in battles if scores[o["column"]] == top]
