"""The dragon's draws of a Clank! scenario (`setup.bag_draws`): each cube it draws, in order.

A list that runs short of the draws played is a failure (the draws past it were taken as the
bag's first cube, seat 0's, and damage came from nowhere); so is a list with cubes left over
when the steps end (the writer counted more draws than the rage space gives, L540, L589).
With no list at all, every draw takes the bag's first cube (a fixed order, never random)."""
from __future__ import annotations


class ScriptedRng:
    """The dragon's draws as scripted (`bag_draws`); shuffles keep the given order."""

    def __init__(self, draws: list) -> None:
        self.draws = list(draws)
        self.listed = len(self.draws)

    def choice(self, options):
        if self.draws:
            want = self.draws.pop(0)
            if want not in options:
                raise AssertionError(f"scripted draw {want!r} is not in the bag {sorted(set(options), key=str)}")
            return want
        if self.listed:
            raise AssertionError(f"bag_draws: the dragon draws more cubes than the {self.listed} listed: "
                                 f"list every cube it draws, in order (L540)")
        return options[0]

    def shuffle(self, items) -> None:
        return None

    def left_over(self) -> str | None:
        """The failure of a list with cubes never drawn, once the steps are played."""
        if self.draws:
            return (f"setup: bag_draws: {len(self.draws)} listed cube(s) never drawn ({self.draws}): "
                    f"list only the cubes the dragon draws")
        return None
