"""What a Deep Rock Galactic scenario scripts: its decisions (`choose`, ScenarioAgent), the die
faces it names (`rolls: [[teeth], [1, blank]]`), and a face named back as the scenario wrote it
(board.roll's refusal of a face the rolled die lacks)."""
from __future__ import annotations

from tomecraft.runtime.agents import ScriptedAgent, ScriptError
from tomecraft.runtime.scenario import ScenarioError


FACES = {"1": {"face": "hit", "hits": 1}, "2": {"face": "hit", "hits": 2},
         "blank": {"face": "blank", "hits": 0}, "scare": {"face": "scare", "hits": 0},
         "teeth": {"face": "teeth"}, "bang": {"face": "bang"}, "gold": {"face": "four_squares"},
         "nitra": {"face": "long_bar"}}


def written_face(face: dict) -> str:
    """A scripted face as a scenario writes it: `gold`, not the mineral die's `four_squares` it
    stands for (a refused `[[gold]]` for a Grunt named a face the file never wrote)."""
    key = (face["face"], face.get("hits") or 0)
    alias = next((name for name, f in FACES.items() if (f["face"], f.get("hits") or 0) == key), None)
    plain_name = f"{key[0]} {key[1]}" if key[1] else key[0]
    return plain_name if alias in (None, plain_name) else f"{alias} ({plain_name})"


class NotOffered(ScriptError):
    """A well-formed scripted choice the engine did not offer this time: a refusal."""


class ScenarioAgent(ScriptedAgent):
    """Scripted decisions. A choice the engine does not offer now is a refusal only if the
    engine could offer it at all: a space of the map, a mapping with the options' keys, a
    value of the options' type. Anything else, or a missing choice, is a scenario error."""

    def __init__(self, cells: dict) -> None:
        super().__init__()
        self.cells, self.names = cells, {}

    def choose(self, key, options, view=None):
        # which tied monster acts first is asked by uid: shown as the {monster: id} to write
        shown = [{"monster": next((n for n, u in self.names.items() if u == o), o)} for o in options] \
            if key == "activation_order" else list(options)
        if key == "monster_end" and not (self.choices and any(self.matches(key, self.choices[0], o)
                                                              for o in options)):
            return options[0]     # the rulebook is silent (rule monster_end_tie): unscripted, the engine's pick
        if not self.choices:
            raise ScenarioError(f"no scripted choice for decision {key!r}; options: {shown}")
        want = self.choices[0]
        try:
            return super().choose(key, options, view)
        except ScriptError:
            if not self.could_offer(want, list(options)):
                raise ScenarioError(f"scripted choice {want!r} for {key!r} matches nothing the engine "
                                    f"could offer; options: {shown}") from None
            raise NotOffered(f"{want!r} is not offered for {key!r}; options: {shown}") from None

    def could_offer(self, want, options: list) -> bool:
        if isinstance(want, tuple) and len(want) == 2 and all(isinstance(v, int) for v in want):
            return want in self.cells
        if isinstance(want, dict):
            return any(isinstance(o, dict) and set(want) <= set(o) for o in options) or \
                any(all(hasattr(o, k) for k in want) for o in options if not isinstance(o, dict))
        return any(type(o) is type(want) for o in options)
