"""Crawl Decks' battle (L125-143): lay a column out as rows, play cards and token stacks into
each row, the pre-battle window, then resolve the rows top to bottom. A mixin of `Engine`.
"""
from __future__ import annotations

from types import SimpleNamespace

from tomecraft.runtime.engines.dm_crawl_decks.state import ATTRIBUTES, Card, Row, Virtual


class Battle:
    # --- battle ---------------------------------------------------------------------------------
    def playable(self) -> list[Card]:
        return [c for c in self.state.hand if c.deck == "main"]     # loot cannot battle (L73)

    def play_options(self, row: Row | None) -> list[dict]:
        """The next play into a row (L127): any hand card, or a stack of face-up tokens of any
        attribute (L224-228), or `done`. A row may hold any number of cards and stacks, two
        stacks of one attribute too (L228: allowed, though a taller stack does as much and
        flips fewer tokens: the simulated player never plays them, rule r16)."""
        out = [{"do": "done"}]
        out += [{"card": name} for name in sorted({repr(c) for c in self.playable()})]
        out += [{"attr": a, "size": k} for a in ATTRIBUTES
                for k in range(1, self.state.tokens[a].up + 1)]
        return out

    def fill_row(self, row: Row) -> None:
        """Play cards and token stacks into one row, one at a time, until the player is done."""
        s = self.state
        while True:
            pick = self.ask("play", self.play_options(row))
            if pick.get("do") == "done":
                cards = sum(1 for c in row.player if isinstance(c, Card))
                s.stats["rows_over_3_cards"] += cards > 3     # plays the old cap r16 refused
                s.stats["rows_with_2_stacks"] += sum(isinstance(c, Virtual) for c in row.player) > 1
                return
            if "card" in pick:
                card = next(c for c in s.hand if repr(c) == pick["card"])
                self.remove(card)
                card.zone = "battlefield"
                row.player.append(card)
            else:
                tokens = s.tokens[pick["attr"]]
                tokens.up -= pick["size"]
                tokens.stacked += pick["size"]
                row.player.append(Virtual(pick["attr"], pick["size"]))

    def battle(self, column: int) -> None:
        s = self.state
        self.battle_windows.reset()
        col = s.columns[column]
        s.columns[column] = []
        s.rows = [Row(enemy=[card]) for card in reversed(col)]   # the top end is the top row
        for card in col:
            card.zone = "battlefield"
        self.settle()               # continuous effects now reach the battlefield (L280)
        self.log(f"battle column {column}: " + ", ".join(map(repr, reversed(col))))
        # B2: play from the bottom end to the top end (L127)
        for row in reversed(s.rows):
            self.current_row = row
            self.fill_row(row)
        self.current_row = None
        self.settle()
        # B3: pre-battle (L131): face up, relics, pre-battle effects (continuous already applied)
        self.battle_windows.enter("pre_battle")
        for row in s.rows:
            for card in row.enemy + row.player:
                if isinstance(card, Card) and not card.face_up:
                    card.face_up = True
        self.settle()
        self.relic_window("pre_battle")
        self.fire("pre_battle")
        # B4: rows from the top end to the bottom end (L133)
        for row in list(s.rows):
            if s.over:
                break
            self.resolve_row(row)
        s.rows = []
        self.current_row = None
        if s.over:
            return
        self.battle_windows.enter("post_battle")
        self.fire("post_battle")
        self.once_tracker.reset("battle")
        if not s.over:
            self.post_battle_events()
        self.end_scope("battle")            # the battle ends after its post-battle (L129, L143)

    def resolve_row(self, row: Row) -> None:
        s = self.state
        self.current_row = row
        self.battle_windows.enter("before_round")
        self.fire("before_round")
        self.battle_windows.enter("battle_round")
        self.relic_window("battle_round")
        self.fire("battle_round")
        self.battle_windows.enter("outcome")
        p = sum(self.points(c) for c in row.player)
        e = sum(self.points(c) for c in row.enemy)
        enemy = [c for c in row.enemy if isinstance(c, Card)]
        player = [c for c in row.player if isinstance(c, Card)]
        virtual = [c for c in row.player if isinstance(c, Virtual)]
        s.stats["rows"] += 1
        if p < e:                                               # ① defeat (L135)
            s.stats["defeats"] += 1
            if self.log_enabled:    # (not formatted with logging off)
                self.log(f"row lost {p} < {e}")
            damage = sum(self.power(c) for c in enemy)
            self.fire("defeat", SimpleNamespace(total=p, enemy=e))
            self.lose_hp(damage + (1 if p == 0 else 0))
            for c in enemy:
                self.discard(c)
            for c in player:
                self.send_to_graveyard(c)
        else:                                                   # ② / ③ victory (L136-137)
            s.stats["ties" if p == e else "wins"] += 1
            if self.log_enabled:    # (not formatted with logging off)
                self.log(f"row won {p} {'=' if p == e else '>'} {e}")
            self.fire("victory", SimpleNamespace(total=p, enemy=e))
            for c in enemy:
                self.send_to_graveyard(c)
            for c in player:
                if p == e:
                    self.send_to_graveyard(c)
                else:
                    self.discard(c)
        for v in virtual:                                       # L226: flip the top token
            tokens = s.tokens[v.attribute]
            tokens.up += v.size - 1
            tokens.down += 1
            tokens.stacked -= v.size
        for c in list(row.enemy + row.player):                  # anything an effect left behind
            if isinstance(c, Card) and c.zone == "battlefield":
                self.send_to_graveyard(c) if p >= e else self.discard(c)
        row.enemy.clear()
        row.player.clear()
        self.current_row = None

