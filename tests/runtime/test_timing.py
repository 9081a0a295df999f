"""Shared timing windows, trigger dispatch, once limits, continuous effects and fizzles
(runtime/timing.py; Crawl Decks rulebook L105-143, L278-306, L322-332, inventory §6.2-6.3)."""
import pytest

from tomecraft.runtime.effects import Context
from tomecraft.runtime.layering import Layers
from tomecraft.runtime.timing import (
    COLLECT, ContinuousEffects, Fizzle, OnceTracker, TimingError, TriggerBus, WindowOrder, resolve,
)

BATTLE = ("pre_battle", "before_round", "battle_round", "outcome", "post_battle")


def battle_windows() -> WindowOrder:
    return WindowOrder(BATTLE, repeat=("before_round", "battle_round", "outcome"))


def test_battle_windows_run_pre_battle_then_each_row_then_post_battle():
    w = battle_windows()
    for name in ("pre_battle", "before_round", "battle_round", "outcome",
                 "before_round", "battle_round", "outcome", "post_battle"):
        w.enter(name)
    assert w.trail.count("battle_round") == 2 and w.current == "post_battle"


@pytest.mark.parametrize("trail", [
    ("pre_battle", "battle_round", "pre_battle"),
    ("pre_battle", "post_battle", "before_round"),
    ("pre_battle", "battle_round", "before_round", "outcome", "battle_round", "before_round"),
])
def test_a_window_out_of_order_is_refused(trail):
    w = battle_windows()
    with pytest.raises(TimingError):
        for name in trail:
            w.enter(name)


def test_turn_windows_do_not_loop():
    w = WindowOrder(("turn_start", "action", "turn_end"))
    w.enter("turn_start")
    w.enter("turn_end")
    with pytest.raises(TimingError):
        w.enter("action")
    w.reset()
    w.enter("turn_start")


def ctx_for(owner) -> Context:
    return Context(engine=None, self=owner)


def test_triggers_resolve_in_the_engines_fixed_order_then_subscription_order():
    bus, seen = TriggerBus(), []
    for name in ("c", "a", "b", "a2"):
        bus.subscribe("turn_start", name, ctx_for(name), lambda ctx: seen.append(ctx.self), key="k")
    position = {"a": 0, "a2": 0, "b": 1, "c": 2}
    assert bus.fire("turn_start", order=position.get) == 4
    assert seen == ["a", "a2", "b", "c"]


def test_only_eligible_owners_resolve_and_eligibility_is_rechecked_mid_dispatch():
    bus, seen = TriggerBus(), []
    in_play = {"first", "second", "third"}

    def first(ctx):
        seen.append("first")
        in_play.discard("second")           # e.g. sent to the graveyard by the first effect

    bus.subscribe("pre_battle", "first", ctx_for("first"), first, key="k")
    bus.subscribe("pre_battle", "second", ctx_for("second"), lambda c: seen.append("second"), key="k")
    bus.subscribe("pre_battle", "third", ctx_for("third"), lambda c: seen.append("third"), key="k")
    bus.subscribe("pre_battle", "outside", ctx_for("outside"), lambda c: seen.append("x"), key="k")
    bus.fire("pre_battle", eligible=in_play.__contains__)
    assert seen == ["first", "third"]


def test_an_event_fired_inside_a_dispatch_resolves_completely_first():
    bus, seen = TriggerBus(), []

    def a(ctx):
        seen.append("a-start")
        bus.fire("sent_to_graveyard", "z")
        seen.append("a-end")

    bus.subscribe("pre_battle", "a", ctx_for("a"), a, key="k")
    bus.subscribe("pre_battle", "b", ctx_for("b"), lambda c: seen.append("b"), key="k")
    bus.subscribe("sent_to_graveyard", "z", ctx_for("z"), lambda c: seen.append(f"gy:{c.event}"), key="k")
    bus.fire("pre_battle")
    assert seen == ["a-start", "gy:z", "a-end", "b"]


def test_where_filters_on_the_event_and_subscribing_twice_is_once():
    bus, seen = TriggerBus(), []
    for _ in range(2):
        bus.subscribe("victory", "m", ctx_for("m"), lambda c: seen.append(c.event),
                      where=lambda c: c.event >= 5, key="k")
    bus.fire("victory", 4)
    bus.fire("victory", 6)
    assert seen == [6]


def test_dropping_an_owner_or_ending_a_scope_removes_its_triggers():
    bus, seen = TriggerBus(), []
    bus.subscribe("turn_end", "m", ctx_for("m"), lambda c: seen.append("m"), key="k")
    bus.subscribe("turn_end", "r", ctx_for("r"), lambda c: seen.append("r"), key="k", scope="turn")
    bus.end_scope("turn")
    bus.fire("turn_end")
    bus.drop_owner("m")
    bus.fire("turn_end")
    assert seen == ["m"]


def test_a_fizzling_trigger_does_not_stop_the_others():
    bus, seen = TriggerBus(), []

    def fizzles(ctx):
        raise Fizzle

    bus.subscribe("turn_start", "a", ctx_for("a"), fizzles, key="k")
    bus.subscribe("turn_start", "b", ctx_for("b"), lambda c: seen.append("b"), key="k")
    assert bus.fire("turn_start") == 1 and seen == ["b"]


def test_resolve_reports_a_fizzle_as_false_and_skips_the_rest():
    done = []

    def fx(ctx):
        done.append("draw")
        raise Fizzle("the main deck is empty")

    assert resolve(fx, None) is False and done == ["draw"]
    assert resolve(lambda ctx: True, None) is True


def test_once_per_scope_until_the_scope_resets():
    once = OnceTracker()
    assert once.once("rest", "lamp", "k") and not once.once("rest", "lamp", "k")
    assert once.once("rest", "other", "k")
    once.reset("rest")
    assert once.once("rest", "lamp", "k")


# --- continuous effects on layered values -----------------------------------------------------

class Field:
    """A minimal engine: cards with layered points; a card at 0 goes to the graveyard."""

    def __init__(self, **points) -> None:
        self.graveyard: list[str] = []
        self.in_play: set[str] = set(points)
        self.layers = Layers(on_zero=self.zero)
        for name, value in points.items():
            self.layers.set_base(name, "points", value)
        self.cont = ContinuousEffects(self.layers, active=self.in_play.__contains__)

    def zero(self, obj, attr):
        self.in_play.discard(obj)
        self.graveyard.append(obj)
        self.cont.refresh()

    def plus(self, source: str, target: str, amount: int) -> None:
        def body(ctx):
            for t in (target,) if isinstance(target, str) else target:
                if t in self.in_play:
                    ctx.info[COLLECT].append((t, "points", "+=", amount))
        self.cont.register(source, Context(engine=None, self=source), body, "k")

    def points(self, name: str) -> int:
        return self.layers.value(name, "points")


def test_lay3_a_continuous_add_is_reapplied_after_a_one_shot_set():
    f = Field(monster=3, banner=2)
    f.plus("banner", "monster", 1)
    assert f.points("monster") == 4
    f.layers.modify("monster", "points", "=", 1)
    f.cont.refresh()
    assert f.points("monster") == 2


def test_lay1_and_lay2_under_a_continuous_add_both_orders():
    f = Field(a=3, b=3, banner=2)
    f.plus("banner", ("a", "b"), 1)
    f.layers.modify("a", "points", "=", 5)      # set, then +1: 5 + 1, then continuous +1
    f.layers.modify("a", "points", "+=", 1)
    f.layers.modify("b", "points", "+=", 1)     # +1, then set: 5, then continuous +1
    f.layers.modify("b", "points", "=", 5)
    assert (f.points("a"), f.points("b")) == (7, 6)


def test_lay4_set_then_continuous_minus_reaches_zero_and_goes_to_the_graveyard():
    f = Field(monster=5, curse=1)
    f.plus("curse", "monster", -1)
    assert f.points("monster") == 4
    f.layers.modify("monster", "points", "=", 1)
    assert f.graveyard == ["monster"] and "monster" not in f.in_play


def test_lay7_the_continuous_add_stops_when_its_source_leaves():
    f = Field(monster=3, banner=1)
    f.plus("banner", "monster", 1)
    assert f.points("monster") == 4
    f.in_play.discard("banner")
    f.cont.refresh()
    assert f.points("monster") == 3


def test_ending_a_scope_drops_the_continuous_effects_registered_during_it():
    f = Field(monster=3, banner=1, horn=1)
    f.plus("banner", "monster", 1)                                   # no duration
    def horn(ctx):
        ctx.info[COLLECT].append(("monster", "points", "+=", 2))
    f.cont.register("horn", Context(engine=None, self="horn").bind(scope="battle"), horn, "k")
    assert f.points("monster") == 6
    f.cont.end_scope("turn")                                         # not its scope
    assert f.points("monster") == 6
    f.cont.end_scope("battle")
    assert f.points("monster") == 4 and f.cont.sources() == ["banner"]


def test_refresh_follows_new_targets_and_fires_nothing_when_nothing_changed():
    f = Field(a=1, b=1, curse=5)
    f.in_play.discard("b")
    f.plus("curse", ("a", "b"), 1)
    assert (f.points("a"), f.points("b")) == (2, 1)
    f.cont.refresh()
    f.cont.refresh()
    assert f.graveyard == [] and f.points("a") == 2
    f.in_play.add("b")                           # b enters the field: the effect now reaches it
    f.cont.refresh()
    assert f.points("b") == 2


def test_a_card_reduced_to_zero_mid_dispatch_leaves_before_its_own_trigger():
    f, bus, seen = Field(weak=1, strong=3), TriggerBus(), []

    def shrink_all(ctx):
        for name in ("weak", "strong"):
            if name in f.in_play:
                f.layers.modify(name, "points", "-=", 1)
        seen.append("curse")

    bus.subscribe("pre_battle", "curse", ctx_for("curse"), shrink_all, key="k")
    bus.subscribe("pre_battle", "weak", ctx_for("weak"), lambda c: seen.append("weak"), key="k")
    bus.subscribe("pre_battle", "strong", ctx_for("strong"), lambda c: seen.append("strong"), key="k")
    f.in_play.add("curse")
    bus.fire("pre_battle", eligible=f.in_play.__contains__)
    assert seen == ["curse", "strong"] and f.graveyard == ["weak"] and f.points("strong") == 2


def test_replace_source_settles_each_value_once():
    fired = []
    layers = Layers(on_zero=lambda obj, attr: fired.append(obj))
    layers.set_base("c", "points", 1)
    layers.replace_source("s", [("c", "points", "-=", 1)])
    layers.replace_source("s", [("c", "points", "-=", 1)])
    assert layers.value("c", "points") == 0 and fired == ["c"]
    layers.replace_source("s", [])
    assert layers.value("c", "points") == 1
    with pytest.raises(ValueError):
        layers.replace_source("s", [("c", "points", "^", 1)])
