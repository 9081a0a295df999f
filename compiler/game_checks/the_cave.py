"""The Cave's compile-time rules: four stacks of 20 tiles, one starting board per player count."""
from __future__ import annotations

import re

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import check_turn_costs, report, report_count
from tomecraft.compiler.model import Entity, Game
from tomecraft.runtime.engines.the_cave.state import BACKPACK_SLOTS


def check(game: Game, reporter: dg.Reporter) -> None:
    _check_slots(game, reporter)
    _check_after_use(game, reporter)
    _check_board_items(game, reporter)
    _check_rope_edges(game, reporter)
    _check_late_costs(game, reporter)
    _check_free_gains(game, reporter)
    _check_tokens_placed(game, reporter)
    check_turn_costs(game, reporter, "ap", "turn_ap")   # L64: at most 5 AP a turn
    if any(d.code == dg.SCHEMA and d.severity == dg.ERROR for d in reporter.diagnostics):
        # a tile refused by its schema is left out: counting the stacks without it would
        # blame a stack (at a base tile) for the fan's typo, said already
        return
    _check_stacks(game, reporter)
    _check_boards(game, reporter)
    _check_stacked_bases(game, reporter)


def _check_slots(game: Game, reporter: dg.Reporter) -> None:
    """L46: a backpack has 8 slots; an item taking more could never be carried."""
    for item in game.of_kind("equipment"):
        slots = item.data.get("slots")
        if isinstance(slots, int) and slots > BACKPACK_SLOTS:
            report(reporter, item, "slots",
                   f"{item.id!r} takes {slots} slots; a backpack has {BACKPACK_SLOTS} (L46), "
                   "so no team could ever carry it", f"at most {BACKPACK_SLOTS}")


def _check_after_use(game: Game, reporter: dg.Reporter) -> None:
    """`after_use` is only printed (the sheets' "After use" column); play reads `uses` and
    `kept_after_use` (runtime/engines/the_cave/equipment.py). Where they disagree the sheets
    mislead: a flipped token has two sides, so two uses (oxygen, L173-175); a kept one
    (camera, raft, L180-182, L191-193) is exactly one with kept_after_use."""
    for item in game.of_kind("equipment"):
        after = item.data.get("after_use")
        kept = item.data.get("kept_after_use") is True
        uses = item.data.get("uses", 1)
        if after == "flip" and not kept and isinstance(uses, int) and uses != 2:
            report(reporter, item, "after_use",
                   f"{item.id!r} has after_use: flip but uses: {uses}: a flipped token has two "
                   "sides, one use each (oxygen, L173-175); the sheets would print \"flipped, "
                   f"then discarded at the second use\" while play gives {uses} use(s)",
                   "set uses: 2, or after_use: discard (worn out after its uses)")
        elif after is not None and (after == "keep") != kept:
            said = ("kept to the end" if after == "keep" else f"after_use: {after}")
            played = ("discarded at its last use" if not kept else "never spent")
            report(reporter, item, "after_use",
                   f"{item.id!r} has after_use: {after} but kept_after_use: "
                   f"{str(kept).lower()}: the sheets print it {said}, while play has it "
                   f"{played} (kept_after_use decides)",
                   "after_use: keep goes with kept_after_use: true (camera, raft), any other "
                   "after_use with kept_after_use left out")


def _check_board_items(game: Game, reporter: dg.Reporter) -> None:
    """`spend ITEM n` prints "use up n ITEM from your backpack". Two kinds of item make that
    untrue in play, said at the spend as a warning:
    - kept_after_use (camera, raft): a use spends nothing (equipment.py), so the team keeps
      the camera the sheet told it to use up; `require has(camera)` says what play does;
    - after_use: board ("stays on the board for the rest of the game"): true of the rope,
      placed as it is spent for every team (L128-131); spent where no rope is placed, the item
      leaves the backpack and lands nowhere, while the players leave it on the board."""
    from tomecraft.dsl import nodes as n
    items = {str(item.data.get("term") or item.id): item for item in game.of_kind("equipment")}
    placing = set(_rope_keywords(game)) - {"rope_placed"}
    for entity in game.all():
        for site in entity.effects:
            if site.ast is None:
                continue
            calls = [node for node in n.walk(site.ast) if isinstance(node, n.Call)]
            places = bool({c.verb for c in calls} & placing)
            for call in calls:
                first = call.args[0] if call.args else None
                item = items.get(first.head) if call.verb == "spend" and isinstance(
                    first, n.Name) else None
                if item is None:
                    continue
                if item.data.get("kept_after_use") is True:
                    message = (f"{first.head!r} is kept after use (kept_after_use: true): this "
                               "spend takes nothing in play, while the sheets print \"use "
                               f"... {first.head} from your backpack\"")
                    hint = f"write `require has({first.head})` for an item the team keeps"
                elif item.data.get("after_use") == "board" and not places:
                    message = (f"{first.head!r} has after_use: board (the sheets print \"stays "
                               "on the board for the rest of the game\"), but this effect "
                               "spends it without placing rope: play takes it out of the "
                               "backpack and puts nothing on the board")
                    hint = "place it (`-> place_rope 1`), or give the item after_use: discard"
                else:
                    continue
                line, column = entity.doc.effect_position(site.path, call.pos.line,
                                                          call.pos.column)
                reporter.add(dg.GAME_RULE_WARNING, message, entity.display, line, column, hint)


# What an entry that handles the rope names: it places rope or needs one placed.
ROPE_WORDS = ("place_rope", "rope_placed")


def _check_rope_edges(game: Game, reporter: dg.Reporter) -> None:
    """`rope_edges: true` means the tile's own ways in handle the rope across depth levels: a
    team leaving a rappel for it at another depth uses them instead of the rappel's cross_out
    (engine.move_options). An entry that neither places nor needs rope lets teams climb any
    depth into the tile with none, while the sheets print "needs rope"."""
    said = _rope_keywords(game)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, said)) + r")\b")
    for kind in game.of_kind("tile_kind"):
        if kind.data.get("rope_edges") is not True:
            continue
        for i, entry in enumerate(kind.data.get("enter") or ()):
            effect = entry.get("effect") if isinstance(entry, dict) else None
            if isinstance(effect, str) and not pattern.search(effect):
                report(reporter, kind, ("enter", i, "effect"),
                       f"tile kind {kind.id!r} has rope_edges: true, but its way in "
                       f"{entry.get('id')!r} neither places rope nor needs it: a team leaving a "
                       "rappel crosses depth levels into it with no rope, while the sheets say "
                       "rope is needed",
                       "use place_rope or rope_placed() in every way in (as the rappel's "
                       "'rope' and 'roped' do), or set rope_edges: false",
                       code=dg.GAME_RULE_WARNING)


def _rope_keywords(game: Game) -> list[str]:
    """ROPE_WORDS and every keyword whose effect uses one of them (through other keywords)."""
    said = list(ROPE_WORDS)
    grew = True
    while grew:
        grew = False
        for name, keyword in game.vocab.keywords.items():
            if name not in said and any(re.search(rf"\b{w}\b", keyword.effect or "")
                                        for w in said):
                said.append(name)
                grew = True
    return said


def _check_stacks(game: Game, reporter: dg.Reporter) -> None:
    # L37: four stacks of exactly 20 cave tiles, sorted by the number on their backs.
    per_stack: dict[int, int] = {}
    for tile in game.of_kind("tile"):
        per_stack[tile.data["stack"]] = per_stack.get(tile.data["stack"], 0) + tile.data["count"]
    tiles = game.of_kind("tile")
    if tiles:
        for stack in (1, 2, 3, 4):
            if per_stack.get(stack, 0) != 20:
                in_stack = [t for t in tiles if t.data["stack"] == stack] or tiles
                # at a pack's tile when a pack changed the stack: a fan cannot edit the base's
                by_packs = [t for t in in_stack if t.pack != game.id]
                message = f"stack {stack} holds {per_stack.get(stack, 0)} tiles; the rulebook has 20 (L37)"
                if by_packs:
                    report(reporter, by_packs[-1], "count", message,
                           f"a pack keeps each stack at 20: remove a base tile of stack {stack} "
                           "(`remove: [{kind: tile, id: ...}]` in pack.yaml) or replace one (its "
                           "id with `replace: true`), or change this count")
                    continue
                report_count(reporter, game, in_stack[-1], "count", message,
                             f"a pack keeps each stack at 20: replace the tile (its id with "
                             f"`replace: true`) instead of removing it, or add a tile of stack "
                             f"{stack}", ("tile", "tiles", lambda d, s=stack: d.get("stack") == s))


def _check_stacked_bases(game: Game, reporter: dg.Reporter) -> None:
    """The base is the starting board's first cell (L113, state.base): a tile of the stacks
    whose kind says `is_base: true` is no base in play (at_base() is false on it, no re-equip,
    not home at the end), while the sheets print "the base is here" on it."""
    kinds = game.entities.get("tile_kind", {})
    said = set()
    for tile in game.of_kind("tile"):
        kind = kinds.get(tile.data.get("tile_kind"))
        if kind is None or kind.data.get("is_base") is not True or kind.id in said:
            continue
        said.add(kind.id)
        report(reporter, kind, "is_base",
               f"tile kind {kind.id!r} has is_base: true, but tiles of the stacks have it (tile "
               f"{tile.id!r}): the base is only the starting board's base cell (L113), so a "
               "team on such a tile is not at the base (no re-equip, not back at the end)",
               "leave is_base out (false): it belongs to the starting tile's kind")


def _check_boards(game: Game, reporter: dg.Reporter) -> None:
    # Every player count 2-5 needs exactly one starting board (L33).
    boards = game.of_kind("start_board")
    if boards:
        seen: dict[int, Entity] = {}
        for board in boards:
            for i, players in enumerate(board.data["players"]):
                if players in seen:
                    report(reporter, board, ("players", i),
                           f"{players} players already use start board {seen[players].id!r}")
                seen[players] = board
            cells = [(c[0], c[1]) for c in board.data["cells"]]
            if len(set(cells)) != len(cells):
                report(reporter, board, "cells", "two cells share the same position")
        lo, hi = game.vocab.players["min"], game.vocab.players["max"]
        for players in range(lo, hi + 1):
            if players not in seen:
                report(reporter, boards[0], "players", f"no starting board for {players} players")


def _check_late_costs(game: Game, reporter: dg.Reporter) -> None:
    """Every effect of The Cave is an option the engine offers (a way in, an action, an item's
    use) once its leading requires and costs can be paid. A cost after `->` (`pay ap 3 ->
    spend oxygen 2 -> ...`) is checked only after the first is paid: offered to a team that
    cannot pay it, the effect fizzles half paid and the game stops ("costs go before `->`").
    Said at the cost, in an entity's effect or a keyword's."""
    from tomecraft.compiler.packs import display_path
    from tomecraft.dsl import nodes as n
    costs = {name for name, verb in game.vocab.verbs.items() if verb.cost}
    sites = [(site, entity.doc, entity.display) for entity in game.all() for site in entity.effects]
    sites += [(site, game.vocab.keywords[name].origin[0],
               display_path(game.vocab.keywords[name].origin[0].path))
              for name, site in sorted(game.keyword_sites.items())]
    for site, doc, display in sites:
        if site.ast is None:
            continue
        for node in n.walk(site.ast):
            if not isinstance(node, n.Cost):
                continue
            for late in node.effect.stmts:
                late = late.costs[0] if isinstance(late, n.Cost) else late
                if not (isinstance(late, n.Call) and late.verb in costs):
                    continue
                line, column = doc.effect_position(site.path, late.pos.line, late.pos.column)
                reporter.add(dg.GAME_RULE, f"{late.verb!r} is paid after `->`: it is checked "
                             "only once the costs before it are paid, so the option is offered "
                             "to a team that cannot pay it, and the game stops half paid",
                             display, line, column,
                             "put every cost before one `->`, separated by commas "
                             "(`pay ap 3, spend oxygen 2 -> take_token water`)")


# the options a team may take again and again in a turn: an action, an item's use, a tile's action
REPEATED = {"action": "effect", "equipment": "use", "tile_kind": "actions"}


def _check_free_gains(game: Game, reporter: dg.Reporter) -> None:
    """An option a team takes on its turn that costs nothing (no `pay`, `spend`...) and gains a
    token from the supply (`gain_token`, which no token on the board limits) can be taken any
    number of times in a turn: The Cave keeps no `once per`. A pack's free Shout checked clean
    and every simulated team shouted 60 times a turn until the round cap. Said at the effect,
    as a warning (a fan may mean a free action, as the camp exchange is)."""
    from tomecraft.dsl import nodes as n
    limits = {name for name, verb in game.vocab.verbs.items() if verb.cost} | {"end_actions"}
    for entity in game.all():
        field = REPEATED.get(entity.kind)
        for site in entity.effects if field else ():
            if site.ast is None or field not in site.path:
                continue
            calls = {node.verb for node in n.walk(site.ast) if isinstance(node, n.Call)}
            if "gain_token" in calls and not calls & limits:
                mark = entity.doc.mark(site.path)
                reporter.add(dg.GAME_RULE_WARNING, "this option costs nothing and gains a token "
                             "from the supply: a team may take it any number of times in a turn "
                             "(the simulated teams take it until the turn's 60-action cap)",
                             entity.display, mark.line, mark.column,
                             "give it a cost (`pay ap 1 -> ...`)")


# the verbs that put a token of a term into play (tile_kinds.yaml): on a tile, or to a team
PLACES = ("place_token", "gain_token", "take_token")


def _check_tokens_placed(game: Game, reporter: dg.Reporter) -> None:
    """A token comes into play only where an effect places it on a tile or hands it to a
    team (`place_token`, `gain_token`; the depth tokens are the engine's, reach_depth): a
    pack's Fossil token that no effect names checked clean and was never in play, its
    points never scored (found by the sixteenth packs blind round). Said at its term, as a
    warning (as Clank!'s token of a type no effect gains). A term a keyword computes from
    its parameter may be any: no warning."""
    from tomecraft.dsl import nodes as n
    named: set[str] = set()
    sites = [site for entity in game.all() for site in entity.effects]
    for site in [*sites, *game.keyword_sites.values()]:
        for node in n.walk(site.ast) if site.ast is not None else ():
            if not isinstance(node, n.Call) or node.verb not in PLACES or not node.args:
                continue
            arg = node.args[0]
            if not (isinstance(arg, n.Name) and len(arg.parts) == 1):
                return
            named.add(arg.parts[0])
    for token in game.of_kind("token"):
        base = token
        while base is not None and base.pack != game.id:
            base = base.replaced
        term = token.data.get("term") or token.id
        if base is not None or term in named:
            continue
        field = "term" if "term" in token.data else "id"
        mark = token.doc.mark(token.path + (field,))
        reporter.add(dg.GAME_RULE_WARNING,
                     f"token {token.id!r}: no effect places or hands out {term!r} "
                     "(`place_token`, `gain_token`), so it never comes into play",
                     token.display, mark.line, mark.column,
                     f"give a tile kind `on_discover: \"place_token {term}\"` and an action "
                     f"that takes it (`take_token {term}`), or a `gain_token {term} 1`")
