"""The shapes of a scenario file's values, declared per game and checked before a runner
reads them: `pos: null` failed deep in a runner with "'NoneType' object is not subscriptable",
`hp: ten` with "invalid literal for int()", `log: []` passed as a search for the text "[]".

Each game's scenario module declares `SHAPES = {"setup": {key: shape}, "steps": {key: shape},
"expect": {key: shape}}` (a setup key's shape may be `records({...})`: a list of mappings
whose own keys have shapes). Only the keys named are checked, and only their shape: a key
the game does not know, or an id it does not have, is the runner's to refuse. `problem`
returns the first wrong value as (path, message): the path of the entry in the file (so
the failure is reported at its line), the message its written path, what is wanted and
what was written: `setup.players[0].pos: a position [x, y] (two whole numbers), not None`.
"""
from __future__ import annotations


class Shape:
    """`wants` says what is wanted, in the file's terms; `test(value)` says whether a value is
    of the shape; `inner(value, path)` yields (path, value, shape) of the parts to check next."""

    def __init__(self, wants: str, test, inner=None):
        self.wants, self.test, self.inner = wants, test, inner
        self.fields: dict = {}       # a record's (or a list of records') keys and their shapes

    def __or__(self, other: "Shape") -> "Shape":
        return either(self, other)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


COUNT = Shape("a whole number, 0 or more", lambda v: _whole(v) and v >= 0)
# how many times a step repeats: 0 plays nothing, and what follows checks the setup alone
TIMES = Shape("a whole number, 1 or more", lambda v: _whole(v) and v >= 1)
WHOLE = Shape("a whole number", _whole)
BOOL = Shape("true or false", lambda v: isinstance(v, bool))
TEXT = Shape("a text", lambda v: isinstance(v, str))
def text(wants: str) -> Shape:
    """A text, described as what it names ("a region id")."""
    return Shape(wants, lambda v: isinstance(v, str))


NULL = Shape("null", lambda v: v is None)
POS = Shape("a position [x, y] (two whole numbers)",
            lambda v: isinstance(v, list) and len(v) == 2 and all(map(_whole, v)))
SPACE = Shape("a space [r, c] (two whole numbers)",
              lambda v: isinstance(v, list) and len(v) == 2 and all(map(_whole, v)))
EXITS = Shape("the open sides as letters of NESW (e.g. EW)",
              lambda v: isinstance(v, str) and set(v) <= set("NESW"))
MAPPING = Shape("a mapping", lambda v: isinstance(v, dict))
ANY = Shape("anything", lambda v: True)


def either(*shapes: Shape, wants: str | None = None) -> Shape:
    """One of `shapes`: the first a value has is checked further."""
    def inner(value, path):
        for shape in shapes:
            if shape.test(value):
                if shape.inner:
                    yield from shape.inner(value, path)
                return
    return Shape(wants or " or ".join(s.wants for s in shapes),
                 lambda v: any(s.test(v) for s in shapes), inner)


def nullable(shape: Shape) -> Shape:
    return either(shape, NULL)


def one_of(*values, wants: str | None = None) -> Shape:
    return Shape(wants or "one of " + ", ".join(map(str, values)), lambda v: v in values)


def list_of(item: Shape, wants: str | None = None, length: int | None = None) -> Shape:
    """A list whose items each have the shape `item` (and `length` of them, if given)."""
    size = f" of {length}" if length is not None else ""
    text = wants or f"a list{size}, each {item.wants}"
    return Shape(text, lambda v: isinstance(v, list) and (length is None or len(v) == length),
                 lambda v, path: ((path + (i,), x, item) for i, x in enumerate(v)))


def fixed(*items: Shape, wants: str) -> Shape:
    """A list of len(items) values, each of its own shape ([item, points])."""
    return Shape(wants, lambda v: isinstance(v, list) and len(v) == len(items),
                 lambda v, path: ((path + (i,), x, s) for i, (x, s) in enumerate(zip(v, items))))


def counts(wants: str | None = None, of: Shape = COUNT) -> Shape:
    """A mapping of names to counts ({rope: 2})."""
    return Shape(wants or "a mapping of names to counts (e.g. {a: 2})", lambda v: isinstance(v, dict),
                 lambda v, path: ((path + (k,), x, of) for k, x in v.items()))


def record(fields: dict, wants: str | None = None) -> Shape:
    """A mapping whose keys named in `fields` have their shapes (others are the runner's)."""
    text = wants or "a mapping {" + _some(fields) + "}"
    shape = Shape(text, lambda v: isinstance(v, dict),
                  lambda v, path: ((path + (k,), v[k], s) for k, s in fields.items() if k in v))
    shape.fields = fields
    return shape


def records(fields: dict, wants: str | None = None) -> Shape:
    """A list of mappings, each a `record(fields)`."""
    shape = list_of(record(fields), wants or f"a list of mappings {{{_some(fields)}}}")
    shape.fields = fields
    return shape


def _some(fields: dict) -> str:
    names = list(fields)
    return ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")


def written(path: tuple) -> str:
    """("setup", "players", 0, "pos") as `setup.players[0].pos`."""
    head, *rest = path
    text = str(head)
    for part in rest:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def problem(scenario: dict, shapes: dict) -> tuple[tuple, str] | None:
    """(path, message) of the first value of the scenario not of its declared shape, else None.
    `shapes` is the game's SHAPES; the frame (setup a mapping, steps and expect lists of
    mappings) is checked before, by the CLI."""
    setup = scenario.get("setup")
    work = []
    if isinstance(setup, dict):
        work += [(("setup", k), v, shapes["setup"][k]) for k, v in setup.items() if k in shapes.get("setup", {})]
    for section in ("steps", "expect"):
        entries = scenario.get(section)
        declared = shapes.get(section, {})
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            if isinstance(entry, dict):
                work += [((section, i, k), v, declared[k]) for k, v in entry.items() if k in declared]
    work.reverse()
    while work:
        path, value, shape = work.pop()
        if not shape.test(value):
            return path, f"{written(path)}: {shape.wants}, not {_shown(value)}"
        if shape.inner:
            work.extend(reversed(list(shape.inner(value, path))))
    return None


def _shown(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def failure(found: tuple[tuple, str]) -> str:
    """The runner's failure for a problem: prefixed, as every failure, with its entry
    ("setup: ...", "steps[2]: ..."); the message names the path within."""
    path, message = found
    head = "setup" if path[0] == "setup" else f"{path[0]}[{path[1]}]"
    return f"{head}: {message}"


# Every game's steps answer decisions with `choose: [...]`, and every game's log expectation
# is a text: `choose: 3` crashed a runner, `log: []` looked for the text "[]", and `log: ""`
# (or `log: " "`, in every line that has a space) passed whenever anything was logged.
LOG_TEXT = Shape("a text (a line of the log contains it)", lambda v: isinstance(v, str) and bool(v.strip()))
COMMON = {"steps": {"choose": list_of(ANY, "a list of answers, in order ([...])")},
          "expect": {"log": LOG_TEXT}}


def described(shapes: dict, width: int = 96) -> str:
    """The shapes as `scenario format` prints them: the keys of one shape on one line
    (`setup.players[].gold, setup.rage: a whole number, 0 or more`), section by section."""
    lines = ["Values (checked before the run: a value of another shape fails at its line):"]
    for section, keys in shapes.items():
        by_wants: dict = {}
        for path, shape in _declared(section + ("[]" if section != "setup" else ""), keys):
            by_wants.setdefault(shape.wants, []).append(path)
        for wants, paths in by_wants.items():
            line = "  "
            for path in _grouped(paths):
                if len(line) + len(path) > width - 2 and line.strip():
                    lines.append(line.rstrip(", ") + ",")
                    line = "    "
                line += path + ", "
            lines.append(line.rstrip(", ") + f": {wants}")
    return "\n".join(lines)


def _grouped(paths: list) -> list:
    """["setup.players[].gold", "setup.players[].skill"] as ["setup.players[].{gold, skill}"]."""
    parents: dict = {}
    for path in paths:
        parent, _, key = path.rpartition(".")
        parents.setdefault(parent, []).append(key)
    return [f"{parent}.{keys[0]}" if len(keys) == 1 else f"{parent}.{{{', '.join(keys)}}}"
            for parent, keys in parents.items()]


def _declared(prefix: str, keys: dict):
    for key, shape in keys.items():
        path = f"{prefix}.{key}"
        yield path, shape
        if shape.fields:
            yield from _declared(path + ("[]" if shape.wants.startswith("a list") else ""), shape.fields)


def merged(*declared: dict) -> dict:
    out: dict = {"setup": {}, "steps": {}, "expect": {}}
    for shapes in (COMMON,) + declared:
        for section, keys in shapes.items():
            out[section].update(keys)
    return out
