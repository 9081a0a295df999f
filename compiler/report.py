"""`tomecraft report gaps`: every fact that is not from the rulebook, with its note."""
from __future__ import annotations

import json
from pathlib import Path

from tomecraft.compiler import diagnostics as dg
from tomecraft.compiler.model import Game


def gaps(games: list[Game]) -> list[dict]:
    rows = []
    seen = set()
    for game in games:
        for entity in game.all():
            key = (game.id, entity.kind, entity.id, entity.pack)
            if key in seen:
                continue
            seen.add(key)
            base = {"game": game.id, "pack": entity.pack, "kind": entity.kind, "id": entity.id,
                    "file": _shown(entity.display), "line": entity.line}
            source = entity.data.get("source")
            if source in ("public", "approximation"):
                rows.append({**base, "source": source, "field": "",
                             "note": entity.data.get("note", "")})
            for field, note in sorted((entity.data.get("public") or {}).items()):
                rows.append({**base, "source": "public", "field": field, "note": note})
            for field, note in sorted((entity.data.get("approximations") or {}).items()):
                rows.append({**base, "source": "approximation", "field": field, "note": note})
    return rows


def _shown(display: str) -> str:
    """A fact's file as the user should see it: relative to the working directory when inside
    it (packs.display_path); a file of the shipped content outside it (tomecraft installed
    from a wheel, run from a fan's folder) as `content/<game>/...`, the path inside the
    installed package, not the full site-packages path; any other file as given."""
    from tomecraft.compiler.pipeline import content_root
    path = Path(display)
    if not path.is_absolute():
        return display
    try:
        return str(Path("content") / path.resolve().relative_to(content_root().resolve()))
    except ValueError:
        return display


def format_text(rows: list[dict]) -> str:
    """One line per game, per fact and per note: a note written as a YAML block (`|`, several
    lines), a field or a file name holding a newline is shown with `\\n`, as the other text
    outputs show it, so each note stays one line a reader (or grep) can take apart."""
    out = []
    current = None
    for row in rows:
        if row["game"] != current:
            current = row["game"]
            count = sum(r["game"] == current for r in rows)
            out.append(f"{current}: {count} facts not from the rulebook")
        field = f".{row['field']}" if row["field"] else ""
        out.append(dg.one_line(f"  {row['source']:<13} {row['kind']} {row['id']}{field}  "
                               f"({row['file']}:{row['line']})"))
        out.append("      " + dg.one_line(str(row["note"]).rstrip()))  # `>`'s final newline: none
    approx = sum(r["source"] == "approximation" for r in rows)
    public = sum(r["source"] == "public" for r in rows)
    out.append(f"{approx} approximations, {public} public facts")
    return dg.escape_controls("\n".join(out))  # notes are content: never raw escapes


def format_json(rows: list[dict]) -> str:
    return dg.json_controls(json.dumps({"gaps": rows}, ensure_ascii=False, indent=2))
