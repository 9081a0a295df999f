"""Clank! Catacombs' compile-time rules: the box's counts (L20-101) and a playable map.

Rooms and tunnel icons exist in play only where a tile carries them: a room no tile's cells
name, or a tunnel icon on no tile's tunnels, would never be entered or crossed, so check
refuses it at the entity (a pack places it by adding a tile or replacing one)."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import at_fault as _at_fault, report, report_count
from tomecraft.compiler.checks import removal_entry
from tomecraft.compiler.model import Game
from tomecraft.compiler.packs import display_path
from tomecraft.dsl import nodes
from tomecraft.runtime.engines.clank_catacombs.handlers import FREE_CARD_ZONES
from tomecraft.runtime.engines.clank_catacombs.rules import DRAWN_AS, kept_when_gained, leaves_to

ROOM_EXITS = "NESW"
# Tunnel icons the engine runs on every crossing (a plain tunnel, a portal), not from tiles.
EVERY_CROSSING = ("plain", "portal")
# A tile-edge mark that is not a tunnel icon of its own: the one-way arrow seen from the tile
# it points into (board.py reads it with `one_way_arrow`).
EDGE_MARKS = ("one_way_in",)


def _check_player_limit(game: Game, reporter: dg.Reporter) -> None:
    """The rule max_players bounds the player counts set-up accepts (4, or 6 with the party
    pack): below the game's least player count no game could be set up at all."""
    rule = game.entities.get("rule", {}).get("max_players")
    if rule is None:
        return
    value, lo, hi = rule.data.get("value"), game.vocab.players["min"], game.vocab.players["max"]
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        report(reporter, rule, "value",
               f"max_players is {value!r}, outside the game's {lo} to {hi} players (game.yaml): "
               "set-up plays no player count above it",
               f"a whole number from {lo} to {hi}")


def _total(entities, field: str = "count") -> int:
    return sum(int(e.data.get(field) or 0) for e in entities)


def _count_hint(kind: str, total: int, wanted: int) -> str:
    if total > wanted:
        return (f"for each {kind} a pack adds, it removes one of the game's "
                f"(`remove: [{{kind: {kind}, id: ...}}]` in pack.yaml) or replaces one "
                "(same id, `replace: true`)")
    return f"add {kind}s, or replace the ones removed instead of removing them"


def _check_free_card_zones(game: Game, reporter: dg.Reporter) -> None:
    """`acquire_free CARD ZONE` puts the card in the player's hand, deck or discard pile; any
    other zone (the dungeon row, the reserve...) was played as the discard pile."""
    for entity in game.all():
        for site in entity.effects:
            for node in nodes.walk(site.ast) if site.ast is not None else ():
                if not isinstance(node, nodes.Call) or node.verb != "acquire_free" \
                        or len(node.args) < 2:
                    continue
                zone = node.args[1]
                name = zone.parts[0] if isinstance(zone, nodes.Name) and len(zone.parts) == 1 else None
                if name is None or name in FREE_CARD_ZONES:
                    continue
                line, column = entity.doc.effect_position(site.path, zone.pos.line, zone.pos.column)
                reporter.add(dg.GAME_RULE, f"a free card goes to the player's hand, deck or "
                             f"discard pile, not the {name}", entity.display, line, column,
                             "one of: " + ", ".join(FREE_CARD_ZONES))


def _market_charges(game: Game) -> set[int]:
    """The gold the market rooms' actions pay to buy an item (`pay gold 7 -> buy_item`)."""
    charges = set()
    for room in game.of_kind("room"):
        for site in room.effects:
            for node in nodes.walk(site.ast) if site.ast is not None else ():
                if isinstance(node, nodes.Cost) and any(
                        isinstance(n, nodes.Call) and n.verb == "buy_item" for n in nodes.walk(node.effect)):
                    charges.add(sum(c.args[1].value for c in node.costs if c.verb == "pay"
                                    and len(c.args) == 2 and isinstance(c.args[0], nodes.Name)
                                    and c.args[0].parts == ("gold",) and isinstance(c.args[1], nodes.Num)))
    return charges


def _check_market_prices(game: Game, reporter: dg.Reporter) -> None:
    """An item's `price` is only printed: the market room's action pays one price for every
    item (L336-340). A pack's item at price 0 checked clean, was printed '0 gold' and cost 7."""
    for item in game.of_kind("market_item"):    # setup stocks one item per points value
        count, points = item.data.get("count"), item.data.get("points")
        if isinstance(count, int) and isinstance(points, list) and count != len(points):
            report(reporter, item, "count",
                   f"count {count} is printed, but the market holds one item per points value "
                   f"({len(points)}: {'/'.join(map(str, points)) or 'none'})",
                   f"set count: {len(points)}, or give the item {count} points values",
                   _severity(game, item))
    charges = _market_charges(game)
    if len(charges) != 1:
        return
    charge = charges.pop()
    for item in game.of_kind("market_item"):
        price = item.data.get("price")
        if isinstance(price, int) and price != charge:
            report(reporter, item, "price",
                   f"price {price} is printed, but the market charges {charge} gold for every "
                   "item (its room's action pays it before buy_item, L336-340)",
                   f"set price: {charge}; an item cannot cost more or less than the others "
                   "(require_to_buy adds a condition, not a price)", _severity(game, item))


def _check_after_use(card, reporter: dg.Reporter) -> None:
    """`after_use` is only printed: the engine puts a card where its type says (leaves_to). A
    pack's monster saying `discard` was printed "discarded after use" and went to the dungeon
    discard pile."""
    said, d = card.data.get("after_use"), card.data
    where = leaves_to(d.get("card_type"), d.get("defeat_cost"), d.get("never_discarded"))
    if said and said != where:
        report(reporter, card, "after_use",
               f"after_use {said} is printed, but the engine puts this {d.get('card_type')} card in "
               f"{AFTER_USE_PLACES[where]} ({AFTER_USE_REFS[where]})",
               f"set after_use: {where}, or leave it out (the sheets then print where it goes)")


AFTER_USE_PLACES = {"discard": "its owner's discard pile", "dungeon_discard": "the dungeon discard pile",
                    "board": "the reserve, where it stays (never_discarded)"}
AFTER_USE_REFS = {"discard": "L524", "dungeon_discard": "L300, L310", "board": "L314"}


DUNGEON = ("acquire", "device", "monster")     # the dungeon deck's card types (L69-70)


def check(game: Game, reporter: dg.Reporter) -> None:
    _check_player_limit(game, reporter)
    _check_free_card_zones(game, reporter)
    _check_market_prices(game, reporter)
    cards = game.of_kind("card")
    if cards:
        dungeon = [c for c in cards if c.data.get("card_type") in DUNGEON]
        if dungeon and _total(dungeon) != 100:
            report_count(reporter, game, _at_fault(game, dungeon, "count"), "count",
                         f"the dungeon deck holds {_total(dungeon)} cards; the rulebook has 100 (L69-70)",
                         _count_hint("card", _total(dungeon), 100),
                         ("card", "cards", lambda d: d.get("card_type") in DUNGEON))
        starting = [c for c in cards if c.data.get("card_type") == "starting"]
        if starting and _total(starting, "per_deck") != 10:
            report_count(reporter, game, _at_fault(game, starting, "per_deck"), "per_deck",
                         f"a starting deck holds {_total(starting, 'per_deck')} cards; the rulebook has 10 (L63-65)",
                         _count_hint("card", _total(starting, "per_deck"), 10),
                         ("card", "cards", lambda d: d.get("card_type") == "starting"))
        for c in cards:
            kind = c.data.get("card_type")
            if kind == "monster" and c.data.get("defeat_cost") is None:
                report(reporter, c, "card_type", "a monster needs a defeat_cost (L302-316)")
            if kind in ("acquire", "device") and c.data.get("cost") is None:
                report(reporter, c, "card_type", f"an {kind} card needs a cost (L290-306)")
            if kind == "device" and not c.data.get("on_use"):
                report(reporter, c, "card_type", "a device needs an on_use effect (L298-302)")
            _check_after_use(c, reporter)
    tiles = game.of_kind("tile")
    if tiles:
        depths = [t for t in tiles if t.data.get("area") == "depths"]
        safe = [t for t in tiles if t.data.get("area") == "safe"]
        if not any(t.data.get("area") == "start" for t in tiles):
            report(reporter, tiles[0], "area", "no starting tile (area: start): the players start "
                   "on it (L23, L176)", hint="keep a start tile, or replace it instead of removing it")
        if depths and _total(depths) != 22:
            report_count(reporter, game, _at_fault(game, depths, "count"), "count",
                         f"{_total(depths)} depth tiles; the rulebook has 22 (L27-28)",
                         _count_hint("tile", _total(depths), 22),
                         ("tile", "tiles", lambda d: d.get("area") == "depths"))
        if safe and _total(safe) != 6:
            report_count(reporter, game, _at_fault(game, safe, "count"), "count",
                         f"{_total(safe)} safe-area tiles; the rulebook has 6 (L27-28)",
                         _count_hint("tile", _total(safe), 6),
                         ("tile", "tiles", lambda d: d.get("area") == "safe"))
        haunted = [t for t in depths if t.data.get("haunted")]
        if depths and _total(haunted) != 4:
            report_count(reporter, game, _at_fault(game, haunted or depths),
                         "haunted" if haunted else "count",
                         f"{_total(haunted)} haunted depth tiles; the rulebook has 4 (L430-432)", "",
                         ("tile", "tiles", lambda d: d.get("area") == "depths" and d.get("haunted")))
        rooms = game.entities.get("room", {})
        icons = game.entities.get("tunnel_icon", {})
        for t in tiles:
            for i, cell in enumerate(t.data.get("cells") or []):
                if cell[2] not in rooms:
                    report(reporter, t, ("cells", i, 2), f"unknown room {cell[2]!r}")
                if t.data.get("area") != "start" and len(cell[3]) < 1:
                    report(reporter, t, ("cells", i, 3), "a tile needs at least one tunnel")
            for edge, marks in (t.data.get("icons") or {}).items():
                if all(edge not in cell[3] for cell in t.data.get("cells") or []):
                    report(reporter, t, ("icons", edge), f"icons on edge {edge}, which has no tunnel")
                for i, mark in enumerate(marks or []):
                    if mark in EDGE_MARKS:
                        continue
                    if mark not in icons or mark in EVERY_CROSSING:
                        known = sorted(set(icons) - set(EVERY_CROSSING)) + list(EDGE_MARKS)
                        report(reporter, t, ("icons", edge, i),
                               f"unknown tunnel icon {mark!r} on edge {edge}",
                               "a tile's tunnels carry tunnel icons by id: " + ", ".join(known))
    _placed(game, reporter, tiles)
    _tokens_gained(game, reporter)
    _types_held(game, reporter)
    for token in game.of_kind("token"):
        _check_token_after_use(token, reporter)


def _check_token_after_use(token, reporter: dg.Reporter) -> None:
    """A token with a `use` is held until used, then goes back to the box (engine.py; its
    `after_use` is only printed): a pack's Relic Shard with a `use` and 3 points at game end
    was printed "kept to the end" and left play when used, and one not kept left play as soon
    as it was gained (rules.kept_when_gained), its use never run."""
    d = token.data
    if not d.get("use"):
        return
    if not kept_when_gained(d.get("kept"), d.get("points"), d.get("token_type")):
        report(reporter, token, "use", "this token is never used: the engine puts a token that "
               "is not kept back in the box as soon as it is gained (L622-631)",
               "add `kept: true`, so that it is held until its owner uses it")
    elif d.get("after_use") == "keep":
        report(reporter, token, "after_use", "after_use keep is printed, but the engine puts a "
               "token back in the box once it is used (its end-of-game points and scoring with it)",
               "set after_use: box, or leave it out (the sheets then print where it goes)")


# the verbs that hand a player tokens of a type from its pile or the supply (rules.py)
GAINS = ("take_token", "gain_random")


def _tokens_gained(game: Game, reporter: dg.Reporter) -> None:
    """A token of a pack's new type comes into play only by an effect's `take_token` or
    `gain_random` of the type (the engine itself hands out the game's own types: treasures
    placed in rooms, the mastery token on escaping...): a pack's token no effect gains is
    never used, whatever its effect says, so check says so at its type (a warning, as for
    Dungeontology's region token no card places). A type an effect computes (a keyword's
    parameter) may be any: no warning."""
    gained: set[str] = set()
    sites = [site for entity in game.all() for site in entity.effects]
    for site in [*sites, *game.keyword_sites.values()]:
        for node in nodes.walk(site.ast) if site.ast is not None else ():
            if not isinstance(node, nodes.Call) or node.verb not in GAINS or not node.args:
                continue
            kind = node.args[0]
            if not (isinstance(kind, nodes.Name) and len(kind.parts) == 1):
                return
            gained.update(DRAWN_AS.get(kind.parts[0], (kind.parts[0],)))
    tokens = game.of_kind("token")
    # the game's own types (a pack's replacement of a base token keeps its base's)
    base = {(t if t.pack == game.id else _base(game, t)).data.get("token_type") for t in tokens
            if t.pack == game.id or _base(game, t) is not None}
    for token in tokens:
        kind = token.data.get("token_type")
        if token.pack != game.id and kind not in gained and kind not in base:
            report(reporter, token, "token_type",
                   f"token {token.id!r} is a {kind!r}, which no effect gains (`take_token`, "
                   "`gain_random`): play never hands it to a player",
                   hint=f"add a room, card or token whose effect says `gain_random {kind} 1` "
                        f"(a room on a tile), or give the token a type play hands out: "
                        f"{', '.join(sorted(base | gained))}",
                   code=dg.GAME_RULE_WARNING)


# token types `has_token` finds without a token entity (handlers.Queries.has_token): the mastery
# token the engine hands out on escaping; a crown is the market item of that id
HELD_BUILT_IN = ("mastery",)


def _types_held(game: Game, reporter: dg.Reporter) -> None:
    """`has_token(T)` holds only while a player holds something of type T: a token of that
    token_type, or the market item `crown` (handlers.Queries.has_token). A pack removing the
    Crown market item checked clean and left the Prince's 5 points never scored (found by the
    sixteenth packs blind round): said at the pack's `remove` entry, else at the name, as
    The Cave's option never open (TC-G002)."""
    carried = {t.data.get("token_type") for t in game.of_kind("token")} | set(HELD_BUILT_IN)
    if "crown" in game.entities.get("market_item", {}):
        carried.add("crown")
    said = set()
    for entity in game.all():
        for site in entity.effects:
            for node in nodes.walk(site.ast) if site.ast is not None else ():
                if not isinstance(node, nodes.Func) or node.name != "has_token" or not node.args:
                    continue
                arg = node.args[0]
                if not (isinstance(arg, nodes.Name) and len(arg.parts) == 1) \
                        or arg.parts[0] in carried:
                    continue
                value = arg.parts[0]
                removal = removal_entry(game, "market_item", value) if value == "crown" \
                    else removal_entry(game, "token")
                user = f"{entity.kind} {entity.id!r}"
                if removal is not None and removal[2] != entity.pack:
                    doc, i, _ = removal
                    if (id(doc), i, value) in said:
                        continue
                    said.add((id(doc), i, value))
                    mark = doc.mark(("remove", i))
                    reporter.add(dg.GAME_RULE_WARNING,
                                 f"removing this leaves no {value!r} a player could hold: "
                                 f"`has_token({value})` in {user} ({entity.display}) is never "
                                 "true", display_path(doc.path), mark.line, mark.column,
                                 f"remove or replace {user} too, or replace what you removed")
                    continue
                line, column = entity.doc.effect_position(site.path, arg.pos.line,
                                                          arg.pos.column)
                reporter.add(dg.GAME_RULE_WARNING,
                             f"no token has token_type {value!r}: `has_token({value})` is never "
                             "true", entity.display, line, column,
                             "add a token of that type, or name another: "
                             + ", ".join(sorted(str(v) for v in carried if v)))


def _placed(game: Game, reporter: dg.Reporter, tiles) -> None:
    """Every room and tunnel icon with an effect is on a tile (the tunnel icons run on every
    crossing aside): else no sim ever enters or crosses it, whatever check accepts. A pack's
    own room or icon that no tile carries is refused; a base one that a pack's tile
    replacement leaves on no tile is only warned about (the pack may mean to retire it)."""
    if not tiles:
        return
    on_tiles = {cell[2] for t in tiles for cell in t.data.get("cells") or [] if len(cell) > 2}
    carried = {mark for t in tiles for marks in (t.data.get("icons") or {}).values()
               for mark in marks or []}
    for room in game.of_kind("room"):
        if room.id in on_tiles or not room.effects:
            continue
        message = (f"room {room.id!r} is on no tile: no tile's cells name it, so no player "
                   "can ever enter it")
        hint = ("put it on a tile: add a tile whose cells name it, or replace a base tile (same "
                "id, `replace: true`) to keep the rulebook's tile counts")
        taker = _took_off(game, tiles, lambda cells, r=room.id: any(
            len(c) > 2 and c[2] == r for c in cells or []))
        if room.pack == game.id and taker is not None:   # said at the pack's tile
            report(reporter, taker, "cells", message + f" (this tile replaced the game's "
                   f"{taker.id!r}, which had it)", "keep the room in the tile's cells, or "
                   "remove the room if the pack retires it", dg.GAME_RULE_WARNING)
            continue
        report(reporter, room, "room_type", message, hint, _severity(game, room))
    for icon in game.of_kind("tunnel_icon"):
        if icon.id in carried or icon.id in EVERY_CROSSING or not icon.effects:
            continue
        message = f"tunnel icon {icon.id!r} is on no tile's tunnel, so no crossing ever runs it"
        taker = next((t for t in tiles if t.pack != game.id and _base(game, t) is not None
                      and any(icon.id in (marks or []) for marks in
                              (_base(game, t).data.get("icons") or {}).values())), None)
        if icon.pack == game.id and taker is not None:   # said at the pack's tile
            report(reporter, taker, "icons" if "icons" in taker.data else "id", message
                   + f" (this tile replaced the game's {taker.id!r}, which had it)",
                   "keep the icon on one of the tile's tunnels", dg.GAME_RULE_WARNING)
            continue
        report(reporter, icon, "icon", message,
               "put it on a tile: name it in a tile's `icons` (by edge, e.g. {N: [" + icon.id
               + "]}) of a new tile, or of a base tile replaced with `replace: true`",
               _severity(game, icon))


def _severity(game: Game, entity) -> str:
    return dg.GAME_RULE_WARNING if entity.pack == game.id else dg.GAME_RULE


def _base(game: Game, tile):
    """The base game's tile a pack's tile replaced (through other packs' replacements)."""
    old = tile.replaced
    while old is not None and old.pack != game.id:
        old = old.replaced
    return old


def _took_off(game: Game, tiles, carried):
    """The pack's tile that replaced a base tile whose cells `carried(cells)` held, or None."""
    return next((t for t in tiles if t.pack != game.id and _base(game, t) is not None
                 and carried(_base(game, t).data.get("cells"))), None)
