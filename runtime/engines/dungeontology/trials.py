"""The simulated player's trial of an action skill (policy.View._action): the skill is carried
out on the game and undone (`Trial`), and what it changed is weighed in the player's own terms
(`standing`: his `worth` less his rivals'),
whatever the skill is: an action skill is judged by what it does and what it costs, never by
its id, so a pack's skill is weighed like the printed ones.

`worth(engine, scholar)`: his score (the clan score with the lore token, else the notebook's:
what `View._thesis` reads), plus his stealth (the printed bonuses of his hand, his students,
less his stun: what his next attempts spend or suffer) at `stealth_rate` points a point, the
notebook points one block brings over the alert researching here asks: a point of stealth is
worth that share of a block. His hand is counted as it will be once refilled (`hand_bonus`)."""
from __future__ import annotations

import dataclasses
from collections import Counter

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.lookahead import copy_counter
from tomecraft.runtime.usage import quiet
from tomecraft.runtime.engines.dungeontology.draws import Unstarted, start_drawing
from tomecraft.runtime.engines.dungeontology.draws import shuffle  # noqa: F401 (trials.shuffle, as before)
from tomecraft.runtime.engines.dungeontology.state import COLOURS


class Suggested:
    """A trial's agent: the first option its view suggests, else the first option (no draw)."""
    picks_from_suggestion = True

    def choose(self, key, options, view=None):
        preferred = view.suggest(key, list(options)) if view is not None else None
        return preferred[0] if preferred else options[0]


def block_points(e, who) -> float:
    """The notebook points the block researching here would bring `who` (the first target),
    else the mean a block brings in the columns he can still fill."""
    values_of = e.column
    got = e.targets(who, e.state.tiles[who.pos], 1)
    colours = [c for _, c in got] or [c for c in COLOURS if who.notebook.get(c, 0) < values_of(c)[1]]
    if not colours:
        return 0.0
    total = 0
    for colour in colours:
        values, n = values_of(colour)[0], who.notebook.get(colour, 0)
        total += values[min(n + 1, len(values) - 1)] - values[min(n, len(values) - 1)]
    return total / len(colours)


def stealth_rate(e, who) -> float:
    """Points a point of stealth is worth: a block's points over researching's alert here."""
    alert = e.region_alert(e.state.tiles[who.pos]) + e.research_penalty()
    return block_points(e, who) / max(1, alert)


class Weights:
    """What one decision's trials are weighed with, read once (the game is unchanged between
    them): the points a point of stealth is worth, the mean bonus of a card drawn, and the
    player's standing now."""
    __slots__ = ("rate", "draw", "now")

    def __init__(self, e, who) -> None:
        self.rate = stealth_rate(e, who)
        self.draw = draw_mean(e)
        self.now = standing(e, who, self)


def draw_mean(e) -> float:
    """The mean printed bonus of the scheme cards (every copy): what a card drawn brings the
    hand, on average (read once a game; which cards are left to draw is not looked at)."""
    kept = e.__dict__.get("_draw_mean")
    if kept is None:
        bonus = e.best_bonus
        copies = [(bonus[c.id], c.count) for c in e.data.kinds["scheme_card"].values()]
        total = sum(n for _, n in copies)
        kept = e.__dict__["_draw_mean"] = sum(b * n for b, n in copies) / total if total else 0.0
    return kept


def hand_bonus(e, who, draw: float) -> float:
    """The printed bonuses his hand holds once refilled at the end of the turn (L1087): a card
    spent now is replaced by a draw, worth `draw` (`draw_mean`)."""
    bonus = e.best_bonus
    held = sum(bonus[c] for c in who.hand)
    missing = who.stats().hand_value - len(who.hand)
    return held + missing * draw if missing > 0 else held


def worth(e, who, w: Weights) -> float:
    score = e.clan_score(who) if who.lore else e.notebook_score(who)
    return score + w.rate * (hand_bonus(e, who, w.draw) + who.students - who.stun)


def standing(e, who, w: Weights) -> float:
    """`who`'s worth less the mean of his rivals' (their notebook scores, students and stun:
    their hands are hidden, and refilled at their turn's end, L1087): a skill that costs a
    rival what it costs him is worth nothing, one that costs the rival more is worth it."""
    rivals = [s for s in e.state.scholars if s is not who]
    if not rivals:
        return worth(e, who, w)
    rate = w.rate
    theirs = sum(e.notebook_score(s) + rate * (s.students - s.stun) for s in rivals)
    return worth(e, who, w) - theirs / len(rivals)


def skill_gain(e, who, option: dict, w: Weights) -> float | None:
    """How much carrying out the action skill `option` changes `standing` (`w.now` before),
    tried on the game itself and undone (`Trial`: a deep copy of the engine cost 8 ms, most
    of a game's time): the scheme deck is shuffled first (the player does not know its order)
    and the random stream is the trial's own (seeded by the game's progress), so the real
    game's draws are neither used nor peeked at (both at the stream's first use or the deck's
    first read: draws.Unstarted); its decisions take the first option suggested. None if the
    engine refuses it."""
    with Trial(e):
        try:
            with quiet():                      # a trial is not a use (`sim --usage`)
                e.do_action(who, option)
        except EffectError:
            return None
        return standing(e, who, w) - w.now


_MUTABLE = (list, dict, set, Counter)
# the engine's own game state held in containers (its other containers are content tables
# and caches, each checking what it was built from); its other fields are put back as well
ENGINE_STATE = ("passage_letters", "dropped", "_once", "affected", "bonus_points", "pending_cards",
                "attempt", "last_attempt")


def _copied(value):
    kind = type(value)
    if kind is Counter:
        return copy_counter(value)
    return kind(value) if kind in _MUTABLE else value


_CONTAINERS: dict = {}


def _containers(cls) -> tuple:
    """The fields of a state dataclass (State, Scholar, Tile) holding a container."""
    found = _CONTAINERS.get(cls)
    if found is None:
        found = _CONTAINERS[cls] = tuple(f.name for f in dataclasses.fields(cls)
                                         if str(f.type) in ("list", "dict", "set", "Counter"))
    return found


class Trial:
    """`with Trial(engine):` what runs inside changes copies of the game's mutable parts,
    put back as they were on leaving. The scholars and regions stay the same objects (the
    engine's caches know them by identity and check what they read), their fields are
    swapped for copies: the state's, each scholar's and region's, and the engine's game state
    (ENGINE_STATE; all its fields are put back). The agents answer with the first option
    their view suggests, the random stream is the trial's own."""
    __slots__ = ("e", "saved", "regions")

    def __init__(self, e) -> None:
        self.e = e

    def __enter__(self) -> None:
        e = self.e
        st = e.state
        start_drawing(e)                     # a trial within a trial: the outer one's deck
        self.saved = saved = [(e, vars(e).copy())]  # shuffled before it is saved
        containers, counter, mutable = _CONTAINERS, Counter, _MUTABLE   # (_copied, inlined:
        for obj in (st, *st.scholars):                                 # every trial)
            fields = obj.__dict__
            saved.append((obj, fields.copy()))
            names = containers.get(type(obj)) or _containers(type(obj))
            for name in names:
                value = fields[name]
                kind = type(value)
                if kind is counter:
                    fields[name] = copy_counter(value)
                elif kind in mutable:
                    fields[name] = kind(value)
        # every region (the most objects): what of a region changes in play, its blocks,
        # tokens and `entered` (its place and kind never do), saved alone
        self.regions = regions = []
        for tile in st.tiles.values():
            fields = tile.__dict__
            slots, tokens = fields["slots"], fields["tokens"]
            regions.append((fields, slots, tokens, fields["entered"]))
            fields["slots"], fields["tokens"] = slots[:], tokens[:]
        fields = vars(e)
        for name in ENGINE_STATE:
            fields[name] = _copied(fields[name])
        st.stacks = {level: list(stack) for level, stack in st.stacks.items()}
        e.rng = Unstarted(e, f"{getattr(e.rng, 'seed', 'game')}/trial/{st.round}/{e.progress}")
        e.agents = [Suggested()] * len(e.agents)
        e.log_enabled = False

    def __exit__(self, *exc) -> None:
        for obj, fields in self.saved:       # put back into the same dict (a dict assigned
            vars(obj).clear()                # instead made every later field read dearer)
            vars(obj).update(fields)
        for fields, slots, tokens, entered in self.regions:
            fields["slots"], fields["tokens"], fields["entered"] = slots, tokens, entered
