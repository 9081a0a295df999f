"""Packs: the base game and expansions, each a directory of YAML confined to itself.

A pack is a directory with a pack.yaml (id, game, version, requires, remove, vocabulary)
and content files mapping an entity kind's plural name to a list of entities. The base pack
also holds game.yaml. Entities from later packs add to earlier ones; replacing one needs
`replace: true`; removing one is listed in pack.yaml.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler import loader, schemas, vocabulary
from tomecraft.compiler.model import Entity, Game, Pack

# Folders of a base pack that are not content of the base game.
SKIPPED_DIRS = {"packs", "missions", "scenarios"}
MAX_FILES = 2000
MAX_DIRS = 5000
MAX_PACK_BYTES = 64 * 1024 * 1024  # all content files together (each is at most 2 MiB)
MAX_DIR_DEPTH = 16


def display_path(path: Path) -> str:
    """The path as the user should see it: relative to the working directory if inside it."""
    return _display_from(os.getcwd(), os.fspath(path))


def display_origin(origin: str) -> str:
    """A generated effect's "file:line" (codegen._rel: `content/<game>/...` or an absolute
    path) as the user should see it from the working directory: the code may have been
    compiled, and cached, from another folder, or shipped in the installed package."""
    file, sep, line = origin.rpartition(":")
    if not sep or not file or not line.isdigit():
        return origin
    path = Path(file)
    if not path.is_absolute():
        if path.parts[:1] != ("content",):
            return origin
        from tomecraft.compiler.pipeline import content_root
        path = content_root().joinpath(*path.parts[1:])
    return f"{display_path(path)}:{line}"


def effect_diagnostic(err, reporter: dg.Reporter, content: Path | None = None) -> None:
    """An effect stopped at run time, reported at the effect's YAML file and line (`sim`,
    `balance`); when the engine stopped outside any one effect, at the `content` played (the
    last pack's folder, or the game's), rather than at "?"."""
    from tomecraft.runtime import effects
    known = effects.error_origin(err)
    origin = display_origin(known) if known else \
        f"{display_path(content) if content is not None else '?'}:1"
    file, _, line = origin.rpartition(":")
    runaway = isinstance(err, effects.RunawayEffect)
    message = str(err) if isinstance(err, effects.EffectError) else \
        f"the engine could not play this effect: {type(err).__name__}: {err}"
    if not known:
        message += " (outside any one effect of this content)"
    outermost = effects.error_origins(err)[-1:]
    if runaway and outermost and display_origin(outermost[0]) != origin:
        # the budget runs out wherever the game happens to be: a base Swarm card's spawn,
        # set off a million times by a pack's `repeat 1000: reveal_swarm 1000`, was blamed
        message += f", in an effect run from {display_origin(outermost[0])}"
    reporter.add(dg.STEP_BUDGET if runaway else dg.GAME_RULE, message, file or "?",
                 int(line) if line.isdigit() else 1, 1,
                 "bound the loop or the triggers it sets off" if runaway
                 else "the engine cannot play this effect as written")


@lru_cache(maxsize=4096)
def _display_from(cwd: str, path: str) -> str:
    # Remembered per (folder, path): every diagnostic, keyword and file of a load asks, and
    # resolving walks the file system each time (a tenth of a build's load stage).
    try:
        return str(Path(path).resolve().relative_to(Path(cwd).resolve()))
    except ValueError:
        return path


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
                if loader.is_yaml_name(entry.name) or os.path.isdir(path):
                    _refuse_link(path, root, reporter)
                continue
            if entry.is_dir():
                if depth == 0 and here == root and entry.name in SKIPPED_DIRS:
                    continue
                subfolders.append(path)
                continue
            if entry.name in ("game.yaml", "pack.yaml"):
                if here != root:        # a manifest below the pack's own: not a pack of its own
                    reporter.add(dg.NOT_READ, f"{entry.name} below the pack's folder is not read",
                                 display_path(path), 1, 1, "its folder's other files belong to the "
                                 "pack above it; to make it a pack of its own, move it out and "
                                 "pass it with --pack")
                continue
            if not loader.is_yaml_name(entry.name):
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


def shipped_folder(given: str) -> Path | None:
    """The shipped game or pack folder whose id is the last part of `given` (`dungeontology`,
    `content/dungeontology`, `tomb_party`), when `given` is no path here. From a fan's own
    folder `content/...` does not exist: the games' content is where tomecraft is installed."""
    from tomecraft.compiler.fingerprint import project_root
    name = Path(given).name
    if not name or name.startswith("."):
        return None
    content = project_root() / "content"
    for folder in (content / name, *(packs / name for packs in sorted(content.glob("*/packs")))):
        if (folder / "game.yaml").is_file() or (folder / "pack.yaml").is_file():
            return folder
    return None


def shipped_hint(given: str) -> str:
    """'`tomb_party` is shipped with tomecraft: give its folder, ...', or '' if it is not."""
    folder = shipped_folder(given)
    return "" if folder is None else (f"`{Path(given).name}` is shipped with tomecraft: give "
                                      f"its folder, {folder}")


def _requires_hint(need: str, game: str) -> str:
    """What to do about a `requires:` entry no loaded pack has: a pack shipped for another
    game is named as such, a misspelt shipped pack gets the closest, else --pack."""
    from tomecraft.compiler.checks import did_you_mean
    from tomecraft.compiler.fingerprint import project_root
    from tomecraft.compiler.pipeline import shipped_packs
    folder = shipped_folder(need)
    if folder is not None and folder.parent.parent.name != game:
        return f"{need!r} is a pack for {folder.parent.parent.name}, not {game}: remove it"
    shipped = sorted(shipped_packs(project_root() / "content" / game))
    close = did_you_mean(need, shipped)
    return (close + " (the game's shipped packs load by id); else " if close else "") + \
        "pass the required pack with --pack"


def _not_a_folder(root: Path, reporter: dg.Reporter) -> bool:
    """Whether `root`, given as a pack, is no folder (reported: a file, or nothing)."""
    if root.is_dir():
        return False
    if root.exists():
        reporter.add(dg.USAGE, "this is a file, not a pack folder", display_path(root), 1, 1,
                     "give the folder that holds the pack's pack.yaml")
    else:
        reporter.add(dg.USAGE, "pack directory does not exist", display_path(root), 1, 1,
                     shipped_hint(str(root)))
    return True


def read_manifest(root: Path, reporter: dg.Reporter) -> tuple[loader.Document, str] | None:
    """(pack.yaml's document, the game it names), or None after reporting why not. A pack with
    no `game:` is an error here, with a hint: it would otherwise check nothing."""
    if _not_a_folder(root, reporter):
        return None
    path = root / "pack.yaml"
    display = display_path(path)
    doc = loader.load(path, reporter, display)
    if doc is None:
        return None
    game = doc.data.get("game") if isinstance(doc.data, dict) else None
    if not isinstance(game, str) or not game:
        reporter.add(dg.NO_CONTENT, "pack.yaml names no game", display, 1, 1,
                     "add `game: <id>`: the game it extends, e.g. `game: the_cave`")
        return None
    return doc, game


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
    origins: dict = {}  # (name type, name) -> where a pack (re)defined it: see _vocabulary_of
    order = load_order(base_root, extra)
    coming = {_id_and_requires(root)[0] for root in order}     # a `requires:` cycle is among them
    for root in order:
        _add_pack(game, root, reporter, origins, coming)
    return game


def load_order(base_root: Path, folders: list[Path]) -> list[Path]:
    """The pack folders a game with these packs loads, in order: each folder once, the game's
    shipped packs a pack `requires` added, and every pack after the packs it requires."""
    from tomecraft.compiler.pipeline import shipped_packs
    return requires_first(distinct_folders(folders), shipped_packs(base_root))


def requires_first(folders: list[Path], shipped: dict[str, Path] | None = None) -> list[Path]:
    """`folders` in the order given, except that a pack comes after the packs it `requires`:
    those among `folders`, and the game's shipped packs (`shipped`, by id) it names but
    `folders` lack. The order of --pack options, or a PATH before its --pack, made a clean pair
    fail with 'not loaded before it' and cascade (B's `replace: true` found nothing, A's
    entity was 'already defined'); `sim --pack P` with P requiring tomb_party said tomb_party
    was not loaded while `check P` loaded it. A cycle keeps the given order at the pack that
    closes it, whose requires: is reported."""
    needs, by_id = {}, {}
    for folder in folders:
        pack_id, needs[folder] = _id_and_requires(folder)
        by_id.setdefault(pack_id, folder)
    ordered: list[Path] = []
    seen: set[Path] = set()

    def place(folder: Path) -> None:
        if folder in seen:
            return
        seen.add(folder)
        for need in needs[folder]:
            if need not in by_id and shipped and need in shipped:
                by_id[need] = shipped[need]
                needs[shipped[need]] = _id_and_requires(shipped[need])[1]
            if need in by_id:
                place(by_id[need])
        ordered.append(folder)

    for folder in folders:
        place(folder)
    return ordered


def _id_and_requires(root: Path) -> tuple[object, list]:
    """A pack folder's id and `requires:` ids, read quietly: the load that follows reports
    what is wrong with its pack.yaml (the loader remembers the file, so it is read once)."""
    path = root / "pack.yaml"
    doc = loader.load(path, dg.Reporter(), display_path(path)) if path.is_file() and not root.is_symlink() else None
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    requires = data.get("requires")
    needs = [need for need in requires if isinstance(need, str)] if isinstance(requires, list) else []
    pack_id = data.get("id")
    return (pack_id if isinstance(pack_id, str) else None), needs


def distinct_folders(folders: list[Path]) -> list[Path]:
    """`folders` in order, each folder once however it was spelt (`P`, `P/`, `./P`): the same
    pack folder given twice is loaded once, quietly, by every command (`check` skipped it, `sim`
    and the others said 'loaded twice'). Two folders holding packs with one id still conflict."""
    seen: set[Path] = set()
    kept = []
    for folder in folders:
        if Path(folder).resolve() not in seen:
            seen.add(Path(folder).resolve())
            kept.append(folder)
    return kept


def _add_pack(game: Game, root: Path, reporter: dg.Reporter, origins: dict,
              coming: set = frozenset()) -> None:
    if root.is_symlink():
        reporter.add(dg.SYMLINK, "the pack folder is a symbolic link; it was not read",
                     str(root), 1, 1, "name the real folder")
        return
    if _not_a_folder(root, reporter):
        return
    pack, doc = _manifest(root, reporter, required=True)
    if pack is None:
        return
    where = doc.mark(("game",))
    if pack.game != game.vocab.game:
        reporter.add(dg.PACK, f"pack is for {pack.game!r}, not {game.vocab.game!r}",
                     doc_display(doc), where.line, where.column)
        return
    loaded = {p.id: p for p in game.packs}
    if pack.id in loaded:    # the same folder twice was dropped before: this is another one
        reporter.add(dg.PACK_CONFLICT, f"pack {pack.id!r} is already loaded from another folder, "
                     f"{loaded[pack.id].root}", doc_display(doc), 1, 1,
                     "a pack id names one pack: rename one of the two (`id:` in its pack.yaml)")
        return
    for i, need in enumerate(pack.manifest.get("requires", [])):
        if need not in loaded:
            mark = doc.mark(("requires", i))
            if need == pack.id or need in coming:
                # given with --pack, yet "not loaded before it: pass it with --pack"
                message = ("a pack cannot require itself" if need == pack.id else
                           f"pack needs {need!r}, which needs this pack in turn (directly or "
                           "through others): each pack loads after the packs it requires")
                reporter.add(dg.PACK, message, doc_display(doc), mark.line, mark.column,
                             f"remove {need!r} from `requires:`" if need == pack.id else
                             "break the cycle: one of them must not require the other")
                continue
            reporter.add(dg.PACK, f"pack needs {need!r}, which is not loaded before it",
                         doc_display(doc), mark.line, mark.column,
                         _requires_hint(need, game.vocab.game))
            game.unloaded_requires.append(need)
    game.packs.append(pack)
    game.documents.append(doc)
    vocabulary.merge(game.vocab, _vocabulary_of(game, pack, doc, reporter, origins), doc,
                     reporter, doc_display(doc), at=("vocabulary",))
    if (root / "game.yaml").is_file():    # only a base game's is read
        reporter.add(dg.NOT_READ, "a pack's game.yaml is not read", display_path(root / "game.yaml"),
                     1, 1, "put the pack's keywords, terms and other vocabulary under "
                     "`vocabulary:` in its pack.yaml")
    _load_pack_files(game, pack, root, reporter)
    game.removals[pack.id] = [(doc, i, item["kind"], item["id"])
                              for i, item in enumerate(pack.manifest.get("remove", []))]


def _vocabulary_of(game: Game, pack: Pack, doc: loader.Document, reporter: dg.Reporter,
                   origins: dict) -> dict:
    """The pack's vocabulary additions that may be merged, without their `replace` flags.

    Like entities, redefining a name the game already has (a term's or a zone's text, a
    keyword) needs `replace: true`, and `replace: true` needs something to replace. Two packs
    defining the same name conflict, reported at both places, unless the later one requires the
    earlier and says `replace: true`."""
    raw = pack.manifest.get("vocabulary") or {}
    display = doc_display(doc)
    requires = set(pack.manifest.get("requires") or [])
    kept: dict = {}
    for path, name_type, entry in _vocabulary_entries(raw):
        name = path[-1]
        mark = doc.mark(("vocabulary",) + path, key=True)
        here = (pack.id, display, mark.line, mark.column)
        replace = bool(entry.get("replace")) if isinstance(entry, dict) else False
        exists = _vocabulary_has(game, name_type, name)
        earlier = origins.get((name_type, name))
        what = f"{name_type} {name!r}"
        if earlier is not None and not (replace and earlier[0] in requires):
            _conflict(reporter, what, here, earlier)
            continue
        if exists and not replace and earlier is None:
            base = _base_mark(game, path, name_type)
            reporter.add(dg.PACK_CONFLICT, f"{what} is already defined by the game at {base}",
                         display, mark.line, mark.column,
                         "set `replace: true` on it to override the game's text, or rename it")
            continue
        if replace and not exists:
            reporter.add(dg.PACK_CONFLICT, f"`replace: true` but the game has no {what}",
                         display, mark.line, mark.column, "remove `replace: true`")
        if replace and name_type == "keyword":
            game.vocab.keywords.pop(name, None)  # merge() refuses a keyword declared twice
        origins[(name_type, name)] = here
        target = kept
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[name] = ({k: v for k, v in entry.items() if k != "replace"}
                        if isinstance(entry, dict) else entry)
    return kept


def _vocabulary_entries(raw: dict):
    """(path inside `vocabulary:`, name type, entry) of every name a pack defines."""
    for section, entries in raw.items():
        if not isinstance(entries, dict):
            continue
        if section == "terms":
            for term_type, names in entries.items():
                for name, entry in (names or {}).items():
                    yield (section, term_type, name), term_type, entry
        elif section == "keywords":
            for name, entry in entries.items():
                yield (section, name), "keyword", entry
        else:
            for name, entry in entries.items():
                yield (section, name), vocabulary.NAME_SECTIONS.get(section, section), entry


def _vocabulary_has(game: Game, name_type: str, name: str) -> bool:
    if name_type == "keyword":
        return name in game.vocab.keywords
    return name_type in game.vocab.names.get(name, {})


def _base_mark(game: Game, path: tuple, name_type: str) -> str:
    """Where game.yaml defines a name (its sections mirror a pack's `vocabulary:`)."""
    doc = game.documents[0]
    mark = doc.mark(path, key=True)
    return f"{doc_display(doc)}:{mark.line}"


def _conflict(reporter: dg.Reporter, what: str, here: tuple, earlier: tuple) -> None:
    """Two packs define the same name: one diagnostic at each definition."""
    for (pack_id, display, line, column), (other, other_display, other_line, _) in (
            (here, earlier), (earlier, here)):
        reporter.add(dg.PACK_CONFLICT,
                     f"{what} is defined by both packs {pack_id!r} and {other!r} "
                     f"(also at {other_display}:{other_line})", display, line, column,
                     "rename one, or make one pack require the other and set `replace: true`")


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
        if pack is game.packs[0] and not defines_anything(doc.data):
            reporter.add(dg.NO_CONTENT, "this file of the base game defines nothing (emptied?)",
                         display, 1, 1, "restore its entities, or delete the file if they "
                         "moved to another file")
        if doc.data is None:
            continue
        if not isinstance(doc.data, dict):
            reporter.add(dg.YAML_NOT_MAPPING, "the top level must be a mapping of kinds to lists",
                         display, 1, 1, "start the file with e.g. `tile_kinds:`")
            continue
        if _not_content(doc, display, reporter):
            continue
        for plural, items in doc.data.items():
            _load_kind(game, pack, doc, display, plural, items, reporter)
    removed: dict[tuple, tuple] = {}        # (kind, id) -> (pack id, document, index)
    for pack_id, removals in game.removals.items():
        for doc, i, kind, entity_id in removals:
            entity = game.entities.get(kind, {}).pop(entity_id, None)
            if entity is not None:
                removed[(kind, entity_id)] = (pack_id, doc, i)
                game.removed[(kind, entity_id)] = (entity, doc, i)
            elif (kind, entity_id) in removed and removed[(kind, entity_id)][0] != pack_id:
                # two packs removing one base entity: it read 'no such entity', as if misspelt
                other, where, j = removed[(kind, entity_id)]
                mark, there = doc.mark(("remove", i)), where.mark(("remove", j))
                reporter.add(dg.PACK_CONFLICT, f"cannot remove {kind} {entity_id!r}: pack "
                             f"{other!r} removes it already (at {doc_display(where)}:{there.line})",
                             doc_display(doc), mark.line, mark.column,
                             f"leave it out of this pack's `remove` (or require {other!r} "
                             "for it): with both packs loaded it is gone already")
            else:
                _report_removal_of_nothing(game, doc, i, kind, entity_id, reporter)
    game.pending.clear()
    _check_not_empty(game, reporter)


def _report_removal_of_nothing(game: Game, doc: loader.Document, i: int, kind: str,
                               entity_id: str, reporter: dg.Reporter) -> None:
    """A removal that found nothing: a kind the game has not (`crad`, said at `kind:` with the
    close kind; it read 'cannot remove crad ...: no such entity' with no hint), else an id."""
    from tomecraft.compiler.checks import did_you_mean  # late import: checks imports model
    if kind not in game.vocab.kinds:
        mark = doc.mark(("remove", i, "kind"))
        reporter.add(dg.PACK_CONFLICT, f"cannot remove {kind} {entity_id!r}: the game has no "
                     f"entity kind {kind!r}", doc_display(doc), mark.line, mark.column,
                     did_you_mean(str(kind), sorted(game.vocab.kinds)) or
                     "kinds: " + ", ".join(sorted(game.vocab.kinds)))
        return
    mark = doc.mark(("remove", i))
    reporter.add(dg.PACK_CONFLICT, f"cannot remove {kind} {entity_id!r}: no such entity",
                 doc_display(doc), mark.line, mark.column,
                 did_you_mean(str(entity_id), sorted(game.entities.get(kind, {}))))


def defines_anything(data) -> bool:
    """False for an empty or comment-only file, or one whose kinds all list nothing."""
    if not isinstance(data, dict):
        return data is not None  # a scalar or a list is reported by the schema stage
    return any(items for items in data.values())


def _check_not_empty(game: Game, reporter: dg.Reporter) -> None:
    """Every kind game.yaml declares is a component of the game: a game left with none of them
    (an emptied or missing content file, a pack removing them all) is an error, never a clean
    check of nothing. Exact counts from the rulebook are each game's rules (game_checks/)."""
    doc = game.documents[0]
    for kind, spec in sorted(game.vocab.kinds.items()):
        if game.entities.get(kind):
            continue
        plural = spec.get("plural", kind)
        removal = [(d, i) for entries in game.removals.values() for d, i, k, _ in entries if k == kind]
        if removal:     # said at the pack's last removal: it stood at the base game's game.yaml
            removal_doc, i = removal[-1]
            mark = removal_doc.mark(("remove", i))
            reporter.add(dg.NO_CONTENT, f"the game has no {plural} left: the packs removed them "
                         "all", doc_display(removal_doc), mark.line, mark.column,
                         f"keep at least one, or give the pack its own {plural} (or replace one: "
                         "same id, `replace: true`)")
            continue
        mark = doc.mark(("kinds", kind), key=True)
        reporter.add(dg.NO_CONTENT, f"the game has no {plural}: no content file defines any, "
                     "or packs removed them all", doc_display(doc), mark.line, mark.column,
                     f"the base game's content files must list its {plural} (`{plural}:`)")


# A scenario file (`game:` with `steps:`/`expect:`) or a mission file (`game:` with `mission:`)
# saved among a pack's content files: each of its keys read as a kind gave one "unknown entity
# kind" apiece, none saying what happened.
_OTHER_FILES = {"steps": ("a scenario file", "scenarios/", "tomecraft scenario run FILE"),
                "expect": ("a scenario file", "scenarios/", "tomecraft scenario run FILE"),
                "mission": ("a mission file", "missions/", "tomecraft check FILE")}


def _not_content(doc: loader.Document, display: str, reporter: dg.Reporter) -> bool:
    """True (and said once) when a file among the content files is a scenario or a mission."""
    if "game" not in doc.data:
        return False
    found = next((_OTHER_FILES[k] for k in doc.data if k in _OTHER_FILES), None)
    if found is None:
        return False
    what, folder, command = found
    mark = doc.mark(("game",), key=True)
    reporter.add(dg.UNKNOWN_KIND, f"this is {what}, not content: a pack's content files list "
                 "entities by kind", display, mark.line, mark.column,
                 f"move it into the pack's {folder} folder (check does not read it there) or out "
                 f"of the pack, and run it with `{command}`")
    return True


def _load_kind(game: Game, pack: Pack, doc: loader.Document, display: str, plural, items,
               reporter: dg.Reporter) -> None:
    vocab = game.vocab
    kind = vocab.plurals.get(plural)
    key_mark = doc.mark((plural,), key=True)
    if kind is None:
        from tomecraft.compiler.checks import did_you_mean  # late import: checks imports model
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
        if not errors:
            errors = _fractions(raw, doc, display, path, reporter)
        if errors and isinstance(raw, dict) and isinstance(raw.get("id"), str):
            game.refused.setdefault(kind, {})[raw["id"]] = raw
        if errors or not isinstance(raw, dict):
            continue
        entity = Entity(kind, raw["id"], raw, pack.id, doc, display, path)
        _register(table, entity, reporter, game.id)
        _check_two_replacements(game, entity, reporter)
        for sub, note, value in schemas.walk_annotated(schema, raw):
            if note == "effect":
                entity.effects.append(_site(path + sub, value))
            elif note.startswith("ref:"):
                entity.refs.append((path + sub, note[4:], value))
            elif note.startswith("term:"):
                entity.refs.append((path + sub, note, value))


def _fractions(raw, doc: loader.Document, display: str, path: tuple,
               reporter: dg.Reporter) -> list:
    """Every number of content is a whole one (no content schema has type "number"), but JSON
    Schema counts 1.0 and -0.0 as integers: `slots: 1.0` checked clean and the sheets printed
    "1.0" (as mission files, compiler/missions/schema.py). Reported at each; [] when none."""
    found = []
    stack = [((), raw)]
    while stack:
        sub, value = stack.pop()
        if isinstance(value, float):
            found.append((sub, value))
        elif isinstance(value, dict):
            stack.extend((sub + (k,), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((sub + (i,), v) for i, v in enumerate(value))
    for sub, value in sorted(found, key=lambda f: [str(p) for p in f[0]]):
        mark = doc.mark(path + sub)
        reporter.add(dg.SCHEMA, f"{value!r} is not a whole number", display, mark.line,
                     mark.column, f"every number of content is a whole number: write "
                     f"{int(value)}" if value.is_integer() else "write a whole number")
    return found


def _site(path: tuple, text: str):
    from tomecraft.compiler.model import EffectSite
    return EffectSite(path, text)


def _check_two_replacements(game: Game, entity: Entity, reporter: dg.Reporter) -> None:
    """Two packs replacing one entity, neither requiring the other, are a conflict reported at
    both (as two packs defining one keyword are): the one loaded last won, silently, so the
    game depended on the order of --pack options."""
    replaced = entity.replaced
    if replaced is None or replaced.pack in (game.packs[0].id, entity.pack) \
            or replaced.pack in _required_by(game, entity.pack):
        return
    for here, other in ((replaced, entity), (entity, replaced)):
        mark = here.doc.mark(here.path + ("id",))
        reporter.add(dg.PACK_CONFLICT, f"{here.kind} {here.id!r} is replaced by both packs "
                     f"{here.pack!r} and {other.pack!r} (also at {other.display}:{other.line})",
                     here.display, mark.line, mark.column,
                     "make one pack require the other (its replacement then wins), or replace "
                     "different entities")


def _required_by(game: Game, pack_id: str) -> set[str]:
    """The ids of the packs `pack_id` requires, directly or through the packs it requires."""
    manifests = {p.id: p.manifest or {} for p in game.packs}
    found: set[str] = set()
    todo = [pack_id]
    while todo:
        needs = manifests.get(todo.pop(), {}).get("requires") or []
        for need in needs if isinstance(needs, list) else []:
            if isinstance(need, str) and need not in found:
                found.add(need)
                todo.append(need)
    return found


def _register(table: dict, entity: Entity, reporter: dg.Reporter, base: str = "") -> None:
    existing = table.get(entity.id)
    replace = bool(entity.data.get("replace"))
    same_pack = existing is not None and existing.pack == entity.pack
    if existing is not None and (same_pack or not replace):
        # `replace: true` replaces the game's or an earlier pack's entity, never one of the
        # pack's own: the first would vanish with a clean check
        where = f"{existing.display}:{existing.line}"
        mark = entity.doc.mark(entity.path + ("id",))  # only when reported: it costs a walk
        reporter.add(dg.DUPLICATE_ID if same_pack else dg.PACK_CONFLICT,
                     f"{entity.kind} {entity.id!r} is already defined at {where}",
                     entity.display, mark.line, mark.column,
                     "ids are unique within a pack: rename one of the two" if same_pack else
                     "rename it, or set `replace: true` in a pack that overrides it")
        if not same_pack and existing.pack != base:
            # two packs adding one id: said at both places, as for a vocabulary name (README
            # "Packs"); it stood only at the later one, so the earlier pack's CI passed
            there = existing.doc.mark(existing.path + ("id",))
            reporter.add(dg.PACK_CONFLICT, f"{entity.kind} {entity.id!r} is also defined by "
                         f"pack {entity.pack!r} (at {entity.display}:{mark.line})",
                         existing.display, there.line, there.column,
                         "rename one, or make one pack require the other and set `replace: true`")
        return
    if existing is None and replace:
        mark = entity.doc.mark(entity.path + ("id",))
        reporter.add(dg.PACK_CONFLICT, f"`replace: true` but no {entity.kind} {entity.id!r} exists",
                     entity.display, mark.line, mark.column, "remove `replace: true`")
    entity.replaced = existing
    table[entity.id] = entity


def _misspelt_required(err) -> bool:
    """A required field reported missing because it was misspelt (`sped: 3` for `speed`):
    the unknown field's error already names it, so the second error only repeats it."""
    if err.validator != "required" or not isinstance(err.instance, dict) \
            or err.schema.get("additionalProperties") is not False:
        return False
    import difflib
    known = err.schema.get("properties", {})
    extra = [k for k in err.instance if isinstance(k, str) and k not in known]
    missing = [p for p in err.validator_value if p not in err.instance]
    return bool(missing) and all(difflib.get_close_matches(p, extra, n=1, cutoff=0.6)
                                 for p in missing)


def _report_schema_error(err, doc: loader.Document, display: str, base: tuple,
                         reporter: dg.Reporter) -> None:
    if _misspelt_required(err):
        return  # the misspelt key's own error says `did you mean ...?` at its line
    path = base + tuple(err.absolute_path)
    mark = doc.mark(path)
    message = err.message
    hint = vocabulary._schema_hint(err)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        extra = [k for k in err.instance if k not in err.schema.get("properties", {})]
        if extra:
            from tomecraft.compiler.checks import did_you_mean
            mark = doc.mark(path + (extra[0],), key=True)
            message = f"unknown field {extra[0]!r}"
            hint = did_you_mean(extra[0], sorted(err.schema.get("properties", {}))) or hint
    code = dg.SCHEMA
    if err.validator == "required" and isinstance(err.instance, dict) and any(
            repr(p) in message for p in ("source", "ref", "note") if p not in err.instance):
        code = dg.PROVENANCE  # a missing source/ref/note is the documented TC-S004
        source = err.instance.get("source")
        if isinstance(source, str) and any(repr(p) in message for p in ("ref", "note")):
            # required by the source named: said there, not at the entity's first line
            mark = doc.mark(path + ("source",))
            message += f" with `source: {source}`"
    if len(message) > 300:
        message = message[:300] + "..."
    reporter.add(code, message, display, mark.line, mark.column, hint)
