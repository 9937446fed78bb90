"""Self-contained HTML report: an interactive checklist a reviewer works through offline.

Rendered with jinja2 (autoescaping on) from `templates/report.html.j2`; the stylesheet and script
(`report.css`, `report.js` beside it) are inlined and pinned by a Content-Security-Policy hash, so
the file loads nothing from the network and runs no script but its own.

Layout: a header (root, time, versions, files, verdict, counts by severity), an SVG bar chart of
findings by category, the checklist (one item per rule hit, grouped by category, blockers first;
each occurrence shows `path:line` with two lines of context highlighted by Pygments), skipped
files and suppressed findings. Ticks are kept in localStorage under the scanned root, keyed by
finding fingerprints, so they survive a reload and a re-scan of the same code.

Like every reporter it reads only the Report and its Finding records; it never opens a scanned file.
"""
from __future__ import annotations

import base64
import hashlib
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Optional

import jinja2
from markupsafe import Markup, escape

from ..model import PARTIAL_KINDS, PHASES, SCOPES, SEVERITIES, SEVERITY_RANK, Diagnostic, Finding, Report
from ..plan import build_plan, finding_effort
from .text import safe

TEMPLATE = "report.html.j2"
# Occurrences of one rule beyond this many show their context as plain text: Pygments markup
# roughly doubles the bytes per line, and a 5,000-finding report must stay under 5 MB.
HIGHLIGHT_PER_RULE = 25
# Big reports (past this many findings) highlight fewer occurrences per rule, so 10,000 findings stay under 5 MB.
BIG_REPORT, HIGHLIGHT_PER_RULE_BIG = 3000, 10
# Occurrence lists longer than this start collapsed, which keeps big reports' first layout cheap.
OPEN_OCCURRENCES = 30
MAX_LINE_CHARS = 400  # longer code lines (minified or generated code) are cut for display
SEVERITY_NOUNS = {"blocker": ("blocker", "blockers"), "change": ("change", "changes"),
                  "advisory": ("advisory", "advisories")}


def template_dir() -> Path:
    """The templates shipped in the wheel, or the repository's own in a checkout."""
    package = Path(__file__).resolve().parent.parent
    packaged = package / "templates"
    if (packaged / TEMPLATE).is_file():
        return packaged
    return package.parent / "templates"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(template_dir())), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    return env


def _asset(name: str) -> str:
    return (template_dir() / name).read_text(encoding="utf-8")


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


# --- syntax highlighting ----------------------------------------------------------------------

def _lexer_for(path: str):
    return _lexer_by_suffix(PurePosixPath(path).suffix.lower() or PurePosixPath(path).name.lower())


@lru_cache(maxsize=64)
def _lexer_by_suffix(suffix: str):
    from pygments.lexers import PythonLexer, TextLexer, get_lexer_for_filename
    from pygments.util import ClassNotFound

    options = {"stripnl": False, "ensurenl": False}
    if suffix in (".py", ".pyi", ".ipynb", ""):
        return PythonLexer(**options)
    try:
        return get_lexer_for_filename("x" + suffix if suffix.startswith(".") else suffix, **options)
    except ClassNotFound:
        return TextLexer(**options)


@lru_cache(maxsize=1)
def _pygments():
    from pygments.formatters import HtmlFormatter
    from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token

    # A handful of classes instead of Pygments' ~80: names, operators and punctuation stay plain
    # text, so runs merge and a highlighted line costs a few spans, not one per token.
    def collapse(ttype):
        if ttype in Keyword or ttype in Operator.Word:
            return Keyword
        if ttype in Name.Builtin:
            return Name.Builtin
        if ttype in Name.Function or ttype in Name.Class:
            return Name.Function
        if ttype in Name.Decorator:
            return Name.Decorator
        if ttype in String:
            return String
        if ttype in Number:
            return Number
        if ttype in Comment:
            return Comment
        return Token.Text

    return HtmlFormatter(nowrap=True), collapse


def highlight_lines(path: str, lines: list[str]) -> list[Markup]:
    """Pygments-highlighted HTML, one balanced fragment per input line (Pygments escapes the text)."""
    import io

    formatter, collapse = _pygments()
    out = io.StringIO()
    code = "\n".join(lines)
    formatter.format(((collapse(t), v) for t, v in _lexer_for(path).get_tokens(code)), out)
    html_lines = out.getvalue().split("\n")
    if len(html_lines) == len(lines) + 1 and not html_lines[-1]:
        html_lines.pop()  # the formatter ends its last line with a newline
    if len(html_lines) != len(lines):  # never expected; fall back to plain escaped text
        return [escape(line) for line in lines]
    return [Markup(h) for h in html_lines]


# --- view model -------------------------------------------------------------------------------

@dataclass
class CodeLine:
    number: int
    html: Markup
    hit: bool


@dataclass
class Occurrence:
    finding: Finding
    location: str
    code: list[CodeLine]
    highlighted: bool
    effort: str = "local-edit"

    @property
    def data_path(self) -> Optional[str]:
        """The path for links when the location text does not spell it exactly (notebooks, odd names)."""
        f = self.finding
        return f.path if f.cell is not None or safe(f.path) != f.path else None

    @property
    def link_line(self) -> int:
        f = self.finding
        return (f.file_line or 1) if f.cell is not None else f.line

    @property
    def scope(self) -> str:
        return getattr(self.finding, "scope", None) or ""


@dataclass
class Item:
    rule_id: str
    title: str
    severity: str
    category: str
    why: str
    fix: str
    fix_is_suggestion: bool
    source: str
    docs: str
    docs_url: Optional[str]
    corrected: Optional[list[CodeLine]]
    occurrences: list[Occurrence] = field(default_factory=list)
    # (title, url or None): the rule's public sources; a URL that is not http(s) is shown as text only
    sources: list[tuple[str, Optional[str]]] = field(default_factory=list)
    phase: str = "eager-port"
    effort: str = "local-edit"

    @property
    def open_occurrences(self) -> bool:
        return len(self.occurrences) <= OPEN_OCCURRENCES


@dataclass
class Category:
    name: str
    items: list[Item]
    counts: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def worst(self) -> str:
        return max((s for s, n in self.counts.items() if n), key=SEVERITY_RANK.get, default="advisory")


def location(f: Finding) -> str:
    if f.cell is not None:
        return f"{safe(f.path)}, cell {f.cell + 1}, line {f.line}"
    return f"{safe(f.path)}:{f.line}"


def _clip(text: str) -> str:
    """One code line for display: control and bidi characters spelled out (no Trojan Source
    reordering), tabs expanded, very long (minified) lines cut."""
    text = safe(text.expandtabs(4))
    return text if len(text) <= MAX_LINE_CHARS else text[:MAX_LINE_CHARS] + " …"


def _dedent(texts: list[str]) -> list[str]:
    """Drop the indentation every non-blank line shares, so deep code does not start mid-screen."""
    indents = [len(t) - len(t.lstrip(" ")) for t in texts if t.strip()]
    cut = min(indents, default=0)
    return [t[cut:] if t.strip() else "" for t in texts] if cut else texts


def _code_lines(f: Finding, highlight: bool) -> list[CodeLine]:
    pairs = list(f.context) or [(f.line, f.snippet)]
    if not highlight:
        # Past the first occurrences of a rule, one line either side is enough to recognise the place
        # (the source link and the editor give the rest); it keeps 10,000-finding reports under 5 MB.
        pairs = [(n, t) for n, t in pairs if f.line - 1 <= n <= max(f.end_line, f.line) + 1] or pairs
    last = max(f.end_line, f.line)
    texts = _dedent([_clip(t) for _, t in pairs])
    html = highlight_lines(f.path, texts) if highlight else [escape(t) for t in texts]
    return [CodeLine(n, h, f.line <= n <= last) for (n, _), h in zip(pairs, html)]


def _http_url(url: str) -> Optional[str]:
    """Only http(s) links become anchors: a team catalogue could hold a `javascript:` URL."""
    url = (url or "").strip()
    return url if url.lower().startswith(("https://", "http://")) else None


def build_items(report: Report, findings: list[Finding], highlight_per_rule: int) -> list[Item]:
    items: dict[str, Item] = {}
    for f in findings:
        item = items.get(f.rule)
        if item is None:
            rule = report.rules.get(f.rule)
            corrected = None
            if rule is not None and rule.corrected:
                src = rule.corrected.rstrip("\n").split("\n")
                corrected = [CodeLine(i + 1, h, False) for i, h in enumerate(highlight_lines("example.py", src))]
            item = items[f.rule] = Item(
                rule_id=f.rule, title=(rule.title if rule else f.title) or f.message, severity=f.severity,
                category=f.category, why=rule.why if rule else "", fix=rule.fix if rule else f.fix,
                fix_is_suggestion=bool(rule and rule.fix_is_suggestion), source=rule.source if rule else f.source,
                docs=rule.docs if rule else f.docs, docs_url=_http_url(rule.docs if rule else f.docs),
                corrected=corrected, sources=[(s.title, _http_url(s.url)) for s in rule.sources] if rule else [],
                phase=rule.phase if rule else "eager-port", effort=rule.effort if rule else "local-edit")
        elif SEVERITY_RANK[f.severity] > SEVERITY_RANK[item.severity]:
            item.severity = f.severity
        highlight = len(item.occurrences) < highlight_per_rule
        item.occurrences.append(Occurrence(f, location(f), _code_lines(f, highlight), highlight,
                                           finding_effort(f, report.rules.get(f.rule))))
    return list(items.values())


def build_categories(items: list[Item]) -> list[Category]:
    by_cat: dict[str, list[Item]] = {}
    for item in items:
        by_cat.setdefault(item.category, []).append(item)
    cats = []
    for name, its in by_cat.items():
        its.sort(key=lambda i: (-SEVERITY_RANK[i.severity], i.rule_id))
        counts = {s: 0 for s in SEVERITIES}
        for i in its:
            for o in i.occurrences:
                counts[o.finding.severity] += 1
        cats.append(Category(name, its, counts))
    # Blocker categories first, then changes, then advisories; bigger first within a severity.
    cats.sort(key=lambda c: (-SEVERITY_RANK[c.worst], -c.counts["blocker"], -c.counts["change"], -c.total, c.name))
    return cats


def build_chart(categories: list[Category]) -> dict:
    """A horizontal stacked bar per category. Each row is HTML (the label wraps on a phone) with an SVG
    bar in percent units of the biggest category: widths are SVG attributes, which the CSP allows,
    where inline style attributes are refused."""
    peak = max((c.total for c in categories), default=0) or 1
    rows = []
    for c in categories:
        x, segments = 0.0, []
        for sev in SEVERITIES:
            n = c.counts[sev]
            if n:
                w = max(0.6, 100.0 * n / peak)
                segments.append({"severity": sev, "count": n, "x": round(x, 2), "width": round(w, 2)})
                x += w
        rows.append({"name": c.name, "total": c.total, "segments": segments})
    return {"rows": rows}


@dataclass
class PhaseGroup:
    id: str
    title: str
    advice: str
    items: list[Item]

    @property
    def total(self) -> int:
        return sum(len(i.occurrences) for i in self.items)


def build_phases(report: Report, items: list[Item]) -> list[PhaseGroup]:
    texts = (report.plan_text or {}).get("phases", {})
    groups = {p: PhaseGroup(p, texts.get(p, {}).get("title", p), texts.get(p, {}).get("advice", ""), [])
              for p in PHASES}
    for item in items:
        groups[item.phase if item.phase in groups else "eager-port"].items.append(item)
    for g in groups.values():
        g.items.sort(key=lambda i: (-SEVERITY_RANK[i.severity], i.category, i.rule_id))
    return [g for g in groups.values() if g.items]


def scope_verdicts(findings: list[Finding], gate_scopes=()) -> list[dict]:
    """Verdict per scope (source, test, ...) when findings carry one, in the fixed scope order; `counted`
    says whether the report's verdict counts that scope."""
    by: dict[str, dict[str, int]] = {}
    for f in findings:
        scope = getattr(f, "scope", None)
        if scope:
            counts = by.setdefault(scope, {s: 0 for s in SEVERITIES})
            counts[f.severity] += 1
    out = []
    order = {s: i for i, s in enumerate(SCOPES)}
    for scope, c in sorted(by.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])):
        if c["blocker"]:
            v = f"not ready: {c['blocker']} blocker{'s' if c['blocker'] != 1 else ''}"
        elif c["change"]:
            v = f"ready after mechanical changes: {c['change']} change{'s' if c['change'] != 1 else ''}"
        else:
            v = f"ready, with {c['advisory']} advisor{'ies' if c['advisory'] != 1 else 'y'} to review"
        out.append({"scope": scope, "verdict": v, "worst": next(s for s in SEVERITIES if c[s]),
                    "counted": scope in gate_scopes})
    return out


def _first_sentence(text: str, limit: int = 220) -> str:
    m = re.match(r"(.+?[.!?])(\s|$)", text.strip(), re.S)
    s = m.group(1) if m else text.strip()
    return s if len(s) <= limit else s[:limit].rsplit(" ", 1)[0] + " …"


def _when(iso: str) -> str:
    """`2026-11-29T23:40:00+00:00` -> `2026-11-29 23:40:00 UTC`; anything else unchanged."""
    import datetime as dt

    try:
        t = dt.datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso
    if t.utcoffset() == dt.timedelta(0):
        return t.strftime("%Y-%m-%d %H:%M:%S UTC")
    return t.strftime("%Y-%m-%d %H:%M:%S %z") if t.tzinfo else t.strftime("%Y-%m-%d %H:%M:%S")


def context(report: Report, highlight_per_rule: int = HIGHLIGHT_PER_RULE, source_url: Optional[str] = None) -> dict:
    active = report.active
    if len(active) > BIG_REPORT:
        highlight_per_rule = min(highlight_per_rule, HIGHLIGHT_PER_RULE_BIG)
    items = build_items(report, active, highlight_per_rule)
    categories = build_categories(items)
    plan = build_plan(report)
    for r in plan["redesign"]:
        r["needs"] = _first_sentence(r["fix"])
    efforts = (report.plan_text or {}).get("efforts", {})
    suppressed = [f for f in report.findings if f.suppressed]
    counts = report.by_severity()
    css, js = _asset("report.css"), _asset("report.js")
    counted = {s: 0 for s in SEVERITIES}
    for f in report.counted:
        counted[f.severity] += 1
    worst = next((s for s in SEVERITIES if counted[s]), None)  # the verdict's colour: what the gate counts
    return {
        "report": report,
        "root_name": safe(PurePosixPath(report.root.replace("\\", "/")).name or report.root),
        "root": safe(report.root),
        "counts": counts,
        "total": len(active),
        "verdict": report.verdict(),
        "verdict_class": worst or "ready",
        "severities": SEVERITIES,
        "severity_nouns": SEVERITY_NOUNS,
        "categories": categories,
        "items_total": len(items),
        "chart": build_chart(categories),
        "phases": build_phases(report, items),
        "plan": plan,
        "effort_titles": {e: efforts.get(e, {}).get("title", e) for e in ("automatic", "local-edit", "redesign")},
        "scopes": scope_verdicts(active, report.gate_scopes),
        "fix_command": f"{plan['fix_command']} {shlex.quote(report.root)}",
        "source_url": source_url if source_url and _http_url(source_url) else "",
        "suppressed": [(f, location(f), _clip(f.snippet)) for f in suppressed],
        "diagnostics": [Diagnostic(safe(d.path), d.kind, safe(d.message)) for d in report.diagnostics],
        "files_skipped": sum(1 for d in report.diagnostics if d.kind not in PARTIAL_KINDS),
        "catalogue_sha": report.catalogue_sha256[:12],
        "started": _when(report.started_at),
        "css": Markup(css),
        "js": Markup(js),
        "csp": (f"default-src 'none'; img-src data:; style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
                "base-uri 'none'; form-action 'none'"),
    }


def render(report: Report, stream, highlight_per_rule: int = HIGHLIGHT_PER_RULE, source_url: Optional[str] = None,
           **_options) -> None:
    template = _environment().get_template(TEMPLATE)
    for chunk in template.generate(**context(report, highlight_per_rule, source_url)):
        stream.write(chunk)
