"""The engine's remembered answers and cheaper copies give what the plain computation gives,
checked at every use across several played games (speed work must leave games identical)."""
from __future__ import annotations

import types

from tomecraft.generated.deep_rock_galactic import GAME
from tomecraft.runtime.agents import RandomAgent
from tomecraft.runtime.engines.deep_rock_galactic import board, hexgrid as hx, monsters, play_game, state
from tomecraft.runtime.rng import Rng

GAMES = [(4, 0), (3, 1), (2, 2), (1, 3)]      # (players, game): every count, BOSCO's solo game too


def _play(players: int, g: int) -> dict:
    rng = Rng(f"caches:{g}")
    agents = [RandomAgent(rng.fork(f"a{i}")) for i in range(players)]
    return play_game(GAME, players, rng.fork("game"), agents, {})


def test_a_parsed_map_is_each_callers_own():
    text = GAME.get("mission", "m01").map
    first = board.parse_map(text)
    first[(0, 0)] = "?"                         # a dig, a revealed segment: the caller's map changes
    again = board.parse_map(text)
    assert again == board.cells_of(text) and again is not first and again[(0, 0)] != "?"


def test_the_shared_search_answers_are_only_read(monkeypatch):
    """The distance maps hexgrid remembers are handed out shared: every caller in a played
    game only reads them (a read-only view of each raises on any write)."""
    remembered = hx._remembered

    def read_only(key, search, *args):
        found = remembered(key, search, *args)
        return types.MappingProxyType(found) if isinstance(found, dict) else found
    monkeypatch.setattr(hx, "_remembered", read_only)
    played = [_play(players, g) for players, g in GAMES]
    assert all(r["result"] in ("success", "failure") for r in played)


def test_a_copied_dwarf_or_monster_keeps_only_immutable_values_outside_its_containers(monkeypatch):
    """`_flat_twin` copies the fields of `_CONTAINER_FIELDS` alone: at every copy of the
    players' trials, every other field holds a number, text, a hex or None."""
    twin = state._flat_twin
    atoms = (int, float, str, bool, type(None))
    seen = []

    def checked(obj, memo):
        names, _ = state._CONTAINER_FIELDS[type(obj)]
        for name, value in vars(obj).items():
            if name not in names:
                assert isinstance(value, atoms) or (type(value) is tuple and all(
                    isinstance(v, atoms) for v in value)), (type(obj).__name__, name, value)
        out = twin(obj, memo)
        assert vars(out) == vars(obj)
        for name in names:
            value = getattr(obj, name)
            assert getattr(out, name) is not value and type(getattr(out, name)) is type(value)
        seen.append(type(obj))
        return out
    monkeypatch.setattr(state, "_flat_twin", checked)
    for players, g in GAMES:
        _play(players, g)
    assert state.Dwarf in seen and state.Monster in seen


def test_a_copied_dwarf_with_a_field_of_its_own_copies_every_container():
    d = state.Dwarf(0, "scout", (1, 1))
    d.extra = ["x"]                             # not a field of the class: looked at whole
    twin = state._flat_twin(d, {})
    assert twin.extra == ["x"] and twin.extra is not d.extra and twin.statuses is not d.statuses


def test_the_token_kinds_that_block_monsters_are_the_definitions():
    defs = {t.token: t for t in GAME.of("board_token")}
    assert board._blocking_kinds(defs) == {k for k, t in defs.items() if getattr(t, "blocks_monster_movement", False)}
    assert board._blocking_kinds(dict(defs)) == board._blocking_kinds(defs)     # another game's tokens


def _queue_search(starts, allowed, entering: bool, wanted=None, most=None) -> dict:
    """The plain breadth-first search (a queue), one check per step: entering, a step into n needs n allowed; leaving, a step out of h needs h allowed; it
    stops at the hex whose neighbours complete `wanted`, or before the first hex at `most`."""
    from collections import deque
    dist = {h: 0 for h in starts}
    todo = deque(sorted(dist))
    missing = -1 if wanted is None else len(set(wanted) - set(dist))
    while todo and missing != 0:
        h = todo.popleft()
        if most is not None and dist[h] + 1 > most:
            break
        if not entering and h not in allowed:
            continue
        for n in hx.neighbours(h):
            if n not in dist and (not entering or n in allowed):
                dist[n] = dist[h] + 1
                todo.append(n)
                missing -= wanted is not None and n in wanted
    return dist


def test_the_set_based_searches_give_the_plain_searchs_answer_in_its_order():
    """_bfs_entering and _bfs_leaving (their answers shared by the monsters' moves): on random
    boards, the plain search's hexes, distances and order, a `wanted` or `most` search too."""
    import random
    rnd = random.Random(3)
    hexes = [(r, c) for r in range(10) for c in range(10)]
    for _ in range(400):
        allowed = frozenset(h for h in hexes if rnd.random() < rnd.choice([0.5, 0.8, 0.95]))
        starts = rnd.sample(hexes, rnd.randint(1, 3))
        most = rnd.choice([None, 0, 1, 2, 4])
        wanted = frozenset(rnd.sample(hexes, rnd.randint(0, 5))) if rnd.random() < 0.7 else None
        assert list(hx._bfs_entering(starts, allowed, most=most).items()) == \
            list(_queue_search(starts, allowed, True, most=most).items())
        assert list(hx._bfs_leaving(starts, allowed, wanted=wanted).items()) == \
            list(_queue_search(starts, allowed, False, wanted=wanted).items())
        # behind fences (a shield's area, an IFG), up to `most`: the whole search's first hexes
        fences = tuple(frozenset(h for h in hexes if rnd.random() < 0.3) for _ in range(rnd.randint(1, 2)))
        whole = hx._bfs_entering(starts, allowed, fences)
        assert list(hx._bfs_entering(starts, allowed, fences, most=most).items()) == \
            [(h, n) for h, n in whole.items() if most is None or n <= most]


def _activate_all_per_kind(self, skip=frozenset(), move_and_attack=False) -> None:
    """Monsters.activate_all as it was: the monsters of each kind read at that kind's turn."""
    for kind in monsters._in_board_order(self.data):
        group = [m for m in self.state.monsters.values() if m.kind == kind.id and m.uid not in skip]
        if not group:
            continue
        near = self.walking_distances(group) if len(group) > 1 else {group[0].uid: 0}
        standing = self.standing_dwarves()
        while group and not self.state.result:
            m = self.next_to_act(group, near)
            group = [o for o in group if o is not m]
            if m.uid in self.state.monsters:
                self.activate(m, move_and_attack)
            if len(group) > 1 and self.standing_dwarves() != standing:    # L974: measured again
                near, standing = self.walking_distances(group), self.standing_dwarves()


def test_the_monsters_grouped_once_act_as_when_each_kind_is_read_at_its_turn(monkeypatch):
    """activate_all reads the monsters by kind again only when one was placed or removed:
    every activation of several games (the trials' too) comes in the same order as when
    each kind's monsters are read at its turn, and the games end alike."""
    activate = monsters.Monsters.activate

    def played(per_kind: bool) -> list:
        seen = []

        def noted(self, m, move_and_attack=False):
            seen.append((m.uid, m.kind, m.pos))
            return activate(self, m, move_and_attack)
        with monkeypatch.context() as patch:
            patch.setattr(monsters.Monsters, "activate", noted)
            if per_kind:
                patch.setattr(monsters.Monsters, "activate_all", _activate_all_per_kind)
            results = [_play(players, g) for players, g in GAMES]
        return [seen, [sorted((k, v) for k, v in r.items() if k != "usage") for r in results]]
    grouped, per_kind = played(False), played(True)
    assert len(grouped[0]) > 200 and grouped == per_kind


def test_the_steps_to_a_dwarf_remembered_by_the_enterable_set_are_the_plain_searchs(monkeypatch):
    """combat.steps_to (nearest_by_steps's per-dwarf search, kept by the monster kind's
    enterable set and the dwarf's space): at every ask of several games, the trials' too,
    the distances and order of the plain search, unremembered."""
    from tomecraft.runtime.engines.deep_rock_galactic import combat
    remembered = combat.steps_to
    asked = []

    def checked(starts, step):
        got = remembered(starts, step)
        plain = hx._bfs_leaving(starts, step.enterable | set(starts), step.fences, unfenced=set(starts))
        assert list(got.items()) == list(plain.items())
        asked.append(len(starts))
        return got
    monkeypatch.setattr(combat, "steps_to", checked)
    monkeypatch.setattr(monsters, "steps_to", checked)
    combat._STEPS_TO.clear()
    for players, g in GAMES:
        _play(players, g)
    # (over 900 asks since the drawer chooses tied move ends, rule monster_end_tie: his
    # agent draws once more at each, and the seeded games are other games)
    assert len(asked) > 900 and 1 in asked and max(asked) > 1      # one dwarf's, and all of theirs


def test_a_shot_asked_of_its_target_alone_is_taken_as_when_every_monster_is_looked_at(monkeypatch):
    """actions._takes runs the shot's `can` with `only_target` (Engine.select then gives the
    target alone, not every monster for the where-clause to sift): at every ask of several
    games, the answer the select of every monster gives; the where-clause looks at one."""
    from tomecraft.runtime.engines.deep_rock_galactic import actions, engine as drg_engine
    takes, answers, looked_at = actions._takes, [], []
    select = drg_engine.Engine.select

    def counted(self, ctx, kind, zone):
        got = select(self, ctx, kind, zone)
        if kind == "monster" and ctx.info.get("only_target") is not None:
            looked_at.append(len(got))
        return got

    def every_monster(self, ctx, kind, zone):
        if ctx.info.get("only_target") is not None:
            ctx = ctx.bind(info={k: v for k, v in ctx.info.items() if k != "only_target"})
        return select(self, ctx, kind, zone)

    def checked(engine, d, weapon, mode, target, aim):
        got = takes(engine, d, weapon, mode, target, aim)
        with monkeypatch.context() as plain:
            plain.setattr(drg_engine.Engine, "select", every_monster)
            assert takes(engine, d, weapon, mode, target, aim) == got
        answers.append(got)
        return got
    monkeypatch.setattr(actions, "_takes", checked)
    monkeypatch.setattr(drg_engine.Engine, "select", counted)
    for players, g in GAMES:
        _play(players, g)
    assert len(answers) > 300 and any(answers)
    assert len(looked_at) >= len(answers) and max(looked_at) == 1


def test_the_search_to_the_dwarves_reads_the_enterable_set_as_the_union_with_them():
    """hexindex.leaving with every_start (combat.steps_to's search, its enterable set kept
    as it is) gives the plain search through the enterable set and the starts, in its order,
    on random boards: starts inside it or not, one or several, given twice."""
    import random
    from tomecraft.runtime.engines.deep_rock_galactic import hexindex
    rnd = random.Random(7)
    hexes = [(r, c) for r in range(9) for c in range(9)]
    for _ in range(300):
        enterable = frozenset(h for h in hexes if rnd.random() < rnd.choice([0.4, 0.7, 0.9]))
        starts = tuple(rnd.choice(hexes) for _ in range(rnd.randint(1, 4)))
        assert list(hexindex.leaving(starts, enterable, every_start=True).items()) == \
            list(_queue_search(starts, enterable | set(starts), False).items())


def test_the_dwarf_a_move_goes_toward_asked_once_is_the_one_asked_again(monkeypatch):
    """move_monster asks nearest_by_steps once and hands the answer to `destination`: at
    every move of several games that goes past its attack spots, the destination is the one
    it finds asking again (nothing moves while a monster looks)."""
    destination, ends = monsters.Monsters.destination, []
    # where a tied move ends is the drawer's choice (rule monster_end_tie): asked twice, his
    # agent would draw twice; here he takes the first, so both asks see one answer
    monkeypatch.setattr(monsters.Monsters, "drawer_picks", lambda self, key, options: options[0])

    def checked(self, m, step, reach, toward_monsters, blocks=None, toward=monsters.UNASKED):
        got = destination(self, m, step, reach, toward_monsters, blocks, toward)
        assert destination(self, m, step, reach, toward_monsters, blocks) == got
        ends.append(toward is not monsters.UNASKED)
        return got
    monkeypatch.setattr(monsters.Monsters, "destination", checked)
    for players, g in GAMES[:2]:
        _play(players, g)
    assert len(ends) > 50 and any(ends)


def test_the_sight_lines_a_look_remembers_are_the_lines_drawn_again(monkeypatch):
    """A sight blocker's `sees` (a monster's look asks its spots again): at every ask of
    several games, the line of sight drawn anew through the blocker."""
    blocker, asked = board.Board.sight_blocker, []

    def checked(self, lob="none"):
        blocks = blocker(self, lob)
        sees = blocks.sees

        def compared(a, b):
            got = sees(a, b)
            assert got == hx.line_of_sight(a, b, blocks)
            asked.append(got)
            return got
        blocks.sees = compared
        return blocks
    monkeypatch.setattr(board.Board, "sight_blocker", checked)
    for players, g in GAMES[:2]:
        _play(players, g)
    assert len(asked) > 200 and any(asked) and not all(asked)
