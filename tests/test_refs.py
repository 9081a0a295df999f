"""Every `ref:` of every game's content cites rulebook lines that speak of the entity.

The rulebooks are not part of the project: they sit in `../shared/rulebooks/` beside the
checkout, and this test skips when they are absent.

Matching, per cited range (each `Lnnn` or `Lnnn-mmm` of a ref must pass on its own, so one
good range cannot hide a wrong one):

- The range's lines (1-based, inclusive) must contain one of the entity's *terms*:
  - its Chinese name, each run of Chinese characters in it, and every 3-character window of
    those runs (every 2-character window too for a run of at most 4 characters: 力量, 背包,
    鬼魂方块), except a few windows that say nothing about the entity (STOP). Longer names
    keep to 3-character windows, so that 起始开锁标记 is not found in any line saying 起始;
  - or, for a longer name, two different 2-character windows of it in the same range
    (宝藏持有上限 in 一旦玩家已经持有1个宝藏标记: 宝藏 and 持有);
  - the Chinese name of the entity's kind (`kinds.<kind>.zh` of `game.yaml`: an attribute's
    supply line names 属性标记, not 力量);
  - the Chinese text of every vocabulary name the entity uses: a field value naming a term,
    resource, zone, stat, verb or keyword of `game.yaml` (e.g. a token's `token_type:
    minor_secret` gives 小秘密), and every name inside its effect strings (the verbs' and
    keywords' texts, with their `{placeholders}` removed).
- A ref with no `L` number at all fails (a ref must cite lines).
- EXCEPTIONS lists the (game, entity id, range) whose lines speak of the entity under a name
  the test cannot derive ("*": every range of that entity); each says why.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "rulebooks"
BOOKS = {"clank_catacombs": "000_81a2acfabc6bb909.txt", "dm_crawl_decks": "001_e1b5628e4dd6248d.txt",
         "the_cave": "002_26fd28221b1214dc.txt", "deep_rock_galactic": "003_374dceb7295145bf.txt",
         "dungeontology": "004_d12c5deadbdfea8f.txt"}
RANGE = re.compile(r"L(\d+)(?:\s*[-–]\s*L?(\d+))?")
CJK = re.compile(r"[\u3400-\u9fff]+")
NAME = re.compile(r"[a-z_][a-z0-9_]*")
# windows too common to show that a line is about one entity
STOP = {"标记", "卡牌", "玩家", "游戏", "一个", "数量", "版塊", "板块", "效果", "每个", "所有", "可以",
        "的研", "后的", "个欧"}
# (game, entity id, "La-b"): the cited lines name the thing differently; each with its reason
EXCEPTIONS = {
    ("clank_catacombs", "max_players", "L645-645"): "the line allows 5-6 players as "
        "五至六人游戏; 最多玩家数 is the project's name for the rule",
    ("dm_crawl_decks", "standard", "*"): "the board is the set of standing numbers of setup "
        "and the turn, each cited at its own line (hand limit 5 at L85, time costs at "
        "L125/L147/L153...); those lines state the number, not a name for the set",
    ("dungeontology", "quick_reflexes", "*"): "an invented Instant card (source: "
        "approximation): the lines define the Instant timing (瞬时, L446) and the priority "
        "round (L452) it exercises; the rulebook lists no such card",
    ("dungeontology", "counter_scheme", "*"): "an invented Response card (source: "
        "approximation): the line defines the Response timing (响应, L448)",
    ("clank_catacombs", "coupon", "L111-111"): "the coupon is one of the 20 prisoner tokens "
        "(the token sheet lists it under 囚犯, L762-786), but its token_type is its own",
}
SKIP_KEYS = {"id", "name", "ref", "note", "source", "approximations", "public", "replace"}


def _vocabulary(game: str) -> dict[str, list[str]]:
    """name -> its Chinese texts, from every section of the game's vocabulary."""
    vocab = YAML(typ="safe").load((REPO / "content" / game / "game.yaml").read_text(encoding="utf-8"))
    out: dict[str, list[str]] = {}

    def add(name, value):
        texts = []
        if isinstance(value, dict):
            for key in ("zh", "text", "name"):
                v = value.get(key)
                if isinstance(v, dict):
                    v = v.get("zh")
                if isinstance(v, str):
                    texts.append(re.sub(r"\{[^}]*\}", " ", v))
        elif isinstance(value, str):
            texts.append(value)
        if texts:
            out.setdefault(name, []).extend(texts)

    for kind in ((vocab or {}).get("kinds") or {}).values():
        if isinstance(kind, dict) and kind.get("plural") and kind.get("zh"):
            out.setdefault("kind:" + kind["plural"], []).append(kind["zh"])
    for section, body in (vocab or {}).items():
        if not isinstance(body, dict) or section == "kinds":
            continue
        for name, value in body.items():
            if section == "terms" and isinstance(value, dict):
                for term, tv in value.items():
                    add(term, tv)
            else:
                add(name, value)
    return out


def _entities(node, kind: str = ""):
    """(entity, the plural of its kind) for every mapping with a `ref` and a `name`."""
    if isinstance(node, dict):
        if "ref" in node and isinstance(node.get("name"), dict):
            yield node, kind
        for key, value in node.items():
            yield from _entities(value, key if isinstance(value, list) else kind)
    elif isinstance(node, list):
        for value in node:
            yield from _entities(value, kind)


def _strings(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in SKIP_KEYS:
                yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def weak_terms(entity: dict) -> set[str]:
    """The 2-character windows of the name's longer runs: two of them make a match."""
    runs = [r for r in CJK.findall(entity["name"].get("zh") or "") if len(r) > 4]
    return {r[i:i + 2] for r in runs for i in range(len(r) - 1)} - STOP


def mentions(text: str, terms: set[str], weak: set[str]) -> bool:
    return any(t in text for t in terms) or sum(1 for t in weak if t in text) >= 2


def terms_of(entity: dict, vocab: dict, kind: str = "") -> set[str]:
    texts = [entity["name"].get("zh") or ""] + vocab.get("kind:" + kind, [])
    for value in _strings(entity):
        for word in NAME.findall(value):
            texts += vocab.get(word, [])
    out = set()
    for text in texts:
        for run in CJK.findall(text):
            if len(run) >= 2:
                out.add(run)
                sizes = (2, 3) if len(run) <= 4 else (3,)
                out |= {run[i:i + n] for n in sizes for i in range(len(run) - n + 1)}
    return out - STOP


def _cases(game: str):
    """(file, entity, the plural of its kind) for every entity with a ref in content/GAME (its
    packs included): each game's test reads its own game's files only."""
    cases = []
    for path in sorted((REPO / "content" / game).rglob("*.yaml")):
        data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
        for entity, kind in _entities(data):
            cases.append((path.relative_to(REPO).as_posix(), entity, kind))
    return cases


def problems(game: str, entity: dict, lines: list[str], vocab: dict, kind: str = "") -> list[str]:
    ref = str(entity["ref"])
    ranges = [(int(a), int(b or a)) for a, b in RANGE.findall(ref)]
    if not ranges:
        return [f"ref {ref!r} cites no line"]
    terms, weak = terms_of(entity, vocab, kind), weak_terms(entity)
    out = []
    for a, b in ranges:
        label = f"L{a}-{b}"
        if (game, entity.get("id"), label) in EXCEPTIONS or (game, entity.get("id"), "*") in EXCEPTIONS:
            continue
        text = "\n".join(lines[a - 1:b])
        if b < a or b > len(lines):
            out.append(f"{label} is not a range of the rulebook's {len(lines)} lines")
        elif not mentions(text, terms, weak):
            out.append(f"{label} does not mention {entity['name'].get('zh')!r} or a term of it")
    return out


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the rulebooks are not beside the checkout ({SHARED})")
@pytest.mark.parametrize("game", sorted(BOOKS))
def test_every_ref_cites_lines_about_its_entity(game):
    lines = (SHARED / BOOKS[game]).read_text(encoding="utf-8").splitlines()
    vocab = _vocabulary(game)
    failures = []
    checked = 0
    for path, entity, kind in _cases(game):
        checked += 1
        for problem in problems(game, entity, lines, vocab, kind):
            failures.append(f"{path}: {entity.get('id')}: ref {entity['ref']!r}: {problem}")
    assert checked > 0, f"no entity with a ref in content/{game}"
    assert not failures, "\n".join(failures)


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the rulebooks are not beside the checkout ({SHARED})")
def test_the_matching_refuses_a_wrong_range():
    """The check is not vacuous: Clank!'s prisoners at L91-93 (blank and unrelated lines) fail,
    at L111 they pass; a range beyond the rulebook fails."""
    lines = (SHARED / BOOKS["clank_catacombs"]).read_text(encoding="utf-8").splitlines()
    vocab = _vocabulary("clank_catacombs")
    prisoners = {"id": "prisoners", "name": {"zh": "囚犯标记", "en": "Prisoners"}, "ref": "L91-93"}
    assert problems("clank_catacombs", prisoners, lines, vocab)
    assert not problems("clank_catacombs", dict(prisoners, ref="L111"), lines, vocab)
    assert problems("clank_catacombs", dict(prisoners, ref="L111, L99999"), lines, vocab)


def test_exceptions_are_few_and_explained():
    assert len(EXCEPTIONS) <= 10
    assert all(len(reason) > 20 for reason in EXCEPTIONS.values())
