"""The Cave's compile-time rules: four stacks of 20 tiles, one starting board per player count."""
from __future__ import annotations

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.game_checks import report
from tomecraft.compiler.model import Entity, Game
from tomecraft.runtime.engines.the_cave.state import BACKPACK_SLOTS


def check(game: Game, reporter: dg.Reporter) -> None:
    _check_slots(game, reporter)
    if any(d.code == dg.SCHEMA and d.severity == dg.ERROR for d in reporter.diagnostics):
        # a tile refused by its schema is left out: counting the stacks without it would
        # blame a stack (at a base tile) for the fan's typo, said already
        return
    _check_stacks(game, reporter)
    _check_boards(game, reporter)


def _check_slots(game: Game, reporter: dg.Reporter) -> None:
    """L46: a backpack has 8 slots; an item taking more could never be carried."""
    for item in game.of_kind("equipment"):
        slots = item.data.get("slots")
        if isinstance(slots, int) and slots > BACKPACK_SLOTS:
            report(reporter, item, "slots",
                   f"{item.id!r} takes {slots} slots; a backpack has {BACKPACK_SLOTS} (L46), "
                   "so no team could ever carry it", f"at most {BACKPACK_SLOTS}")


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
                report(reporter, (by_packs or in_stack)[-1], "count",
                       f"stack {stack} holds {per_stack.get(stack, 0)} tiles; the rulebook has 20 (L37)",
                       f"a pack keeps each stack at 20: remove a base tile of stack {stack} "
                       "(`remove: [{kind: tile, id: ...}]` in pack.yaml) or replace one (its id "
                       "with `replace: true`), or change this count" if by_packs else "")


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
