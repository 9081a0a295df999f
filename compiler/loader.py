"""Load YAML safely, keeping the file, line and column of every node.

libyaml (through ruamel.yaml's C composer) builds the node graph with marks; we convert it to
plain Python data ourselves so that every key and value keeps its position, duplicate keys
and tags are refused, and alias expansion, nesting and size are bounded. Untrusted input
never reaches a constructor that could build arbitrary objects.
"""
from __future__ import annotations

import io
import os
import re
from array import array
import stat
from collections import OrderedDict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.cyaml import CSafeLoader
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (MappingEndEvent, MappingStartEvent, SequenceEndEvent,
                                SequenceStartEvent, StreamEndEvent)
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError

from tomecraft.compiler import diagnostics as dg

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_ALIAS_NODES = 10_000
MAX_INT = 2**63 - 1

_STR = "tag:yaml.org,2002:str"
_PLAIN_TAGS = {
    _STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:timestamp",  # kept as the string the author wrote
}


def _core_scalar(tag: str, value: str):
    """YAML 1.2 core-schema values, the resolver's tags being already decided by libyaml."""
    text = value.replace("_", "")
    try:
        if tag.endswith(":int"):
            sign = -1 if text.startswith("-") else 1
            digits = text.lstrip("+-")
            if len(digits.lstrip("0ox").lstrip("0")) > 40:  # beyond MAX_INT in any base
                return _TooBig(value)  # never converted: 5,000 digits would be slow to read
            if digits[:2] in ("0o", "0x"):
                number = sign * int(digits[2:], 8 if digits[1] == "o" else 16)
            else:
                number = sign * int(digits)
            return number if abs(number) <= MAX_INT else _TooBig(value)
        if tag.endswith(":float"):
            lowered = text.lower()
            if lowered.lstrip("+-") in (".inf",):
                return float(lowered.replace(".inf", "inf"))
            if lowered == ".nan":
                return float("nan")
            return float(text)
        if tag.endswith(":bool"):
            return value.lower() == "true"
        if tag.endswith(":null"):
            return None
    except ValueError:
        return value
    return value


class _TooBig(str):
    """An integer literal beyond MAX_INT: reported by the converter, never converted."""


@dataclass(frozen=True, slots=True)
class Mark:
    """Where a value starts: 1-based line and column, and the scalar style (for effects)."""
    line: int
    column: int
    style: str = ""


# A mark is stored packed in one int (line, column, scalar style): 0 means none.
_STYLES = ("", "'", '"', "|", ">")
_STYLE_CODE = {style: i for i, style in enumerate(_STYLES)}


_MAX_COLUMN = (1 << 21) - 1
_KEY_TAGS = frozenset({_STR, "tag:yaml.org,2002:int", "tag:yaml.org,2002:bool",
                       "tag:yaml.org,2002:null", "tag:yaml.org,2002:float",
                       "tag:yaml.org,2002:timestamp"})


def _tag_of(node) -> str | None:
    """node.tag, without ruamel's Tag.__str__ for the tags the resolver gave (a fifth of the
    load): those have no handle and nothing %-escaped, so their text is their suffix."""
    ctag = node.ctag
    suffix = ctag.suffix
    if ctag.handle is None and type(suffix) is str and "%" not in suffix:
        return suffix
    return node.tag


def _unpack(packed: int) -> Mark:
    return Mark(packed >> 24, (packed >> 3) & ((1 << 21) - 1), _STYLES[packed & 7])


@dataclass
class Document:
    """One loaded file: plain data plus the marks of every value and key.

    Marks are kept in three flat arrays indexed by node number (document order, each value
    numbered before what it holds), not by path: a path tuple, a dict entry and an int per
    value were most of a loaded file's memory (12 KB a card at 50,000 cards). `mark` finds a
    path's node by walking the data beside the subtree sizes. Read them through `mark`."""
    path: Path
    source: bytes  # the file as UTF-8 (read `text`): half the memory of a str with CJK in it
    data: object = None
    values: array = field(default_factory=lambda: array("Q"))  # packed mark of each value
    keys: array = field(default_factory=lambda: array("Q"))    # of its key (0: none)
    sizes: array = field(default_factory=lambda: array("I"))   # nodes in its subtree
    _children: dict = field(default_factory=dict, repr=False, compare=False)
    refused_nodes: set = field(default_factory=set, repr=False, compare=False)  # see refused()
    _text: str | None = field(default=None, repr=False, compare=False)

    @property
    def text(self) -> str:
        """The file's text (decoded when a diagnostic first needs it)."""
        if self._text is None:
            self._text = dg.normal_breaks(self.source.decode("utf-8"))
        return self._text

    def mark(self, path: tuple, key: bool = False) -> Mark:
        """The mark of the value (or key) at `path`, else of its nearest ancestor."""
        nodes = self._nodes(tuple(path))
        table = self.keys if key else self.values
        for node in reversed(nodes[1:]):
            if table[node]:
                return _unpack(table[node])
            if self.keys[node]:     # a value with no mark of its own (an alias's): its key
                return _unpack(self.keys[node])
        root = self.values[0] if self.values else 0
        return _unpack(root) if root else Mark(1, 1)

    def refused(self, path: tuple) -> bool:
        """True if the value at `path` was refused by the reader (a tag, a merge key): it is
        None and has no mark of its own, and the reader already said why."""
        nodes = self._nodes(tuple(path))
        return len(nodes) == len(path) + 1 and nodes[-1] in self.refused_nodes

    @property
    def marks(self) -> dict[tuple, tuple[int, int]]:
        """Every path of the document with its packed (value, key) marks, in document order."""
        out: dict[tuple, tuple[int, int]] = {}
        if self.values:
            self._collect((), 0, self.data, out)
        return out

    def _collect(self, path: tuple, node: int, value, out: dict) -> None:
        out[path] = (self.values[node], self.keys[node])
        for step, child in self._child_nodes(node, value).items():
            self._collect(path + (step,), child, value[step], out)

    def _nodes(self, path: tuple) -> list[int]:
        """Node numbers of the root and of each prefix of `path` that exists."""
        if not self.values:
            return []
        nodes, node, value = [0], 0, self.data
        for step in path:
            children = self._children.get(node)
            if children is None:
                children = self._child_nodes(node, value)
                if len(children) > 32:  # a long list (of cards): found once, not per lookup
                    self._children[node] = children
            try:
                node = children[step]
            except (KeyError, TypeError):
                break
            value = value[step]
            nodes.append(node)
        return nodes

    def _child_nodes(self, node: int, value) -> dict:
        """{key or index: node number} of the values a mapping or sequence node holds."""
        if isinstance(value, dict):
            steps = iter(value)
        elif isinstance(value, list):
            steps = iter(range(len(value)))
        else:
            return {}
        out, child = {}, node + 1
        for step in steps:
            out[step] = child
            child += self.sizes[child]
        return out

    def effect_position(self, path: tuple, line: int, column: int) -> tuple[int, int]:
        """Map a 1-based position inside the string scalar at `path` to the file.

        Works for plain, quoted, literal (|) and folded (>) scalars, on one line or several,
        by walking the source lines the scalar occupies.
        """
        mark = self.mark(path)
        value = self._value_at(path)
        if not isinstance(value, str):
            return mark.line, mark.column
        offset = _offset(value, line, column)
        positions = _char_positions(self.text, mark, len(value) + 1)
        if not positions:
            return mark.line, mark.column
        return positions[min(offset, len(positions) - 1)]

    def _value_at(self, path: tuple):
        value = self.data
        for key in path:
            try:
                value = value[key]
            except (KeyError, IndexError, TypeError):
                return None
        return value


def _offset(value: str, line: int, column: int) -> int:
    lines = value.split("\n")
    line = max(1, min(line, len(lines)))
    return sum(len(x) + 1 for x in lines[: line - 1]) + max(0, column - 1)


def _char_positions(text: str, mark: "Mark", wanted: int) -> list[tuple[int, int]]:
    """(line, column) in the file of each character of a scalar's value, in order.

    Line breaks inside the scalar (folded to a space or kept as a newline) map to the end
    of their source line. Escape sequences in double-quoted scalars are not decoded, so a
    column after one may be off by the escape's length; effects contain none in practice.
    """
    source = text.split("\n")
    out: list[tuple[int, int]] = []
    if mark.style in ("|", ">"):
        row = mark.line  # 0-based index of the line after the indicator
        indent = None
        while row < len(source) and len(out) < wanted:
            raw = source[row]
            if raw.strip():
                here = len(raw) - len(raw.lstrip(" "))
                if indent is None:
                    indent = here
                if here < indent:
                    break
                out.extend((row + 1, indent + j + 1) for j in range(len(raw) - indent))
                out.append((row + 1, len(raw) + 1))
            elif mark.style == "|":     # before the first line too: a map's blank top line
                # a literal block keeps a blank line's line break (a folded one turns the line
                # break before it into it): without it, everything after a blank line in a
                # literal block was placed one character late, a blank line inside a mission
                # map (M-06) on the row after it
                out.append((row + 1, 1))
            row += 1
        return out
    quote = 1 if mark.style in ("'", '"') else 0
    row, col = mark.line - 1, mark.column - 1 + quote
    first = True
    while row < len(source) and len(out) < wanted:
        raw = source[row]
        if first:
            body = raw[col:]
            start = col
            first = False
        else:
            body = raw.lstrip(" \t")
            start = len(raw) - len(body)
        if quote:
            closing = body.find(text_quote(mark.style))
            if closing >= 0:
                body = body[:closing]
                out.extend((row + 1, start + j + 1) for j in range(len(body) + 1))
                break
        out.extend((row + 1, start + j + 1) for j in range(len(body.rstrip())))
        out.append((row + 1, start + len(body.rstrip()) + 1))
        row += 1
    return out


def text_quote(style: str) -> str:
    return style


# libyaml reads these as line breaks (YAML 1.1), where an editor shows none
_ODD_BREAK = re.compile("[\x85\u2028\u2029]")


def _too_deep(text: str):
    """The mark where nesting first goes past MAX_DEPTH, else None: read on libyaml's event
    stream, which is built without recursion. Syntax errors are raised here as they would
    be by composing."""
    with _libyaml(text) as parser:
        depth = 0
        while True:
            event = parser.get_event()
            kind = type(event)
            if kind is MappingStartEvent or kind is SequenceStartEvent:
                if depth > MAX_DEPTH:  # the same count as _Converter's: the root is at depth 0
                    return event.start_mark
                depth += 1
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                depth -= 1
            elif kind is StreamEndEvent:
                return None


class _TooDeepToCompose(Exception):
    pass


# The nodes nested along one path that the composer may build before it gives up: past
# MAX_DEPTH collections (the converter refuses those, located), plus the root's and a leaf's.
COMPOSE_DEPTH = MAX_DEPTH + 3


class _BoundedComposer(CSafeLoader):
    """libyaml's composer, stopped once COMPOSE_DEPTH nodes are nested: the C composer
    recurses once per level (30,000 levels overflow an 8 MiB stack), and libyaml's scanner
    takes time in the square of the flow nesting (a 40,000-deep `{a: {a: ...` took 24 s).
    The composer calls the resolver's descend/ascend hooks around every node it builds, so
    counting there stops a deep file within a few levels past what the loader accepts, and
    every other file is read once."""
    depth = 0

    def descend_resolver(self, current_node, current_index) -> None:
        self.depth += 1
        if self.depth > COMPOSE_DEPTH:
            raise _TooDeepToCompose

    def ascend_resolver(self) -> None:
        self.depth -= 1


_TOO_DEEP = object()


def _compose(text: str):
    """The composed root node (None for an empty file), or _TOO_DEEP when the file nests
    deeper than COMPOSE_DEPTH."""
    with _libyaml(text, _BoundedComposer) as composer:
        try:
            return composer.get_single_node()
        except _TooDeepToCompose:
            return _TOO_DEEP


@contextmanager
def _libyaml(text: str, kind: type = CSafeLoader):
    """libyaml's parser over `text`, taken apart after use. A CSafeLoader refers to itself
    (as its own parser, composer, constructor and resolver), so only the cycle collector
    would free it and the whole file it holds; the loads run with the collector off, and at
    50,000 cards those leftovers were most of the peak memory."""
    parser = kind(io.StringIO(text))
    try:
        yield parser
    finally:
        parser.__dict__.clear()


class _Abort(Exception):
    pass


class _Converter:
    def __init__(self, doc: Document, reporter: dg.Reporter, display: str, text: str) -> None:
        self.doc = doc
        self.reporter = reporter
        self.display = display
        self.seen: set[int] = set()
        self.alias_nodes = 0
        self.strings: dict[str, str] = {}  # one object per distinct key or short value
        self.refused = False  # a value was refused: the document is reported, not used
        self.values, self.keys, self.sizes = doc.values, doc.keys, doc.sizes
        # A string can hold a control character only if the file does (raw) or has a
        # backslash (a double-quoted escape such as "\e"): else no string is searched.
        self.check_controls = "\\" in text or dg.find_control(text) is not None

    def error(self, code: str, message: str, node, hint: str = "") -> None:
        self.refused = self.refused or code in (dg.CONTROL_CHAR, dg.NUMBER_TOO_BIG)
        mark = node.start_mark
        self.reporter.add(code, message, self.display, mark.line + 1, mark.column + 1, hint)

    def enter(self, node, depth: int) -> bool:
        """Refuse nesting and alias expansion beyond the limits (the whole file is dropped);
        True if `node` is an alias's (a node already converted)."""
        if depth > MAX_DEPTH:
            self.error(dg.YAML_TOO_BIG, f"nesting deeper than {MAX_DEPTH} levels", node,
                       "flatten the structure")
            raise _Abort
        if id(node) in self.seen:  # an alias: its subtree is expanded once more
            self.alias_nodes += 1
            if self.alias_nodes > MAX_ALIAS_NODES:
                self.error(dg.YAML_TOO_BIG,
                           f"aliases expand to more than {MAX_ALIAS_NODES} nodes", node,
                           "remove the anchors and aliases (&name / *name)")
                raise _Abort
            return True
        self.seen.add(id(node))
        return False

    def tag_error(self, node) -> None:
        tag = node.tag
        if tag.endswith(":merge"):   # the fields it would bring are missing: say so, and where
            self.error(dg.YAML_TAG, "merge key `<<` is not allowed in content: the fields it "
                       "would bring in are not read", node, "write those fields out in this "
                       "mapping (an alias `*name` alone, as a whole value, is allowed)")
            return
        self.error(dg.YAML_TAG, f"tag {tag!r} is not allowed in content", node,
                   "write plain YAML values")

    def convert(self, node, depth: int, aliased: bool = False):
        """The plain value of `node`, numbered in document order (see Document)."""
        aliased = self.enter(node, depth) or aliased
        values = self.values
        number = len(values)
        values.append(0)
        self.keys.append(0)
        self.sizes.append(1)
        tag = _tag_of(node)
        if tag not in _PLAIN_TAGS:
            self.tag_error(node)  # a value without a mark: diagnostics point at its parent
            self.doc.refused_nodes.add(number)
            return None
        mark = node.start_mark
        if aliased:
            # libyaml shares an aliased node, marks and all: a diagnostic about the value
            # where `*name` uses it pointed at the anchor's line; with no mark of its own it
            # points at the nearest enclosing value or key, on the line that uses it
            result = self.scalar(node, tag) if type(node) is ScalarNode else (
                [self.convert(item, depth + 1, True) for item in node.value]
                if isinstance(node, SequenceNode) else
                self.mapping(node, depth, True) if isinstance(node, MappingNode) else None)
            self.sizes[number] = len(values) - number
            return result
        if type(node) is ScalarNode:
            values[number] = ((mark.line + 1) << 24 | min(mark.column + 1, _MAX_COLUMN) << 3
                              | _STYLE_CODE.get(node.style or "", 0))
            return self.scalar(node, tag)
        values[number] = (mark.line + 1) << 24 | min(mark.column + 1, _MAX_COLUMN) << 3
        if isinstance(node, SequenceNode):
            result = [self.convert(item, depth + 1) for item in node.value]
        elif isinstance(node, MappingNode):
            result = self.mapping(node, depth)
        else:
            return None
        self.sizes[number] = len(values) - number
        return result

    def scalar(self, node: ScalarNode, tag: str):
        if tag == _STR or tag == "tag:yaml.org,2002:timestamp":
            value = node.value
            if self.check_controls:
                self.refuse_controls(node)
            return self.strings.setdefault(value, value) if len(value) <= 40 else value
        value = _core_scalar(tag, node.value)
        if isinstance(value, _TooBig):
            self.error(dg.NUMBER_TOO_BIG, f"integer with {len(value)} characters is beyond the "
                       f"limit of {MAX_INT:,}", node, "no game counts that high; use a smaller "
                       "number, or quote it if it is text")
            return None
        if isinstance(value, str) and self.check_controls:
            self.refuse_controls(node)
        return value

    def refuse_controls(self, node: ScalarNode) -> None:
        found = dg.find_control(node.value)
        if found:
            char = f"U+{ord(found.group()):04X}"
            self.error(dg.CONTROL_CHAR, f"control character {char} in a string", node,
                       "remove it: only tab and newline are allowed in content text")

    def mapping(self, node: MappingNode, depth: int, aliased: bool = False) -> dict:
        result: dict = {}
        numbers: dict[str, int] = {}  # key -> node number of its value
        for key_node, value_node in node.value:
            key_tag = _tag_of(key_node) if isinstance(key_node, ScalarNode) else None
            if key_tag not in _KEY_TAGS:
                if key_tag is not None and key_tag not in _PLAIN_TAGS:
                    self.enter(key_node, depth + 1)
                    self.tag_error(key_node)
                else:
                    self.error(dg.YAML_KEY_TYPE, "a key must be a plain string", key_node)
                continue
            if self.check_controls and dg.find_control(key_node.value):
                self.refuse_controls(key_node)
                continue
            key = self.strings.setdefault(key_node.value, key_node.value)
            if key in result:
                first = _unpack(self.keys[numbers[key]])
                self.error(dg.YAML_DUPLICATE_KEY,
                           f"key {key!r} appears twice (first at line {first.line})", key_node,
                           "remove one of them")
                continue
            numbers[key] = number = len(self.values)
            result[key] = self.convert(value_node, depth + 1, aliased)
            if aliased:
                continue
            mark = key_node.start_mark
            self.keys[number] = (mark.line + 1) << 24 | min(mark.column + 1, _MAX_COLUMN) << 3
        return result


# libyaml's words for a line indented differently from the mapping or list it belongs to
_INDENTATION_PROBLEMS = ("did not find expected key", "did not find expected '-' indicator",
                         "mapping values are not allowed", "expected <block end>")


# libyaml's context for a bracket or quote still open when the error came: (what, its closer)
_OPENERS = {"while parsing a flow mapping": ("`{`", "`}`"),
            "while parsing a flow sequence": ("`[`", "`]`"),
            "while scanning a quoted scalar": ("quote", "the same quote")}


def _unclosed_hint(err) -> str:
    """Where the `{`, `[` or quote that is never closed was opened: libyaml reports the line
    where it gave up (the next key, or the end of the file), far from the mistake."""
    opener = _OPENERS.get(err.context or "")
    mark = err.context_mark
    if opener is None or mark is None:
        return ""
    return (f"the {opener[0]} at line {mark.line + 1}, column {mark.column + 1} is not closed: "
            f"end it with {opener[1]}")


def _syntax_hint(text: str, problem: str, line: int, column: int) -> str:
    """What to do about a YAML syntax error at `line`: a tab, a key with no colon, or a line
    indented differently from the line above it (libyaml names none of these)."""
    stray = text.find("\ufeff", 1)
    if stray != -1 and text.count("\n", 0, stray) < line:
        # a byte order mark inside the file (two files joined, one saved with it): invisible
        # in an editor, and the indentation hint named two equal columns
        at_line = text.count("\n", 0, stray) + 1
        return (f"line {at_line}, column {stray - text.rfind(chr(10), 0, stray)} holds an "
                "invisible U+FEFF (a byte order mark, as where two files were joined): delete it")
    if "\t" in text and ("tab" in problem or "found character" in problem):
        return "YAML indentation uses spaces, never tabs"
    if problem.startswith("could not find expected ':'"):
        return "a key and its value are written `key: value`: this key has no `:` after it"
    if not problem.startswith(_INDENTATION_PROBLEMS):
        return ""
    lines = text.split("\n")
    if line > len(lines):
        return ""
    before = lines[line - 1][:column - 1].rstrip()
    if before[-1:] in ("'", '"') and re.match(r"""\s*(- )?[^:#'"]+:\s*['"]""", before) \
            and before.count(before[-1]) >= 2:
        # `name: "worn key "oxygen@2""`: the value's quote closes early; the line's column
        # is its key's, so the indentation hint would name two equal columns
        return (f"the quoted value ends at the {before[-1]} before column {column}, and text "
                "follows it: a quote inside \"...\" is written \\\", inside '...' it is "
                "written '', or the value goes in the other kind of quotes")
    if problem.startswith("mapping values") and ": " in lines[line - 1][:column - 1]:
        # a second `: ` inside a plain value, as in an effect `if C: A` written unquoted
        return ("a `: ` inside a value is read as a new key: put the value in quotes "
                "(`effect: \"if C: A\"`)")
    above = [(n, _key_column(lines[n - 1])) for n in range(line - 1, 0, -1)
             if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")]
    if not above:
        return ""
    here = _key_column(lines[line - 1])
    columns = [f"line {above[0][0]} above it at column {above[0][1]}"]
    if above[0][1] > here:  # the line above is nested deeper: name the key this one may follow
        sibling = next(((n, c) for n, c in above if 1 < c <= here), None)
        if sibling is not None:
            columns.append(f"line {sibling[0]} at column {sibling[1]}")
    return (f"check the indentation: line {line} starts at column {here}, "
            f"{', '.join(columns)}; the keys of one mapping start in one column (an entity's "
            "under its `id:`, after `- `), and a key's own fields two spaces further in")


def _key_column(text: str) -> int:
    """The column (1-based) where a YAML line's key starts, after its indentation and `- `."""
    stripped = text.lstrip(" ")
    column = len(text) - len(stripped) + 1
    while stripped.startswith("- "):
        rest = stripped[2:].lstrip(" ")
        column += len(stripped) - len(rest)
        stripped = rest
    return column


def load(path: Path, reporter: dg.Reporter, display: str | None = None) -> Document | None:
    """Load one YAML file; report problems and return None if nothing usable was read.

    A file read again with the same bytes (under the same name) gives the same Document,
    read-only for everyone, and the same diagnostics: a process that compiles a game more
    than once (a build's packs over their base game, `balance`, `sim --pack`, the tests)
    composes each file once."""
    display = display or str(path)
    raw = read_regular(path, reporter, display)
    if raw is None:
        return None
    key = (os.fspath(path), display, raw)
    found = _memo.get(key)
    if found is None:
        scratch = dg.Reporter()
        found = (load_bytes(raw, path, scratch, display), scratch)
        _remember(key, found)
    else:
        _memo.move_to_end(key)
    doc, said = found
    reporter.merge(said)
    return doc


# The files loaded in this process, the most recently used last, up to MEMO_BYTES of source
# (their trees take about ten times that) and MEMO_FILES files.
_memo: OrderedDict[tuple, tuple[Document | None, dg.Reporter]] = OrderedDict()
MEMO_BYTES = 4 * 1024 * 1024
MEMO_FILES = 512
_memo_bytes = 0


def _remember(key: tuple, found: tuple) -> None:
    global _memo_bytes
    _memo[key] = found
    _memo_bytes += len(key[2])
    while _memo and (_memo_bytes > MEMO_BYTES or len(_memo) > MEMO_FILES):
        old, _ = _memo.popitem(last=False)
        _memo_bytes -= len(old[2])


def read_regular(path: Path, reporter: dg.Reporter, display: str,
                 limit: int = MAX_FILE_BYTES) -> bytes | None:
    """The bytes of a regular file that is not a symbolic link and not over `limit`.

    Nothing is read through a link: the file is opened with O_NOFOLLOW after an lstat, so
    a link swapped in between is refused too. Refusals never quote the file.
    """
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            reporter.add(dg.SYMLINK, "file is a symbolic link; it was not read", display, 1, 1,
                         "copy the file into place instead of linking it")
            return None
        if not stat.S_ISREG(info.st_mode):
            reporter.add(dg.FILE_UNREADABLE, "not a regular file", display, 1, 1)
            return None
        if info.st_size > limit:
            reporter.add(dg.YAML_TOO_BIG, f"file is {info.st_size} bytes; the limit is {limit}",
                         display, 1, 1, "split it into several files")
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            return handle.read(limit + 1)
    except OSError as err:
        reporter.add(dg.FILE_UNREADABLE, f"cannot read file: {err.strerror}", display, 1, 1)
        return None


def is_yaml_name(name: str) -> bool:
    """Whether a file name is a YAML file's: .yaml or .yml, in any case (Windows' TILES.YAML)."""
    return name.lower().endswith((".yaml", ".yml"))


def load_bytes(raw: bytes, path: Path, reporter: dg.Reporter, display: str) -> Document | None:
    if len(raw) > MAX_FILE_BYTES:
        reporter.add(dg.YAML_TOO_BIG, f"file is {len(raw)} bytes; the limit is {MAX_FILE_BYTES}",
                     display, 1, 1, "split it into several files")
        return None
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        column = err.start - (raw.rfind(b"\n", 0, err.start) + 1) + 1
        reporter.add(dg.FILE_UNREADABLE, "file is not valid UTF-8", display, line, column,
                     "save the file as UTF-8")
        return None
    if "\x00" in text:
        reporter.add(dg.FILE_UNREADABLE, "file contains a NUL character", display,
                     text[: text.index("\x00")].count("\n") + 1, 1)
        return None
    doc = Document(path, raw)
    if "\r" in text:
        # Windows (\r\n) and old Mac (\r) line breaks are line breaks to YAML, which reads
        # them as \n: reading them so here keeps every line and column, and the quoted lines,
        # those an editor shows
        text = dg.normal_breaks(text)
    reporter.sources[display] = raw  # diagnostics decode it only to quote a line
    odd_break = _ODD_BREAK.search(text)
    if odd_break:
        # libyaml reads NEL and the Unicode line and paragraph separators as line breaks
        # (YAML 1.1), where an editor shows none: every line after would be misplaced
        at = odd_break.start()
        reporter.add(dg.CONTROL_CHAR, f"character U+{ord(odd_break.group()):04X} (an invisible "
                     "line break) in the file", display, text.count("\n", 0, at) + 1,
                     at - text.rfind("\n", 0, at), "remove it, or use an ordinary newline")
        return None
    try:
        node = _compose(text)
        if node is _TOO_DEEP:
            mark = _too_deep(text)       # where: the event pass stops there too
            line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
            reporter.add(dg.YAML_TOO_BIG, f"nesting deeper than {MAX_DEPTH} levels",
                         display, line, column, "flatten the structure")
            return None
    except MarkedYAMLError as err:
        problem = err.problem or "YAML syntax error"
        mark = err.problem_mark or err.context_mark
        if problem.startswith("could not find expected ':'") and err.context_mark is not None:
            mark = err.context_mark  # the key with no colon, not the line after it
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        reporter.add(dg.YAML_SYNTAX, problem, display, line, column,
                     _unclosed_hint(err) or _syntax_hint(text, problem, line, column))
        return None
    except ReaderError as err:  # a control character: position is a UTF-8 byte offset
        before = text.encode("utf-8")[: int(err.position or 0)].decode("utf-8", "ignore")
        char = err.character if isinstance(err.character, int) else ord(str(err.character)[:1] or "?")
        reporter.add(dg.YAML_SYNTAX, f"character U+{char:04X} is not allowed "
                     f"({err.reason})", display, before.count("\n") + 1,
                     len(before) - (before.rfind("\n") + 1) + 1, "remove the control character")
        return None
    except (YAMLError, ValueError, RecursionError, MemoryError) as err:
        reporter.add(dg.YAML_SYNTAX, f"cannot parse YAML: {err}", display, 1, 1)
        return None
    if node is None:
        doc.data = None
        return doc
    converter = _Converter(doc, reporter, display, text)
    try:
        doc.data = converter.convert(node, 0)
    except _Abort:
        return None
    return None if converter.refused else doc
