"""`tomecraft new pack GAME DIR`: start a fan's pack that checks clean and validates as you type.

The pack gets a pack.yaml, one content file per entity kind of the game holding one example
entity (a copy of the game's first entity of that kind, renamed and marked as an example), and
a copy of the editor schemas under DIR/.schemas/, which every file's first line points at.
A copy would share its original's keys (the fields its engine finds entities by, such as The
Cave's equipment term), which check refuses: each such term gets a new one, declared in the
pack's vocabulary.
An example that the game's rules refuse as an addition (The Cave's stacks hold exactly 20
tiles, say), or that check warns about (a DRG mineral no mission lays out, a Dungeontology
intern no scheme card brings), is written commented out, with the reason, so the new pack
checks clean: no error, no warning.
"""
from __future__ import annotations

import io
import shlex
from pathlib import Path

import ruamel.yaml
from ruamel.yaml.scalarstring import LiteralScalarString

from tomecraft.compiler import contract, diagnostics as dg, editor_schemas, names, pipeline
from tomecraft.compiler.console import UsageError

SCHEMAS = ".schemas"
DROPPED = ("ref", "approximations", "public", "replace", "note", "note_of", "source")


def new_pack(game_root: Path, folder: Path, pack_id: str | None = None) -> list[Path]:
    pack_id = pack_id or folder.name
    # the one rule check applies (names.py): `class` or "fan\n" would scaffold a pack that
    # check then refuses
    if not names.is_identifier(pack_id):
        raise UsageError(f"pack id {pack_id!r} must be lower_snake_case and not a reserved "
                         f"word (give one with --id)")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} exists and is not an empty folder")
    reporter = dg.Reporter()
    game = pipeline.compile_game(game_root, [], reporter)
    if game is None or reporter.errors:
        raise UsageError(f"the game {game_root.name!r} does not check clean: "
                         f"run `tomecraft check {game_root}`")
    folder.mkdir(parents=True, exist_ok=True)
    written = editor_schemas.write(editor_schemas.files(game_root), folder / SCHEMAS)
    manifest = folder / "pack.yaml"
    content_schema = folder / SCHEMAS / game.id / "content.schema.json"
    terms: dict[str, dict] = {}
    examples = []
    engine = contract.load(game.vocab.engine)
    for kind, spec in sorted(game.vocab.kinds.items()):
        base = game.of_kind(kind)
        if not base:
            continue
        path = folder / f"{spec['plural']}.yaml"
        example, original, replacing = _example_for(game, engine, kind, base, pack_id, terms)
        path.write_text(_content(path, content_schema, spec["plural"], example, original, replacing),
                        encoding="utf-8")
        examples.append(path)
    manifest.write_text(_manifest(manifest, folder, pack_id, game.id, terms), encoding="utf-8")
    written += [manifest, *examples]
    _comment_out_refused(game_root, folder, written)
    return written


def _manifest(path: Path, folder: Path, pack_id: str, game: str, terms: dict) -> str:
    line = editor_schemas.line_for(path, folder / SCHEMAS / "pack.schema.json")
    vocabulary = _dump({"vocabulary": {"terms": terms}}) if terms else ""
    return (f"{line}\n"
            f"# A pack for {game}: add entities in the other files, check with "
            f"`tomecraft check {shlex.quote(folder.name)}`.\n"
            f"id: {pack_id}\n"
            f"game: {game}\n"
            f'version: "0.1"\n'
            f"name: {{zh: {pack_id}, en: {pack_id}}}\n"
            f"requires: []\n"
            f"remove: []\n" + vocabulary)


def _example_for(game, engine, kind: str, base: list, pack_id: str, terms: dict):
    """(the example entry, the base entity it starts from, whether it replaces that entity):
    a copy under a new id with fresh key terms, or, where the engine would not play an added
    one, a replacement of a base entity it reads."""
    read = _read_only(engine, kind)
    if read:
        base = [e for e in base if e.id in read] or base
    else:
        # an entity setting no built-in field, so that its copy is one the game accepts
        uses = engine.kinds.get(kind, {}) if engine is not None else {}
        base = [e for e in base if not any(name in uses and uses[name].fixed
                                           for name in e.data)] or base
    example = _example(base[0], pack_id)
    if read or _full(game, engine, kind, len(base)):
        return ({"id": base[0].id, "replace": True,
                 **{k: v for k, v in example.items() if k != "id"}}, base[0], True)
    _fresh_keys(game, engine, kind, example, pack_id, terms)
    return example, base[0], False


def _fresh_keys(game, engine, kind: str, example: dict, pack_id: str, terms: dict) -> None:
    """Give the example a new term for each field its engine finds entities by (a copy keeping
    its original's would be refused, TC-C005), declared in `terms` for the pack's vocabulary."""
    fields = game.vocab.kinds[kind].get("fields", {})
    for name, use in (engine.kinds.get(kind, {}) if engine else {}).items():
        tag = fields.get(name, {}).get("x-tomecraft", "")
        if not use.key or not tag.startswith("term:") or not isinstance(example.get(name), str):
            continue
        term_type, old = tag.removeprefix("term:"), example[name]
        info = game.vocab.info(old, prefer=term_type)
        text = info.text if info else None
        example[name] = new = f"{pack_id}_{old}"
        terms.setdefault(term_type, {})[new] = {
            "zh": f"{text.zh if text else old}（例）", "en": f"{text.en if text else old} (example)"}


def _full(game, engine, kind: str, count: int) -> bool:
    """Whether a pack's example of `kind` must replace a base entity rather than add one: the
    base game already has as many as its engine plays (a contract need's `at_most`), or the
    engine finds the kind by a key that is not a term (DRG's hazard `level`), which a copy
    cannot be given afresh."""
    if engine is None:
        return False
    fields = game.vocab.kinds[kind].get("fields", {})
    fixed_key = any(use.key and not fields.get(name, {}).get("x-tomecraft", "").startswith("term:")
                    for name, use in engine.kinds.get(kind, {}).items())
    return fixed_key or any(need.kind == kind and need.at_most and count >= need.at_most
                            for need in engine.needs)


def _read_only(engine, kind: str) -> set[str]:
    """The ids the engine reads of a kind its contract calls closed (else empty)."""
    if engine is None or kind not in engine.closed:
        return set()
    return {need.id for need in engine.needs if need.kind == kind and need.id}


def _example(entity, pack_id: str) -> dict:
    data = {k: v for k, v in entity.data.items() if k not in DROPPED}
    data["id"] = f"{pack_id}_{entity.id}"
    name = entity.data.get("name") or {}
    data["name"] = {"zh": f"{name.get('zh', entity.id)}（例）", "en": f"{name.get('en', entity.id)} (example)"}
    out = {"id": data.pop("id"), "name": data.pop("name"), "source": "approximation",
           "note": f"Example from `tomecraft new pack`: a copy of {entity.kind} {entity.id!r}; "
                   "make it yours, and say where its facts come from."}
    out.update(data)
    return out


def _dump(data: dict) -> str:
    yaml = ruamel.yaml.YAML(typ="rt")
    yaml.width = 100
    yaml.allow_unicode = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    text = io.StringIO()
    yaml.dump(_blocks(data), text)
    return text.getvalue()


def _blocks(value):
    """`value` with every multi-line string as a literal block (`|`): a DRG mission's map is
    written as the rows it draws, the way the mission README shows it, not as one quoted line
    of "\\n"s."""
    if isinstance(value, dict):
        return {k: _blocks(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_blocks(v) for v in value]
    if isinstance(value, str) and "\n" in value.rstrip("\n"):
        return LiteralScalarString(value)
    return value


def _content(path: Path, schema: Path, plural: str, example: dict, entity,
             replacing: bool = False) -> str:
    what = (f"# One example {entity.kind}: it replaces the base game's {entity.id!r} (the engine "
            f"would not play an added one), starting as a copy.\n" if replacing else
            f"# One example {entity.kind}, copied from the base game's {entity.id!r}.\n")
    return f"{editor_schemas.line_for(path, schema)}\n" + what + _dump({plural: [example]})


def _comment_out_refused(game_root: Path, folder: Path, written: list[Path]) -> None:
    """Keep each example only if the game, with the examples kept so far, still checks clean
    (one compile per kind); comment out the others, saying why."""
    examples = [p for p in written if p.suffix == ".yaml" and p.name != "pack.yaml"]
    texts = {path: path.read_text(encoding="utf-8") for path in examples}
    for path in examples:
        path.write_text("", encoding="utf-8")
    for path in examples:
        path.write_text(texts[path], encoding="utf-8")
        reporter = dg.Reporter()
        pipeline.compile_game(game_root, [folder], reporter)
        errors = [d for d in reporter.diagnostics if d.severity == dg.ERROR]
        # a warning about this very file: play would not use the example as it stands
        warned = [d for d in reporter.diagnostics
                  if d.severity == dg.WARNING and Path(d.file).name == path.name]
        if not errors and not warned:
            continue
        lines = texts[path].splitlines()
        if errors:
            note = (f"# Commented out: the game refuses it as an addition "
                    f"({errors[0].code}: {errors[0].message}).")
        else:
            note = (f"# Commented out: check warns about it as an addition "
                    f"({warned[0].code}: {warned[0].message}).")
            note += f"\n# To keep it: {warned[0].hint}" if warned[0].hint else ""
        path.write_text("\n".join(lines[:2] + [note] + [f"# {line}" for line in lines[2:]]) + "\n",
                        encoding="utf-8")
