"""Crawl Decks' compile-time rules: one identity relic, board values, loot kinds, relic labels."""
from __future__ import annotations

import re

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import at_fault, report, report_at_removal
from tomecraft.compiler.model import Game
from tomecraft.dsl import nodes
from tomecraft.runtime.engines.dm_crawl_decks.rules import event_leaves_to

RESOURCES = ("potion", "scroll", "food", "ammo", "gold")


def _windows(game: Game) -> list[str]:
    """The windows a relic's schema allows (action, pre_battle, battle_round...)."""
    fields = (game.vocab.kinds.get("relic") or {}).get("fields") or {}
    return list((fields.get("window") or {}).get("enum") or [])


def check(game: Game, reporter: dg.Reporter) -> None:
    relics = game.of_kind("relic")
    if relics:
        identity = [r for r in relics if r.data.get("identity")]
        if len(identity) != 1:       # at each identity relic (a pack's second one), or the first relic
            for relic in identity or relics[:1]:
                report(reporter, relic, "identity" if identity else "id",
                       f"{len(identity)} relics are marked identity; the game has exactly one [岩德身份牌] (L186)")
    for relic in relics:
        use, window = relic.data.get("use"), relic.data.get("window")
        if use and not window:
            report(reporter, relic, "use",
                   "a relic with `use` needs a `window`: when it may be activated",
                   hint="add `window:` (" + ", ".join(_windows(game)) + ")")
        elif window and not use:    # said 'needs a window, and only then' at the window it had
            report(reporter, relic, "window",
                   "`window` is when a relic's `use` may be activated, and this relic has no `use`",
                   hint="remove `window:` (a `passive` needs none), or give the relic a `use`")
        label = relic.data.get("label")
        if label and use and not re.search(rf"\bpay {label}\b", use):
            report(reporter, relic, "use",
                   f"a resource-cost relic labelled {label!r} consumes {label} (L39)",
                   hint=f"start its use with `pay {label} N -> ...`")
        paid = re.search(rf"\bpay ({'|'.join(RESOURCES)})\b", use or "")
        if not label and paid:      # the sheets printed "free" beside "Spend 3 gold ..."
            report(reporter, relic, "use",
                   f"a relic whose use pays {paid.group(1)} is a resource-cost relic: its label "
                   f"names the resource (L39: a relic with no label is a free-use relic)",
                   hint=f"add `label: {paid.group(1)}`")
        _check_unlimited_use(relic, reporter)
        if relic.data.get("once_per_rest") and use and "turn_sideways" not in use:
            report(reporter, relic, "use", "a once-per-long-rest relic turns sideways when used (L234)",
                   hint="start its use with `turn_sideways -> ...`")
    events = game.of_kind("event_card")
    if events:
        kinds = {e.data.get("resource") for e in events if e.data.get("card_type") == "loot"}
        for resource in RESOURCES:
            if resource in kinds:
                continue
            message = f"no loot card turns into {resource} (L33: one loot kind per resource)"
            hint = f"keep a loot card with `resource: {resource}`"
            # at the pack's removal of the base's, else at the loot card a pack brought
            if not report_at_removal(reporter, game, "event_card", "event_cards",
                                     lambda d, r=resource: d.get("card_type") == "loot"
                                     and d.get("resource") == r, message, hint):
                report(reporter, at_fault(game, events), "id", message, hint)
        for e in events:
            if e.data.get("card_type") == "loot" and not e.data.get("resource"):
                report(reporter, e, "card_type", "a loot card names the resource it turns into")
            if e.data.get("card_type") == "loot" and e.data.get("count", 1) < 2:
                report(reporter, e, "count", "each loot kind has several copies (复数张, L33)")
            _check_event_after_use(e, reporter)
    attributes = game.of_kind("attribute")   # four, one per track: the contract's needs (L13)
    _check_board(game, attributes, reporter)
    _check_relics_kept(game, reporter)


def _check_relics_kept(game: Game, reporter: dg.Reporter) -> None:
    """`gain_relic AMOUNT OF` keeps AMOUNT of the OF relics drawn, as the board's relic_keep of
    its relic_draw (L87): a pack's event card `gain_relic 3 1` checked clean and its card read
    "draw 1 relic, gain 3 and put the rest on the bottom"."""
    for table in game.entities.values():
        for entity in table.values():
            for site in entity.effects:
                for node in nodes.walk(site.ast) if site.ast is not None else ():
                    if not (isinstance(node, nodes.Call) and node.verb == "gain_relic"
                            and len(node.args) == 2
                            and not any(isinstance(a, nodes.KwArg) for a in node.args)):
                        continue
                    keep, draw = (nodes.constant(a) for a in node.args)
                    if keep is not None and draw is not None and keep > draw:
                        line, column = entity.doc.effect_position(site.path, node.pos.line,
                                                                  node.pos.column)
                        reporter.add(dg.GAME_RULE, f"`gain_relic {keep} {draw}` keeps {keep} relics of "
                                     f"{draw} drawn: the kept ones are chosen from "
                                     "those drawn (L87)", entity.display, line, column,
                                     f"gain at most {draw} (`gain_relic <amount> <of>`), or "
                                     f"draw at least {keep}")


EVENT_PLACES = {"loot": "your loot pile, then the event discard pile once cashed (L31, L73)",
                "discard": "the event discard pile once activated (L31)"}


def _check_event_after_use(event, reporter: dg.Reporter) -> None:
    """`after_use` is only printed (the sheets' "after use" column): play puts an event card
    where its card_type says (rules.event_leaves_to). A pack's general event saying `loot` was
    printed "to your loot pile" and was activated and discarded at once; the Clank! sibling is
    game_checks.clank_catacombs._check_after_use."""
    said, kind = event.data.get("after_use"), event.data.get("card_type")
    where, words = event_leaves_to(kind), str(kind).replace("_", " ")
    if said and said != where:
        report(reporter, event, "after_use",
               f"after_use {said} is printed, but play puts this {words} card in {EVENT_PLACES[where]}",
               hint=f"set after_use: {where}, or leave it out (the sheets then print where it goes)")


def _check_board(game: Game, attributes: list, reporter: dg.Reporter) -> None:
    """Board values play can start from (a pack's board checked clean with DL 3 to a max of 2,
    and with 1000 starting tokens, which stopped sim once an attribute's tokens were out)."""
    for board in game.of_kind("board"):
        start, top = board.data.get("dl_start"), board.data.get("dl_max")
        if isinstance(start, int) and isinstance(top, int) and start > top:
            report(reporter, board, "dl_start", f"the dungeon starts at level {start}, above its "
                   f"deepest level, dl_max {top} (L81, L85)", hint=f"a dl_start from 1 to {top}")
        draw, keep = board.data.get("relic_draw"), board.data.get("relic_keep")
        if isinstance(draw, int) and isinstance(keep, int) and keep > draw:
            # the 2 are picked from the 5 drawn (L87): play kept fewer than the board said
            report(reporter, board, "relic_keep", f"{keep} relics kept of the {draw} drawn at "
                   f"set-up: the kept ones are chosen from those drawn (L87)",
                   hint=f"a relic_keep from 0 to {draw}, or a relic_draw of at least {keep}")
        if board.data.get("time_long_rest") == 0:
            # L153: a long rest spends 2 time; free, it heals and refills every turn while the
            # main deck never shrinks, and the game need never end
            report(reporter, board, "time_long_rest", "a long rest that spends no time can be "
                   "taken every turn while the dungeon never moves on (the rulebook's spends 2, "
                   "L153): the simulated player rests until the round cap",
                   "give the long rest a time cost of 1 or more", dg.GAME_RULE_WARNING)
        tokens = board.data.get("start_tokens")
        supply = sum(a.data.get("supply") or 0 for a in attributes)
        if isinstance(tokens, int) and attributes and tokens > supply:
            report(reporter, board, "start_tokens", f"{tokens} starting attribute tokens, but the "
                   f"attributes hold {supply} in all: the rest are never gained (L87)",
                   hint=f"at most {supply}", code=dg.GAME_RULE_WARNING)


def _check_unlimited_use(relic, reporter: dg.Reporter) -> None:
    """A relic stays after use and may be used again (L43); one whose `use` has no cost and no
    limit (no `pay`, no `turn_sideways`, no `once per`) may be used without end in its window:
    a pack's `use: "gain gold 1"` had the simulated player take gold 50 times every turn."""
    site = next((s for s in relic.effects if s.path[-1:] == ("use",)), None)
    if site is None or site.ast is None:
        return
    if any(isinstance(node, (nodes.Cost, nodes.Once, nodes.Require)) for node in nodes.walk(site.ast)):
        return
    report(reporter, relic, "use", "this relic can be used any number of times in its window: "
           "its use has no cost and no limit (a relic stays after use, L43)",
           hint="give it a cost (`pay gold 1 -> ...`, `turn_sideways -> ...` for once per long "
                "rest, L234) or a limit (`once per turn: ...`)", code=dg.GAME_RULE_WARNING)
