"""Natural-language renderer: an effect AST as Chinese or English rules text.

`render(block, vocab, lang)` has one branch per statement kind and per expression kind, like
the canonical printer (dsl/printer.py), but writes for players: what a name says comes from the
game's vocabulary (duck-typed like compiler.vocabulary.Vocabulary). Verbs, queries and keywords
carry zh/en templates whose grammar (agreement, articles, measure words, counts that are not
numbers) is in dsl/render/templates.py; English word forms are in dsl/render/words.py.

A top-level statement becomes a sentence: English sentences start with a capital letter and end
with a period; Chinese clauses are joined with full-width punctuation and end with "。".
No identifier is ever printed as it is written: a name the vocabulary gives no text reads as
words in English (`plus_signs` -> "plus signs") and as a neutral phrase in Chinese ("该数值"),
and `tomecraft check` warns about it. Values bound by `let` read as the query's `result` text
("the roll") when it declares a `step`, else as capital letters (N, M...); the parameters of a
keyword rendered on its own read as X, Y... (numbers) or their type's name.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from tomecraft.dsl import nodes as n
from tomecraft.dsl.render import templates
from tomecraft.dsl.render.templates import Arg, signed
from tomecraft.dsl.render.words import article, is_simple_count, number, pluralise

LANGS = ("zh", "en")

# Names every effect may use without declaring them (see compiler.vocabulary.LOCALS).
_LOCALS = {
    "you": {"zh": "你", "en": "you"},
    "self": {"zh": "此物", "en": "this"},
    "it": {"zh": "它", "en": "it"},
    "target": {"zh": "目標", "en": "the target"},
    "event": {"zh": "該事件", "en": "the event"},
}
_POSSESSIVE_EN = {"you": "your", "self": "its", "it": "its", "target": "the target's",
                  "event": "the event's"}
_BUILTIN_KINDS = {"player": {"zh": "玩家", "en": "player"},
                  "opponent": {"zh": "對手", "en": "opponent"},
                  "other_player": {"zh": "其他玩家", "en": "other player"}}
_PLAYER_KINDS = set(_BUILTIN_KINDS)
# What a keyword parameter of a name type reads as when the keyword is rendered on its own.
_TYPE_WORDS = {"resource": ("資源", "resource"), "zone": ("區域", "zone"),
               "stat": ("數值", "value"), "status": ("狀態", "status"),
               "scope": ("時段", "period"), "event": ("事件", "event"),
               "player": ("玩家", "player"), "any": ("指定對象", "the given thing"),
               "bool": ("條件", "condition")}
_UNNAMED_ZH = "該數值"       # an attribute the vocabulary gives no text
_UNNAMED_ZH_NAME = "指定對象"  # a name the vocabulary gives no text

_COMPARE = {
    "zh": {"==": "為", "!=": "不為", "<": "少於", "<=": "至多為", ">": "多於", ">=": "至少為"},
    "en": {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
           ">": "is more than", ">=": "is at least"},
}
_ARITH = {"+": "+", "-": "\u2212", "*": "×", "//": "÷"}   # the typeset minus, as signed()
_LOGIC = {"zh": {"and": "且", "or": "或"}, "en": {"and": "and", "or": "or"}}
_LET_LETTERS = "NMKLPQRSTUVW"
PARAM_LETTERS = "NMK"   # a keyword's number parameters, as sheets show them ("Ambush N")
_COUNT_LETTERS = "XYZ"   # counts that are not numbers: "gain X gold, where X is..."
# The definition templates.fill puts after a clause that uses such a count.
# "the number of Scare results in the roll": a die face counted; "> 0" reads "the roll shows
# Scare", not "there are Scare results in the roll"
_EN_FACES = re.compile(r"the number of (.+) results in (.+)")
# "the number of Secret Tome cards you hold is at least 2" says "you hold at least 2 Secret
# Tome cards"; "... is less than your treasure limit", "you hold fewer treasures than ..."
_EN_OWNED = re.compile(r"the number of ([\w' -]+?) (you (?:hold|have|own))")
_EN_HOW_MANY = {">=": "{subject} at least {n} {things}", "<=": "{subject} at most {n} {things}",
                ">": "{subject} more {things} than {n}", "<": "{subject} fewer {things} than {n}"}
# ... against a number: "you hold fewer than 2 treasures", not "fewer treasures than 2"
_EN_HOW_MANY_N = {**_EN_HOW_MANY, ">": "{subject} more than {n} {things}",
                  "<": "{subject} fewer than {n} {things}"}
_WHERE_DEF = re.compile(r", where ([A-Z] is .*)$", re.S)
_MAX_KEYWORD_DEPTH = 8  # keywords defined through keywords; beyond this, show the template
# Keywords without text expanded in one rendering; past it, the keyword's name and arguments.
# Each expansion is bounded by the depth but not their number: 30 keywords each calling the
# next twice (or 10 each calling the next 20 times), none with text, expanded 2**8 (20**8)
# times, and `sheets`/`cards` hung on the text.
_MAX_KEYWORD_EXPANSIONS = 64

# ASCII punctuation inside Chinese text (templates are often typed with it) -> full width.
_FULL_WIDTH = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "!": "！", "?": "？"}
_ASCII_PUNCT = re.compile(r"(?<!\d),|,(?!\d)|[:;()!?]")

# A cost's effect that is not something the player does reads "X後，Y" / "X, then Y".
_ZH_NOT_ACTIONS = ("若", "本", "你", "每", "一旦", "可以", "選擇", "持續", "需要", "設", "對",
                   "擲", "掷")
_EN_NOT_ACTIONS = ("you ", "if ", "each ", "as soon as ", "when ", "once ", "this ",
                   "requires ", "not allowed ", "let ", "continuous", "for each ", "roll ")
_EN_NOT_FALLBACK = "it is not the case that "
# Negating a Chinese clause: "已有" -> "尚無", "X中有" -> "X中沒有", "你在" -> "你不在",
# "已…" -> "未…"; anything else becomes "並非…".
_ZH_NEGATIONS = ((re.compile("已有"), "尚無"),
                 (re.compile("([中上間裡內])有"), r"\1沒有"),
                 (re.compile("^(你|營地|隊伍)在"), r"\1不在"),
                 (re.compile("^(你)?正在"), r"\1不在"),
                 (re.compile("曾"), "未曾"),
                 (re.compile("已"), "未"),
                 (re.compile("^你(?![不沒未])"), "你不"))
# English: the first auxiliary of a clause, and how it reads negated.
_EN_AUX = re.compile(r"\b(is|are|was|were|has been|have been|can|could|will|does|do|"
                     r"has|have)\b")
_EN_AUX_NOT = {"has been": "has not been", "have been": "have not been", "can": "cannot",
               "has": "does not have", "have": "do not have"}
# The verb right after a subject "you" in a template written for "he/she/it".
_THIRD_PERSON = {"has": "have", "is": "are", "does": "do", "was": "were"}

_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "+": 5, "-": 5, "*": 6, "//": 6}


_REMARK = re.compile(r" ?\([^()]{6,}\)|（[^（）]{4,}）")


def _said_once(text: str) -> str:
    """A bracketed remark a verb's template adds is not said again in the clauses that follow:
    "destroy the wall in the area (minerals inside drop on the ground), destroy the stalagmite
    in the area" (it was said after each). A colon in between opens a new condition, trigger
    or branch ("After an opponent...: you may gain 1 stun token (no student may be
    sacrificed...)"), which says its remark again."""
    last_end: dict[str, int] = {}

    def once(m: re.Match) -> str:
        remark = m.group(0).strip()
        end = last_end.get(remark)
        last_end[remark] = m.end()
        if end is not None and not re.search("[:：]", text[end:m.start()]):
            return ""
        return m.group(0)
    return _REMARK.sub(once, text)


def render(node, vocab, lang: str, bound: dict[str, str] | None = None,
           lasts: str = "") -> str:
    """Render a Block, a statement or an expression as rules text in `lang` ("zh" or "en").

    `bound` gives the text of names bound outside `node` (for a sub-expression of an effect,
    see `let_names`). A block that is a keyword's own effect shows the keyword's parameters
    as X, Y... (numbers) or by their type. `lasts`: the scope (e.g. "turn") at whose end the
    engine ends what the effect registers; its triggers then say so ("this turn, whenever
    ..."), as `during turn:` would, instead of reading as permanent."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    env = dict(bound or {})
    r = _Renderer(vocab, lang, env)
    if lasts and isinstance(node, n.Block):
        node = _scoped_triggers(node, lasts)
    if isinstance(node, n.Block):
        r.bind_keyword_params(node)
        text = r.sentences(node)
    elif _is_expr(node):
        text = r.finish(r.expr(node), sentence=False)
    else:
        text = r.sentences(n.Block((node,)))
    if lang == "en":
        text = _fix_articles(text)
    if lang == "zh" and getattr(vocab, "script", "hant") == "hans":
        # The renderer's own phrases are written in Traditional characters; a game whose
        # rulebook is in Simplified ones gets them converted (its names already are).
        text = text.translate(TO_SIMPLIFIED)
    return text


# How an event's text that reads as a clause starts (en) or ends (zh): the effect follows it
# after a comma, not a colon.
_EN_CLAUSE_STARTS = frozenset(("when", "whenever", "after", "before", "at", "in", "on", "during",
                               "as", "once", "each", "while", "if"))
_ZH_CLAUSE_ENDS = ("時", "时", "後", "后", "前", "階段", "阶段")

# Statements that start a new trigger (and `_Triggers`, several alike): a remark said before
# is said again after them.
_TRIGGERS = (n.On, n.When, n.During)

# Statements without a body of their own: a list of them is one clause ("X, Y and Z").
_SIMPLE = (n.Call, n.Assign, n.Let, n.Require)

# What an effect registers that lasts (a trigger, a watch, a continuous effect).
_LASTING = (n.On, n.When, n.Continuous)


def _scoped_triggers(block: n.Block, scope: str) -> n.Block:
    """`block` with each run of top-level lasting statements inside `during SCOPE:`."""
    stmts, run = [], []
    for s in block.stmts + (None,):
        if isinstance(s, _LASTING):
            run.append(s)
            continue
        if run:
            stmts.append(n.During(scope, n.Block(tuple(run))))
            run = []
        if s is not None:
            stmts.append(s)
    return n.Block(tuple(stmts), block.pos)


_EN_HELD = re.compile(r"the number of (.+?) you hold( \([^)]*\))?")   # "...idols you hold (robots included)"
_ZH_LEFT = re.compile(r"(.+?)剩余的(.+?)[數数]")           # "供应区剩余的小秘密标记数"
_ZH_HELD = re.compile(r"你持有的(.+?)[數数]((?:（[^）]*）)?)")   # "你持有的黄金猴像数（含金猴机器人）"
# "你手中未打出的牌数": things with one modifier at most ("最高的一颗骰的命中数" is another shape)
_ZH_IN = re.compile(r"(.+?中)(?:的)?([^的]+(?:的[^的]+)??)(?:的)?[數数]量?")


def _zh_count(count: str) -> tuple[str, str, str, str] | None:
    """A Chinese count's text split as a person says how many there are: who or where, the
    verb, the things, a remark: "供应区剩余的小秘密标记数" -> ("供应区", "還剩", "小秘密标记",
    ""), "你持有的黄金猴像数（含金猴机器人）" -> ("你", "持有", "黄金猴像", "（含…）"),
    "你手中未打出的牌数" -> ("你手中", "有", "未打出的牌", ""); None for another shape."""
    left = _ZH_LEFT.fullmatch(count)
    if left:
        return left.group(1), "還剩", left.group(2), ""
    held = _ZH_HELD.fullmatch(count)
    if held:
        return "你", "持有", held.group(1), held.group(2)
    inside = _ZH_IN.fullmatch(count)
    if inside:
        return inside.group(1), "有", inside.group(2), ""
    return None


def _zh_some(count: str) -> str:
    """A count said to be above zero, as a person says it: "供应区还有小秘密标记" for
    "供应区剩余的小秘密标记数多于0", "你持有黄金猴像（含金猴机器人）" for "...数至少为1",
    "你手中还有未打出的牌"; "" for a count of another shape."""
    parts = _zh_count(count)
    if parts is None:
        return ""
    where, verb, things, remark = parts
    if verb == "還剩" or (verb == "有" and things.startswith("未")):
        verb = "還有"
    return f"{where}{verb}{things}{remark}"


def _zh_measure(things: str) -> str:
    """The measure word a count of `things` takes when the vocabulary gives none here."""
    if things.endswith(("牌", "卡")):
        return "張"
    return "位" if things.endswith(("玩家", "對手", "对手", "學者", "学者")) else "個"


def _zh_how_many(count: str, op: str, number: str, measure: str = "") -> str:
    """A Chinese count against a number, said as how many there are: "你手中至少有3张未打出
    的牌", "供应区至少还剩2个囚犯标记", "你持有的宝藏不到2个", "出牌区中至少有2张伙伴牌",
    not "……的数量至少为2"; "" for a count of another shape."""
    parts = _zh_count(count)
    if parts is None or not number.isdigit():
        return ""
    where, verb, things, remark = parts
    m = measure or _zh_measure(things)
    if (op, number) in (("==", "0"), ("<", "1"), ("<=", "0")):
        none = {"有": "沒有", "還剩": "沒有剩餘的", "持有": "未持有"}[verb]
        return f"{where}{none}{things}{remark}"
    if op == "<":
        said = {"有": "" if "的" in things else "的", "還剩": "剩餘的", "持有": "持有的"}[verb]
        return f"{where}{said}{things}{remark}不到{number}{m}"
    form = {">=": "{w}至少{v}{n}{m}{t}", "<=": "{w}至多{v}{n}{m}{t}",
            ">": "{w}{v}超過{n}{m}{t}", "==": "{w}恰好{v}{n}{m}{t}"}.get(op)
    if form is None:
        return ""
    return form.format(w=where, v=verb, n=number, m=m, t=things) + remark


# Every Traditional character the renderer's fixed phrases use, with its Simplified form.
TO_SIMPLIFIED = str.maketrans({
    "並": "并", "個": "个", "內": "内", "則": "则", "將": "将", "對": "对", "後": "后",
    "擇": "择", "數": "数", "於": "于", "標": "标", "沒": "没", "為": "为", "無": "无",
    "營": "营", "續": "续", "裡": "里", "複": "复", "設": "设", "該": "该", "變": "变",
    "選": "选", "間": "间", "隊": "队", "項": "项", "時": "时", "與": "与", "從": "从",
    "開": "开", "當": "当", "張": "张", "點": "点", "輪": "轮", "動": "动", "發": "发",
    "資": "资", "區": "区", "狀": "状", "態": "态", "條": "条", "指": "指", "況": "况",
    "擲": "掷", "結": "结", "總": "总", "號": "号", "擁": "拥", "執": "执", "處": "处",
    "這": "这", "們": "们", "邊": "边", "來": "来", "遠": "远", "進": "进", "達": "达",
    "還": "还", "過": "过", "餘": "余",
})


def render_call(vocab, name: str, lang: str, stand_ins: dict[str, str]) -> str:
    """A verb's, query's or keyword's own text with stand-ins for its parameters (a legend:
    `render_call(vocab, "sacrifice", "en", {"amount": "N"})` -> "sacrifice N students"),
    through the same template grammar as effects; "" if it has no text."""
    callable_ = vocab.verbs.get(name) or vocab.keywords.get(name) or vocab.queries.get(name)
    if callable_ is None or callable_.text is None:
        return ""
    r = _Renderer(vocab, lang)
    args = {p.name: Arg(stand_ins.get(p.name, r.type_word(p.type)), count=p.type == "int")
            for p in callable_.params}
    text = templates.fill(callable_.text.get(lang), args, lang, r.new_letter)
    text = full_width(text) if lang == "zh" else _fix_articles(text)
    if lang == "zh" and getattr(vocab, "script", "hant") == "hans":
        text = text.translate(TO_SIMPLIFIED)
    return text


def let_names(block: n.Block) -> dict[str, str]:
    """The letters `render` shows for the values a block binds with `let`, by name."""
    names: dict[str, str] = {}
    for node in n.walk(block):
        if isinstance(node, n.Let) and node.name not in names:
            names[node.name] = _LET_LETTERS[len(names)] if len(names) < len(_LET_LETTERS) \
                else "N"
    return names


def _per(scope: str, zh: bool) -> str:
    """A scope said as what a limit repeats with: "once per turn" ("每回合限一次"), not "once
    this turn" ("本回合限一次"), which reads as a limit of this turn only; a scope already
    said so ("per long rest", "每次长休") is kept."""
    if zh:
        return "每" + scope[1:] if scope.startswith("本") else scope
    return "per " + scope[len("this "):] if scope.startswith("this ") else scope


def _is_expr(node) -> bool:
    return isinstance(node, (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_, n.BinOp, n.Not,
                             n.Neg))


def full_width(text: str) -> str:
    """ASCII , : ; ( ) ! ? -> their full-width forms (a comma between digits is kept)."""
    return _ASCII_PUNCT.sub(lambda m: _FULL_WIDTH[m.group(0)], text)


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _fix_articles(text: str) -> str:
    """"a"/"an" before each word as its sound needs (names come in from the vocabulary)."""
    return re.sub(r"\b([Aa])n? (?=([A-Za-z][\w-]*))",
                  lambda m: (lambda a: (a.capitalize() if m.group(1) == "A" else a) + " ")(
                      article(m.group(2))), text)


def _readable(name: str) -> str:
    """An identifier as English words: `plus_signs` -> "plus signs"."""
    return name.replace("_", " ")


def _term_type_text(vocab, term_type: str):
    """The text of a type of terms: the `x-text` of a kind's field holding such a term."""
    for kind in sorted(getattr(vocab, "kinds", {})):
        for spec in (vocab.kinds[kind].get("fields") or {}).values():
            if isinstance(spec, dict) and spec.get("x-tomecraft") == f"term:{term_type}":
                text = spec.get("x-text")
                if isinstance(text, dict) and text.get("zh") and text.get("en"):
                    return text
    return None


def _keyword_effects(vocab) -> dict:
    """Parsed keyword effects -> keyword, once per vocabulary (again if keywords are added)."""
    cached = getattr(vocab, "__dict__", {}).get("_render_keyword_effects")
    if cached is not None and cached[0] == len(getattr(vocab, "keywords", {})):
        return cached[1]
    from tomecraft.dsl.parser import EffectSyntaxError, parse
    cache = {}
    for keyword in getattr(vocab, "keywords", {}).values():
        if getattr(keyword, "effect", "") and getattr(keyword, "params", ()):
            try:
                cache.setdefault(parse(keyword.effect), keyword)
            except EffectSyntaxError:
                continue
    if hasattr(vocab, "__dict__"):
        vocab.__dict__["_render_keyword_effects"] = (len(vocab.keywords), cache)
    return cache


@dataclass
class _Renderer:
    vocab: object
    lang: str
    env: dict[str, str] = field(default_factory=dict)  # let variables, keyword parameters
    depth: int = 0
    event: str | None = None     # the event of the enclosing `on`, for `event.field`
    in_where: bool = False       # inside a selector's condition: `it` is what is selected
    letters: list[str] = field(default_factory=list)  # X, Y... handed out for counts
    expanded: list[int] = field(default_factory=lambda: [0])  # shared: keywords expanded

    def may_expand(self) -> bool:
        """Whether one more keyword without text may be rendered as its effect."""
        if self.depth >= _MAX_KEYWORD_DEPTH or self.expanded[0] >= _MAX_KEYWORD_EXPANSIONS:
            return False
        self.expanded[0] += 1
        return True

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    def child(self, env: dict[str, str]) -> "_Renderer":
        return _Renderer(self.vocab, self.lang, env, self.depth + 1, self.event,
                         self.in_where, self.letters, self.expanded)

    def new_letter(self) -> str:
        used = set(self.env.values()) | set(self.letters)
        letter = next((c for c in _COUNT_LETTERS + _LET_LETTERS if c not in used), "X")
        self.letters.append(letter)
        return letter

    def bind_keyword_params(self, block: n.Block) -> None:
        keyword = _keyword_effects(self.vocab).get(block)
        if keyword is None:
            return
        for param in keyword.params:
            if param.name in self.env:
                continue
            used = set(self.env.values())
            if param.type == "int":
                self.env[param.name] = next((c for c in PARAM_LETTERS if c not in used), "N")
            elif self.names_type(param.type):
                self.env[param.name] = self.type_word(param.type)
            else:   # a type with no words of its own ("passage_letter"): a letter, as the
                # rulebook names it ("秘密通道效果X", L856), not "passage letter" / "指定對象"
                self.env[param.name] = next((c for c in _COUNT_LETTERS if c not in used), "X")

    def names_type(self, type_: str) -> bool:
        """Whether `type_word` has words for the type, not only its identifier."""
        base = type_.split(":", 1)[-1]
        spec = getattr(self.vocab, "kinds", {}).get(base)
        return (isinstance(spec, dict) and bool(spec.get(self.lang))) or base in _TYPE_WORDS \
            or _term_type_text(self.vocab, base) is not None

    def type_word(self, type_: str) -> str:
        base = type_.split(":", 1)[-1]
        spec = getattr(self.vocab, "kinds", {}).get(base)
        if isinstance(spec, dict) and spec.get(self.lang):
            return str(spec[self.lang])
        if base in _TYPE_WORDS:
            return _TYPE_WORDS[base][0 if self.zh else 1]
        text = _term_type_text(self.vocab, base)
        if text is not None:  # "指定颜色" / "colour"
            return "指定" + text.get("zh") if self.zh else text.get("en")
        return _UNNAMED_ZH_NAME if self.zh else _readable(base)

    # --- blocks ---------------------------------------------------------------------------

    def sentences(self, block: n.Block) -> str:
        """A top-level block: one sentence per statement. A bracketed remark is said once in
        a run of statements, and again after each new trigger (`_said_once`)."""
        stmts = self.said_once(block.stmts)
        said = [(s, c) for s, c in ((s, self.stmt(s)) for s in stmts) if c]
        clauses = [c for _, c in said]
        if not self.zh and len(stmts) == len(clauses) and len(stmts) > 1 \
                and isinstance(stmts[0], n.Require) and clauses[0].startswith("only if "):
            # "Only if C: the rest." A condition and what it allows are one sentence.
            rest = self.join(clauses[1:], stmts[1:])
            return _said_once(self.finish(f"{clauses[0]}: {rest}", sentence=True))
        pieces = []
        for i, (stmt, clause) in enumerate(said):
            if not self.zh or i == len(said) - 1 or not isinstance(stmt, _SIMPLE):
                # Chinese too: one sentence per statement that has a body of its own
                # ("每回合限一次：X。Y。"); joined by "；", what follows read as part of its
                # body ("若C，抽1张牌；重复3次：…" said `if C { draw 1 }; repeat 3 {...}` and
                # `if C: draw 1; repeat 3: ...` alike). Simple statements stay a list ("X；Y。").
                pieces.append((stmt, self.finish(clause, sentence=True)))
            else:
                pieces.append((stmt, clause + "；"))
        groups: list[list[str]] = []
        for stmt, piece in pieces:
            if not groups or isinstance(stmt, (*_TRIGGERS, _Triggers)):
                groups.append([])
            groups[-1].append(piece)
        sep = "" if self.zh else " "
        return sep.join(_said_once(sep.join(g)) for g in groups)

    def finish(self, text: str, sentence: bool) -> str:
        if self.zh:
            text = full_width(text)
            if sentence and not text.endswith(("。", "！", "？")):
                text = text.rstrip("；，") + "。"
            return text
        if sentence:
            text = capitalise(text)
            if not text.endswith((".", "!", "?")):
                text = text.rstrip(";, ") + "."
        return text

    def body(self, block: n.Block) -> str:
        """A nested block: its statements joined into one clause."""
        stmts = self.said_once(block.stmts)
        return self.join([c for c in (self.stmt(s) for s in stmts) if c], stmts)

    def join(self, clauses: list[str], stmts) -> str:
        if len(clauses) == 1:
            return clauses[0]
        compound = any(not isinstance(s, _SIMPLE) for s in stmts)
        if self.zh:
            return ("；" if compound else "，").join(clauses)
        if compound:
            return "; ".join(clauses)
        # A count defined after its clause ("deal X damage, where X is ...") is defined after
        # the whole list, not before the clauses that follow it ("..., where X is the hits
        # and place 3 flames" would read as part of the definition).
        defs = [m.group(1).replace(", where ", " and ") for m in map(_WHERE_DEF.search, clauses) if m]
        clauses = [_WHERE_DEF.sub("", c) for c in clauses]
        # a clause with its own comma takes one before the "and" too: "deal 1 damage, ignoring
        # resistances, and it becomes Stunned" (without it the "and" joined "resistances")
        serial = "," if any(", " in c for c in clauses[:-1]) else ""
        joined = ", ".join(clauses[:-1]) + serial + " and " + clauses[-1]
        return joined + (", where " + " and ".join(defs) if defs else "")

    def said_once(self, stmts) -> list:
        """Leave out a `require` that the `target` after it says again: `require count(S) >= 1`
        (or `any(S)`) before `target S` is the target's own condition; and say once what
        several triggers in a row do alike (`on a { X }; on b { X }` is "when a or b: X")."""
        targets = [s.selector for s in stmts if isinstance(s, n.Target)]
        targets += [s.effect.stmts[0].selector for s in stmts
                    if isinstance(s, n.Cost) and s.effect.stmts
                    and isinstance(s.effect.stmts[0], n.Target)]
        kept = [s for s in stmts
                if not (isinstance(s, n.Require) and _exists(s.cond) in targets)]
        return _alike_triggers(kept)

    # --- statements -----------------------------------------------------------------------

    def stmt(self, s) -> str:  # noqa: C901 - one branch per statement kind
        zh = self.zh
        if isinstance(s, n.Call):
            return self.call(s)
        if isinstance(s, n.Assign):
            return self.assign(s)
        if isinstance(s, n.Let):
            return self.let(s)
        if isinstance(s, n.Require):
            return self.require(s)
        if isinstance(s, n.Cost):
            costs = _share_verb([self.call(c) for c in s.costs], zh)
            effect = self.body(s.effect)
            if zh:  # "X以Y"; "X後，Y" when Y is not something one does
                joiner = "後，" if effect.startswith(_ZH_NOT_ACTIONS) else "以"
                return "".join(costs) + joiner + effect
            joiner = ", then " if effect.startswith(_EN_NOT_ACTIONS) else " to "
            return _and_list(costs) + joiner + effect  # costs already joined
        if isinstance(s, n.If):
            return self.if_(s)
        if isinstance(s, (n.On, _Triggers)):
            return self.on(s)
        if isinstance(s, n.When):
            cond, body = self.expr(s.cond), self.body(s.body)
            return f"一旦{cond}，{body}" if zh else f"as soon as {cond}, {body}"
        if isinstance(s, n.Each):
            return self.each(s)
        if isinstance(s, n.Target):
            return self.target(s)
        if isinstance(s, n.During):
            scope = self.name_text(s.scope, prefer="scope")
            body = self.body(s.body)
            # a clause, not a label: "this turn, whenever you defeat a monster, ..."
            return f"{scope}內，{body}" if zh else f"{scope}, {body}"
        if isinstance(s, n.Once):
            scope = _per(self.name_text(s.scope, prefer="scope"), zh)
            body = self.body(s.body)
            return f"{scope}限一次：{body}" if zh else f"once {scope}: {body}"
        if isinstance(s, n.Repeat):
            return self.repeat(s)
        if isinstance(s, n.May):
            body = self.body(s.body)
            return f"可以{body}" if zh else f"you may {body}"
        if isinstance(s, n.Continuous):
            body = self.body(s.body)
            return f"持續：{body}" if zh else f"continuous: {body}"
        if isinstance(s, n.Choose):
            return self.choose(s)
        raise TypeError(f"not a statement: {s!r}")

    def target(self, s: n.Target) -> str:
        """`target S: body`. A body that names the target refers back to it as a person does:
        "choose a card in the discard pile and trash it", "choose an opponent: that opponent
        discards ..." ("選擇…，移除該牌"), not "choose ... as the target: trash the target".
        A body that acts on the target without naming it (a weapon's damage) keeps "as the
        target", which says what the damage hits."""
        sel = self.selector(s.selector, "one")
        if not any(isinstance(x, n.Name) and x.head == "target" for x in n.walk(s.body)):
            body = self.body(s.body)
            return f"選擇{sel}作為目標：{body}" if self.zh else f"choose {sel} as the target: {body}"
        kind = self.kind_text(s.selector.kind)
        saved = self.env.get("target")
        self.env["target"] = _TARGET_MARK
        try:
            body = self.body(s.body)
        finally:
            if saved is None:
                self.env.pop("target", None)
            else:
                self.env["target"] = saved
        if self.zh:
            that = "該牌" if kind.endswith("牌") else "該" + kind
            body = body.replace(_TARGET_MARK, that)
            return f"選擇{sel}，{'再' if body.startswith('選擇') else ''}{body}"
        body = _refer_back(body, kind, s.selector.kind in _PLAYER_KINDS)
        if body.startswith(("that ", "choose ")) or " and " in sel or "; " in body:
            joiner = ", then " if body.startswith("choose ") else ": "
            return f"choose {sel}{joiner}{body}"
        return f"choose {sel} and {body}"

    def repeat(self, s: n.Repeat) -> str:
        """`repeat C: body`. A count that is not a number is named by a letter and defined
        in the clause, as a verb's count is ("do this X times, where X is the number of
        cards in the graveyard: ..."), not read as "do this the number of ... times"."""
        count = self.expr(s.count)
        define = not is_simple_count(count)
        if define:
            count, definition = self.new_letter(), count
        body = self.body(s.body)
        if self.zh:
            defined = f"（{count}為{definition}）" if define else ""
            return f"重複{count}次{defined}：{body}"
        times = {"1": "once", "2": "twice"}.get(count, f"{count} times")
        defined = f", where {count} is {definition}" if define else ""
        return f"do this {times}{defined}: {body}"

    def let(self, s: n.Let) -> str:
        value = s.value
        query = self.vocab.queries.get(value.name) if isinstance(value, n.Func) else None
        step = getattr(query, "step", None)
        result = getattr(query, "result", None)
        if step is not None and result is not None \
                and result.get(self.lang) not in self.env.values():
            self.env[s.name] = result.get(self.lang)
            return self.fill_callable(query, step.get(self.lang), value.args)
        letter = self.letter(s.name)
        text = self.expr(value)
        return f"設{letter}為{text}" if self.zh else f"let {letter} be {text}"

    def if_(self, s: n.If) -> str:
        cond, then = self.expr(s.cond), self.body(s.then)
        text = f"若{cond}，{then}" if self.zh else f"if {cond}, {then}"
        if s.otherwise is not None:
            other = self.body(s.otherwise)
            text += f"；否則，{other}" if self.zh else f"; otherwise, {other}"
        return text

    def on(self, s: n.On | _Triggers) -> str:
        if isinstance(s, _Triggers):
            texts = [self.name_text(e, prefer="event") for e in s.events]
            event = _either_event(texts, self.zh)
        else:
            event = self.name_text(s.event, prefer="event")
        inner = _Renderer(self.vocab, self.lang, self.env, self.depth, s.event, False,
                          self.letters, self.expanded)
        clause = event.endswith(_ZH_CLAUSE_ENDS)
        folded = self.fold_event(s, event) if s.where is not None else ""
        if folded:
            event = folded
        elif s.where is not None:
            where = inner.expr(s.where)
            event += f"，若{where}" if self.zh else f", if {where}"
        body = inner.body(s.body)
        # a clause, not a label: "after a Move action, you may ..." ("移動行動後，可以……"); a
        # colon here read as a second label after the ability's own ("Light-Footed: After a
        # Move action: you may ..."). An event named as a window ("pre-battle", "战斗轮")
        # keeps its colon: "Pre-battle, add 1" would not read.
        if self.zh:
            return f"{event}{'，' if clause else '：'}{body}"
        first = event.split(" ", 1)[0].lower()
        return f"{event}{', ' if first in _EN_CLAUSE_STARTS else ': '}{body}"

    def fold_event(self, s, event: str) -> str:
        """A trigger whose condition gives the type of the event's own subject, said in the
        trigger: "whenever you gain a prisoner token" ("每获得一个囚犯标记时"), not "whenever
        you gain a token, if that token's type is prisoner"; "when a Magic scheme card is
        played". "" when the condition is of another shape or the event's text does not name
        the subject."""
        cond = s.where
        if not (isinstance(cond, n.BinOp) and cond.op == "==" and isinstance(cond.left, n.Name)
                and cond.left.head == "event" and isinstance(cond.right, n.Name)
                and len(cond.right.parts) == 1 and len(cond.left.parts) in (2, 3)):
            return ""
        events = getattr(s, "events", None) or (s.event,)
        if len(events) != 1 or not hasattr(self.vocab, "event_fields"):
            return ""
        fields = self.vocab.event_fields(events[0])
        attr = cond.left.parts[-1]
        kinds = getattr(self.vocab, "kinds", {})
        if len(cond.left.parts) == 3:       # event.token.token_type: a field of the subject
            kind = fields.get(cond.left.parts[1])
            spec = (kinds.get(kind) or {}).get("fields", {}).get(attr) if kind else None
            if not isinstance(spec, dict) or not str(spec.get("x-tomecraft", "")).startswith(
                    "term:"):
                return ""
        else:                               # event.card_type: the subject's own type
            term = fields.get(attr)
            kind = next((k for k in sorted(kinds) if any(
                isinstance(f, dict) and f.get("x-tomecraft") == f"term:{term}"
                for f in (kinds[k].get("fields") or {}).values())), None) if term else None
        if kind is None or cond.right.head not in getattr(self.vocab, "names", {}):
            return ""
        noun, value = self.kind_text(kind), self.name_text(cond.right.head)
        if self.zh:
            if noun not in event:
                return ""
            typed = value if value.endswith((noun, noun[-1])) else value + noun
            return event.replace(noun, typed, 1)
        said = re.search(r"\b(an?) " + re.escape(noun) + r"\b", event)
        if said is None:
            return ""
        typed = value if value.lower().endswith(noun.lower()) else f"{value} {noun}"
        return event[:said.start()] + f"{article(typed)} {typed}" + event[said.end():]

    def choose(self, s: n.Choose) -> str:
        # `choose { require C; A | require not C; B }` says "if C, A; otherwise, B".
        if len(s.options) == 2:
            first, second = s.options
            if first.stmts and second.stmts and isinstance(first.stmts[0], n.Require) \
                    and isinstance(second.stmts[0], n.Require):
                c1, c2 = first.stmts[0].cond, second.stmts[0].cond
                if c2 == n.Not(c1) or c1 == n.Not(c2):
                    cond, then, other = (c1, first, second) if c2 == n.Not(c1) \
                        else (c2, second, first)
                    if len(then.stmts) > 1 and len(other.stmts) > 1:
                        return self.if_(n.If(cond, n.Block(then.stmts[1:]),
                                             n.Block(other.stmts[1:])))
        options = [self.body(o) for o in s.options]
        if self.zh:
            return "選擇一項：" + "；或".join(options)
        alike = _one_word_apart(options)
        if alike:   # "turn 1 used Strength, Agility or Perception token face up"
            return "choose one: " + alike
        return "choose one: " + "; or ".join(options)

    def require(self, s: n.Require) -> str:
        # `require A or not B`: B only if A ("you cross against the arrow only if you hold a
        # Catacomb Map"; it read "only if you hold a Catacomb Map or you do not cross against
        # the arrow")
        c = s.cond
        if isinstance(c, n.BinOp) and c.op == "or" and isinstance(c.left, n.Not) != isinstance(c.right, n.Not):
            negated, other = (c.left, c.right) if isinstance(c.left, n.Not) else (c.right, c.left)
            what, needs = self.expr(negated.operand), self.expr(other)
            if self.zh:
                return f"{what}时，需要{needs}"
            return f"{'you may ' + what[4:] if what.startswith('you ') else what} only if {needs}"
        cond = self.expr(c)
        if self.zh:
            return f"需要{cond}"
        if cond.startswith(_EN_NOT_FALLBACK):  # "not allowed if X" reads better
            return "not allowed if " + cond[len(_EN_NOT_FALLBACK):]
        return f"only if {cond}"

    def assign(self, s: n.Assign) -> str:
        target, value = self.expr(s.target), self.expr(s.value)
        if self.zh:
            # a change said with its sign, the typeset minus: "该牌的点数\u22121", not "-1"
            plain = re.fullmatch(r"\u2212?\w+", value)
            less = value[1:] if plain and value.startswith("\u2212") \
                else "\u2212" + (value if plain else f"({value})")
            return {"=": f"將{target}變為{value}", "+=": f"{target}{signed(value)}",
                    "-=": f"{target}{signed(less)}", "*=": f"{target}×{value}"}[s.op]
        op = s.op
        if op in ("+=", "-=") and re.fullmatch(r"\u2212\w+", value):   # `+= -2`: subtract 2
            op, value = {"+=": "-=", "-=": "+="}[op], value[1:]
        return {"=": f"set {target} to {value}", "+=": f"add {value} to {target}",
                "-=": f"subtract {value} from {target}",
                "*=": f"multiply {target} by {value}"}[op]

    def each(self, s: n.Each) -> str:
        sel = s.selector
        person = sel.kind in _PLAYER_KINDS
        alone = sel.zone is None and sel.where is None      # "每位對手各自隨機棄掉…"
        saved = self.env.get("it")
        if person:   # "for each opponent in your region, that opponent discards", not "it"
            kind = self.kind_text(sel.kind)
            self.env["it"] = ("" if alone else "該" + kind) if self.zh else f"that {kind}"
        try:
            body = self.body(s.body)
        finally:
            if person and saved is None:
                self.env.pop("it", None)
            elif person:
                self.env["it"] = saved
        if person and alone:
            kind = self.kind_text(sel.kind)
            return f"每位{kind}各自{body}" if self.zh else f"each {kind}: {body}"
        text = self.selector(sel, "each")
        if self.zh:
            return f"對{text}：{body}"
        # a clause, as a person says it: "for each monster within range 1, deal 1 damage"; a
        # body of several clauses keeps the colon that says they are all done for each
        return f"for {text}{': ' if '; ' in body else ', '}{body}"

    def letter(self, name: str) -> str:
        used = set(self.env.values()) | set(self.letters)
        letter = next((c for c in _LET_LETTERS if c not in used), "N")
        self.env[name] = letter
        return letter

    # --- calls ----------------------------------------------------------------------------

    def call(self, c: n.Call) -> str:
        vocab = self.vocab
        callable_ = (vocab.verbs.get(c.verb) or vocab.keywords.get(c.verb)
                     or vocab.queries.get(c.verb))
        if callable_ is None:
            args = " ".join(self.arg(a.value if isinstance(a, n.KwArg) else a, None).text
                            for a in c.args)
            return f"{self.name_text(c.verb)} {args}".strip()
        text = callable_.text.get(self.lang) if callable_.text is not None else None
        if text is None and getattr(callable_, "effect", "") and self.may_expand():
            return self.expand(callable_, self.bind(callable_, c.args))
        if text is None:
            values = self.bind(callable_, c.args)
            return " ".join([self.name_text(c.verb), *(a.text for a in values.values())]).strip()
        return self.fill_callable(callable_, text, c.args)

    def fill_callable(self, callable_, template: str, args) -> str:
        return templates.fill(template, self.bind(callable_, args), self.lang, self.new_letter)

    def bind(self, callable_, args) -> dict[str, Arg]:
        """Rendered arguments by parameter name."""
        params = list(callable_.params)
        values: dict[str, Arg] = {}
        positional = [a for a in args if not isinstance(a, n.KwArg)]
        for param, arg in zip(params, positional):
            values[param.name] = self.arg(arg, param.type)
        for arg in args:
            if isinstance(arg, n.KwArg):
                type_ = next((p.type for p in params if p.name == arg.name), None)
                values[arg.name] = self.arg(arg.value, type_)
        return values

    def arg(self, arg, type_: str | None) -> Arg:
        if type_ == "int":
            return Arg(self.expr(arg), count=True)
        if isinstance(arg, n.Name) and len(arg.parts) == 1 and arg.head not in self.env \
                and arg.head not in _LOCALS:
            info = self.info(arg.head, type_)
            return Arg(self.name_text(arg.head, prefer=type_),
                       getattr(info, "en_plural", "") or "",
                       getattr(info, "zh_measure", "") or "")
        return Arg(self.expr(arg))

    def expand(self, keyword, values: dict[str, Arg]) -> str:
        """A keyword without its own text: render the effect it stands for."""
        from tomecraft.dsl.parser import EffectSyntaxError, parse
        try:
            block = parse(keyword.effect)
        except EffectSyntaxError:
            return " ".join([self.name_text(keyword.name),
                             *(a.text for a in values.values())]).strip()
        return self.child({**self.env, **{k: a.text for k, a in values.items()}}).body(block)

    # --- expressions ----------------------------------------------------------------------

    def expr(self, e, minimum: int = 0) -> str:  # noqa: C901 - one branch per kind
        zh = self.zh
        if isinstance(e, n.Num):
            text = number(e.value)
            return f"({text})" if e.value < 0 and minimum > 5 else text
        if isinstance(e, n.Bool):
            return ("是" if e.value else "否") if zh else ("true" if e.value else "false")
        if isinstance(e, n.Name):
            return self.path(e)
        if isinstance(e, n.Func):
            return self.query(e)
        if isinstance(e, n.Count):
            return self.count(e.selector)
        if isinstance(e, n.Any_):
            if zh:   # "出牌区中有伙伴牌", not "有出牌区中一张是伙伴牌的卡牌"
                zone = self.name_text(e.selector.zone, prefer="zone") + "中" \
                    if e.selector.zone else ""
                where = self.where(e.selector.where) if e.selector.where is not None else ""
                kind = self.kind_text(e.selector.kind)
                return f"{zone}有{self.zh_things(e.selector, where, kind)}"
            return f"there is {self.selector(e.selector, 'one')}"
        if isinstance(e, n.Not):
            return self.negate(e.operand)
        if isinstance(e, n.Neg):
            return f"\u2212{self.expr(e.operand, 7)}"
        if isinstance(e, n.BinOp):
            if e.op == "-" and isinstance(e.left, n.Num) and e.left.value == 0:
                return self.expr(n.Neg(e.right), minimum)    # `(0 - n)`: "−N", not "0−N"
            return self.binop(e, minimum)
        raise TypeError(f"not an expression: {e!r}")

    def binop(self, e: n.BinOp, minimum: int) -> str:
        p = _PREC[e.op]
        if e.op in _ARITH:
            text = f"{self.expr(e.left, p)}{_ARITH[e.op]}{self.expr(e.right, p + 1)}"
            return f"({text})" if p < minimum else text
        if p == 4:
            exists = _exists(e)
            if exists is not None:
                return self.expr(n.Any_(exists))
            left, right = self.expr(e.left, 5), self.expr(e.right, 5)
            held = _EN_HELD.fullmatch(left) if not self.zh else None
            if held and (e.op, right) in ((">", "0"), (">=", "1")):   # "you hold any prisoners"
                return f"you hold any {held.group(1)}{held.group(2) or ''}"
            face = _EN_FACES.fullmatch(left) if not self.zh else None
            if face and right == "0" and e.op in (">", "==", "!="):  # "the roll shows Scare"
                shows = " shows no " if e.op == "==" else " shows "
                return face.group(2) + shows + face.group(1)
            if not self.zh and left.startswith("the number of ") and (e.op, right) in (
                    (">", "0"), ("==", "0"), ("!=", "0"), (">=", "1")):
                # "there are any hits in the roll", not "... is more than 0 / at least 1"
                some = "there are no " if e.op == "==" else "there are any "
                return some + left[len("the number of "):]
            if not self.zh and left.startswith("the ") and (e.op, right) in (
                    (">", "0"), (">=", "1")):   # "if there is any Clank! gained"
                return "there is any " + left[len("the "):]
            has = (re.fullmatch(r"(.*中)(.+)的[數数]量", left)
                   or re.fullmatch(r"(.*[結结]果)的(.+?)[數数]", left)) if self.zh else None
            if has and (e.op, right) in ((">", "0"), ("==", "0"), (">=", "1")):
                head = has.group(1) if has.group(1).endswith("中") else has.group(1) + "中"
                return head + ("沒有" if e.op == "==" else "有") + has.group(2)   # "掷骰结果中有命中"
            some = _zh_some(left) if self.zh and (e.op, right) in ((">", "0"), (">=", "1")) else ""
            if some:    # "供应区剩余的小秘密标记数多于0" -> "供应区还有小秘密标记"
                return some
            if self.zh:  # "出牌区中至少有2张伙伴牌", "你手中至少有3张未打出的牌"
                how_many = _zh_how_many(left, e.op, right, self.measure_of(e.left))
                if how_many:
                    return how_many
            owned = _EN_OWNED.fullmatch(left) if not self.zh else None
            if owned and e.op in _EN_HOW_MANY:   # "you hold at least 2 Secret Tome cards"
                things, subject = owned.groups()
                forms = _EN_HOW_MANY_N if right.isdigit() else _EN_HOW_MANY
                return forms[e.op].format(subject=subject, things=things, n=right)
            how_many = self.how_many(left, e.op, right)
            if how_many:
                return how_many
            word = _COMPARE[self.lang][e.op]
            return f"{left}{word}{right}" if self.zh else f"{left} {word} {right}"
        word = _LOGIC[self.lang][e.op]
        parts = _conjuncts(e)
        texts = [self.expr(c, p + 1) for c in parts[1::2]]
        if self.zh:
            text = word.join(texts)
        else:  # "A, B and C"
            texts = _subject_said_once(texts)
            text = ", ".join(texts[:-1]) + f" {word} " + texts[-1]
        if p < minimum:
            return f"（{text}）" if self.zh else f"({text})"
        return text

    def how_many(self, left: str, op: str, right: str) -> str:
        """English: a count of things against a number (not 1, whose noun would be singular)
        says how many there are: "there are at least 3 unplayed cards in your hand", "the roll
        shows fewer than 2 blank results", not "the number of ... is at least 3"."""
        if self.zh or not right.isdigit() or not left.startswith("the number of "):
            return ""
        face = _EN_FACES.fullmatch(left)
        if (op, right) in (("<", "1"), ("<=", "0")):   # "there are no unplayed cards ..."
            return (face.group(2) + " shows no " + face.group(1) if face
                    else "there are no " + left[len("the number of "):])
        if op not in _EN_HOW_MANY_N or right == "1":
            return ""
        if face:
            return _EN_HOW_MANY_N[op].format(subject=face.group(2) + " shows", n=right,
                                             things=face.group(1) + " results")
        return _EN_HOW_MANY_N[op].format(subject="there are", n=right,
                                         things=left[len("the number of "):])

    def negate(self, e) -> str:
        text = self.expr(e, 3)
        if self.zh:
            if not isinstance(e, n.BinOp):
                for pattern, repl in _ZH_NEGATIONS:
                    negated, count = pattern.subn(repl, text, count=1)
                    if count:
                        return negated
            return f"並非{text}"
        if isinstance(e, n.BinOp) and e.op in _COMPARE["en"] and e.op in ("==", "!="):
            flipped = n.BinOp("!=" if e.op == "==" else "==", e.left, e.right)
            return self.expr(flipped)
        if not isinstance(e, n.BinOp) or e.op not in ("and", "or"):
            return _negate_en(text)
        return _EN_NOT_FALLBACK + text

    def query(self, e: n.Func) -> str:
        q = self.vocab.queries.get(e.name) or self.vocab.keywords.get(e.name)
        if q is None or q.text is None:
            args = ", ".join(self.expr(a) for a in e.args)
            name = self.name_text(e.name)
            return f"{name}（{args}）" if self.zh and args else \
                (f"{name} ({args})" if args else name)
        text = self.fill_callable(q, q.text.get(self.lang), e.args)
        if not self.zh and not self.in_where and getattr(q, "returns", None) == "bool":
            text = _with_subject(text)
        return text

    def path(self, e: n.Name) -> str:
        head = e.head
        if len(e.parts) == 1:
            if head in self.env:
                return self.env[head]
            if head == "it" and self.in_where:
                return "" if self.zh else "it"
            if head in _LOCALS and not self.vocab_has(head):
                return _LOCALS[head][self.lang]
            return self.name_text(head)
        attrs = [self.attribute(a, head) for a in e.parts[1:]]
        if head == "event" and head not in self.env:
            return "的".join(attrs) if self.zh else "'s ".join(attrs)
        if self.zh:
            if head == "it" and self.in_where:
                return "的".join(attrs)
            owner = self.env.get(head) or (_LOCALS[head]["zh"] if head in _LOCALS
                                           else self.name_text(head))
            return "的".join([owner, *attrs])
        if head in self.env:
            owner = f"{self.env[head]}'s"
        elif head in _POSSESSIVE_EN:
            owner = _POSSESSIVE_EN[head]
        else:
            owner = f"the {self.name_text(head)}'s"
        return owner + " " + "'s ".join(attrs)

    def attribute(self, name: str, head: str) -> str:
        field_text = getattr(self.vocab, "field_text", None)
        event = self.event if head == "event" else None
        text = field_text(name, event) if field_text is not None else None
        if text is None and hasattr(self.vocab, "names") and not hasattr(self.vocab, "kinds"):
            text = None
        if text is not None:
            return text.get(self.lang)
        if name in getattr(self.vocab, "names", {}):
            return self.name_text(name)
        if head == "event":
            return "該事件的數值" if self.zh else f"the event's {_readable(name)}"
        return _UNNAMED_ZH if self.zh else _readable(name)

    def measure_of(self, e) -> str:
        """The Chinese measure word of what a count of a selector counts ("" for another)."""
        if not isinstance(e, n.Count):
            return ""
        if e.selector.kind in _PLAYER_KINDS:
            return "位"
        spec = getattr(self.vocab, "kinds", {}).get(e.selector.kind)
        return (spec.get("zh_measure") if isinstance(spec, dict) else "") or ""

    def count(self, sel: n.Selector) -> str:
        if self.zh:
            return f"{self.selector(sel, 'all')}的數量"
        return f"the number of {self.selector(sel, 'all')}"

    def selector(self, sel: n.Selector, det: str) -> str:
        """A selector as a noun phrase: det "one" (a monster...), "each" or "all" (plural)."""
        kind = self.kind_text(sel.kind, plural=det == "all")
        where = self.where(sel.where) if sel.where is not None else ""
        zone = self.name_text(sel.zone, prefer="zone") if sel.zone else ""
        if self.zh:
            zone_text = f"{zone}中" if zone else ""
            spec = getattr(self.vocab, "kinds", {}).get(sel.kind)
            measure = "位" if sel.kind in _PLAYER_KINDS else (
                spec.get("zh_measure") if isinstance(spec, dict) else None) or "個"
            det_text = {"one": "一", "each": "每", "all": ""}[det] + (measure if det != "all"
                                                                     else "")
            return f"{zone_text}{det_text}{self.zh_things(sel, where, kind)}"
        field = sel.where.parts[1] if where and _is_field_of_it(sel.where) else None
        term = self.vocab.text_of(field, "en") if field and field in self.vocab.names else ""
        if term and re.fullmatch(rf"that (?:is|are) (?:an? )?{re.escape(term)}s?", where):
            # a yes/no field whose words name a kind of the thing: "2 companion cards in the
            # play area", not "2 cards in the play area that are companions" (as zh says 伙伴牌)
            kind, where = f"{term} {kind}", ""
        text = kind
        if det == "one":
            text = f"{article(kind)} {kind}"
        elif det == "each":
            text = f"each {kind}"
        if zone:
            text += f" in the {zone}"
        if where:
            if det == "all":  # the number of cards that are...
                where = re.sub(r"\bthat (is|has)\b",
                               lambda m: "that " + {"is": "are", "has": "have"}[m.group(1)],
                               where)
            where = re.sub(r"\bthat are an? ([\w-]+)",
                           lambda m: "that are " + pluralise(m.group(1)), where)
            text += f" {where}"
        return text

    def zh_things(self, sel: n.Selector, where: str, kind: str) -> str:
        """What a Chinese selector names: "是伙伴牌的卡牌" says "伙伴牌" (a yes/no field whose
        text is a kind of the thing); else the condition, "的", the kind."""
        if where and _is_field_of_it(sel.where) and where.startswith("是") \
                and where.endswith(kind[-1]):
            return where[1:]
        return f"{where}的{kind}" if where else kind

    def where(self, cond) -> str:
        """A selector's condition: zh a modifier ("在3格射程內"), en a post-modifier or a
        relative clause ("within range 3", "that is on the player side")."""
        inner = _Renderer(self.vocab, self.lang, self.env, self.depth, self.event, True,
                          self.letters, self.expanded)
        parts = _conjuncts(cond)
        if self.zh:
            texts = [("是" if _is_field_of_it(c) else "") + inner.expr(c, 3)
                     for c in parts[1::2]]
            return "".join(_interleave(texts, [_LOGIC["zh"][op] for op in parts[0::2][1:]]))
        texts = [_relative(("it is " + inner.expr(c, 3).removeprefix("its "))
                           if _is_field_of_it(c) else inner.expr(c, 3)) for c in parts[1::2]]
        # "a monster within range 3 whose size is 1": a relative clause after a post-modifier
        # needs no "and".
        joiners = [" " if op == "and" and text.startswith(("that ", "whose "))
                   and not previous.startswith(("that ", "whose ")) else f" {op} "
                   for op, previous, text in zip(parts[0::2][1:], texts, texts[1:])]
        return "".join(_interleave(texts, joiners))

    # --- names ----------------------------------------------------------------------------

    def vocab_has(self, name: str) -> bool:
        return bool(getattr(self.vocab, "names", {}).get(name))

    def info(self, name: str, prefer: str | None):
        getter = getattr(self.vocab, "info", None)
        return getter(name, prefer) if getter is not None else None

    def name_text(self, name: str, prefer: str | None = None) -> str:
        if name in self.env:
            return self.env[name]
        if name in _LOCALS and not self.vocab_has(name):
            return _LOCALS[name][self.lang]
        try:
            text = self.vocab.text_of(name, self.lang, prefer)
        except TypeError:  # a vocabulary whose text_of takes no `prefer`
            text = self.vocab.text_of(name, self.lang)
        if text != name or self.vocab_has(name):
            return text
        entity = getattr(self.vocab, "entity_names", {}).get(name)
        if entity is not None:
            return entity.get(self.lang)
        spec = getattr(self.vocab, "kinds", {}).get(name)
        if isinstance(spec, dict) and spec.get(self.lang):
            return str(spec[self.lang])
        # Not declared: never the identifier itself.
        return _UNNAMED_ZH_NAME if self.zh else _readable(name)

    def kind_text(self, kind: str, plural: bool = False) -> str:
        spec = getattr(self.vocab, "kinds", {}).get(kind)
        if isinstance(spec, dict) and self.lang in spec:
            text = str(spec[self.lang])
            if plural and not self.zh:
                return str(spec.get("en_plural") or pluralise(text))
            return text
        if kind in _BUILTIN_KINDS:
            text = _BUILTIN_KINDS[kind][self.lang]
        else:
            text = self.name_text(kind)
        return pluralise(text) if plural and not self.zh else text


# --- helpers ------------------------------------------------------------------------------

# What `target` reads as inside the body of `target S:` until the body is written; then
# _refer_back (en) or "該<kind>" (zh) says it.
_TARGET_MARK = "\x01"
# Where a clause starts: the target there is its subject ("that opponent discards ...").
_CLAUSE_START = re.compile(r"(?:^|: |; |, |; or |\bthen |\bif |\band )$")


def _refer_back(body: str, kind: str, person: bool) -> str:
    """The target named again in English: a subject reads "that <kind>" (a thing's later ones
    "it"), an object "it" ("them" for a player), a possessive "its" ("their")."""
    parts = body.split(_TARGET_MARK)
    text, said = parts[0], False
    for part in parts[1:]:
        possessive = part.startswith("'s ")
        if _CLAUSE_START.search(text):
            word = f"that {kind}" if person or not said else "it"
            if possessive:
                word = word + "'s" if word != "it" else "its"
        else:
            word = ("their" if person else "its") if possessive else ("them" if person else "it")
        if possessive:
            part = part[len("'s"):]
        text += word + part
        said = True
    return text


def _exists(e) -> n.Selector | None:
    """The selector of `count(S) >= 1`, `count(S) > 0` or `any(S)`: "there is an S"."""
    if isinstance(e, n.Any_):
        return e.selector
    if isinstance(e, n.BinOp) and isinstance(e.left, n.Count) and isinstance(e.right, n.Num) \
            and ((e.op == ">=" and e.right.value == 1) or (e.op == ">" and e.right.value == 0)):
        return e.left.selector
    return None


def _is_field_of_it(cond) -> bool:
    """`it.companion` standing alone as a condition: a yes/no field of what is selected."""
    return isinstance(cond, n.Name) and cond.head == "it" and len(cond.parts) == 2


def _conjuncts(cond) -> list:
    """[None, c1, op, c2, op, c3...] for a chain of one kind of `and`/`or`."""
    if isinstance(cond, n.BinOp) and cond.op in ("and", "or"):
        left = _conjuncts(cond.left) if isinstance(cond.left, n.BinOp) \
            and cond.left.op == cond.op else [None, cond.left]
        right = _conjuncts(cond.right) if isinstance(cond.right, n.BinOp) \
            and cond.right.op == cond.op else [None, cond.right]
        return left + [cond.op] + right[1:]
    return [None, cond]


def _interleave(texts: list[str], joiners: list[str]) -> list[str]:
    out = [texts[0]]
    for joiner, text in zip(joiners, texts[1:]):
        out += [joiner, text]
    return out


def _relative(text: str) -> str:
    """An English condition about `it` as what follows a noun: "it is on the player side" ->
    "on the player side", "it has X" -> "that has X", "its power is 2" -> "whose power is 2";
    a phrase that already modifies a noun ("within range 3") stays."""
    if text.startswith("it is not "):
        return "that is not " + text[len("it is not "):]
    if text.startswith(("it is a ", "it is an ", "it is the ")):
        return "that is " + text[len("it is "):]
    if text.startswith("it is "):
        return text[len("it is "):]
    if text.startswith("it "):
        return "that " + text[3:]
    if text.startswith("its "):
        return "whose " + text[4:]
    if text.partition(" ")[0] in _PREDICATE_VERBS or text.startswith("does not "):
        return "that " + text                           # "flies", "is Stunned", "does not fly"
    if re.match(r"(the|a|an|your|you|there|this|[A-Z])\b", text):
        return "such that " + text
    return text


# How a condition's text may begin when it has no subject of its own: a predicate written for
# a selector ("a monster within range 3", "a monster that flies"). Said as a condition of its
# own, it takes `it` (what the effect is about: the target, the monster acting).
def _one_word_apart(options: list[str]) -> str:
    """Options that differ in one word only, said once with that word's choices ("turn 1 used
    Strength, Agility or Intelligence token face up"), or "" when they differ more."""
    split = [o.split(" ") for o in options]
    if len(split) < 3 or len({len(w) for w in split}) != 1:
        return ""
    apart = [i for i in range(len(split[0])) if len({w[i] for w in split}) > 1]
    if len(apart) != 1:
        return ""
    i = apart[0]
    choices = [w[i] for w in split]
    words = split[0][:i] + [", ".join(choices[:-1]) + " or " + choices[-1]] + split[0][i + 1:]
    return " ".join(words)


def _subject_said_once(texts: list[str]) -> list[str]:
    """"your camp has not been abandoned and your camp is packed" says its subject once:
    "... and is packed". A condition whose subject (the words before its verb) is the one
    before it drops the subject."""
    out = texts[:1]
    for previous, text in zip(texts, texts[1:]):
        subject = _subject_of(text)
        if subject and subject == _subject_of(previous) and subject not in ("it", "you"):
            text = text[len(subject) + 1:]
        out.append(text)
    return out


def _subject_of(text: str) -> str:
    """The words before a condition's first verb ("your camp" of "your camp is packed"), or ""."""
    words = text.split(" ")
    verb = next((i for i, w in enumerate(words) if w in _SUBJECT_VERBS), None)
    return " ".join(words[:verb]) if verb else ""


_SUBJECT_VERBS = {"is", "are", "has", "have", "was", "were", "does", "do"}
_PREDICATE_VERBS = {"is": "is", "are": "is", "has": "has", "have": "has", "flies": "flies"}
_PREDICATE_PLACES = {"within", "in", "adjacent", "at", "on", "inside", "outside", "next", "near",
                     "behind", "facing"}


def _with_subject(text: str) -> str:
    """A bool query's text as a condition: "is Stunned" -> "it is Stunned", "within range 3"
    -> "it is within range 3"; a text with its own subject is left as it is."""
    first, _, rest = text.partition(" ")
    if first in _PREDICATE_VERBS:
        return " ".join(["it", _PREDICATE_VERBS[first], rest]).rstrip()
    if first in _PREDICATE_PLACES:
        return "it is " + text
    return text


def _negate_en(text: str) -> str:
    first, _, rest = text.partition(" ")
    if first in _PREDICATE_VERBS:           # a predicate with no subject (a selector's)
        if first in ("is", "are"):
            return f"{first} not {rest}"
        return " ".join(["does not", _base_verb(_PREDICATE_VERBS[first]), rest]).rstrip()
    if text.startswith("you "):
        rest = text[4:]
        aux = _EN_AUX.match(rest)
        if aux is None:  # you hold a X -> you do not hold a X
            return "you do not " + rest
    aux = _EN_AUX.search(text)
    if aux is not None:
        word = aux.group(1)
        negated = _EN_AUX_NOT.get(word, word + " not")
        if word in ("has", "have"):
            after = text[aux.end():]
            if after.startswith((" been", " not")):
                negated = word + " not"
        return text[:aux.start()] + negated + text[aux.end():]
    if text.startswith("it "):  # it flies -> it does not fly
        verb, _, rest = text[3:].partition(" ")
        return "it does not " + _base_verb(verb) + (" " + rest if rest else "")
    return _EN_NOT_FALLBACK + text


def _base_verb(verb: str) -> str:
    if verb in _THIRD_PERSON:
        return {"has": "have", "is": "be", "does": "do", "was": "be"}[verb]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes")):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def _share_verb(costs: list[str], zh: bool) -> list[str]:
    """Costs said with one verb: "spend 1 action and 1 ammo" / "花費1行動與1彈藥"."""
    pattern = r"^([^\d]+?)(?=\d|[A-Z]\b)" if zh else r"^(\w+ )(?=\d|[A-Z]\b)"
    verbs = [re.match(pattern, c) for c in costs]
    if len(costs) > 1 and all(verbs) and len({v.group(1) for v in verbs}) == 1:
        costs = [costs[0]] + [c[verbs[0].end():] for c in costs[1:]]
    if zh:
        joined = costs[0]
        for c in costs[1:]:
            joined += ("與" if c[:1].isdigit() or c[:1].isupper() else "並") + c
        return [joined]
    return [_and_list(costs)]


@dataclass(frozen=True)
class _Triggers:
    """Triggers in a row with one condition and one body, said once."""
    events: tuple[str, ...]
    where: n.Expr | None
    body: n.Block

    @property
    def event(self) -> str:         # the first event's fields name what the body reads
        return self.events[0]


def _alike_triggers(stmts: list) -> list:
    out: list = []
    for s in stmts:
        last = out[-1] if out else None
        if isinstance(s, n.On) and isinstance(last, (n.On, _Triggers)) \
                and (last.where, last.body) == (s.where, s.body):
            events = last.events if isinstance(last, _Triggers) else (last.event,)
            out[-1] = _Triggers((*events, s.event), s.where, s.body)
        else:
            out.append(s)
    return out


def _either_event(texts: list[str], zh: bool) -> str:
    """Several events' texts as one: "when a monster is placed, activates or moves in",
    "怪物被放置、行动或移动进入时" (the words they share said once)."""
    if zh:
        head = len(os.path.commonprefix(texts))
        tail = len(os.path.commonprefix([t[head:][::-1] for t in texts]))
        parts = [t[head:len(t) - tail] for t in texts]
        if not all(parts):
            head = tail = 0
            parts = texts
        return texts[0][:head] + "、".join(parts[:-1]) + "或" + parts[-1] + texts[0][len(texts[0]) - tail:]
    words = [t.split(" ") for t in texts]
    head = len(os.path.commonprefix(words))
    if any(len(w) == head for w in words):
        head = 0
    parts = [" ".join(w[head:]) for w in words]
    return " ".join(words[0][:head] + [", ".join(parts[:-1]) + " or " + parts[-1]])


def _and_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
