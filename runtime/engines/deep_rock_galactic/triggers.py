"""Triggers (`on EVENT`): which effects hear an event, and with what bound.

An effect that holds a trigger registers it when the effect runs: a passive class ability at
setup, the Sentry Gun when deployed, a thrown throwable where it lands. It then hears its
event every time the engine emits it (`emit`, at the rulebook moments listed in
contract.EVENTS), until the effect discards itself (`discard_self`), is run again by the same
dwarf (a relocated sentry replaces its trigger), or what it placed has left the board (the
sentry gun taken back).

Who hears what:
- the owner's events (OWNER_EVENTS: your turn, your move, your pickup, your weapon's roll)
  reach only the triggers of the dwarf they happen to;
- the space events (SPACE_EVENTS: something enters *this* space) reach only triggers of an
  effect that lies on that space (where a throwable landed or a sentry stands);
- every other event reaches every live trigger on it.
A trigger of an effect placed on a space measures ranges and line of sight from that space.

An effect the engine runs *for* one event (a pickup picked up or struck, an upgrade after its
weapon's roll) runs its triggers on that event at once and registers none.
"""
from __future__ import annotations

from types import SimpleNamespace

OWNER_EVENTS = frozenset({"turn_start", "turn_end", "event_phase", "move_action", "picked_up",
                          "struck", "attack_rolled"})
SPACE_EVENTS = frozenset({"monster_enters", "dwarf_enters"})


def _ident(who) -> object:
    """A monster's uid or a dwarf's seat, told apart: the identity a `once` mark keeps."""
    if who is None:
        return None
    uid = getattr(who, "uid", None)
    return ("monster", uid) if uid is not None else ("dwarf", getattr(who, "seat", None))


class Triggers:
    """The trigger registry of the Engine (engine.py creates `subs`, `placed`, `plays`)."""

    def new_play(self) -> int:
        """A fresh id for one run of an effect: its triggers and what it placed share it."""
        self.plays += 1
        return self.plays

    # --- the Context protocol -----------------------------------------------------------------
    def subscribe(self, ctx, event, where, body, key) -> None:
        if "fire" in ctx.info:              # run for one event: now, or never
            if ctx.info["fire"] == event and (where is None or where(ctx)):
                body(ctx)
            return
        self.subs[(key, _ident(ctx.you))] = (event, where, body, ctx)

    def _once_mark(self, ctx, scope, key) -> tuple:
        """`once per activation`: per monster per Event, Swarm or dwarf action (the window,
        L664); `once per turn` and `once per action_phase` (a turn has one): per dwarf turn;
        `once per round`: per round; `once per mission`: per mission (each has its engine).
        Each was per engine tick but turn and activation: `once per mission: gain gold 1` on
        an event card paid each time the card came (seventh packs blind test)."""
        turn = (self.state.round, _ident(self.acting))
        period = {"activation": self.window, "turn": turn, "action_phase": turn,
                  "round": self.state.round, "mission": None}.get(scope, self.state.clock)
        return scope, key, _ident(ctx.you), _ident(ctx.self), _ident(ctx.target), period

    def once(self, ctx, scope, key) -> bool:
        mark = self._once_mark(ctx, scope, key)
        if mark in self.shots:
            return False
        self.shots.add(mark)
        return True

    def once_open(self, ctx, scope, key) -> bool:
        return self._once_mark(ctx, scope, key) not in self.shots

    # --- events -------------------------------------------------------------------------------
    def emit(self, event: str, you=None, it=None, at=None, effect=None, info: dict | None = None,
             **fields) -> None:
        """`event` happens: `effect` (the thing it happens to) runs for it, then every live
        trigger on it that may hear it runs, with `it` as its target and `fields` as `event`."""
        info = info or {}
        if effect is not None:
            self.run(effect, you=you, fire=event, **info)
        # the triggers on this event, as they stand now (most events, a monster's every step,
        # have none: a loop finds that without building the list)
        for sub in self.subs.values():
            if sub[0] == event:
                break
        else:
            return
        hearing = [(key, sub) for key, sub in self.subs.items() if sub[0] == event]
        ev = SimpleNamespace(**fields)
        for key, sub in hearing:
            name, where, body, ctx = sub
            if self.subs.get(key) is not sub:
                continue
            if event in OWNER_EVENTS and ctx.you is not you:
                continue
            place = ctx.info.get("at")
            place = tuple(place) if place is not None else None
            if event in SPACE_EVENTS and (place is None or place != at):
                continue
            if not self.still_placed(ctx.info.get("play")):
                continue
            bound_info = {**ctx.info, **info, "target_obj": None}
            if place is not None:               # ranges and sight from where it lies
                bound_info["from"] = bound_info["origin"] = place
            bound = ctx.bind(target=it, event=ev, info=bound_info)
            if where is None or where(bound):
                body(bound)

    def listens(self, you, event: str) -> bool:
        """Whether a live trigger of `you` hears `event` (a Move's free shot needs one)."""
        return any(name == event and ctx.you is you and self.still_placed(ctx.info.get("play"))
                   for name, _, _, ctx in self.subs.values())

    # --- what effects placed ------------------------------------------------------------------
    def on_board(self, token: str, at) -> bool:
        if token == "sentry_gun":               # the one sentry gun (State.sentry)
            return self.state.sentry == at
        return at in self.state.tokens.get(token, {})

    def still_placed(self, play) -> bool:
        """An effect that placed tokens lives while one of them is on the board."""
        placed = self.placed.get(play)
        return not placed or any(self.on_board(token, at) for token, at in placed)

    def discard_play(self, play) -> None:
        """The effect's triggers stop and the tokens it placed leave the board."""
        for key in [k for k, (_, _, _, ctx) in self.subs.items() if ctx.info.get("play") == play]:
            del self.subs[key]
        for token, at in self.placed.pop(play, ()):
            if token == "sentry_gun":
                if self.state.sentry == at:
                    self.state.sentry = None
            else:
                self.state.tokens.get(token, {}).pop(at, None)
