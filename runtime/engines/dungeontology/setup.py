"""Dungeontology's setup: the state of a new game and the opening deal."""
from __future__ import annotations


from tomecraft.runtime.engines.dungeontology.draws import choice, shuffle
from tomecraft.runtime.engines.dungeontology.state import START_HAND, Scholar, State, Tile


# --- setup ---------------------------------------------------------------------------
def new_state(data, players: int, rng, options: dict | None = None) -> State:
    """L256-290."""
    options = options or {}
    st = State(players)
    regions = sorted(data.kinds["region"].values(), key=lambda r: r.id)
    start = next(r for r in regions if r.start)
    for level in (1, 2, 3):
        stack = [r for r in regions if r.level == level and not r.start]
        shuffle(rng, stack)
        st.stacks[level] = stack
    for block in data.kinds["info_block"].values():
        st.reserve_blocks[block.colour] = block.count
    st.tiles[(0, 0)] = Tile((0, 0), start, [], entered=True)
    scholars = sorted(data.kinds["scholar"].values(), key=lambda s: s.id)
    shuffle(rng, scholars)
    st.reserve_students = 40
    st.reserve_omega = 5
    for seat in range(players):
        s = Scholar(seat, scholars[seat], (0, 0))
        s.students = s.stats().students_value
        st.reserve_students -= s.students
        st.scholars.append(s)
    st.randomizer = sorted(data.kinds["randomizer_card"].values(), key=lambda c: c.id)
    colours = {s.colour for s in st.scholars}
    draw = list(st.randomizer)
    shuffle(rng, draw)
    first = next(c for c in draw if c.triangle in colours)      # draw until it applies (gap 24)
    st.first = next(s.seat for s in st.scholars if s.colour == first.triangle)
    st.deck = [c.id for c in sorted(data.kinds["scheme_card"].values(), key=lambda c: c.id)
               for _ in range(c.count)]
    shuffle(rng, st.deck)
    st.doom_deck = sorted(data.kinds["doom_card"])
    shuffle(rng, st.doom_deck)
    st.traps = [t for t in sorted(data.kinds["token"].values(), key=lambda t: t.id)
                if t.token == "trap_token" for _ in range(t.count or 0)]
    shuffle(rng, st.traps)
    alerts = sorted(data.kinds["alert_card"])
    default = "alert_standard" if "alert_standard" in alerts else alerts[0]     # R-alert
    st.alert_card = data.get("alert_card", options.get("alert", default))
    bosses = sorted(data.kinds["boss"])     # a pack's boss is drawn too (one boss: no draw)
    boss = data.get("boss", options.get("boss") or (choice(rng, bosses) if len(bosses) > 1 else bosses[0]))
    side = options.get("boss_side") or choice(rng, [s.side for s in boss.sides])
    st.boss = next(s for s in boss.sides if s.side == side)
    panics = [p for p in sorted(data.kinds["panic_card"].values(), key=lambda p: p.id)
              if p.boss in (None, boss.id)]
    st.panic = choice(rng, panics)
    st.clan = choice(rng, sorted(data.kinds["clan_card"].values(), key=lambda c: c.id))
    normal = st.alert_card.normal_per_player * players
    st.bag["normal"] = min(normal, st.reserve_students)
    st.reserve_students -= st.bag["normal"]
    st.bag["omega"] = st.alert_card.omega
    st.reserve_omega -= st.alert_card.omega
    return st


def deal(engine) -> None:
    """The opening hands, from the first player on (`engine` is the game's Engine)."""
    st = engine.state
    for i in range(len(st.scholars)):
        who = st.scholars[(st.first + i) % len(st.scholars)]
        engine.draw_cards(who, START_HAND[i])                   # 1/2/3/4 by seat (L265)
