"""Setting up a game of The Cave: the starting board, the shuffled stacks and the teams; and
how the process plays it (`paused_collection`)."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from types import SimpleNamespace

from tomecraft.runtime.effects import EffectError
from tomecraft.runtime.engines.the_cave.state import Cell, State, Team


def new_state(data, players: int, rng, board_id: str | None = None) -> State:
    """L32-39: the starting board for the player count, 4 shuffled stacks minus discards."""
    boards = [b for b in data.kinds["start_board"].values() if players in b.players]
    if board_id:
        boards = [data.get("start_board", board_id)]
    if not boards:
        raise EffectError(f"no starting board for {players} players")
    board = sorted(boards, key=lambda b: b.id)[0]
    kinds = data.kinds["tile_kind"]
    cells = {}
    for i, (x, y, exits) in enumerate(board.cells):
        kind = kinds["start"] if i == 0 else kinds["normal"]     # D-21
        cells[(x, y)] = Cell((x, y), kind, exits, 0, tile_id=board.id)
    base = (board.cells[0][0], board.cells[0][1])
    stacks = []
    for n in (1, 2, 3, 4):
        pile = []
        for tile in sorted(data.kinds["tile"].values(), key=lambda t: t.id):
            if tile.stack == n:
                pile.extend([tile] * tile.count)
        rng.shuffle(pile)
        pile = pile[board.discard_per_stack[n - 1]:]     # removed unseen (L38)
        stacks.append(pile)
    teams = [Team(seat, base) for seat in range(players)]
    return State(cells, teams, base, stacks)


def tile_stub(spec: str, stack: int = 1, index: int = 0):
    """A tile for scenarios: "kind:EXITS"."""
    kind, _, exits = spec.partition(":")
    return SimpleNamespace(id=f"scenario_{kind}_{index}", tile_kind=kind, exits=exits or "NESW",
                           stack=stack, count=1)


@contextmanager
def paused_collection():
    """The cyclic garbage collector paused while a game is played (engine.play_game). The
    simulated player's trial copies of the game hold no cycle (trials.py): refcounting frees
    each as soon as it is dropped, yet the thousands of objects each makes set off a
    collection every few hundred allocations, and now and then a full one that walks every
    object the process holds (the content, the caches): measured, 6-11% of a sim's time,
    for nothing to collect. The few cycles a game leaves (about 2,000 objects: its engine,
    handlers, state) are collected after it, as before. The collector's state is put back
    as it was (left off if the caller had turned it off)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
