"""Packs: the base game and expansions, each a directory of YAML confined to itself.

A pack is a directory with a pack.yaml (id, game, version, requires, remove, vocabulary)
and content files mapping an entity kind's plural name to a list of entities. The base pack
also holds game.yaml. Entities from later packs add to earlier ones; replacing one needs
`replace: true`; removing one is listed in pack.yaml.
"""
from __future__ import annotations

import os
from pathlib import Path

from compiler import diagnostics as dg
from compiler import loader, schemas, vocabulary
from compiler.model import Entity, Game, Pack

# Folders of a base pack that are not content of the base game.
SKIPPED_DIRS = {"packs", "missions", "scenarios"}
MAX_FILES = 2000
MAX_DIRS = 5000
MAX_PACK_BYTES = 64 * 1024 * 1024  # all content files together (each is at most 2 MiB)
MAX_DIR_DEPTH = 16


def display_path(path: Path) -> str:
    """The path as the user should see it: relative to the working directory if inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def content_files(root: Path, reporter: dg.Reporter) -> list[Path]:
    """Every .yaml file of a pack, sorted, refusing anything that leads outside the pack.

    The walk is iterative and bounded (MAX_FILES files, MAX_DIRS folders, MAX_DIR_DEPTH
    levels), so a hostile layout cannot exhaust the stack or the clock. Symbolic links,
    to files or folders, are refused by name and never followed or read.
    """
    found: list[Path] = []
    folders = total = 0
    stack: list[tuple[Path, int]] = [(root, 0)]
    while stack:
        here, depth = stack.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError as err:
            reporter.add(dg.FILE_UNREADABLE, f"cannot read folder: {err.strerror}",
                         display_path(here), 1, 1)
            continue
        subfolders = []
        for entry in entries:
            path = here / entry.name
            if entry.is_symlink():
                if entry.name.endswith((".yaml", ".yml")) or os.path.isdir(path):
                    _refuse_link(path, root, reporter)
                continue
            if entry.is_dir():
                if depth == 0 and here == root and entry.name in SKIPPED_DIRS:
                    continue
                subfolders.append(path)
                continue
            if not entry.name.endswith((".yaml", ".yml")) or entry.name in ("game.yaml", "pack.yaml"):
                continue
            found.append(path)
            try:
                total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                pass  # the loader reports an unreadable file
            if total > MAX_PACK_BYTES:
                reporter.add(dg.PACK_TOO_BIG, f"pack's content files hold more than "
                             f"{MAX_PACK_BYTES} bytes", display_path(root), 1, 1,
                             "split it into several packs")
                return []
            if len(found) > MAX_FILES:
                reporter.add(dg.PACK_TOO_BIG, f"pack holds more than {MAX_FILES} content files",
                             display_path(root), 1, 1, "split it into several packs")
                return sorted(found)[:MAX_FILES]
        if subfolders and depth + 1 > MAX_DIR_DEPTH:
            reporter.add(dg.PACK_TOO_BIG, f"folders nested deeper than {MAX_DIR_DEPTH} levels "
                         "in the pack", _short(subfolders[0], root), 1, 1,
                         "keep the pack's folders shallow; nothing below was read")
            continue
        folders += len(subfolders)
        if folders > MAX_DIRS:
            reporter.add(dg.PACK_TOO_BIG, f"pack holds more than {MAX_DIRS} folders",
                         display_path(root), 1, 1, "split it into several packs")
            return sorted(found)
        stack.extend((folder, depth + 1) for folder in reversed(subfolders))
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def _short(path: Path, root: Path) -> str:
    """A deep path shown as the pack plus its first folders, not kilobytes of `d/d/d`."""
    parts = path.relative_to(root).parts
    shown = Path(display_path(root), *parts[:3])
    return str(shown / "...") if len(parts) > 3 else str(shown)


def _refuse_link(path: Path, root: Path, reporter: dg.Reporter) -> None:
    """A link is never followed. One leading outside the pack (or nowhere) is an error of
    the pack; a file link inside it is refused as a link; a folder link inside it is only
    a second name for files already read, so it is skipped quietly."""
    shown = str(Path(display_path(path.parent)) / path.name)  # the link, not its target
    target = Path(os.path.realpath(path))  # reads links only, never a file; loops end
    if not target.is_relative_to(os.path.realpath(root)) or not os.path.exists(target):
        reporter.add(dg.PACK, f"{path.name} leads outside the pack directory", shown, 1, 1,
                     "packs may only use files inside their own directory; nothing was read")
    elif not os.path.isdir(target):
        reporter.add(dg.SYMLINK, f"{path.name} is a symbolic link; it was not read", shown,
                     1, 1, "copy the file into place instead of linking it")


def _manifest(root: Path, reporter: dg.Reporter, required: bool) -> tuple[Pack | None, loader.Document | None]:
    path = root / "pack.yaml"
    if not path.is_file():
        if required:
            reporter.add(dg.PACK, "pack.yaml is missing", display_path(root), 1, 1,
                         "a pack needs pack.yaml with id, game and version")
        return None, None
    display = display_path(path)
    doc = loader.load(path, reporter, display)
    if doc is None:
        return None, None
    if not vocabulary.validate_document(doc, schemas.PACK_SCHEMA, reporter, display, dg.PACK):
        return None, None
    raw = doc.data
    return Pack(raw["id"], raw["game"], raw["version"], display_path(root), raw), doc


def load_game(base_root: Path, extra: list[Path], reporter: dg.Reporter) -> Game | None:
    """Load the base pack at `base_root` and the packs in `extra`, in order."""
    game_path = base_root / "game.yaml"
    if base_root.is_symlink():
        reporter.add(dg.SYMLINK, "the game folder is a symbolic link; it was not read",
                     str(base_root), 1, 1, "name the real folder")
        return None
    if not game_path.is_file():
        reporter.add(dg.USAGE, "no game.yaml here", display_path(base_root), 1, 1,
                     "point at content/<game>/")
        return None
    display = display_path(game_path)
    doc = loader.load(game_path, reporter, display)
    if doc is None:
        return None
    vocab = vocabulary.build(doc, reporter, display)
    if vocab is None:
        return None
    game = Game(vocab=vocab, documents=[doc])
    base_pack, _ = _manifest(base_root, reporter, required=False)
    base_pack = base_pack or Pack(vocab.game, vocab.game, "0", display_path(base_root))
    game.packs.append(base_pack)
    _load_pack_files(game, base_pack, base_root, reporter)
    for root in extra:
        _add_pack(game, root, reporter)
    return game


def _add_pack(game: Game, root: Path, reporter: dg.Reporter) -> None:
    if root.is_symlink():
        reporter.add(dg.SYMLINK, "the pack folder is a symbolic link; it was not read",
                     str(root), 1, 1, "name the real folder")
        return
    if not root.is_dir():
        reporter.add(dg.USAGE, "pack directory does not exist", display_path(root), 1, 1)
        return
    pack, doc = _manifest(root, reporter, required=True)
    if pack is None:
        return
    where = doc.mark(("game",))
    if pack.game != game.vocab.game:
        reporter.add(dg.PACK, f"pack is for {pack.game!r}, not {game.vocab.game!r}",
                     doc_display(doc), where.line, where.column)
        return
    loaded = {p.id for p in game.packs}
    if pack.id in loaded:
        reporter.add(dg.PACK_CONFLICT, f"pack {pack.id!r} is loaded twice", doc_display(doc), 1, 1)
        return
    for i, need in enumerate(pack.manifest.get("requires", [])):
        if need not in loaded:
            mark = doc.mark(("requires", i))
            reporter.add(dg.PACK, f"pack needs {need!r}, which is not loaded before it",
                         doc_display(doc), mark.line, mark.column,
                         "pass the required pack first with --pack")
    game.packs.append(pack)
    game.documents.append(doc)
    vocabulary.merge(game.vocab, pack.manifest.get("vocabulary") or {}, doc, reporter,
                     doc_display(doc))
    _load_pack_files(game, pack, root, reporter)
    game.removals[pack.id] = [(doc, i, item["kind"], item["id"])
                              for i, item in enumerate(pack.manifest.get("remove", []))]


def check_shipped_ids(pack_roots: list[Path], reporter: dg.Reporter) -> None:
    """Packs shipped with one game must have distinct ids: each is built into
    generated/<game>__<id>/, so a second pack with the same id would silently replace the
    first."""
    first: dict[str, str] = {}
    for root in pack_roots:
        if root.is_symlink():
            continue  # refused unread when it is loaded
        scratch = dg.Reporter()  # the manifest's own problems are reported when it is loaded
        pack, doc = _manifest(root, scratch, required=False)
        if pack is None:
            continue
        if pack.id in first:
            mark = doc.mark(("id",))
            reporter.add(dg.PACK_CONFLICT, f"pack id {pack.id!r} is already used by "
                         f"{first[pack.id]}", doc_display(doc), mark.line, mark.column,
                         "give each pack shipped with a game its own id")
        else:
            first[pack.id] = doc_display(doc)


def doc_display(doc: loader.Document) -> str:
    return display_path(doc.path)


def _load_pack_files(game: Game, pack: Pack, root: Path, reporter: dg.Reporter) -> None:
    for path in content_files(root, reporter):
        display = display_path(path)
        doc = loader.load(path, reporter, display)
        if doc is None:
            continue
        game.documents.append(doc)
        game.pending.append((pack, doc, display))


def validate_entities(game: Game, reporter: dg.Reporter) -> None:
    """The schema stage: check every loaded entity against its kind's schema and register it."""
    for pack, doc, display in game.pending:
        if doc.data is None:
            continue
        if not isinstance(doc.data, dict):
            reporter.add(dg.YAML_NOT_MAPPING, "the top level must be a mapping of kinds to lists",
                         display, 1, 1, "start the file with e.g. `tile_kinds:`")
            continue
        for plural, items in doc.data.items():
            _load_kind(game, pack, doc, display, plural, items, reporter)
    for pack_id, removals in game.removals.items():
        for doc, i, kind, entity_id in removals:
            if game.entities.get(kind, {}).pop(entity_id, None) is None:
                mark = doc.mark(("remove", i))
                reporter.add(dg.PACK_CONFLICT, f"cannot remove {kind} {entity_id!r}: no such entity",
                             doc_display(doc), mark.line, mark.column)
    game.pending.clear()


def _load_kind(game: Game, pack: Pack, doc: loader.Document, display: str, plural, items,
               reporter: dg.Reporter) -> None:
    vocab = game.vocab
    kind = vocab.plurals.get(plural)
    key_mark = doc.mark((plural,), key=True)
    if kind is None:
        from compiler.checks import did_you_mean  # late import: checks imports model
        reporter.add(dg.UNKNOWN_KIND, f"unknown entity kind {plural!r}", display,
                     key_mark.line, key_mark.column, did_you_mean(str(plural), sorted(vocab.plurals)))
        return
    if not isinstance(items, list):
        reporter.add(dg.SCHEMA, f"{plural!r} must be a list of entities", display,
                     key_mark.line, key_mark.column)
        return
    schema = schemas.entity_schema(kind, vocab.kinds[kind])
    validator = schemas.validator(schema)
    table = game.entities.setdefault(kind, {})
    for i, raw in enumerate(items):
        path = (plural, i)
        errors = list(validator.iter_errors(raw))
        for err in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
            _report_schema_error(err, doc, display, path, reporter)
        if errors or not isinstance(raw, dict):
            continue
        entity = Entity(kind, raw["id"], raw, pack.id, doc, display, path)
        _register(table, entity, reporter)
        for sub, note, value in schemas.walk_annotated(schema, raw):
            if note == "effect":
                entity.effects.append(_site(path + sub, value))
            elif note.startswith("ref:"):
                entity.refs.append((path + sub, note[4:], value))
            elif note.startswith("term:"):
                entity.refs.append((path + sub, note, value))


def _site(path: tuple, text: str):
    from compiler.model import EffectSite
    return EffectSite(path, text)


def _register(table: dict, entity: Entity, reporter: dg.Reporter) -> None:
    mark = entity.doc.mark(entity.path + ("id",))
    existing = table.get(entity.id)
    replace = bool(entity.data.get("replace"))
    if existing is not None and not replace:
        where = f"{existing.display}:{existing.line}"
        code = dg.DUPLICATE_ID if existing.pack == entity.pack else dg.PACK_CONFLICT
        reporter.add(code, f"{entity.kind} {entity.id!r} is already defined at {where}",
                     entity.display, mark.line, mark.column,
                     "rename it, or set `replace: true` in a pack that overrides it")
        return
    if existing is None and replace:
        reporter.add(dg.PACK_CONFLICT, f"`replace: true` but no {entity.kind} {entity.id!r} exists",
                     entity.display, mark.line, mark.column, "remove `replace: true`")
    table[entity.id] = entity


def _report_schema_error(err, doc: loader.Document, display: str, base: tuple,
                         reporter: dg.Reporter) -> None:
    path = base + tuple(err.absolute_path)
    mark = doc.mark(path)
    message = err.message
    hint = vocabulary._schema_hint(err)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
        if extra:
            from compiler.checks import did_you_mean
            mark = doc.mark(path + (extra[0],), key=True)
            message = f"unknown field {extra[0]!r}"
            hint = did_you_mean(extra[0], sorted(err.schema.get("properties", {}))) or hint
    code = dg.SCHEMA
    if err.validator == "required" and isinstance(err.instance, dict) and any(
            repr(p) in message for p in ("source", "ref", "note") if p not in err.instance):
        code = dg.PROVENANCE  # a missing source/ref/note is the documented TC-S004
    if len(message) > 300:
        message = message[:300] + "..."
    reporter.add(code, message, display, mark.line, mark.column, hint)
