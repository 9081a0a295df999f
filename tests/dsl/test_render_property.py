"""Property: every effect of every game and every pack (shipped under content/*/packs/ and the
test packs under tests/), and every verb, query and keyword called with the counts 1 and 2,
renders in both languages as text a player can read: no raw identifier, no `(s)`, no
placeholder, no doubled word or punctuation, no half-width punctuation and no Latin letters in
Chinese (numbers, the variable letters X Y Z N M K and Latin the vocabulary's own Chinese
names carry, like "IFG力场", are allowed), and no Traditional character left by the renderer's
own phrases in a game printed in Simplified characters."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tomecraft.compiler import diagnostics as dg, pipeline
from tomecraft.dsl import nodes as n
from tomecraft.dsl.render import TO_SIMPLIFIED, render

ROOT = Path(__file__).resolve().parents[2]
VARIABLES = set("XYZNMK")


def _targets() -> list[tuple[str, tuple[Path, ...]]]:
    targets = []
    for root in pipeline.game_roots(ROOT / "content"):
        targets.append((root.name, root, ()))
        targets += [(f"{root.name}+{p.name}", root, (p,)) for p in pipeline.in_repo_packs(root)]
    for manifest in sorted((ROOT / "tests").glob("**/pack.yaml")):
        game = YAML(typ="safe").load(manifest.read_text(encoding="utf-8")).get("game")
        if (ROOT / "content" / str(game) / "game.yaml").is_file():
            targets.append((f"{game}+{manifest.parent.name}", ROOT / "content" / game,
                            (manifest.parent,)))
    return targets


TARGETS = _targets()


@pytest.fixture(scope="module", params=TARGETS, ids=[t[0] for t in TARGETS])
def game(request):
    _, root, packs = request.param
    reporter = dg.Reporter()
    loaded = pipeline.compile_game(root, list(packs), reporter)
    assert loaded is not None and not reporter.errors, reporter.diagnostics[:3]
    return loaded


def effects(game) -> list[tuple[str, n.Block]]:
    """Every parsed effect of the game, then every callable called with 1 and with 2."""
    found = [(f"{e.kind}:{e.id}", s.ast) for e in game.all() for s in e.effects if s.ast]
    found += [(f"keyword:{k}", s.ast) for k, s in sorted(game.keyword_sites.items()) if s.ast]
    vocab = game.vocab
    for table in (vocab.verbs, vocab.keywords):
        for name, callable_ in sorted(table.items()):
            for count in (1, 2):
                args = [_stand_in(vocab, p.type, count) for p in callable_.params]
                if None not in args:
                    found.append((f"{name}({count})", n.Block((n.Call(name, tuple(args)),))))
    for name, query in sorted(vocab.queries.items()):
        args = [_stand_in(vocab, p.type, 2) for p in query.params]
        if None not in args and query.returns in ("int", "bool"):
            cond = n.Func(name, tuple(args))
            if query.returns == "int":
                cond = n.BinOp(">=", cond, n.Num(2))
            then = n.Block((n.Call(_plain_verb(vocab), ()),))
            found.append((f"{name}()", n.Block((n.If(cond, then),))))
    return found


def _plain_verb(vocab) -> str:
    return next(name for name, verb in sorted(vocab.verbs.items()) if not verb.params)


def _stand_in(vocab, type_: str, count: int):
    if type_ == "int":
        return n.Num(count)
    if type_ in ("player", "any"):
        return n.Name(("you",))
    names = sorted(name for name, infos in vocab.names.items() if type_.split(":")[-1] in infos)
    return n.Name((names[0],)) if names else None


def latin_in_vocabulary_zh(vocab) -> set[str]:
    texts = [info.text.zh for infos in vocab.names.values() for info in infos.values()]
    texts += [t.zh for t in vocab.entity_names.values()]
    texts += [c.text.zh for table in (vocab.verbs, vocab.queries, vocab.keywords)
              for c in table.values() if c.text is not None]
    return {run for text in texts for run in re.findall(r"[A-Za-z]+", text)}


def problems(text: str, lang: str, vocab) -> list[str]:
    found = []
    if re.search(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b", text):
        found.append("raw identifier")
    if re.search(r"\([e]?s\)|\{|\}|\[[^\]]*\|", text):
        found.append("unresolved template mark")
    if re.search(r"\b(\w+) \1\b", text, re.I) and lang == "en":
        found.append("doubled word")
    if re.search(r"([,;:.])\s*[,;:]|\.\s*\.|。。|[，；：、]{2}|[，；：]。|的的", text):
        found.append("doubled punctuation")
    if lang == "en":
        plural_after_one = [w for w in re.findall(r"\b(?<![.\d])1 ([a-z]+s)\b", text)
                            if not w.endswith(("ss", "us", "is")) and w not in ("as", "its", "has", "was")]
        if plural_after_one:
            found.append(f"plural after 1 {plural_after_one}")
    if lang == "zh":
        if re.search(r"(?<!\d),|,(?!\d)|[;:()?]|!(?!\w)", text.replace("！", "")):
            found.append("half-width punctuation")
        allowed = latin_in_vocabulary_zh(vocab) | VARIABLES
        latin = set(re.findall(r"[A-Za-z]+", text)) - allowed
        if latin:
            found.append(f"Latin letters {sorted(latin)}")
        if getattr(vocab, "script", "hant") == "hans":
            traditional = {chr(k) for k, v in TO_SIMPLIFIED.items() if chr(k) != v}
            left = sorted(set(text) & traditional)
            if left:
                found.append(f"Traditional characters {left}")
    else:
        if re.search(r"[\u4e00-\u9fff]", text):
            found.append("Chinese in English")
    return found


def test_every_effect_renders_as_readable_rules_text(game):
    vocab = game.vocab
    bad = []
    for where, block in effects(game):
        for lang in ("zh", "en"):
            text = render(block, vocab, lang)
            assert text, (where, lang)
            issues = problems(text, lang, vocab)
            if issues:
                bad.append(f"{where} [{lang}] {issues}: {text}")
    assert not bad, "\n".join(bad[:20]) + f"\n({len(bad)} in all)"


def test_the_checks_catch_what_they_name():
    """The property's own checks fail on each defect the issue names."""
    class V:
        script = "hans"
        names, verbs, queries, keywords, entity_names = {}, {}, {}, {}, {}
    for text, lang in (("take 2 random prisoner(s)", "en"), ("移除target", "zh"),
                       ("持有catacomb map", "zh"), ("gain gold_coin", "en"),
                       ("该事件的amount", "zh"), ("获得1金币,然后", "zh"),
                       ("draw the the card", "en"), ("花費1點", "zh"), ("a;; b", "en"),
                       ("draw 1 relics", "en")):
        assert problems(text, lang, V()), text
    assert not problems("掷2颗子弹骰，造成X点子弹伤害（X为掷骰结果的命中数）。", "zh", V())


# --- any AST, against real vocabularies: never a crash, never an identifier in Chinese --------

from tests.dsl import corpus  # noqa: E402


@corpus.SHARED   # no module-scoped fixture here: it would put the test in the module's group
def test_any_effect_renders_without_identifiers():
    """The 150 effects of the shared derandomized draw (tests/dsl/corpus.py), rendered with
    Deep Rock Galactic's vocabulary."""
    vocabulary = pipeline.compile_game(ROOT / "content" / "deep_rock_galactic", [],
                                       dg.Reporter()).vocab
    allowed = latin_in_vocabulary_zh(vocabulary) | VARIABLES | {"true", "false"}
    for block in corpus.effects():
        for lang in ("zh", "en"):
            text = render(block, vocabulary, lang)
            # no plural marker glued to a word ("prisoner(s)"); a random query's argument may
            # be a one-letter name in parentheses ("the target (s)")
            assert text and "{" not in text and not re.search(r"\w\(s\)", text), text
            assert not re.search(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b", text), text
            if lang == "zh":
                latin = {w for w in re.findall(r"[A-Za-z]+", text) if not re.fullmatch("[A-Z]", w)}
                assert not latin - allowed, text  # a lone capital is a variable (let N, X...)


def test_vocabulary_chinese_texts_use_full_width_punctuation(game):
    """Sheets print some vocabulary texts as they are (names in tables, legends)."""
    vocab = game.vocab
    texts = [(name, info.text.zh) for name, infos in vocab.names.items()
             for info in infos.values()]
    texts += [(name, c.text.zh) for table in (vocab.verbs, vocab.queries, vocab.keywords)
              for name, c in table.items() if c.text is not None]
    bad = [(name, text) for name, text in texts
           if re.search(r"(?<!\d),|,(?!\d)|[;:()!?]", re.sub(r"\{\w+(:plural|:signed)?\}", "", text))]
    assert not bad, bad[:10]
