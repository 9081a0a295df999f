"""Scenario files for Crawl Decks: set up a state, play scripted steps, check expectations.

A card is written `id`, `id@P/W` (printed points P and power W changed for the scenario, the
inventory's `M(3/2)`), and may end in `#label` to name it in steps, choices and expectations
(`slime@3/2#m`). A number instead of a list means that many filler cards (slime; Healing
Spring in the event piles).

setup:  hp, hp_max, dl, space (the DL's, L194: 2 + DL - 1), misses, resources {gold: 1},
        tokens {strength: [2, 1] (2 face up, 1 face down) or 3 (all face up)},
        main_deck / event_deck / relic_deck, graveyard, discard, event_discard, hand, loot,
        spare [each top first, as `order` lists them], equipment (relics, gained silently,
        left to right), face_down [labels],
        columns [[top end first], ...] (one list per column, brightness columns),
        sideways [relic labels] (once-per-long-rest relics already used, L234),
        rows [{enemy: [...], player: [...]}] (a battlefield already laid out, top row first),
        events_off: true (no event cards at all), seed (the shuffles' seed, default 1)
steps:  {do: turn} | {do: turns, count} | {do: start_turn} | {do: action, action: {...}} | {do: end_turn}
        | {do: battle, column} (the action, its 1 time too, L125) | {do: descend}
        | {do: post_battle_events} | {do: reveal_events, amount} | {do: short_rest}
        | {do: long_rest, free} | {do: reset_exploration} | {do: clean_up_loot}
        | {do: consume_time, amount} | {do: modify, card (on the field), op, value} | {do: settle}
        | {do: fire, event, card?} | {do: use_relic, relic} | {do: spare, column}
        | {do: redraw, card} | {do: stack_top, card, position} | {do: search, zone, card_type}
        | {do: draw_main, amount} | {do: gain_loot, card} | {do: setup} | {do: resolve_row, row}
        each may carry `choose: [...]` (answers, in order) and `fizzles: true|false`;
        `illegal: true` (or `fails: true`): the step must be refused, and is not played:
        a player's option (action, battle, spare, short_rest, paid long_rest, use_relic) that
        is not legal now, else one of its `choose` answers, which the engine must ask and not
        offer ({do: descend, choose: [{attribute: strength}], illegal: true} with strength's
        5 tokens out, L13; the step is played on a copy of the game, then dropped); an answer
        no such decision could ever take (a misspelt attribute or card) fails the scenario;
        a card text's `choose { A | B | C }` is answered by the branch's number from 0 among
        those offered (Trail Rations' `2` flips perception: strength 0, agility 1, ...);
        a battle row's plays are answered one at a time ({card: label}, {attr, size}, then
        {do: done}) or as one answer for the whole row: {cards: [labels], stacks: {attribute:
        size}} (either may be left out; or {cards, attr, size});
        the other decisions' answers: action {do: battle, column} | {do: short_rest} | ...;
        event {event: label|null} (null skips), relic {relic: label}, first_label true|false
        (L45), cleanup {cash: resource} (every loot of a kind) | {loot: label} | {cash: null}
        (stop), return {return: label|null}, long_rest_tokens {flip: attribute|each},
        short_rest_token {flip: attribute}, round_order {first: rest|reset} (L109),
        spare_return {spare_to: column|null}, level_up {attribute}, relic_<window> {do: relic,
        id: label} | {do: done}, a card target: its label; a card or relic with no label is
        named by its id when it is the only one
expect: {hp} {hp_max} {misses} {dl} {space} {lost} {won} {hand_limit} {turn}
        | {count: {zone: n}} | {points: {label: n}} | {power: {label: n}} | {zone: {label: zone}} (zone, count,
        order: a pile as setup names it or discard_pile, loot_pile, spare_slot, equipment_area)
        | {tokens: {attribute: [up, down] counts or an up count}} | {resources: {r: n}} | {columns: [[top first]]} (a card with no label: its id)
        | {order: {zone: [labels, top first; equipment left to right]}} | {log: text} | {no_log: text}
        | {legal: {...}, present: bool} (an option with the keys written, or none: {do: battle}: any battle)
        | {sideways: {label: bool}} | {fired: {event: [labels in order]}} | {log_order: [texts]}
"""
from __future__ import annotations

import difflib

from tomecraft.runtime.agents import ScriptError, matches
from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.dm_crawl_decks.engine import Engine, new_engine, setup as game_setup
from tomecraft.runtime.engines.dm_crawl_decks.scenario_refusals import (
    AnswerAgent, option_shapes, player_option, refusal, refused_answer)
from tomecraft.runtime.engines.dm_crawl_decks.scenario_setup import (
    PILE_HOLDS, PILE_WHY, PILES, SHAPES, ZONE_PILES, as_written, checks_nothing, face_down_where, holds, known,
    known_keys, main_card, named, relic_card, turns_sideways, up_down, within_limits, word, words, zones_as_held)
from tomecraft.runtime.engines.dm_crawl_decks.state import (
    ATTRIBUTES, FIELD, Card, Row, Virtual, resources_of)
from tomecraft.runtime.rng import Rng
from tomecraft.runtime.scenario import (
    ScenarioError, check_expectations, in_its_terms, refuse_unofferable, setup_failure,
    unknown_step)
from tomecraft.runtime.timing import Fizzle, TimingError


# Setup keys this runner reads as true or false, at any depth: `lore: "no"` must fail, not
# count as true (runtime/scenario.py checks them before the run).
FLAGS = frozenset(("events_off",))


class Scenario:
    def __init__(self, data, setup: dict) -> None:
        known_keys(setup, data)
        rng = Rng(str(setup.get("seed", 1)))
        self.agent = AnswerAgent(self)
        self.engine: Engine = new_engine(data, rng, self.agent, log_enabled=True)
        self.engine.bus.record = True
        self.labels: dict[str, Card] = {}
        self.data = data
        s = self.engine.state
        if "main_deck" in setup or "columns" in setup or "hand" in setup:
            self._clear("main")
        if "event_deck" in setup or setup.get("events_off"):
            self._clear("event")
        if "relic_deck" in setup or "equipment" in setup:
            self._clear("relic")
        for key in ("hp", "hp_max", "dl", "space", "misses"):
            if key in setup:
                setattr(s, key, int(setup[key]))
        if "dl" in setup and "space" not in setup:      # L194: space follows the DL
            board = self.engine.board
            s.space = board.space + (s.dl - board.dl_start)
        for r, n in (setup.get("resources") or {}).items():
            s.resources[r] = int(n)
        for a, value in (setup.get("tokens") or {}).items():
            s.tokens[a].up, s.tokens[a].down = up_down(value, f"setup.tokens.{a}")
        for zone in PILES:
            if zone in setup:
                spec = setup[zone]
                if zone == "equipment":
                    for item in self._items(spec, zone):
                        card = self.card(item, "equipment", "setup.equipment")
                        if not holds(zone, card):
                            raise ValueError(f"equipment: {item!r} is not a relic")
                        self.engine.place(card, "equipment")
                        if card.defn.label:
                            s.labels.add(card.defn.label)
                        if card.defn.passive is not None:
                            card.defn.passive(self.engine.ctx(card))
                    continue
                items = self._items(spec, zone)
                cards = [self.card(item, zone, f"setup.{zone}") for item in items]
                self._only_held(zone, items, cards)
                pile = self.engine._pile(PILES[zone])
                for card in reversed(cards):        # top first, every pile, as `order` lists it
                    card.zone = PILES[zone]
                    pile.append(card)
        if "columns" in setup:
            if len(setup["columns"]) > self.engine.board.brightness:
                raise ValueError(f"columns: {len(setup['columns'])} lists, but brightness is "
                                 f"{self.engine.board.brightness} (one list per column)")
            s.columns = [[] for _ in range(self.engine.board.brightness)]
            for i, col in enumerate(setup["columns"]):
                for item in reversed(col):                    # written top end first
                    card = self.card(item, "exploration", f"setup.columns[{i}]")
                    self._only_held("exploration", [item], [card], f"columns[{i}]")
                    card.zone = "exploration"
                    s.columns[i].append(card)
        for spec in setup.get("rows") or []:
            row = Row()
            for side in ("enemy", "player"):
                for item in spec.get(side, []):
                    if isinstance(item, dict):                # {attr: agility, size: 2}
                        tokens = s.tokens[item["attr"]]
                        if side != "player" or int(item["size"]) > tokens.up:
                            raise ValueError(f"rows: a stack {item} is the player's, made of face-up "
                                             f"tokens (setup tokens gives {item['attr']} {tokens.up} up)")
                        tokens.up, tokens.stacked = tokens.up - int(item["size"]), tokens.stacked + int(item["size"])
                        getattr(row, side).append(Virtual(item["attr"], int(item["size"])))
                        continue
                    card = self.card(item, "battlefield", f"setup.rows[{len(s.rows)}].{side}")
                    self._only_held("battlefield", [item], [card], f"rows[{len(s.rows)}].{side}")
                    card.zone = "battlefield"
                    getattr(row, side).append(card)
            s.rows.append(row)
        for label in setup.get("face_down") or []:
            self.ref(label).face_up = False
            face_down_where(label, self.ref(label))
        for label in setup.get("sideways") or []:
            relic = self.ref(label)
            if relic.zone != "equipment":
                raise ValueError(f"sideways: {label} is not a relic in the equipment (L234)")
            turns_sideways(label, relic)
            relic.sideways = True
        within_limits(self.engine)
        if s.hp <= 0:                    # L159: at 0 HP the game is lost, a set-up one too
            self.engine.lose("HP reached 0")
        self.engine.settle()

    @staticmethod
    def _only_held(zone: str, items: list, cards: list, where: str = "") -> None:
        """Refuse a card its zone cannot hold, named as the file writes it (`crossbow#76` named
        the runner's own label). A relic in a column or a loot card in a battle row was set up
        silently, and the battle then stopped on "no layered value 'points'" (a KeyError)."""
        wrong = [str(item) for item, card in zip(items, cards) if not holds(zone, card)]
        if wrong:
            raise ValueError(f"{where or zone}: {wrong} cannot be there ({where or zone} holds "
                             f"{PILE_HOLDS[zone]} cards{PILE_WHY.get(zone, '')})")

    def _clear(self, deck: str) -> None:
        s = self.engine.state
        pile = {"main": s.main_deck, "event": s.event_deck, "relic": s.relic_deck}[deck]
        for card in pile:
            self.engine.bus.drop_owner(card)
            self.engine.continuous_fx.drop(card)
            self.engine.layers.forget(card)
        pile.clear()

    @staticmethod
    def _items(spec, zone: str = "") -> list:
        filler = "healing_spring" if zone.startswith("event") else "slime"
        if isinstance(spec, int) and not isinstance(spec, bool):
            if spec < 0:             # [filler] * -1 silently set up an empty pile
                raise ValueError(f"{zone}: {spec} filler cards; a count is 0 or more")
            return [filler] * spec
        if not isinstance(spec, list):
            raise ValueError(f"{zone}: a list of cards or a number of filler cards, not {spec!r}")
        return list(spec)

    def card(self, item: str, zone: str, where: str = "") -> Card:
        """A card written `id[@P/W][#label]`; `where` (setup.main_deck, ...) locates a mistake."""
        text, _, label = str(item).partition("#")
        ident, _, values = text.partition("@")
        kinds = self.data.kinds
        if ident in kinds["card"]:
            defn, deck = kinds["card"][ident], "main"
        elif ident in kinds["event_card"]:
            defn, deck = kinds["event_card"][ident], "event"
        elif ident in kinds["relic"]:
            defn, deck = kinds["relic"][ident], "relic"
        else:
            known = [*kinds["card"], *kinds["event_card"], *kinds["relic"]]
            close = difflib.get_close_matches(ident, known, n=1)
            raise ValueError(f"{where or zone}: no card, event card or relic {ident!r}"
                             + (f"; did you mean `{close[0]}`?" if close else ""))
        card = self.engine.new_card(defn, deck, "")
        if values:
            points, _, power = values.partition("/")
            if not points.isdigit() or power not in ("", "-") and not power.isdigit():
                raise ValueError(f"{where or zone}: {item!r}: write `id@P/W` with whole numbers "
                                 f"P (points) and W (power, or -), e.g. slime@3/2")
            self.engine.layers.set_base(card, "points", int(points))
            if power not in ("", "-"):
                self.engine.layers.set_base(card, "power", int(power))
            elif power == "-":
                self.engine.layers.set_base(card, "power", 0)
        if label:
            if label in self.labels:
                raise ValueError(f"label {label!r} used twice")
            card.label = label
            self.labels[label] = card
        return card

    def of_id(self, ident) -> list:
        """Every card of the game with this id."""
        s = self.engine.state
        cards = [c for zone in PILES for c in getattr(s, zone)] + [c for col in s.columns for c in col]
        return [c for c in cards + [c for r in s.rows for c in r.enemy + r.player]
                if isinstance(c, Card) and c.id == ident]

    def named(self, answer):
        """A scripted answer with an unlabelled card named by its id (the only one) in the
        name decisions give it (`crossbow#7`)."""
        if isinstance(answer, dict):
            return {k: self.named(v) for k, v in answer.items()}
        if isinstance(answer, str) and answer not in self.labels:
            same = self.of_id(answer)
            return repr(same[0]) if len(same) == 1 else answer
        return answer

    def ref(self, label: str):
        """The card a step or expectation names: by its label, else by its id when the game
        holds exactly one card of that id (`equipment: [crossbow]`, then `relic: crossbow`)."""
        if label in self.labels:
            return self.labels[label]
        same = self.of_id(label)
        if len(same) == 1:
            return same[0]
        raise KeyError(f"no card labelled {label!r}" + (
            f"; {len(same)} cards are {label!r}: label the one meant (`{label}#a`)" if same else ""))


def _expand_row(choice) -> list:
    """A whole row written as one choice, {cards: [...], stacks: {attribute: size}} (or the
    short {cards, attr, size}), becomes the engine's one-play-at-a-time choices."""
    if not (isinstance(choice, dict) and ("cards" in choice or "stacks" in choice)):
        return [choice]
    # `{cards: [P], foo: 1}` ignored foo, `{cards: PQ}` played P and Q, and `{stacks: [strength]}`
    # said "dictionary update sequence element #0 has length 8"
    if set(choice) - {"cards", "stacks", "attr", "size"} or not isinstance(choice.get("cards", []), list) \
            or not isinstance(choice.get("stacks") or {}, dict):
        raise ValueError(f"a whole row is {{cards: [labels], stacks: {{attribute: size}}}} (or {{cards, attr, "
                         f"size}}), not {choice!r}")
    stacks = dict(choice.get("stacks") or {})
    if choice.get("attr"):
        stacks[choice["attr"]] = choice.get("size", 1)
    return [{"card": c} for c in choice.get("cards") or []] + \
        [{"attr": a, "size": k} for a, k in stacks.items()] + [{"do": "done"}]


def _row_index(state, row) -> int:
    """A battlefield row, counted from 0 at the top end; one past the last is named, not an
    IndexError."""
    if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < len(state.rows):
        raise ValueError(f"row {row!r}: the battlefield has {len(state.rows)} row(s), "
                         f"0 to {len(state.rows) - 1} from the top end")
    return row


def _on_field(sc: Scenario, label: str) -> Card:
    """The card a `modify` step changes: only a main-deck card on the field (exploration or
    battlefield, L274) has values that change (Engine.modify passes over any other, as a card
    text's modify should), so a step aimed at one elsewhere would pass having changed nothing."""
    card = sc.ref(label)
    if isinstance(card, Card) and (card.deck != "main" or card.zone not in FIELD):
        where = f"in the {card.zone}" if card.zone else "in no zone"
        raise ScenarioError(f"scenario error: {label} is {where}, not on the field (exploration "
                            f"or battlefield, L274): modify changes only cards on the field, so "
                            f"this step would change nothing")
    return card


# what a step may carry besides COMMON_KEYS (an unknown key would be silently ignored)
STEP_KEYS = {"turns": {"count"}, "action": {"action"}, "battle": {"column"}, "spare": {"column"},
             "resolve_row": {"row"}, "reveal_events": {"amount"}, "consume_time": {"amount"},
             "draw_main": {"amount"}, "long_rest": {"free"}, "modify": {"card", "op", "value", "attr"},
             "fire": {"event", "card", "row"}, "use_relic": {"relic"}, "redraw": {"card"}, "gain_loot":
             {"card"}, "stack_top": {"card", "position"}, "search": {"zone", "card_type", "amount"}}
COMMON_KEYS = {"do", "choose", "fizzles", "illegal", "fails"}


def _step(sc: Scenario, step: dict) -> None:
    if not isinstance(step, dict) or "do" not in step:
        raise AssertionError(f"a step is a mapping with `do:` (e.g. {{do: short_rest}}), not {step!r}")
    known = COMMON_KEYS | STEP_KEYS.get(step["do"], set())
    if set(step) - known:
        raise ScenarioError(f"scenario error: {step['do']}: unknown key(s) {sorted(set(step) - known)}; known: {sorted(known)}")
    if sc.engine.state.over:    # a battle after HP 0 moved its column onto the battlefield, then stopped
        raise AssertionError(f"the game is over ({sc.engine.state.reason}, L157-161): no step is played after its end")
    sc.agent.choices = [named(sc, c) for choice in step.get("choose", []) for c in _expand_row(choice)]
    if do_action := step.get("action"):
        step = {**step, "action": named(sc, do_action)}
    expected = refusal(sc, step)
    if expected == "answer":
        refused_answer(sc, step, _play)
    elif expected is None:
        _play(sc, step)


def _play(sc: Scenario, step: dict) -> None:
    e, s = sc.engine, sc.engine.state
    do, fizzled = step["do"], False
    try:
        if do == "turn":
            e.play_turn()
        elif do == "turns":
            for _ in range(int(step.get("count", 1))):
                if not s.over:
                    e.play_turn()
        elif do == "start_turn":
            e.turn_windows.reset()
            e.start_turn()
        elif do == "action":
            e.turn_windows.current = "turn_start"
            if step["action"]["do"] == "relic":
                e.use_relic(step["action"]["id"])
            elif step["action"]["do"] == "spare":
                e.move_to_spare(step["action"]["column"])
            else:
                e.take_action(step["action"])
        elif do == "end_turn":
            e.turn_windows.current = "action"
            e.end_turn()
        elif do == "battle":
            e.turn_windows.current = "turn_start"
            e.take_action({"do": "battle", "column": int(step["column"])})
        elif do == "resolve_row":
            e.battle_windows.reset()
            e.resolve_row(s.rows[_row_index(s, step.get("row", 0))])
        elif do == "descend":
            e.descend()
        elif do == "post_battle_events":
            e.post_battle_events()
        elif do == "reveal_events":
            e.reveal_events(int(step["amount"]))
        elif do == "short_rest":
            e.short_rest()
        elif do == "long_rest":
            e.long_rest(free=bool(step.get("free", False)))
        elif do == "reset_exploration":
            e.reset_exploration()
        elif do == "clean_up_loot":
            e.clean_up_loot()
        elif do == "consume_time":
            e.consume_time(int(step["amount"]))
        elif do == "modify":
            attr = step.get("attr", "points")
            known("modify: attr", [attr], ("points", "power"))     # the layered values (L19)
            e.modify(e.ctx(None), _on_field(sc, step["card"]), attr, step["op"], int(step["value"]), "scenario")
        elif do == "settle":
            e.settle()
        elif do == "fire":
            e.current_row = s.rows[_row_index(s, step["row"])] if "row" in step else e.current_row
            e.fire(word(sc.data, "fire: event", step["event"]), sc.ref(step["card"]) if "card" in step else None)
        elif do == "use_relic":
            fizzled = not e.use_relic(player_option(sc, step)[0]["id"])
        elif do == "spare":
            e.move_to_spare(int(step["column"]))
        elif do == "redraw":
            e.redraw(sc.ref(step["card"]))
        elif do == "stack_top":
            e.verbs.stack_top(e.ctx(sc.ref(step["card"])), word(sc.data, "stack_top: position", step["position"], "position"))
        elif do == "search":
            e.search(word(sc.data, "search: zone", step["zone"], "zone"),
                     word(sc.data, "search: card_type", step["card_type"], "card_type"), int(step.get("amount", 1)))
        elif do == "draw_main":
            e.verbs.draw_main(e.ctx(None), int(step["amount"]))
        elif do == "gain_loot":
            card = sc.ref(step["card"])
            if card.deck != "event" or card.defn.card_type != "loot":
                raise AssertionError(f"gain_loot: {step['card']} is not a loot card (L29)")
            e.gain_loot(card)
        elif do == "setup":
            game_setup(e)
        else:
            raise AssertionError(unknown_step(do, STEPS))
    except Fizzle as why:
        fizzled = True
        e.log(f"fizzle: {why}")
    if "fizzles" in step and bool(step["fizzles"]) != fizzled:
        raise AssertionError(f"expected fizzles={step['fizzles']}, got {fizzled}")
    if sc.agent.choices:
        raise AssertionError(f"unused scripted choices: {sc.agent.choices}")


# the step kinds `_step` plays (the format lists them)
STEPS = ("turn", "turns", "start_turn", "action", "end_turn", "battle", "resolve_row", "descend",
         "post_battle_events", "reveal_events", "short_rest", "long_rest", "reset_exploration",
         "clean_up_loot", "consume_time", "modify", "settle", "fire", "use_relic", "spare", "redraw",
         "stack_top", "search", "draw_main", "gain_loot", "setup")
COUNTED = tuple(PILES) + ("exploration", "battlefield", "revealed", "cleanup")


def _zone_count(sc: Scenario, zone: str) -> int:
    e = sc.engine
    if zone in ("exploration", "battlefield"):
        return len(e.cards_in_zone(zone))
    if zone not in COUNTED:
        raise ValueError(f"count: no zone {zone!r}; known: {list(COUNTED)}")
    return len(e._pile(PILES.get(zone, zone)))


def _check(sc: Scenario, exp: dict) -> str | None:  # noqa: C901 - one branch per expectation
    e, s = sc.engine, sc.engine.state
    if vacuous := checks_nothing(exp):
        return vacuous
    problems = []
    for key, want in exp.items():
        if key in ("hp", "hp_max", "misses", "dl", "space", "lost", "won", "turn"):
            got = getattr(s, key)
        elif key == "hand_limit":
            got = e.hand_limit()
        elif key == "count":
            want = {ZONE_PILES.get(z, z): n for z, n in want.items()}      # discard_pile: discard
            got = {z: _zone_count(sc, z) for z in want}
        elif key in ("points", "power"):
            got = {label: getattr(e, key)(main_card(sc.ref(label), label, key)) for label in want}
        elif key == "zone":
            want = zones_as_held(want)
            got = {label: sc.ref(label).zone for label in want}
        elif key == "tokens":
            known("tokens", want, ATTRIBUTES)
            want = {a: list(up_down(v, f"tokens.{a}")) for a, v in want.items()}  # a number: all up
            got = {a: [s.tokens[a].up, s.tokens[a].down] for a in want}
        elif key == "resources":
            known("resources", want, resources_of(e.data))
            got = {r: s.resources[r] for r in want}
        elif key == "columns":
            got = [as_written(reversed(col), want[i] if isinstance(want, list) and i < len(want) else [])
                   for i, col in enumerate(s.columns)]
        elif key == "order":
            want = {ZONE_PILES.get(z, z): labels for z, labels in want.items()}
            known("order", want, PILES)
            got = {z: as_written(e._pile(PILES[z]) if z == "equipment" else reversed(e._pile(PILES[z])),
                                  want[z]) for z in want}      # equipment left to right, L77
        elif key == "sideways":
            got = {label: relic_card(sc.ref(label), label).sideways for label in want}
        elif key == "fired":
            known("fired", want, words(sc.data, "event"))
            got = {ev: as_written([o for e2, o in e.bus.fired if e2 == ev], want[ev]) for ev in want}
        elif key == "log_order":
            at, lines = 0, s.log
            for text in want:
                at = next((i for i in range(at, len(lines)) if text in lines[i]), None)
                if at is None:
                    problems.append(f"log lines {want!r} not found in this order; log: {lines[-40:]}")
                    break
                at += 1
            continue
        elif key == "log":
            if not any(want in line for line in s.log):
                problems.append(f"no log line contains {want!r}; log: {s.log[-30:]}")
            continue
        elif key == "no_log":
            if any(want in line for line in s.log):
                problems.append(f"a log line contains {want!r}")
            continue
        elif key == "legal":
            want = named(sc, want)
            if not exp.get("present", True):
                refuse_unofferable(want, option_shapes(sc))
            options, wanted = e.action_options(), exp.get("present", True)   # the keys written
            present = want in options or any(matches(want, o) for o in options)
            if present != wanted:
                problems.append(f"{want} legal: expected {wanted}, got {present}; legal: {options}")
            continue
        elif key == "present":
            continue
        elif key == "note":
            continue
        else:
            return f"unknown expectation {key!r}"
        if got != want:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    return "; ".join(problems) or None


def run_scenario(data, scenario: dict) -> list[str]:
    try:
        sc = Scenario(data, scenario.get("setup") or {})
    except (KeyError, TypeError, ValueError, IndexError, EffectError) as err:
        return [setup_failure(err, "dm_crawl_decks")]
    for i, step in enumerate(scenario.get("steps") or []):
        try:
            _step(sc, step)
        except (AssertionError, ScriptError, EffectError, TimingError, KeyError, TypeError,
                ValueError, IndexError) as err:
            return [f"steps[{i}]: {in_its_terms(err, 'dm_crawl_decks')}"]
    return check_expectations(scenario.get("expect"), lambda exp: _check(sc, exp))


__all__ = ["run_scenario", "Scenario", "ATTRIBUTES"]
