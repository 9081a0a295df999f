"""Natural-language renderer: an effect AST as Chinese or English rules text.

`render(block, vocab, lang)` mirrors the canonical printer (dsl/printer.py): one branch per
statement kind and per expression kind. What a name says comes from the game's vocabulary
(duck-typed like compiler.vocabulary.Vocabulary): verbs, queries and keywords carry zh/en text
templates with `{param}` placeholders; every other name is looked up with `vocab.text_of`.

A top-level statement becomes a sentence: English sentences start with a capital letter and end
with a period; Chinese clauses are joined with full-width punctuation and end with "。".
Values bound by `let` are shown as capital letters (N, M, K...), which read the same in both
languages.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from dsl import nodes as n

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
                  "opponent": {"zh": "對手", "en": "opponent"}}
_PLAYER_KINDS = {"player", "opponent"}

_COMPARE = {
    "zh": {"==": "為", "!=": "不為", "<": "少於", "<=": "至多為", ">": "多於", ">=": "至少為"},
    "en": {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
           ">": "is more than", ">=": "is at least"},
}
_ARITH = {"+": "+", "-": "-", "*": "×", "//": "÷"}
_LOGIC = {"zh": {"and": "且", "or": "或"}, "en": {"and": "and", "or": "or"}}
_LET_LETTERS = "NMKLPQRSTUVWXYZ"
_MAX_KEYWORD_DEPTH = 8  # keywords defined through keywords; beyond this, show the template

# ASCII punctuation inside Chinese text (templates are often typed with it) -> full width.
_FULL_WIDTH = {",": "，", ":": "：", ";": "；", "(": "（", ")": "）", "!": "！", "?": "？"}
_ASCII_PUNCT = re.compile(r"(?<!\d),|,(?!\d)|[:;()!?]")

# A cost's effect that is not something the player does reads "X後，Y" / "X, then Y".
_ZH_NOT_ACTIONS = ("若", "本", "你", "每", "一旦", "可以", "選擇", "持續", "需要", "設", "對")
_EN_NOT_ACTIONS = ("you ", "if ", "each ", "as soon as ", "when ", "once ", "this ",
                   "requires ", "not allowed ", "let ", "continuous", "for each ")
_EN_NOT_FALLBACK = "it is not the case that "
# Negating a Chinese clause: "已有" -> "尚無", "X中有" -> "X中沒有", "你在" -> "你不在"...;
# anything else becomes "並非…".
_ZH_NEGATIONS = ((re.compile("已有"), "尚無"),
                 (re.compile("([中上間裡內])有"), r"\1沒有"),
                 (re.compile("^(你|營地|隊伍)在"), r"\1不在"))

_PREC = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
         "+": 5, "-": 5, "*": 6, "//": 6}


def render(node, vocab, lang: str, bound: dict[str, str] | None = None) -> str:
    """Render a Block, a statement or an expression as rules text in `lang` ("zh" or "en").

    `bound` gives the text of names bound outside `node` (for a sub-expression of an effect,
    see `let_names`)."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {LANGS}")
    r = _Renderer(vocab, lang, dict(bound or {}))
    if isinstance(node, n.Block):
        text = r.sentences(node)
    elif _is_expr(node):
        text = r.finish(r.expr(node), sentence=False)
    else:
        text = r.sentences(n.Block((node,)))
    if lang == "zh" and getattr(vocab, "script", "hant") == "hans":
        # The renderer's own phrases are written in Traditional characters; a game whose
        # rulebook is in Simplified ones gets them converted (its names already are).
        text = text.translate(_TO_SIMPLIFIED)
    return text


# Every Traditional character the renderer's fixed phrases use, with its Simplified form.
_TO_SIMPLIFIED = str.maketrans({
    "並": "并", "個": "个", "內": "内", "則": "则", "將": "将", "對": "对", "後": "后",
    "擇": "择", "數": "数", "於": "于", "標": "标", "沒": "没", "為": "为", "無": "无",
    "營": "营", "續": "续", "裡": "里", "複": "复", "設": "设", "該": "该", "變": "变",
    "選": "选", "間": "间", "隊": "队", "項": "项", "時": "时", "與": "与", "從": "从",
    "開": "开", "當": "当", "張": "张", "點": "点", "輪": "轮", "動": "动", "發": "发",
})


def let_names(block: n.Block) -> dict[str, str]:
    """The letters `render` shows for the values a block binds with `let`, by name."""
    names: dict[str, str] = {}
    for node in n.walk(block):
        if isinstance(node, n.Let) and node.name not in names:
            names[node.name] = _LET_LETTERS[len(names)] if len(names) < len(_LET_LETTERS) \
                else node.name
    return names


def _is_expr(node) -> bool:
    return isinstance(node, (n.Num, n.Bool, n.Name, n.Func, n.Count, n.Any_, n.BinOp, n.Not,
                             n.Neg))


def full_width(text: str) -> str:
    """ASCII , : ; ( ) ! ? -> their full-width forms (a comma between digits is kept)."""
    return _ASCII_PUNCT.sub(lambda m: _FULL_WIDTH[m.group(0)], text)


def capitalise(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _pluralise(word: str) -> str:
    if not word or word.isupper() or word.endswith(("equipment", "s")):
        return word
    if word.endswith(("x", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


@dataclass
class _Renderer:
    vocab: object
    lang: str
    env: dict[str, str] = field(default_factory=dict)  # let variables, keyword parameters
    depth: int = 0

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    # --- blocks ---------------------------------------------------------------------------

    def sentences(self, block: n.Block) -> str:
        """A top-level block: one sentence per statement."""
        clauses = [self.stmt(s) for s in block.stmts]
        if self.zh:
            return self.finish("；".join(clauses), sentence=True)
        return " ".join(self.finish(c, sentence=True) for c in clauses)

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
        clauses = [self.stmt(s) for s in block.stmts]
        if len(clauses) == 1:
            return clauses[0]
        compound = any(not isinstance(s, (n.Call, n.Assign, n.Let, n.Require))
                       for s in block.stmts)
        if self.zh:
            return ("；" if compound else "，").join(clauses)
        if compound:
            return "; ".join(clauses)
        return ", ".join(clauses[:-1]) + " and " + clauses[-1]

    # --- statements -----------------------------------------------------------------------

    def stmt(self, s) -> str:  # noqa: C901 - one branch per statement kind
        zh = self.zh
        if isinstance(s, n.Call):
            return self.call(s)
        if isinstance(s, n.Assign):
            return self.assign(s)
        if isinstance(s, n.Let):
            letter = self.letter(s.name)
            value = self.expr(s.value)
            return f"設{letter}為{value}" if zh else f"let {letter} be {value}"
        if isinstance(s, n.Require):
            return self.require(s)
        if isinstance(s, n.Cost):
            costs = [self.call(c) for c in s.costs]
            effect = self.body(s.effect)
            if zh:  # "X以Y"; "X後，Y" when Y is not something one does
                joiner = "後，" if effect.startswith(_ZH_NOT_ACTIONS) else "以"
                return "並".join(costs) + joiner + effect
            joiner = ", then " if effect.startswith(_EN_NOT_ACTIONS) else " to "
            return " and ".join(costs) + joiner + effect
        if isinstance(s, n.If):
            cond, then = self.expr(s.cond), self.body(s.then)
            text = f"若{cond}，{then}" if zh else f"if {cond}, {then}"
            if s.otherwise is not None:
                other = self.body(s.otherwise)
                text += f"；否則，{other}" if zh else f"; otherwise, {other}"
            return text
        if isinstance(s, n.On):
            event = self.name_text(s.event, prefer="event")
            if s.where is not None:
                where = self.expr(s.where)
                event += f"，若{where}" if zh else f", if {where}"
            return f"{event}：{self.body(s.body)}" if zh else f"{event}: {self.body(s.body)}"
        if isinstance(s, n.When):
            cond, body = self.expr(s.cond), self.body(s.body)
            return f"一旦{cond}，{body}" if zh else f"as soon as {cond}, {body}"
        if isinstance(s, n.Each):
            return self.each(s)
        if isinstance(s, n.Target):
            sel = self.selector(s.selector, one=True)
            body = self.body(s.body)
            return f"選擇{sel}作為目標：{body}" if zh else f"choose {sel} as the target: {body}"
        if isinstance(s, n.During):
            scope = self.name_text(s.scope, prefer="scope")
            body = self.body(s.body)
            return f"{scope}內：{body}" if zh else f"{scope}: {body}"
        if isinstance(s, n.Once):
            scope = self.name_text(s.scope, prefer="scope")
            body = self.body(s.body)
            return f"{scope}限一次：{body}" if zh else f"once {scope}: {body}"
        if isinstance(s, n.Repeat):
            count = self.expr(s.count)
            body = self.body(s.body)
            return f"重複{count}次：{body}" if zh else f"{count} times: {body}"
        if isinstance(s, n.May):
            body = self.body(s.body)
            return f"可以{body}" if zh else f"you may {body}"
        if isinstance(s, n.Continuous):
            body = self.body(s.body)
            return f"持續：{body}" if zh else f"continuous: {body}"
        if isinstance(s, n.Choose):
            options = [self.body(o) for o in s.options]
            if zh:
                return "選擇一項：" + "；或".join(options)
            return "choose one: " + "; or ".join(options)
        raise TypeError(f"not a statement: {s!r}")

    def require(self, s: n.Require) -> str:
        cond = self.expr(s.cond)
        if self.zh:
            return f"需要{cond}"
        if cond.startswith(_EN_NOT_FALLBACK):  # "not allowed if X" reads better
            return "not allowed if " + cond[len(_EN_NOT_FALLBACK):]
        return f"requires that {cond}"

    def assign(self, s: n.Assign) -> str:
        target, value = self.expr(s.target), self.expr(s.value)
        if self.zh:
            return {"=": f"將{target}變為{value}", "+=": f"{target}+{value}",
                    "-=": f"{target}-{value}", "*=": f"{target}×{value}"}[s.op]
        return {"=": f"set {target} to {value}", "+=": f"{target} gets +{value}",
                "-=": f"{target} gets -{value}", "*=": f"multiply {target} by {value}"}[s.op]

    def each(self, s: n.Each) -> str:
        body = self.body(s.body)
        sel = s.selector
        if sel.kind in _PLAYER_KINDS and sel.zone is None:
            kind = self.kind_text(sel.kind)
            if sel.where is not None:
                cond = self.expr(sel.where)
                return (f"每位{cond}的{kind}各自：{body}" if self.zh
                        else f"each {kind} for whom {cond}: {body}")
            return f"每位{kind}各自{body}" if self.zh else f"each {kind}: {body}"
        text = self.selector(sel, one=False)
        return f"對{text}：{body}" if self.zh else f"for each {text}: {body}"

    def letter(self, name: str) -> str:
        used = set(self.env.values())
        letter = next((c for c in _LET_LETTERS if c not in used), name)
        self.env[name] = letter
        return letter

    # --- calls ----------------------------------------------------------------------------

    def call(self, c: n.Call) -> str:
        vocab = self.vocab
        callable_ = (vocab.verbs.get(c.verb) or vocab.keywords.get(c.verb)
                     or vocab.queries.get(c.verb))
        if callable_ is None:
            args = " ".join(self.arg_text(a.value if isinstance(a, n.KwArg) else a, None)
                            for a in c.args)
            return f"{self.name_text(c.verb)} {args}".strip()
        values = self.bind(callable_, c.args)
        text = callable_.text.get(self.lang) if callable_.text is not None else None
        if text is not None and not self.zh:
            text = self.plural_after_counts(text, callable_, values)
        if text is None and callable_.effect and self.depth < _MAX_KEYWORD_DEPTH:
            return self.expand(callable_, values)
        if text is None:
            return " ".join([self.name_text(c.verb), *values.values()]).strip()
        return self.fill(text, values)

    def bind(self, callable_, args) -> dict[str, str]:
        """Rendered argument text by parameter name."""
        params = list(callable_.params)
        values: dict[str, str] = {}
        positional = [a for a in args if not isinstance(a, n.KwArg)]
        for param, arg in zip(params, positional):
            values[param.name] = self.arg_text(arg, param.type)
        for arg in args:
            if isinstance(arg, n.KwArg):
                type_ = next((p.type for p in params if p.name == arg.name), None)
                values[arg.name] = self.arg_text(arg.value, type_)
        return values

    def arg_text(self, arg, type_: str | None) -> str:
        if isinstance(arg, n.Name) and len(arg.parts) == 1 and arg.head not in self.env:
            return self.name_text(arg.head, prefer=type_)
        return self.expr(arg)

    def plural_after_counts(self, template: str, callable_, values: dict[str, str]) -> str:
        """English "{amount} {item}" with amount other than 1: pluralise the item's text."""
        ints = {p.name for p in callable_.params if p.type == "int"}
        names = {p.name for p in callable_.params if p.type not in ("int", "resource")}

        def repl(m: re.Match) -> str:
            count, item = m.group(1), m.group(2)
            if count in ints and item in names and values.get(count) != "1" \
                    and item in values:
                words = values[item].rsplit(" ", 1)
                values[item + "__plural"] = " ".join(words[:-1] + [_pluralise(words[-1])])
                return "{%s} {%s__plural}" % (count, item)
            return m.group(0)
        return re.sub(r"\{(\w+)\} \{(\w+)\}", repl, template)

    def fill(self, template: str, values: dict[str, str]) -> str:
        return re.sub(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}",
                      lambda m: values.get(m.group(1), m.group(0)), template)

    def expand(self, keyword, values: dict[str, str]) -> str:
        """A keyword without its own text: render the effect it stands for."""
        from dsl.parser import EffectSyntaxError, parse
        try:
            block = parse(keyword.effect)
        except EffectSyntaxError:
            return " ".join([self.name_text(keyword.name), *values.values()]).strip()
        inner = _Renderer(self.vocab, self.lang, {**self.env, **values}, self.depth + 1)
        return inner.body(block)

    # --- expressions ----------------------------------------------------------------------

    def expr(self, e, minimum: int = 0) -> str:  # noqa: C901 - one branch per kind
        zh = self.zh
        if isinstance(e, n.Num):
            return f"({e.value})" if e.value < 0 and minimum > 5 else str(e.value)
        if isinstance(e, n.Bool):
            return ("是" if e.value else "否") if zh else ("true" if e.value else "false")
        if isinstance(e, n.Name):
            return self.path(e)
        if isinstance(e, n.Func):
            return self.query(e)
        if isinstance(e, n.Count):
            return self.count(e.selector)
        if isinstance(e, n.Any_):
            sel = self.selector(e.selector, one=True)
            return f"存在{sel}" if zh else f"there is {sel}"
        if isinstance(e, n.Not):
            return self.negate(e.operand)
        if isinstance(e, n.Neg):
            return f"-{self.expr(e.operand, 7)}"
        if isinstance(e, n.BinOp):
            return self.binop(e, minimum)
        raise TypeError(f"not an expression: {e!r}")

    def binop(self, e: n.BinOp, minimum: int) -> str:
        p = _PREC[e.op]
        if e.op in _ARITH:
            text = f"{self.expr(e.left, p)}{_ARITH[e.op]}{self.expr(e.right, p + 1)}"
            return f"({text})" if p < minimum else text
        if p == 4:
            left, right = self.expr(e.left, 5), self.expr(e.right, 5)
            word = _COMPARE[self.lang][e.op]
            return f"{left}{word}{right}" if self.zh else f"{left} {word} {right}"
        word = _LOGIC[self.lang][e.op]
        left, right = self.expr(e.left, p), self.expr(e.right, p + 1)
        text = f"{left}{word}{right}" if self.zh else f"{left} {word} {right}"
        if p < minimum:
            return f"（{text}）" if self.zh else f"({text})"
        return text

    def negate(self, e) -> str:
        text = self.expr(e, 3)
        if self.zh:
            if not isinstance(e, n.BinOp):
                for pattern, repl in _ZH_NEGATIONS:
                    negated, count = pattern.subn(repl, text, count=1)
                    if count:
                        return negated
            return f"並非{text}"
        if not isinstance(e, n.BinOp):
            if text.startswith("you have "):
                return "you do not have " + text[len("you have "):]
            match = re.search(r"\b(is|are|has been|have been)\b", text)
            if match:
                return text[:match.end()] + " not" + text[match.end():]
        return _EN_NOT_FALLBACK + text

    def query(self, e: n.Func) -> str:
        q = self.vocab.queries.get(e.name) or self.vocab.keywords.get(e.name)
        if q is None or q.text is None:
            args = ", ".join(self.expr(a) for a in e.args)
            return f"{self.name_text(e.name)}({args})"
        values = {p.name: self.arg_text(a, p.type) for p, a in zip(q.params, e.args)}
        return self.fill(q.text.get(self.lang), values)

    def path(self, e: n.Name) -> str:
        head = e.head
        if len(e.parts) == 1:
            if head in self.env:
                return self.env[head]
            if head in _LOCALS and not self.vocab_has(head):
                return _LOCALS[head][self.lang]
            return self.name_text(head)
        attrs = [self.name_text(a) for a in e.parts[1:]]
        if self.zh:
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

    def count(self, sel: n.Selector) -> str:
        kind = self.kind_text(sel.kind, plural=True)
        where = self.expr(sel.where) if sel.where is not None else None
        if self.zh:
            zone = f"{self.name_text(sel.zone, prefer='zone')}中" if sel.zone else ""
            cond = f"{where}的" if where else ""
            return f"{zone}{cond}{kind}的數量"
        text = f"the number of {kind}"
        if sel.zone:
            text += f" in the {self.name_text(sel.zone, prefer='zone')}"
        if where:
            text += f" for which {where}"
        return text

    def selector(self, sel: n.Selector, one: bool) -> str:
        kind = self.kind_text(sel.kind)
        where = self.expr(sel.where) if sel.where is not None else None
        if self.zh:
            zone = f"{self.name_text(sel.zone, prefer='zone')}中" if sel.zone else ""
            cond = f"{where}的" if where else ""
            return f"{zone}{'一個' if one else '每個'}{cond}{kind}"
        article = ("an" if kind[:1].lower() in "aeiou" else "a") if one else "each"
        text = f"{kind}" if not one else f"{article} {kind}"
        if sel.zone:
            text += f" in the {self.name_text(sel.zone, prefer='zone')}"
        if where:
            text += f" for which {where}"
        return text

    # --- names ----------------------------------------------------------------------------

    def vocab_has(self, name: str) -> bool:
        return bool(getattr(self.vocab, "names", {}).get(name))

    def name_text(self, name: str, prefer: str | None = None) -> str:
        if name in self.env:
            return self.env[name]
        try:
            text = self.vocab.text_of(name, self.lang, prefer)
        except TypeError:  # a vocabulary whose text_of takes no `prefer`
            text = self.vocab.text_of(name, self.lang)
        if text == name:  # not declared: show the identifier readably
            return name.replace("_", " ")
        return text

    def kind_text(self, kind: str, plural: bool = False) -> str:
        spec = getattr(self.vocab, "kinds", {}).get(kind)
        if isinstance(spec, dict) and self.lang in spec:
            text = str(spec[self.lang])
        elif kind in _BUILTIN_KINDS:
            text = _BUILTIN_KINDS[kind][self.lang]
        else:
            text = self.name_text(kind)
        return _pluralise(text) if plural and not self.zh else text
