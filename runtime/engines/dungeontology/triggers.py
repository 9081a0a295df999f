"""Dungeontology's side of the effect language: the Context API the generated effects call
(reading, choosing, registering) and the triggers that regions, tokens, skills, interns and doom
cards register, collected and fired by the engine at the right moment.

A mixin of the Engine (engine.py): its methods use the engine's state, agents and helpers."""
from __future__ import annotations

from tomecraft.runtime.effects import Context, EffectError
from tomecraft.runtime.engines.dungeontology.state import Scholar, Tile
from tomecraft.runtime.usage import registering


class Kept(Context):
    """The context of a kept trigger (`registered`): handed out as it is, since most triggers
    handed out are only looked at (their event, their condition in a dry run), and copied
    with an empty `info` when fired (`fire`: a verb may write there)."""


def _kept(ctx: Context) -> Kept:
    copy = object.__new__(Kept)
    fields = copy.__dict__
    fields.update(ctx.__dict__)
    fields["info"] = {}
    return copy


def _fresh(ctx: Context) -> Context:
    """A copy of a kept trigger's context with an empty `info`, to run it with."""
    copy = object.__new__(Context)
    fields = copy.__dict__
    fields.update(ctx.__dict__)
    fields["info"] = {}
    return copy


def _by_event(triggers: list) -> dict:
    """{event: its triggers in order}, and {None: all of them}: a filter by event is one
    lookup (most regions and skills register nothing for the event asked)."""
    out: dict = {None: triggers}
    for trigger in triggers:
        out.setdefault(trigger[0], []).append(trigger)
    return out


class Watched:
    """The verbs or queries an effect sees while it is collected: any use marks it as one
    that reads or acts (its triggers may differ next time). Closures made then keep it."""
    __slots__ = ("_engine", "_handlers", "_free")

    def __init__(self, engine, handlers, free: tuple = ()) -> None:
        self._engine = engine
        self._handlers = handlers
        self._free = free                    # handlers that neither read nor change the game

    def __getattr__(self, name: str):
        if name not in self._free:
            self._engine._read = True
        return getattr(self._handlers, name)


class EffectHost:
    # --- the Context API ---------------------------------------------------------------
    def attr(self, ctx, obj, name: str):
        self._read = True
        if isinstance(obj, Scholar):
            if name in ("stealth", "alert") and self.attempt is not None:
                return self.attempt[name]
            if name == "stars":
                return self.stars(obj)
            stats = obj.stats()
            if hasattr(stats, "_fields") and name in stats._fields:
                return stats[name]
            return getattr(obj, name)
        return getattr(obj, name)

    def select(self, ctx, kind: str, zone):
        self._read = True
        tiles, you = self.state.tiles, ctx.you        # `in_start`, inlined: every card check
        if kind == "player":
            mine = not self.ownerless
            return [s for s in self.state.scholars
                    if not s.done and ((s is you and mine) or not tiles[s.pos].region.start)]
        if kind in ("opponent", "other_player"):
            return [s for s in self.state.scholars
                    if not s.done and s is not you and not tiles[s.pos].region.start]
        return []

    def decide(self, ctx, key: str, options: list):
        self._read = True
        return self.ask(ctx.you, key, options)

    def subscribe(self, ctx, event: str, where, body, key: str) -> None:
        if self._collecting is None:
            raise EffectError(f"trigger {key} registered outside a region, token or skill")
        self._collecting.append((event, where, body, ctx))

    def watch(self, ctx, cond, body, key: str) -> None:
        raise EffectError("Dungeontology's content has no watches")

    def continuous(self, ctx, body, key: str) -> None:
        raise EffectError("Dungeontology's content has no continuous effects")

    def once(self, ctx, scope: str, key: str) -> bool:
        self._read = True
        if key in self._once:
            return False
        if not self.dry:
            self._once.add(key)
        return True

    def once_open(self, ctx, scope: str, key: str) -> bool:
        return key not in self._once

    def modify(self, ctx, obj, name: str, op: str, value, key: str) -> None:
        self._read = True
        if isinstance(obj, Scholar) and name in ("stealth", "alert"):
            if self.attempt is not None:
                self.attempt_add(name, value if op == "+=" else -value, obj)
            return
        current = getattr(obj, name, 0)
        new = {"=": value, "+=": current + value, "-=": current - value,
               "*=": current * value}.get(op)
        if new is None:
            raise EffectError(f"unknown modifier {op}")
        setattr(obj, name, new)

    # --- triggers ----------------------------------------------------------------------
    def triggers_of(self, effects, who: Scholar, tile, event: str | None = None) -> list:
        """Run effect functions in collecting mode; return their registered triggers (only
        those of `event` if given: the others would not fire)."""
        out: list = []
        kept_by, who_id, tile_id = self._registrations, id(who), id(tile)
        for fx in effects or ():
            kept = kept_by.get((fx, who_id, tile_id))      # `registered`, inlined: a hot loop
            if kept is not None and kept[0] is who and kept[1] is tile:
                out += kept[2].get(event, ())
            else:
                out += self.registered(fx, who, tile, event)
        return out

    def registered(self, fx, who: Scholar, tile, event: str | None = None) -> list:
        """The triggers `fx` registers for (who, tile). Collecting runs the effect, and the
        engine does so for every region around at every step (moves, secret passages), so
        an effect that only registers -- it read no state, asked nothing, called no verb or
        query -- registers the same triggers next time: those are kept (by event, see
        `_by_event`) and handed out again (`triggers_of`) as they are, to be run with a
        fresh context (`Kept`: a verb may write in a context's `info`). An effect that read
        anything is run again each time. With `event`, only the triggers of that event; the
        list handed out may be a kept one: not to be changed."""
        key = (fx, id(who), id(tile))
        kept = self._registrations.get(key)
        if kept is not None and kept[0] is who and kept[1] is tile:
            return kept[2].get(event, [])
        saved = self._collecting, self._read, self.verbs, self.queries
        self._collecting, self._read = [], False
        self.verbs, self.queries = self._watched       # handler use marks the effect as reading
        try:
            with registering():     # collecting is no use: `sim --usage` counted every
                fx(self.ctx(who, tile))     # collection, a trigger that never ran included
            found, pure = self._collecting, not self._read
        finally:
            self._collecting, self._read, self.verbs, self.queries = saved
        if pure:
            self._registrations[key] = (who, tile, _by_event([(e, w, b, _kept(c)) for e, w, b, c in found]))
        else:
            self._read = True                          # an enclosing collection read too
        return found if event is None else [t for t in found if t[0] == event]

    def kept_together(self, effects: list, who: Scholar, tile) -> dict | None:
        """The kept triggers of all `effects` for (who, tile), in order, by event (as
        `_by_event`); None unless every one of them is kept (one that reads runs each time)."""
        together: list = []
        kept_by, who_id, tile_id = self._registrations, id(who), id(tile)
        for fx in effects:
            kept = kept_by.get((fx, who_id, tile_id))
            if kept is None or kept[0] is not who or kept[1] is not tile:
                return None
            together += kept[2][None]
        return _by_event(together)

    def tile_effects(self, tile: Tile) -> list:
        effects = list(tile.region.effects or ())
        effects += [t.effect for t in tile.tokens if t.effect is not None and t.token != "trap_token"]
        return effects

    def tile_triggers(self, tile: Tile, who: Scholar, event: str | None = None) -> list:
        """The triggers of the region and its tokens (not traps). Asked for every region
        around at every step, so once all its effects are kept (`registered`) their
        triggers are kept together per (tile, scholar) while the tile holds the same tokens."""
        kept = self._tile_kept.get((id(tile), id(who)))
        if kept is not None and kept[0] is tile and kept[1] is who and kept[2] == tile.tokens:
            return kept[3].get(event, [])
        effects = self.tile_effects(tile)
        found = self.triggers_of(effects, who, tile, event)
        together = self.kept_together(effects, who, tile)
        if together is not None:
            self._tile_kept[(id(tile), id(who))] = (tile, who, list(tile.tokens), together)
        return found

    def skill_triggers(self, who: Scholar, event: str | None = None) -> list:
        """Triggers that last while `who` has them: passive skills, owned interns, and revealed
        doom cards (until removed in a Rest, L1097). Once all are kept (`registered`), kept
        together per scholar while its side, its interns that have an effect and its doom cards
        stay (interns change hands often)."""
        seat, lasting = who.seat, self._lasting_interns
        interns = [iid for iid, owner in self.state.interns.items()      # those with an effect:
                   if owner == seat and iid in lasting] if lasting else []  # the base's have none
        kept = self._skills_kept.get(id(who))
        if kept is not None:
            kept_who, card, side, their_interns, dooms, by_event = kept
            if kept_who is who and card is who.card and side == who.side and their_interns == interns \
                    and dooms == who.dooms:
                return by_event.get(event, [])
        side = who.stats()
        passive = [s.effect for s in side.skills if s.timing == "passive"]
        passive += [self.data.get("intern_card", iid).effect for iid in sorted(interns)]
        passive += [self.data.get("doom_card", did).effect for did in who.dooms]
        passive = [fx for fx in passive if fx is not None]
        found = self.triggers_of(passive, who, who, event)
        together = self.kept_together(passive, who, who)
        if together is not None:
            self._skills_kept[id(who)] = (who, who.card, who.side, interns, list(who.dooms), together)
        return found

    @staticmethod
    def runnable(ctx: Context) -> Context:
        """A trigger's context to run it with: a kept one's copy with an empty `info`."""
        return _fresh(ctx) if type(ctx) is Kept else ctx

    def fire(self, triggers: list, event: str, payload=None, who: Scholar | None = None) -> None:
        for name, where, body, ctx in triggers:
            if name != event:
                continue
            kept = type(ctx) is Kept
            if kept or payload is not None or who is not None:
                bound = object.__new__(Context)     # one copy (not `bind`: a tenth of the cost)
                fields = bound.__dict__
                fields.update(ctx.__dict__)
                if kept:
                    fields["info"] = {}
                if payload is not None:
                    fields["event"] = payload
                if who is not None:
                    fields["you"] = who
            else:
                bound = ctx
            if where is None or where(bound):
                body(bound)
