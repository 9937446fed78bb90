"""Frozen records shared by every stage: rules, findings, diagnostics, the report.

Data flows one way: discover -> read -> index -> match -> Report -> reporters.
Every reporter reads only these records; none of them re-reads source files.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from .clip import clip
from .filekinds import GROUP_ORDER, GROUPS
from .scope import DEFAULT_GATE_SCOPES, SCOPES

SEVERITIES = ("blocker", "change", "advisory")
SEVERITY_RANK = {"blocker": 3, "change": 2, "advisory": 1}
CONFIDENCES = ("high", "medium")
# The migration plan: the order in which the porting guidance says to work, and how big each item is.
# Ids are part of the JSON schema; their titles and advice live in blockers.toml ([plan]).
PHASES = ("environment", "eager-port", "unsupported-features", "compile-readiness", "fleet-performance")
EFFORTS = ("automatic", "local-edit", "redesign")
# File kinds -> the groups the summary counts (the table lives in filekinds.py).
KIND_GROUPS = GROUPS  # kept under its old name for callers outside the package
# Diagnostics that keep the file's findings: the file was scanned, only in part or with a dangling include.
PARTIAL_KINDS = frozenset({"cell-syntax-error", "missing-include", "too-many-findings", "invalid-text",
                           "undecodable-name", "long-line", "refused-include"})


@dataclass(frozen=True)
class ArgPredicate:
    """One condition on a call argument, looked up by keyword or position."""

    name: Optional[str]
    position: Optional[int]
    op: str  # equals | in | not-in | is-none | is-not-none | present | absent | matches | at-least | lacks
    values: tuple = ()
    default: Any = None
    has_default: bool = False


@dataclass(frozen=True)
class Matcher:
    """What to look for. `kind` picks which of the other fields are used."""

    kind: str  # call | method | reference | import | decorator | device | line | requirement | python | file
    names: tuple[str, ...]
    args: tuple[ArgPredicate, ...] = ()
    confidence: str = "high"
    files: tuple[str, ...] = ()  # file kinds a line matcher applies to
    regex: Any = None  # compiled pattern for line matchers
    message: str = ""
    # Non-Python inputs (trnready/readers/, trnready/repo_rules.py):
    version: Any = None  # packaging SpecifierSet: the requirement's ceiling lies in this range
    version_shape: Any = None  # compiled regex over the versions a requirement names
    unless_mentioned: tuple[str, ...] = ()  # literal strings that cancel the finding when present
    scope: str = "file"  # file | repo (one finding per repository)
    mentioned_in: str = "file"  # where unless-mentioned looks: this file only, or anywhere in the repository
    # "pkg<5": a repo-scoped rule is silent when the project's root manifests keep pkg in that range
    unless_capped: tuple[str, ...] = ()
    # Context predicates (trnready/context/) this matcher names: a match for which one holds is dropped
    # (or marked guarded, for predicates with that effect). Catalogue-wide ones are added at load time.
    unless: tuple[str, ...] = ()
    unless_value: tuple[str, ...] = ()  # deprecated `unless-value` list, read by the other-platform-value predicate
    stores: bool = False  # keyword matchers: also values stored under the name ({"k": v}, x["k"] = v, x.k = v)
    defaults: bool = False  # keyword matchers: also parameter defaults (def f(k=v)) and asserts (assert k == v)
    compared: bool = False  # keyword matchers: also the value an `if` test compares the name with (if k == v:)
    asserted: bool = False  # keyword matchers: only the value an `assert` requires (assert k == v), nothing else
    calls: bool = True  # keyword matchers: also a call's keyword argument (false: stores and defaults only)
    # Setting matchers (trnready/readers/configs.py): key-path suffixes in `names`, value globs, and
    # ((key, value globs), ...) that must also be set in the same file (with_setting) or must not be
    # (without_setting: `autocast: false` makes autocast_dtype moot); role: "config" or "ci" documents (python
    # matchers: "requirement" for declared requirements, "ci" for the versions CI test jobs run on).
    values: tuple[str, ...] = ()
    with_setting: tuple = ()
    without_setting: tuple = ()
    # A [context.values] list: a value with a word (split at anything but letters and digits) matching one of
    # its globs is a finding too (`aws-g4dn-metal` -> aws, g4dn, metal).
    value_words: str = ""
    role: str = "config"
    # A setting matcher whose keys are findings by their presence, whatever they hold (DeepSpeed's
    # `zero_optimization` table): once per file, at the first of the names the file has.
    present: bool = False
    # False: the catalogue's `[context] everywhere` predicates do not apply (`everywhere = false`): what the match
    # finds breaks the file wherever the line sits (a syntax error), so no reachability of the line matters.
    everywhere: bool = True


@dataclass(frozen=True)
class Example:
    code: str
    file: str = "example.py"  # file name decides how the snippet is read


@dataclass(frozen=True)
class Source:
    """A public document that states a rule's fact: a title a reader recognises and an http(s) URL."""

    title: str
    url: str


def format_sources(sources) -> str:
    """The one-line form used in JSON findings and plain-text outputs: `Title <url>; Title <url>`."""
    return "; ".join(f"{s.title} <{s.url}>" for s in sources)


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    category: str
    severity: str
    title: str
    why: str
    fix: str
    source: str
    docs: str
    matchers: tuple[Matcher, ...]
    hits: tuple[Example, ...]
    cleans: tuple[Example, ...]
    corrected: Optional[str] = None
    fix_is_suggestion: bool = False
    rewrites: tuple = ()  # trnready.rewrite.Rewrite records ([[rule.rewrite]]); only `change` entries have them
    sources: tuple[Source, ...] = ()  # `source` is these, rendered by format_sources
    phase: str = "eager-port"  # one of PHASES
    effort: str = "local-edit"  # one of EFFORTS; "automatic" needs a [[rule.rewrite]]


@dataclass(frozen=True)
class Finding:
    rule: str
    category: str
    severity: str
    confidence: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    snippet: str
    message: str
    fix: str
    docs: str
    source: str
    fingerprint: str
    title: str = ""
    cell: Optional[int] = None
    suppressed: bool = False
    # The code runs only when a condition is false on a Neuron machine (context predicate neuron-guarded):
    # listed only with --show-guarded, never counted in the verdict or the exit code.
    guarded: bool = False
    # Why it is guarded: the context predicate or report step that decided (`neuron-guarded`, `cpu-unit-test`,
    # `vendored`, `ci-other-accelerator`, ...); "" when not guarded or not known.
    guarded_by: str = ""
    # Source lines around the match, ((line_no, text), ...) for line-2..line+2, so reporters
    # can show context without re-reading files. Not part of the JSON report.
    context: tuple[tuple[int, str], ...] = field(default=(), compare=False, repr=False)
    suppression_reason: Optional[str] = None  # the text after `# trnready: ignore[...]`
    fixable: bool = False  # `trnready fix` has a rewrite for this finding
    # Notebooks: the line in the .ipynb file itself (JSON text), for tools that annotate files on disk.
    file_line: Optional[int] = None
    # Part of the project the file belongs to (trnready/scope.py: source, build, test, example, benchmark,
    # docs, ci); set by a report step. The verdict and exit code count the gate scopes only.
    scope: str = "source"
    # Further places of the same thing folded into this finding by de-duplication (a decorator stack, more
    # imports of one library in the file, a second match of the category on the line): ((line, column, rule), ...).
    occurrences: tuple[tuple[int, int, str], ...] = ()
    # Notebooks: (cell line, line in the .ipynb text) of each occurrence, so that a place folded into a finding can
    # be found on disk like the finding itself (JSON `occurrences[].file_line`, schema 1.5).
    occurrence_file_lines: tuple[tuple[int, int], ...] = ()
    # The last line of each occurrence whose statement or expression spans several lines ((line, column, end line),
    # ...): the `.cuda()` closing a multi-line `torch.zeros(\n...\n).cuda()` folded into another (JSON
    # `occurrences[].end_line`, schema 1.6). Occurrences not listed end on their own line.
    occurrence_end_lines: tuple[tuple[int, int, int], ...] = ()
    # Places of the same thing in other files folded into this finding: the imports of an extension the project
    # builds (one finding, at its build), a CUDA launcher of the kernels a header defines. ((path, line, column,
    # rule), ...)
    elsewhere: tuple[tuple[str, int, int, str], ...] = ()
    # On a linked import of a module the project builds: (path, line) of the build call. Not part of the JSON
    # report; the report step folds the import into the build's finding (postprocess_extensions).
    link_target: Optional[tuple[str, int]] = field(default=None, compare=False, repr=False)

    def places(self):
        """(line, rule) of this finding and of every occurrence folded into it."""
        return [(self.line, self.rule), *((ln, rule) for ln, _, rule in self.occurrences)]

    def sort_key(self):
        return (self.path, self.cell if self.cell is not None else -1, self.line, self.column, self.rule)

    def to_json(self) -> dict:
        out = {
            "rule": self.rule,
            "category": self.category,
            "severity": self.severity,
            "confidence": self.confidence,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "snippet": self.snippet,
            "message": self.message,
            "title": self.title,
            "fix": self.fix,
            "docs": self.docs,
            "source": self.source,
            "fingerprint": self.fingerprint,
            "suppressed": self.suppressed,
            "fixable": self.fixable,
            "guarded": self.guarded,
            "scope": self.scope,
        }
        if self.guarded and self.guarded_by:
            out["guarded_by"] = self.guarded_by
        if self.occurrences:
            on_disk = dict(self.occurrence_file_lines)
            ends = {(ln, col): end for ln, col, end in self.occurrence_end_lines}
            out["occurrences"] = [{"line": ln, "column": col, "rule": rule,
                                   **({"end_line": ends[ln, col]} if ends.get((ln, col), ln) > ln else {}),
                                   **({"file_line": on_disk[ln]} if ln in on_disk else {})}
                                  for ln, col, rule in self.occurrences]
        if self.elsewhere:
            out["elsewhere"] = [{"path": p, "line": ln, "column": col, "rule": rule}
                                for p, ln, col, rule in self.elsewhere]
        if self.cell is not None:
            out["cell"] = self.cell
            if self.file_line is not None:
                out["file_line"] = self.file_line
        if self.suppressed and self.suppression_reason:
            out["suppression_reason"] = self.suppression_reason
        return out


@dataclass(frozen=True)
class Diagnostic:
    """A file that could not be scanned, or scanned only in part, and why."""

    path: str
    kind: str  # syntax-error | undecodable | too-large | unreadable | binary | symlink-loop | internal-error | ...
    message: str

    def to_json(self) -> dict:
        return {"path": self.path, "kind": self.kind, "message": self.message}


@dataclass
class Report:
    root: str
    findings: list[Finding] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files_scanned: int = 0
    files_by_kind: dict[str, int] = field(default_factory=dict)
    catalogue_version: str = ""
    catalogue_sha256: str = ""
    tool_version: str = ""
    rules: dict[str, Rule] = field(default_factory=dict)
    started_at: str = ""
    baseline: Optional[dict] = None  # {"path", "known", "resolved"?} when scanned with --baseline
    plan_text: dict = field(default_factory=dict)  # the catalogue's [plan] table: phase/effort titles and advice
    # What the verdict and the exit code count: findings in these scopes at or above this confidence.
    gate_scopes: tuple[str, ...] = DEFAULT_GATE_SCOPES
    gate_min_confidence: str = "medium"
    # Guarded findings left out of the list (no --show-guarded): counted here so a report still says how many.
    guarded_hidden: int = 0

    @property
    def guarded(self) -> int:
        """Guarded findings, listed or not (not counted by the gate either way)."""
        return self.guarded_hidden + sum(1 for f in self.findings if f.guarded and not f.suppressed)

    @property
    def active(self) -> list[Finding]:
        """Every finding to list: not suppressed, not guarded (whatever its scope or confidence)."""
        return [f for f in self.findings if not f.suppressed and not f.guarded]

    def counts(self, f: Finding) -> bool:
        """Whether the gate counts this active finding."""
        return (f.scope in self.gate_scopes
                and CONFIDENCES.index(f.confidence) <= CONFIDENCES.index(self.gate_min_confidence))

    @property
    def counted(self) -> list[Finding]:
        """The active findings the verdict and the exit code count."""
        return [f for f in self.active if self.counts(f)]

    def by_scope(self) -> dict[str, dict[str, int]]:
        """Active findings per scope and severity, scopes in their fixed order."""
        out: dict[str, dict[str, int]] = {}
        for f in self.active:
            c = out.setdefault(f.scope, {s: 0 for s in SEVERITIES})
            c[f.severity] += 1
        order = {s: i for i, s in enumerate(SCOPES)}
        return dict(sorted(out.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))

    def files_by_group(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for kind, n in self.files_by_kind.items():
            g = KIND_GROUPS.get(kind, kind)
            counts[g] = counts.get(g, 0) + n
        order = {g: i for i, g in enumerate(GROUP_ORDER)}
        return dict(sorted(counts.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))

    def by_severity(self) -> dict[str, int]:
        counts = {s: 0 for s in SEVERITIES}
        for f in self.active:
            counts[f.severity] += 1
        return counts

    def by_category(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for f in self.active:
            counts[f.category] = counts.get(f.category, 0) + 1
        return dict(sorted(counts.items()))

    def verdict(self) -> str:
        """The counted findings' verdict; when anything listed was not counted, what was counted and
        what was left out (`not ready: 12 blockers (source, build; 40 more in test, example)`)."""
        counted = self.counted
        c = {s: 0 for s in SEVERITIES}
        for f in counted:
            c[f.severity] += 1
        worst = next((s for s in SEVERITIES if c[s]), None)
        if worst == "blocker":
            text = f"not ready: {c['blocker']} blocker{'s' if c['blocker'] != 1 else ''}"
        elif worst == "change":
            text = f"ready after mechanical changes: {c['change']} change{'s' if c['change'] != 1 else ''}"
        elif worst == "advisory":
            text = f"ready, with {c['advisory']} advisor{'ies' if c['advisory'] != 1 else 'y'} to review"
        elif self.files_scanned == 0 and not self.findings:
            return "nothing scanned"  # no file was checked: never "ready"
        else:
            text = "ready"
        left = [f for f in self.active if not self.counts(f)]
        if left:
            # The uncounted findings at the verdict's severity; when there are none, the most severe
            # uncounted ones (blockers in tests under a clean source tree are worth a mention).
            same = [f for f in left if f.severity == worst]
            noun = "more"
            if not same and (worst is None or max(SEVERITY_RANK[f.severity] for f in left) > SEVERITY_RANK[worst]):
                top = max((f.severity for f in left), key=lambda x: SEVERITY_RANK[x])
                same = [f for f in left if f.severity == top]
                noun = _NOUNS[top][len(same) != 1]
            parts = [", ".join(self.gate_scopes)]
            if same:
                where = sorted({f.scope for f in same if f.scope not in self.gate_scopes},
                               key=lambda x: SCOPES.index(x) if x in SCOPES else len(SCOPES))
                low = sum(1 for f in same if f.scope in self.gate_scopes)
                detail = f"{len(same)} {noun}"
                if where:
                    detail += " in " + ", ".join(where)
                if low:  # in the gate scopes, left out by --gate-min-confidence high
                    detail += f" ({low} of medium confidence)" if where else " of medium confidence"
                parts.append(detail)
            text += f" ({'; '.join(parts)})"
        if worst:
            medium = sum(1 for f in counted if f.severity == worst and f.confidence == "medium")
            if medium:
                text += f", {medium} of them medium confidence"
        return text


_NOUNS = {"blocker": ("blocker", "blockers"), "change": ("change", "changes"),
          "advisory": ("advisory", "advisories")}
_WS = re.compile(r"\s+")


def fingerprint(path: str, rule: str, code: str, occurrence: int = 0) -> str:
    """Stable id of a finding: path + rule + whitespace-normalised code + nth repeat.

    The line number is left out on purpose so inserting unrelated lines above
    a finding keeps its fingerprint (baselines and the HTML checklist rely on it).
    """
    norm = _WS.sub(" ", code).strip()
    h = hashlib.sha256(f"{path}\0{rule}\0{norm}\0{occurrence}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:20]


class Occurrences:
    """Counts repeats of the same code within one unit (a file, a notebook cell), so that identical
    lines get distinct fingerprints: the nth repeat is part of the hash."""

    def __init__(self) -> None:
        self.counts: dict = {}

    def next(self, fp_path: str, rule: str, code: str) -> int:
        key = (fp_path, rule, " ".join(code.split()))
        n = self.counts.get(key, 0)
        self.counts[key] = n + 1
        return n


# Fingerprinted code longer than this is cut to a window around the match (fingerprints of
# ordinary code, and so baselines, are unchanged).
LONG_CODE = 2000


def make_finding(rule: Rule, occurrences: Occurrences, *, path: str, line: int, column: int, end_line: int,
                 end_column: int, snippet: str, message: str, code: str, confidence: str,
                 cell: Optional[int] = None, context: tuple = (), fixable: bool = False,
                 guarded: bool = False, guarded_by: str = "") -> Finding:
    """The one place a Finding is built: rule fields copied, fingerprint from path (+ `#cell` in
    notebooks), rule, the code and its repeat index within `occurrences`."""
    fp_path = path if cell is None else f"{path}#cell"
    if len(code) > LONG_CODE:
        # A generated or hostile line: fingerprint a window around the match, not the whole line
        # (hashing 100 kB per finding made many findings on one line quadratic).
        code = clip(code, column - 1, end_column - 1 if end_line == line else None)
    n = occurrences.next(fp_path, rule.id, code)
    return Finding(
        rule=rule.id, category=rule.category, severity=rule.severity, confidence=confidence,
        path=path, line=line, column=column, end_line=end_line, end_column=end_column,
        snippet=snippet.rstrip("\r\n"), message=message, fix=rule.fix, docs=rule.docs, source=rule.source,
        fingerprint=fingerprint(fp_path, rule.id, code, n), title=rule.title, cell=cell, context=context,
        fixable=fixable, guarded=guarded, guarded_by=guarded_by if guarded else "")
