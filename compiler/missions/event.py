"""A mission file's `mission_event`, compiled to the same kind of function the build writes
for a Mission Book mission, so the sim plays the file's own event (no build step).

The code comes from compiler.codegen (content text enters it only through repr()), together
with the game's keyword functions it may call; it is executed in a namespace of its own.
"""
from __future__ import annotations

from tomecraft.compiler.codegen import EffectCompiler, _rel
from tomecraft.dsl.parser import parse

FN = "fx_mission_file__mission_event"


def compile_event(game, text: str, origin: str):
    """The mission event as `fx(ctx) -> bool` (with `.can`), for the engine's Event Phase."""
    compiler = EffectCompiler(game)
    origins = {FN: origin}
    sources = ["from tomecraft.runtime.effects import loop, raised, step"]
    for name in sorted(game.keyword_sites):
        site = game.keyword_sites[name]
        keyword = game.vocab.keywords[name]
        doc, _ = keyword.origin
        origins[f"kw_{name}"] = f"{_rel(doc.path)}:{doc.mark(site.path).line}"  # as codegen names it
        sources.append(compiler.compile(f"kw_{name}", site.ast,
                                        tuple(p.name for p in keyword.params), site.text))
    sources.append(compiler.compile(FN, parse(text), (), text))
    sources.append(f"SOURCES = {origins!r}")   # where each function's YAML comes from
    namespace: dict = {}
    exec(compile("\n\n\n".join(sources), f"<mission event {origin}>", "exec"), namespace)
    return namespace[FN]
