"""A project step's edits to the findings, kept in the result cache under the digests of the scanned files and the
findings handed in: a warm re-scan of an unchanged tree applies them again without reading or parsing any file.

For steps that re-read source text (caller places, inherited masks, attention processors): each would otherwise
parse the files it looks at on every scan, warm or cold (session 22 measured warm at 22 % of a cold scan on the
speed corpus with three such steps, against 9 % before them).

A step that reads its files through `TextReads` is also kept with what it read (`cache.LastAnswer`): the files it
read deep (a tree, lines: any change there may change an edit), and the tests each other file it asked about
failed (`asked`: words it lacks, or a named test such as "may call this helper", and it was passed over). After an
edit, when the findings handed in are the same and no edited file was read deep nor passes now a test it failed,
the step's last edits are applied without deciding again (session 23: a one-file edit ran the three source-reading
steps from scratch, 45 % of that re-scan's CPU on the speed corpus)."""
from __future__ import annotations

import hashlib
from dataclasses import replace

# The fields a step may change; an entry that does not have them all is recomputed.
_FIELDS = 7


class TextReads:
    """A step's reader of Python text (by file path or scanned file) noting what it read: `text_of(x)` is the text,
    read deep; `holding(x, tests)` is the text only when it passes one of the tests (else "": the file was passed
    over, and only the tests' answers were read of it; None: unreadable)."""

    def __init__(self, files, read):
        self._by_rel = {sf.rel: sf for sf in files if sf.kind == "python"}
        self._read = read
        self.deep: set = set()
        self.asked: dict = {}  # rel -> the tests a file passed over failed

    def _text(self, x):
        if isinstance(x, str):
            sf = self._by_rel.get(x)
            return (self._read(sf) if sf is not None else None), x
        return self._read(x), x.rel

    def __call__(self, x):
        text, rel = self._text(x)
        self.deep.add(rel)
        return text

    def holding(self, x, tests) -> str | None:
        tests = tuple(tuple(t) for t in tests)
        text, rel = self._text(x)
        if text is None or passes(text, tests):
            self.deep.add(rel)
            return text
        self.passed_over(rel, tests)
        return ""

    def peek(self, x) -> str | None:
        """The text, for a look whose outcome the step notes itself afterwards (`passed_over`, or a deep read)."""
        return self._text(x)[0]

    def passed_over(self, rel: str, tests) -> None:
        """The file failed the tests: the step read nothing else of it there."""
        self.asked.setdefault(rel, set()).update(tuple(t) for t in tests)


# Named tests of a file's text (`holding`'s tests starting "@name", with string arguments): what a step asks of
# every file beyond its words, kept by name so that an edited file can be asked again before the step's last
# answer is reused. Registered by the step's module (imported before its step runs).
TEXT_TESTS: dict = {}


def text_test(name: str):
    def register(fn):
        TEXT_TESTS["@" + name] = fn
        return fn
    return register


def peek(text_of, x) -> str | None:
    """`TextReads.peek`, or the text when `text_of` is a plain reader."""
    look = getattr(text_of, "peek", None)
    return look(x) if look is not None else text_of(x)


def passed_over(text_of, rel: str, tests) -> None:
    note = getattr(text_of, "passed_over", None)
    if note is not None:
        note(rel, tests)


def read_deep(text_of, rel: str, _tests=()) -> None:
    """Note a file the step looked at (`peek`) as read deep."""
    deep = getattr(text_of, "deep", None)
    if deep is not None:
        deep.add(rel)


def holding(text_of, x, tests) -> str | None:
    """The file's text when it passes one of the tests, else "" (None when it cannot be read): the first look of a
    step at every file, noted as such when `text_of` is a `TextReads`. A test is a tuple of words (all in the text)
    or `("@name", *args)` (`TEXT_TESTS`)."""
    ask = getattr(text_of, "holding", None)
    if ask is not None:
        return ask(x, tests)
    text = text_of(x)
    return text if text is None or passes(text, tests) else ""


def passes(text: str, tests) -> bool:
    """Whether the text passes one of the tests (a test of an unknown name passes: the file counts as read)."""
    for t in tests:
        if t and t[0].startswith("@"):
            fn = TEXT_TESTS.get(t[0])
            if fn is None or fn(text, *t[1:]):
                return True
        elif all(w in text for w in t):
            return True
    return False


def remembered(step: str, findings: list, files, cache, digests, compute, read=None, kinds=("python",)) -> list:
    """`compute(findings)` -> the findings, one per finding handed in and in the same order, some replaced. With
    `read(sf)` (a scanned Python file's text or None), `compute(findings, text_of)` reads through a `TextReads`
    and the step is answered after an edit from its last edits when the edit left what it read (module
    docstring); `kinds`: the file kinds the step reads (an edited file of another kind read is decided again; None:
    every kind)."""
    from ..cache import LastAnswer, StepMemo

    memo = StepMemo(cache, step)
    key = _key(memo, files, digests, findings)
    got = memo.get(key)
    if not _valid(got):
        last = LastAnswer(cache, step) if read is not None and key is not None else None
        inputs = {f"{sf.rel}\0{sf.kind}": d for sf, d in zip(files, digests)} if last is not None else None
        sig = _findings_sig(findings) if last is not None else ""
        record = last.get() if last is not None else None
        got = _reuse(record, inputs, sig, files, read, kinds)
        if got is None:
            reads = TextReads(files, read) if read is not None else None
            out = compute(findings) if reads is None else compute(findings, reads)
            if len(out) != len(findings):  # a step that adds or drops findings is not memoised
                return out
            got = [[a.path, a.line, a.column, a.rule, b.severity, b.guarded, b.guarded_by, b.message,
                    [list(p) for p in b.elsewhere], [list(o) for o in b.occurrences],
                    [list(e) for e in b.occurrence_end_lines]]
                   for a, b in zip(findings, out) if a is not b]
            if last is not None and reads is not None:
                last.put(_record(reads, inputs, sig, got))
        elif last is not None and isinstance(record, dict) and record.get("inputs") != inputs:
            # what a decision on these contents would have read is what was kept: judged on them from now on
            last.put({**record, "inputs": inputs})
        memo.put(key, got)
    if not got:
        return findings
    edits = {tuple(g[:4]): g[4:] for g in got}
    out = []
    for f in findings:
        e = edits.get((f.path, f.line, f.column, f.rule))
        out.append(f if e is None else replace(
            f, severity=e[0], guarded=e[1], guarded_by=e[2], message=e[3], elsewhere=tuple(tuple(p) for p in e[4]),
            occurrences=tuple(tuple(o) for o in e[5]), occurrence_end_lines=tuple(tuple(x) for x in e[6])))
    return out


def _record(reads: TextReads, inputs, sig: str, got: list) -> dict:
    """What `_reuse` checks: the files read deep, each other file asked about with the tests it failed (each
    distinct set of tests kept once)."""
    sets: dict = {}
    asked = {rel: sets.setdefault(tuple(sorted(t)), len(sets)) for rel, t in sorted(reads.asked.items())
             if rel not in reads.deep}
    return {"inputs": inputs, "sig": sig, "deep": sorted(reads.deep), "asked": asked,
            "tests": [[list(t) for t in ts] for ts in sets], "got": got}


def _valid(got) -> bool:
    return isinstance(got, list) and all(isinstance(g, list) and len(g) == 4 + _FIELDS for g in got)


def _reuse(record, inputs, sig: str, files, read, kinds):
    """The step's last edits, when the files are the same ones, the findings handed in the same, and no file edited
    since was read deep or now passes a test it failed (read again here); a file the step never asked about is
    not read. None otherwise (decide again)."""
    if not isinstance(record, dict) or inputs is None or record.get("sig") != sig:
        return None
    old, deep, asked, tests, got = (record.get(k) for k in ("inputs", "deep", "asked", "tests", "got"))
    if not (isinstance(old, dict) and isinstance(deep, list) and isinstance(asked, dict) and isinstance(tests, list)
            and _valid(got)) or old.keys() != inputs.keys():
        return None
    deep = set(deep)
    by_key = {f"{sf.rel}\0{sf.kind}": sf for sf in files}
    for k, d in inputs.items():
        if old[k] == d:
            continue
        sf = by_key[k]
        if kinds is not None and sf.kind not in kinds:
            continue
        if sf.rel in deep or sf.kind != "python":
            return None
        if sf.rel not in asked:
            continue
        n = asked[sf.rel]
        if not (isinstance(n, int) and 0 <= n < len(tests) and isinstance(tests[n], list)
                and all(isinstance(t, list) and all(isinstance(w, str) for w in t) for t in tests[n])):
            return None
        text = read(sf)
        if text is None or passes(text, tests[n]):
            return None
    return got


def _findings_sig(findings) -> str:
    """One digest of every field of the findings handed in, in order (a step may read any of them)."""
    h = hashlib.sha256()
    for f in findings:
        h.update(repr(sorted(vars(f).items())).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _key(memo, files, digests, findings) -> str | None:
    """Every scanned file with its digest, and what a step reads of each finding handed in."""
    if memo.cache is None or len(digests) != len(files) or not all(digests):
        return None
    h = hashlib.sha256(f"{memo.cache.salt}\0{memo.step}".encode())
    for sf, digest in zip(files, digests):
        h.update(f"\0{sf.rel}\0{digest}".encode("utf-8", "surrogatepass"))
    for f in findings:
        h.update(f"\0{f.path}:{f.line}:{f.column}:{f.rule}:{f.category}:{f.severity}:{f.guarded}:{f.guarded_by}:"
                 f"{f.suppressed}:{f.cell}:{f.end_line}:{f.snippet}:{f.message}:{f.elsewhere}:{f.occurrences}"
                 .encode("utf-8", "surrogatepass"))
    return h.hexdigest()
