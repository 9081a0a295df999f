"""V-21, a mission file's `mission_event`: it is given, parses, names known verbs and
creatures, stays within the limits of every effect, and can be played by the Event Phase (no
verb needing a chosen space, no event drawing only itself). A mixin of MissionChecker
(checker.py), which holds the document, the roster and the reporting helpers."""
from __future__ import annotations

import re
from dataclasses import replace

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.missions.names import ascii_fold


class EventChecks:
    def mission_event(self) -> None:
        if "mission_event" not in self.m:
            self.at((), "V-21", "the mission has no `mission_event`",
                    "the Event deck holds Mission Specific Event cards; say what they do, "
                    "e.g. `mission_event: \"spawn_at_exits grunt 1; activate_monsters\"`")
            return
        game = self.names.game
        if game is None or not self.check_event:
            return
        from tomecraft.compiler.checks import Checker, check_site_bounds
        from tomecraft.compiler.model import EffectSite
        from tomecraft.dsl.parser import EffectSyntaxError, parse
        site = EffectSite(self.base + ("mission_event",), self.m["mission_event"])
        try:
            site.ast = parse(site.text)
        except EffectSyntaxError as err:
            line, column = self.doc.effect_position(site.path, err.line, err.column)
            self.reporter.add(dg.EFFECT_SYNTAX, f"V-21: {err.message}", self.display, line, column,
                              self.look_alike_hint(site.text) or err.hint or "the mission event is "
                              "written in the effect language, e.g. `spawn_at_exits grunt 1; "
                              "activate_monsters`")
            return
        scratch = dg.Reporter()
        checker = Checker(game, scratch)
        checker.check_site(site, self.doc, self.display, {})
        # the limits every effect of the content obeys (repeat counts, numbers): past them the
        # sim would stop on its step budget
        check_site_bounds(checker, site.ast)
        for d in scratch.diagnostics:
            # a name the base game lacks may be a pack's creature or keyword (V-02 says so too)
            hint = d.hint or (self.pack_of_name(d.message) or PACK_NAMES
                              if d.code == dg.UNKNOWN_NAME else "")
            self.reporter.diagnostics.append(replace(d, message=f"V-21: {d.message}", hint=hint))
        if not scratch.errors:
            self.engine_contract(site)
            self.faces_of_rolls(site)
            from tomecraft.compiler.game_checks.deep_rock_galactic import (
                DISCARD_SELF, inert_dice_and_ends)
            for node, message, hint in inert_dice_and_ends(site.ast, runs_once=True):
                line, column = self.doc.effect_position(site.path, node.pos.line, node.pos.column)
                self.reporter.add(dg.GAME_RULE, "V-21: " + (message or DISCARD_SELF.format(
                    where="the mission event")), self.display, line, column, hint)
            for call, arg in negative_amounts(site.ast, game.vocab.keywords):
                line, column = self.doc.effect_position(site.path, arg.pos.line, arg.pos.column)
                self.reporter.add(dg.GAME_RULE, NEGATIVE.format(verb=call.verb), self.display,
                                  line, column, NEGATIVE_HINT)
            self.by_hazard_level(site)
            self.unplayable_creatures(site)
            self.verbs_without_a_space(site)
            if not self.draws_only_itself(site):
                self.sets_itself_off(site)
            self.repeated_amounts(site)

    def by_hazard_level(self, site) -> None:
        """What the event comes to at each Hazard level the players may choose (1-5, rulebook
        L167; by_hazard.py): a part that runs at no level (`if hazard_level() > 5: ...` made a
        Mission Specific Event that never did anything, and checked clean), and an amount below
        0 at some level (`gain nitra (hazard_level() - 5)` left the Shared Supply at -6 Nitra)."""
        from tomecraft.compiler.missions.by_hazard import findings
        for node, message, hint in findings(site.ast, self.names.game.vocab.keywords):
            line, column = self.doc.effect_position(site.path, node.pos.line, node.pos.column)
            self.reporter.add(dg.GAME_RULE, f"V-21: {message}", self.display, line, column, hint)

    def pack_of_name(self, message: str) -> str:
        """The hint naming the pack (shipped, or beside the mission file) that defines the
        unknown name of `message`, or ""."""
        found = re.search(r"unknown name '([^']+)'", message)
        if found is None:
            return ""
        for what in ("creature", "card"):
            if self.names.in_pack(found.group(1), what):
                return self.names.hint(found.group(1), what, set())
        return ""

    def engine_contract(self, site) -> None:
        """What the engine's contract says of a Mission Book mission's `mission_event` holds for
        a mission file's: it runs once, when the card is drawn, so a lasting construct (`on
        turn_start: ...`, `during round: ...`) cannot stand in it. A file's event skipped these
        checks: `on turn_start: spawn grunt 1` and `on mission_end: fail_mission` checked clean
        (refused, TC-C003, on an event card or a Mission Book mission)."""
        from tomecraft.compiler.contract import check_effect_of
        from tomecraft.compiler.model import Entity
        entity = Entity(kind="mission", id=str(self.m.get("id", "")), data=self.m, pack="",
                        doc=self.doc, display=self.display, path=self.base, effects=[site])
        scratch = dg.Reporter()
        check_effect_of(self.names.game, entity, site, scratch)
        for d in scratch.diagnostics:
            self.reporter.diagnostics.append(replace(d, message=f"V-21: {d.message}"))

    def faces_of_rolls(self, site) -> None:
        """A face the rolled die does not have counts 0 on every roll, and so do the hits of a
        die with none (game_checks, alike)."""
        from tomecraft.compiler.game_checks.deep_rock_galactic import (
            FACE_MESSAGE, HITLESS_MESSAGE, die_faces, face_hint, hitless_dice, hitless_reads, wrong_faces)
        faces_of = die_faces(self.names.game)
        for node, die, face in wrong_faces(site.ast, faces_of):
            line, column = self.doc.effect_position(site.path, node.pos.line, node.pos.column)
            self.reporter.add(dg.GAME_RULE, "V-21: " + FACE_MESSAGE.format(die=die, face=face),
                              self.display, line, column, face_hint(die, faces_of))
        for node, die in hitless_reads(site.ast, hitless_dice(self.names.game)):
            line, column = self.doc.effect_position(site.path, node.pos.line, node.pos.column)
            self.reporter.add(dg.GAME_RULE, "V-21: " + HITLESS_MESSAGE.format(die=die, query=node.name),
                              self.display, line, column, face_hint(die, faces_of))

    def repeated_amounts(self, site) -> None:
        """A verb's amount times the repeats around it stays within the limit of one number
        (1,000): `repeat 1000 { reveal_swarm 1000 }` (a million Swarm cards) checked clean and
        ran the sim 145 s into its step budget, the error pointing at a card of the game. An
        amount worked out by arithmetic, from a `let` or from the Hazard level is held to it
        too, repeated or not: `reveal_swarm (1000 * 1000)` and `let n = 1000; reveal_swarm
        (n * 1000)` checked clean and ran the sim 165 s into the budget (only literals, which
        the general check bounds, were counted)."""
        from tomecraft.compiler.checks import MAX_NUMBER
        from tomecraft.compiler.missions.by_hazard import LEVELS, by_level, expand_lets, is_count
        for call, times in repeated_calls(expand_lets(site.ast)):
            # an amount read from the Hazard level at its highest (`reveal_swarm hazard_level()`
            # under `repeat 1000` is 5,000 Swarm cards at Hazard 5: only literals were counted)
            levels = [by_level(a) for a in call.args if a.__class__.__name__ != "KwArg"]
            amount = max((max(v) for v in levels if is_count(v)), default=1)
            if amount * times <= MAX_NUMBER:
                continue
            line, column = self.doc.effect_position(site.path, call.pos.line, call.pos.column)
            if times > 1:
                message = f"`{call.verb}` runs {times:,} times here" + (
                    f", {amount * times:,} in all" if amount != 1 else "")
            else:
                varying = [v for v in levels if is_count(v) and max(v) == amount and len(set(v)) > 1]
                level = f" at Hazard {LEVELS[varying[0].index(amount)]}" if varying else ""
                message = f"the amount for `{call.verb}` comes to {amount:,}{level}"
            self.reporter.add(dg.GAME_RULE, f"V-21: {message}: past the limit of {MAX_NUMBER:,} "
                              "for one amount of the mission event", self.display, line, column,
                              f"write one amount of at most {MAX_NUMBER:,} (`{_with_amount(call, 2)}`), "
                              "not multiplied by a repeat or by arithmetic")

    def sets_itself_off(self, site) -> None:
        """Each Mission Specific Event card drawn runs the event again (L896-900): an event that
        draws, on average, one of them or more per run (`repeat 1000 { draw_event }`) never
        ends; the sim stopped with "effects set each other off without end" at the card's line
        in cards.yaml, not the mission's."""
        cards = self.names.game.entities.get("event_card", {})
        removed = set(self.m.get("remove_cards", []))
        left = [c for cid, c in cards.items() if cid not in removed and c.data.get("deck") == "event"]
        deck = sum(c.data.get("count") or 1 for c in left)
        own = sum(c.data.get("count") or 1 for c in left if c.data.get("event_kind") == "mission_specific")
        draws = [(call, times) for call, times in repeated_calls(site.ast) if call.verb == "draw_event"]
        drawn = sum(times for _, times in draws)
        if deck and drawn * own >= deck:
            call = draws[0][0]
            line, column = self.doc.effect_position(site.path, call.pos.line, call.pos.column)
            self.reporter.add(dg.GAME_RULE, f"V-21: the mission event draws {drawn:,} Event cards, "
                              f"and {own} of the {deck} in the deck are the Mission Specific Event, "
                              "which runs it again: on average each run sets off another, without end",
                              self.display, line, column,
                              f"draw fewer than {-(-deck // own):,} Event cards in the mission event")

    def draws_only_itself(self, site) -> bool:
        """`draw_event` when every Event card left after `remove_cards` is the Mission Specific
        Event: the event draws itself without end (the sim stopped: 'effects set each other
        off without end')."""
        from tomecraft.dsl import nodes as n
        draws = [c for c in n.walk(site.ast) if isinstance(c, n.Call) and c.verb == "draw_event"]
        cards = self.names.game.entities.get("event_card", {})
        removed = set(self.m.get("remove_cards", []))
        left = [c for cid, c in cards.items() if cid not in removed and c.data.get("deck") == "event"]
        if not (draws and left and all(c.data.get("event_kind") == "mission_specific" for c in left)):
            return False
        line, column = self.doc.effect_position(site.path, draws[0].pos.line, draws[0].pos.column)
        self.reporter.add(dg.GAME_RULE, "V-21: the mission event draws an Event card, and "
                          "after `remove_cards` every one left is the Mission Specific Event: "
                          "it draws itself without end", self.display, line, column,
                          "keep other Event cards in the deck, or do not `draw_event`")
        return True

    def look_alike_hint(self, text: str) -> str:
        """A word of the event with a letter of another script that looks like an ASCII one
        (`wеb_spitter`, Cyrillic е): the hint names the letter and the word to type."""
        for word in re.findall(r"\w+", text):
            if not word.isascii() and ascii_fold(word).isascii():
                return self.names.hint(word, "name", self.names.creatures | self.names.creature_terms)
        return ""

    def unplayable_creatures(self, site) -> None:
        """A creature the vocabulary names but no loaded monster plays (a pack's)."""
        for found in re.finditer(r"[a-z][a-z0-9_]*", site.text):
            name = found.group()
            if name in self.names.creature_terms and name not in self.names.creatures:
                line, column = self.doc.effect_position(site.path, 1, found.start() + 1)
                self.reporter.add(dg.GAME_RULE, f"V-21: the mission event names {name!r}, which no "
                                  "loaded monster plays", self.display, line, column,
                                  self.names.hint(name, "creature", set()) if
                                  self.names.in_pack(name, "creature") else
                                  "a pack's creature is known with `--pack DIR` (check and sim)")

    def verbs_without_a_space(self, site) -> None:
        """`place`, `destroy` and `retrieve` act on the space a card chose (a throwable's
        landing space): a Mission Specific Event chooses none, so the sim stopped at the
        first event drawn ("destroy: no area", "place flame: no space chosen"), even inside
        a `target` block.
        The other verbs that act on what the effect was handed (`deal`, `push`, `inflict`,
        `forbid_move`...: contract.CONTEXT_VERBS) changed nothing in a mission event, which is
        handed the drawing dwarf only, outside a `target`/`each` block: a clean check, ignored
        in play. The same rule as the content's event cards (game_checks/drg_spaces.py)."""
        from tomecraft.compiler.game_checks.drg_spaces import _unhanded
        from tomecraft.runtime.engines.deep_rock_galactic.contract import CONTEXT_QUERIES, CONTEXT_VERBS
        for node, verb in _unhanded(self.names.game, site.ast, frozenset({"you"}), frozenset(), {}):
            line, column = self.doc.effect_position(site.path, node.pos.line, node.pos.column)
            if verb in NEEDS_A_SPACE:
                self.reporter.add(dg.GAME_RULE, f"V-21: `{verb}` acts on a space a card chose "
                                  "(a throwable's landing space), and a Mission Specific Event "
                                  "chooses none", self.display, line, column,
                                  "spawn, activate or advance the threat instead, e.g. "
                                  "`spawn_at_exits grunt 1; activate_monsters`")
                continue
            hint = ("name what it acts on: `each monster: ...`, `target monster where "
                    "in_range(3): ...`, or spawn, activate or advance the threat")
            if verb in CONTEXT_QUERIES:         # a creature's query: no monster to read
                measures, takes, outcome = CONTEXT_QUERIES[verb]
                what = f"measures from {measures}"
                if set(takes) == {"self"}:
                    hint = (f"`{verb}()` is a monster's own question (its special, e.g. the "
                            "Warden's); ask a monster's in `each monster: ...` with `flying()` or `size()`")
            else:
                what, _, outcome = CONTEXT_VERBS.get(verb, ("what it is handed", (), "it changes nothing"))
                what = f"acts on {what}"
            self.reporter.add(dg.GAME_RULE, f"V-21: `{verb}` {what}, and a Mission Specific "
                              f"Event is handed only the dwarf who draws it: {outcome}",
                              self.display, line, column, hint)


NEEDS_A_SPACE = {"place", "destroy", "retrieve"}


def _num():
    from tomecraft.dsl import nodes as n
    return n.Num


def repeated_calls(node, times: int = 1):
    """(call, how many times it runs) for each verb call of an effect: the product of the
    counts of the `repeat` blocks around it (a literal, or one read from the Hazard level at its
    highest; a count read from anything else: once)."""
    from dataclasses import fields, is_dataclass
    from tomecraft.dsl import nodes as n
    if isinstance(node, n.Repeat):
        from tomecraft.compiler.missions.by_hazard import by_level, is_count
        levels = by_level(node.count)       # `repeat hazard_level()`: 5 at Hazard 5
        count = node.count.value if isinstance(node.count, n.Num) else \
            max(levels) if is_count(levels) else 1
        yield from repeated_calls(node.body, times * max(count, 0))
        return
    if isinstance(node, n.Call):
        yield node, times
    if is_dataclass(node):
        for f in fields(node):
            value = getattr(node, f.name)
            for child in value if isinstance(value, tuple) else (value,):
                if is_dataclass(child) and not isinstance(child, n.Pos):
                    yield from repeated_calls(child, times)

# Every whole-number parameter of a Deep Rock Galactic verb counts something (spawn 2, advance
# the threat 1, heal 2...): a negative one did nothing in play (`range(-1)`) and checked clean.
NEGATIVE = "V-21: a negative amount for `{verb}`: it counts what the verb does, so below 0 it does nothing"
NEGATIVE_HINT = "write a whole number 0 or more; to undo something, use the verb that does the opposite"


def negative_amounts(ast, keywords=()):
    """(call, argument) for each verb argument negated from what the game reads (`-x`) in an
    effect; a keyword's arguments (`keywords`) are its own to define. A constant (`-1`,
    `advance_threat 0`) is refused by the general check (TC-N009): every Deep Rock Galactic
    verb's count declares `min: 1` in game.yaml (tests/deep_rock_galactic/test_pack.py)."""
    from tomecraft.dsl import nodes as n
    for node in n.walk(ast):
        if isinstance(node, n.Call) and node.verb not in keywords:
            for arg in node.args:
                if isinstance(arg, n.Neg) and n.constant(arg) is None:
                    yield node, arg


def advances_threat(ast, keyword_sites=None, seen: frozenset = frozenset(),
                    memo: dict | None = None) -> bool:
    """Whether an effect surely advances the Swarm Threat Track each time it runs: a literal
    `advance_threat N` (N >= 1), not under `may` (the player may decline: the Optional events,
    rulebook L901-908), a condition without an else that does too, a trigger, a target that may
    find none, a cost that may not be paid, or a repeat of 0. "advance_threat" anywhere in the
    text was taken for a clock: `advance_threat 0`, `may: advance_threat 1` and
    `if hazard_level() > 5 { advance_threat 1 }` let a mission remove every Swarm Threat card."""
    from tomecraft.compiler.missions.by_hazard import at_least, by_level
    from tomecraft.dsl import nodes as n
    keyword_sites = keyword_sites or {}
    memo = {} if memo is None else memo     # keyword -> answer: 30 keywords each calling the
    if ast is None:                         # next twice were 2**30 walks (check timed out)
        return False

    def again(node) -> bool:
        return advances_threat(node, keyword_sites, seen, memo)
    if isinstance(ast, n.Block):
        return any(again(s) for s in ast.stmts)
    if isinstance(ast, n.Call):
        if ast.verb == "advance_threat":        # `advance_threat hazard_level()` surely does
            return bool(ast.args) and at_least(ast.args[0], 1)
        site = keyword_sites.get(ast.verb)
        if site is None or ast.verb in seen:
            return False
        if ast.verb not in memo:
            memo[ast.verb] = advances_threat(site.ast, keyword_sites, seen | {ast.verb}, memo)
        return memo[ast.verb]
    if isinstance(ast, n.Repeat):
        return at_least(ast.count, 1) and again(ast.body)
    if isinstance(ast, n.If):
        taken = by_level(ast.cond)          # a condition on the Hazard level alone: its branch
        if taken is not None and all(v is True for v in taken):
            return again(ast.then)
        if taken is not None and all(v is False for v in taken):
            return ast.otherwise is not None and again(ast.otherwise)
        return ast.otherwise is not None and again(ast.then) and again(ast.otherwise)
    if isinstance(ast, n.Choose):
        return bool(ast.options) and all(again(o) for o in ast.options)
    return False


PACK_NAMES = "a pack's creature or keyword is known with `--pack DIR` (check and sim)"


def _with_amount(call, amount: int) -> str:
    """The call as written, its counted arguments set to `amount`: the hint's example keeps the
    verb's other arguments (`spawn_at_exits grunt 2`, not `spawn_at_exits 2`, which check refuses)."""
    from tomecraft.compiler.missions.by_hazard import by_level, is_count
    from tomecraft.dsl import nodes
    from tomecraft.dsl.printer import to_text
    args = tuple(nodes.Num(amount) if not isinstance(a, nodes.KwArg) and is_count(by_level(a)) else a
                 for a in call.args)
    return to_text(replace(call, args=args))
