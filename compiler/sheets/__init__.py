"""Printable reference sheets: jinja2 -> HTML (screen) -> PDF (print, via WeasyPrint).

Each game's sheets live in their own module, compiler/sheets/<game>.py, which defines
`SHEETS = (Sheet(...), ...)` with the context function of each template; a game without a
module is skipped with a note. Adding a game's sheets touches no shared file.
Output: <out>/<game>/<sheet>.<lang>.html|pdf. The HTML is deterministic (no dates, sorted
content); the PDF carries no creation date and a fixed identifier, so it is reproducible too.

Content is untrusted: every template is autoescaped and content text enters only as data.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import jinja2
import markupsafe
from ruamel.yaml import YAML

from compiler import diagnostics as dg
from compiler.model import EffectSite, Entity, Game
from dsl import nodes as n
from dsl.parser import EffectSyntaxError, parse
from dsl.render import let_names, render

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "sheets"
LANGS = ("zh", "en")
FORMATS = ("html", "pdf")
HTML_LANG = {"zh": "zh-Hant", "en": "en"}


# --- text resources ------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _yaml_file(name: str) -> dict:
    return YAML(typ="safe").load((TEMPLATES / name).read_text(encoding="utf-8")) or {}


def labels(lang: str, game_id: str | None = None) -> dict[str, str]:
    """Static UI labels of the sheets in `lang` (templates/sheets/labels.yaml).

    A game's <game>.yaml may say `script: hans` (its rulebook is in Simplified characters:
    zh labels come from `zh_hans`, falling back to `zh`) and may override single labels
    under `labels: {zh: {...}, en: {...}}`."""
    base = _yaml_file("labels.yaml")
    result = dict(base[lang])
    own = _game_file(game_id)
    if lang == "zh" and own.get("script") == "hans":
        result.update(base.get("zh_hans", {}))
    result.update((own.get("labels") or {}).get(lang, {}))
    return result


def html_lang(lang: str, game_id: str | None = None) -> str:
    if lang == "zh" and _game_file(game_id).get("script") == "hans":
        return "zh-Hans"
    return HTML_LANG[lang]


def _game_file(game_id: str | None) -> dict:
    if game_id is None or not (TEMPLATES / f"{game_id}.yaml").is_file():
        return {}
    return _yaml_file(f"{game_id}.yaml")


def prose(game_id: str, lang: str) -> dict:
    """Game-specific prose of the sheets (templates/sheets/<game>.yaml), in `lang`."""
    return dict(_yaml_file(f"{game_id}.yaml")[lang])


def _harfbuzz_subset_missing() -> bool:
    """WeasyPrint subsets fonts with HarfBuzz when libharfbuzz-subset is installed; without
    it, fontTools takes ~10 s per CJK font per PDF."""
    try:
        from weasyprint.text.ffi import harfbuzz_subset
    except ImportError:
        return False
    return harfbuzz_subset is None


def fill(text: str, values: dict) -> str:
    """`{name}` placeholders -> values; unknown placeholders stay as they are."""
    for key, value in values.items():
        text = text.replace("{" + key + "}", str(value))
    return text


# --- what every sheet needs ----------------------------------------------------------------

@dataclass
class Footnotes:
    """Approximation notes of one sheet, numbered in order of first mention."""
    notes: list[dict] = field(default_factory=list)
    shown: set[tuple[str, str]] = field(default_factory=set)  # (kind, id) on this sheet
    _index: dict[str, int] = field(default_factory=dict)

    def mark(self, entity: Entity, lang: str) -> int | None:
        """Record that `entity` is on the sheet; its footnote number if it is approximated."""
        self.shown.add((entity.kind, entity.id))
        key = f"{entity.kind}:{entity.id}"
        if key in self._index:
            return self._index[key]
        lines = approximation_lines(entity)
        if not lines:
            return None
        self.notes.append({"n": len(self.notes) + 1, "name": name_of(entity, lang),
                           "lines": lines})
        self._index[key] = len(self.notes)
        return len(self.notes)


def approximation_lines(entity: Entity) -> list[str]:
    """The approximation notes of an entity: its note if it is one, then per-field notes."""
    lines = []
    if entity.source == "approximation":
        lines.append(str(entity.data.get("note", "")))
    for field_name, note in sorted((entity.data.get("approximations") or {}).items()):
        lines.append(f"{field_name}: {note}")
    return [line for line in lines if line]


def name_of(entity: Entity, lang: str) -> str:
    name = entity.data.get("name")
    if isinstance(name, dict) and name.get(lang):
        return str(name[lang])
    return entity.id


def text_of(value, lang: str) -> str:
    if isinstance(value, dict):
        return str(value.get(lang) or value.get("en") or "")
    return "" if value is None else str(value)


class Texts:
    """Renders effects of one game in one language, caching keyword parses."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game = game
        self.lang = lang
        # Identical effect strings share one AST (the parse cache), so they render once.
        self._rendered: dict[int, str] = {}

    def site(self, site: EffectSite) -> str:
        if site.ast is None:
            try:
                site.ast = parse(site.text)
            except EffectSyntaxError:
                return site.text
        text = self._rendered.get(id(site.ast))
        if text is None:
            text = self._rendered[id(site.ast)] = render(site.ast, self.game.vocab, self.lang)
        return text

    def effect(self, entity: Entity, path_suffix: tuple) -> str:
        site = site_at(entity, path_suffix)
        return self.site(site) if site is not None else ""

    def keyword(self, name: str) -> str:
        kw = self.game.vocab.keywords.get(name)
        if kw is None:
            return ""
        if kw.text is not None and not kw.params:
            return render(n.Block((n.Call(name, ()),)), self.game.vocab, self.lang)
        site = self.game.keyword_sites.get(name)
        return self.site(site) if site is not None else ""


def site_at(entity: Entity, suffix: tuple) -> EffectSite | None:
    for site in entity.effects:
        if site.path[len(entity.path):] == suffix:
            return site
    return None


def ap_cost(site: EffectSite | None, game: Game, lang: str) -> str:
    """The AP an effect pays (`pay ap N` anywhere in it, or in a keyword it uses), as text;
    "" if it pays none. Cached per distinct AST and language (the parse cache shares ASTs)."""
    if site is None or site.ast is None:
        return ""
    cache = game.__dict__.setdefault("_ap_cost", {})
    key = (id(site.ast), lang)
    if key not in cache:
        cache[key] = _ap_cost(site, game, lang)
    return cache[key]


def _ap_cost(site: EffectSite, game: Game, lang: str) -> str:
    amount = _ap_amount(site.ast, game, {}, 0)
    if amount is None:
        return ""
    value = _constant(amount)
    if value is not None:
        return str(value)
    return render(amount, game.vocab, lang, let_names(site.ast))


def _ap_amount(block: n.Block, game: Game, params: dict, depth: int):
    for node in n.walk(block):
        if isinstance(node, n.Call) and node.verb == "pay" and len(node.args) >= 2:
            what = node.args[0]
            if isinstance(what, n.Name) and what.parts == ("ap",) \
                    and "resource" in game.vocab.names.get("ap", {}):
                return _substitute(node.args[1], params)
        keyword = game.vocab.keywords.get(node.verb) if isinstance(node, n.Call) else None
        kw_site = game.keyword_sites.get(node.verb) if keyword is not None else None
        if kw_site is not None and kw_site.ast is not None and depth < 8:
            args = [a for a in node.args if not isinstance(a, n.KwArg)]
            bound = {p.name: _substitute(a, params) for p, a in zip(keyword.params, args)}
            found = _ap_amount(kw_site.ast, game, bound, depth + 1)
            if found is not None:
                return found
    return None


def _substitute(e, params: dict):
    """`e` with a keyword's parameter names replaced by the arguments of the call."""
    if isinstance(e, n.Name) and len(e.parts) == 1 and e.head in params:
        return params[e.head]
    if isinstance(e, n.BinOp):
        return n.BinOp(e.op, _substitute(e.left, params), _substitute(e.right, params))
    if isinstance(e, n.Neg):
        return n.Neg(_substitute(e.operand, params))
    return e


def _constant(e) -> int | None:
    """The value of an arithmetic expression of numbers; None if it has names."""
    if isinstance(e, n.Num):
        return e.value
    if isinstance(e, n.Neg):
        value = _constant(e.operand)
        return None if value is None else -value
    if isinstance(e, n.BinOp) and e.op in ("+", "-", "*", "//"):
        left, right = _constant(e.left), _constant(e.right)
        if left is None or right is None or (e.op == "//" and right == 0):
            return None
        return {"+": left + right, "-": left - right, "*": left * right,
                "//": left // right if right else 0}[e.op]
    return None


def majority_awards(counts: dict[str, int], points: list[int], tie_rule: str,
                    zero_scores: bool = False) -> dict[str, int]:
    """Majority bonus per team (rulebook L311-318): rank = teams above + 1; a tied team
    drops one rank (drop_one_rank) or takes the lowest rank its group spans."""
    awards = {}
    for team, count in counts.items():
        if count <= 0 and not zero_scores:
            awards[team] = 0
            continue
        above = sum(1 for c in counts.values() if c > count)
        tied = sum(1 for c in counts.values() if c == count)
        rank = above + 1
        if tied > 1:
            rank = rank + 1 if tie_rule == "drop_one_rank" else above + tied
        awards[team] = points[rank - 1] if rank <= len(points) else 0
    return awards


def kind_name(game: Game, kind: str, lang: str) -> str:
    spec = game.vocab.kinds.get(kind, {})
    return str(spec.get(lang, kind))


def sources_table(game: Game, lang: str, lab: dict, notes: Footnotes) -> dict:
    """The "Sources and approximations" section: every entity on the sheet with its source,
    reference and note (an approximation points at its footnote), and a count of the
    entities of other kinds, by source."""
    rows = []
    for entity in game.all():
        if (entity.kind, entity.id) not in notes.shown:
            continue
        number = notes._index.get(f"{entity.kind}:{entity.id}")
        rows.append({
            "kind": kind_name(game, entity.kind, lang),
            "name": name_of(entity, lang),
            "source": lab.get(f"source_{entity.source}", entity.source),
            "approx": number,
            "ref": str(entity.data.get("ref", "")),
            "note": "" if number else str(entity.data.get("note", "")),
        })
    others: dict[str, dict[str, int]] = {}
    for entity in game.all():
        if (entity.kind, entity.id) in notes.shown:
            continue
        source = "approximation" if approximation_lines(entity) else entity.source
        per = others.setdefault(entity.kind, {})
        per[source] = per.get(source, 0) + 1
    other_rows = [{"kind": kind_name(game, kind, lang), "count": sum(per.values()),
                   "sources": lab["list_sep"].join(
                       f"{lab.get('source_' + src, src)} {count}"
                       for src, count in sorted(per.items()))}
                  for kind, per in sorted(others.items())]
    return {"rows": rows, "others": other_rows}


# --- The Cave --------------------------------------------------------------------------------

def _rule_value(game: Game, ids: Iterable[str], default):
    rules = game.entities.get("rule", {})
    for rule_id in ids:
        if rule_id in rules:
            return rules[rule_id].data.get("value", default)
    return default


def _scoring(game: Game) -> Entity | None:
    entries = game.of_kind("scoring")
    return entries[0] if entries else None


# --- the registry ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Sheet:
    name: str                                             # file stem: rules, tokens...
    template: str                                         # under templates/sheets/
    title: str                                            # key of the title in labels.yaml
    context: Callable[[Game, str, Footnotes], dict]


class _Registry(Mapping):
    """game id -> its sheets, imported on first use from compiler/sheets/<game>.py."""

    def _module(self, game_id: str):
        if not re.fullmatch(r"[a-z][a-z0-9_]*", str(game_id)):
            return None
        if importlib.util.find_spec(f"{__name__}.{game_id}") is None:
            return None
        return importlib.import_module(f"{__name__}.{game_id}")

    def __getitem__(self, game_id: str) -> tuple[Sheet, ...]:
        module = self._module(game_id)
        if module is None:
            raise KeyError(game_id)
        return tuple(module.SHEETS)

    def __iter__(self):
        here = Path(__file__).parent
        return iter(sorted(p.stem for p in here.glob("*.py") if p.stem != "__init__"))

    def __len__(self) -> int:
        return len(list(iter(self)))


SHEETS: Mapping[str, tuple[Sheet, ...]] = _Registry()


class _Environment(jinja2.Environment):
    """The sheets' view models are dicts: look keys up first, so `row.name` in a template
    does not pay for a failed attribute lookup (an exception) on every access."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _printable(value):
    """Every value a template prints, without control characters (ESC, NUL...): HTML and
    PDF have no use for them and a terminal showing the file would obey them."""
    if isinstance(value, str) and dg.escape_controls(value) != value:
        cleaned = dg.strip_controls(value)
        return markupsafe.Markup(cleaned) if isinstance(value, markupsafe.Markup) else cleaned
    return value


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return _Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True, finalize=_printable,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True)


def render_html(game: Game, sheet: Sheet, lang: str) -> str:
    notes = Footnotes()
    context = sheet.context(game, lang, notes)
    lab = labels(lang, game.id)
    game_name = game.vocab.name.get(lang)
    context.update({
        "lang": lang, "html_lang": html_lang(lang, game.id), "game_name": game_name,
        "title": fill(lab[sheet.title], {"game": game_name}), "lab": lab,
        "footnotes": notes.notes, "sources": sources_table(game, lang, lab, notes),
    })
    return environment().get_template(sheet.template).render(context)


def write_pdf(html: str, path: Path) -> None:
    from weasyprint import HTML  # imported here: slow to import, only needed for PDFs
    document = HTML(string=html, base_url=str(TEMPLATES)).render()
    _write_atomic(path, document.write_pdf(pdf_identifier=b"tomecraft-sheet"))


def _write_atomic(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def render_game(game: Game, lang, formats, out: Path,
                progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write every sheet of `game` in `lang` (one language or several) and `formats`."""
    langs = [lang] if isinstance(lang, str) else list(lang)
    written = []
    for sheet in SHEETS.get(game.id, ()):
        for one in langs:
            html = render_html(game, sheet, one)
            written += write_formats(html, Path(out) / game.id / f"{sheet.name}.{one}", formats, progress)
    return written


def write_formats(html: str, stem: Path, formats, progress: Callable[[str], None] | None) -> list[Path]:
    """Write one rendered sheet as `stem.html` and/or `stem.pdf`."""
    written = []
    for fmt in formats:
        path = stem.with_name(f"{stem.name}.{fmt}")
        if progress:
            progress(f"writing {path}")
        if fmt == "html":
            _write_atomic(path, html.encode("utf-8"))
        else:
            write_pdf(html, path)
        written.append(path)
    return written


def run_cli(args) -> int:
    """`tomecraft sheets`: --game G or --all, --lang, --format, --out."""
    from compiler import cli, diagnostics as dg, pipeline
    if args.mission:
        from compiler.sheets import deep_rock_galactic  # the only game with mission files
        return deep_rock_galactic.briefing_cli(args)
    if args.all:
        roots = pipeline.game_roots(pipeline.content_root())
    elif args.game:
        roots = [cli.game_root(args.game)]
    else:
        raise cli.UsageError("say which game: --game <id>, or --all")
    langs = list(dict.fromkeys(args.lang or LANGS))
    formats = list(dict.fromkeys(args.format or FORMATS))
    reporter = dg.Reporter()
    status = 0
    if "pdf" in formats and _harfbuzz_subset_missing():
        cli.progress("note: libharfbuzz-subset0 is not installed; PDF fonts are subset with "
                     "fontTools, which is much slower (apt-get install libharfbuzz-subset0)")
    for root in roots:
        if root.name not in SHEETS:
            cli.progress(f"skipping {root.name}: no sheets are defined for this game yet")
            continue
        game = pipeline.compile_game(root, [], reporter)
        if game is None or reporter.errors:
            print(dg.format_text(reporter))
            cli.progress(f"sheets for {root.name} not written: fix the errors above")
            status = 1
            reporter = dg.Reporter()
            continue
        render_game(game, langs, formats, Path(args.out), cli.progress)
    return status
