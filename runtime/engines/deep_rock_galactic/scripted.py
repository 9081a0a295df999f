"""The die faces a Deep Rock Galactic scenario scripts by name (`rolls: [[teeth], [1, blank]]`),
and a face named back as the scenario wrote it (board.roll's refusal of a face the rolled die
lacks)."""
from __future__ import annotations


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
