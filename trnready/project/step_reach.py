"""Data-dependent shapes in code that no training or model step reaches: guarded after the scan.

A boolean-mask selection or a `nonzero` costs a compilation for each new size only where it runs over and over on
the device: in a model's layers, its loss, the training step. The same operation in an exporter, a metric, a
reconstruction runner or a visualiser runs once per scene or per evaluation, on results the step already produced,
and the migration does not touch it (fresh64: 41 of vggsfm's, paco's and NSVF's 84 drawn dynamic-shape findings were
such code; this step guards 15 of them and no finding judged right in fresh60-65).

For a finding of a category in `[context.values] step-categories` inside a module-level function, or a method of
a class that is not a model part, the step follows the function's callers back, by name, over the project's Python
files, and guards the finding (`guarded_by` "off-step") only when every path ends outside a step:

- a step is a function whose name matches `step-function-names` (`*loss*`, `train*`, `*step`, `forward*`, ...), a
  function whose body calls one of `step-calls` (`.backward(`, `optimizer.step(`), a method of a class that defines
  `forward` or whose name or a base matches `step-class-names` (a `nn.Module`, a `*Head`, a `*Loss`, a `*Trainer`),
  or module-level code calling one of `step-calls` (a training script without functions);
- every mention of a function's name in a Python file must be a call (`run(x)`, `self.run(x)`, `obj.run(x)`) or
  an import of it: a name handed over as a value (`callbacks=[run]`, `getattr(obj, "run")`, a decorator), named
  in another kind of file (a config, a shell script), or mentioned nowhere at all leaves the finding reported;
- a caller in a test, an example or a benchmark (`step-reach-user-scopes`) keeps the finding: it calls the
  function as a library's user would, and users may call it in their own step (spconv's
  `gather_features_by_pc_voxel_id`, shown by `example/voxel_gen.py`);
- the search stops after `step-reach-depth` levels of callers or `step-reach-names` names in all, and at a name
  more than `step-reach-holders` Python files hold (`run`, `update`: the search would read most of the project,
  and some file surely calls one of that name in a step); a function still undecided then keeps its findings.

Names are matched, not resolved: a call of any function or method of that name counts as a call of it, which can
only make more code reach a step (the finding stays). A method nothing in the project names (a hook a library calls,
detectron2's `DatasetEvaluator.process`) ends its path there, unless it is a step itself; a module-level function
nothing names (an entry point, a library's API) keeps the finding. Read from the text, never
parsed: the scopes come from the `def` / `class` lines and their indentation, mentions in comments and in
triple-quoted strings do not count, and one in a plain string (`getattr(obj, "run")`) hands the name over. Cheap:
nothing runs unless such a finding exists; the files read are those whose words (word_sets.py, kept in the result
cache) hold a name the search follows, at most `step-reach-files` of them.
"""
from __future__ import annotations

import fnmatch
import re
from bisect import bisect_right
from dataclasses import replace

REASON = "off-step"
_HEADER = re.compile(r"^([ \t]*)(async[ \t]+def|def|class)[ \t]+(\w+)[ \t]*(\([^\n]*)?", re.M)
_IMPORT_BLOCK = re.compile(r"^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*\([^)]*\)", re.M)
_TRIPLE = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')
_IMPORT_LINE = re.compile(r"[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t]")


class _Module:
    """One Python file read as text: its `def` / `class` headers with their indentation (read from the text, no
    parse: the step may look at a few hundred files of a large project), and, asked for a name, where the file
    mentions it and how."""

    def __init__(self, text: str, values: dict):
        self.text = text
        self._values = values
        self._starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
        # (line index, indent, is a class, name, header rest)
        self.heads = [(self._line(m.start()), len(m.group(1).expandtabs()), m.group(2) == "class", m.group(3),
                       m.group(4) or "") for m in _HEADER.finditer(text)]
        self._head_lines = [h[0] for h in self.heads]
        self._imports = [(m.start(), m.end()) for m in _IMPORT_BLOCK.finditer(text)]
        self._prose: list | None = None  # (start, end) of the triple-quoted strings, found when a name is asked
        self._mentions: dict = {}
        self._step: dict = {}
        self._calls_rx = _step_call_rx(values)
        self._lines = _Lines(text, self._starts)
        self._ends: dict = {}

    def _line(self, pos: int) -> int:
        return bisect_right(self._starts, pos) - 1

    def chain(self, line: int) -> list:
        """The headers around 0-based line `line`, innermost first: (line index, indent, is a class, name, rest)."""
        lines = self._lines
        if not 0 <= line < len(lines):
            return []
        own = lines[line]
        indent = _indent(own)
        out = []
        i = bisect_right(self._head_lines, line) - 1
        if i >= 0 and self._head_lines[i] == line:
            i -= 1  # (the header itself is in the scope around it)
        while i >= 0 and indent > 0:
            h = self.heads[i]
            if h[1] < indent and self._holds(h, line):
                out.append(h)
                indent = h[1]
            i -= 1
        return out

    def _holds(self, head, line: int) -> bool:
        return line < self._end(head)

    def _end(self, head) -> int:
        """The 0-based index of the first line after the header's block (the first line not blank, not a comment,
        not a closing bracket, indented at or left of the header)."""
        end = self._ends.get(head)
        if end is None:
            lines = self._lines
            end = len(lines)
            for j in range(head[0] + 1, len(lines)):
                text = lines[j]
                stripped = text.lstrip()
                if stripped and stripped[0] not in "#)]}" and _indent(text) <= head[1]:
                    end = j
                    break
            self._ends[head] = end
        return end

    def where(self, line: int) -> str | None:
        """The qualname of the function holding 0-based line `line` (`Class.method`), "" at module level or in a
        class body, None when a class around it is a model part or a function around it is a step."""
        ch = self.chain(line)
        if any(self._is_step(h) for h in ch):
            return None
        names = [h[3] for h in reversed(ch)]
        while ch and ch[0][2]:  # a class body's own statements: module-level for this step
            ch = ch[1:]
            names = names[:-1]
        return ".".join(names)

    def _is_step(self, head) -> bool:
        if head not in self._step:
            values = self._values
            if head[2]:
                bases = [b.strip().rsplit(".", 1)[-1].split("(", 1)[0].split("=", 1)[-1].strip()
                         for b in head[4][1:].split(")", 1)[0].split(",")]
                self._step[head] = any(fnmatch.fnmatchcase(n, g) for n in (head[3], *bases) if n
                                       for g in values.get("step-class-names", ())) or \
                    "forward" in self._methods(head)
            else:
                self._step[head] = _named_step(head[3], values) or bool(self._calls_rx.search(self._block(head)))
        return self._step[head]

    def _block(self, head) -> str:
        return "\n".join(self._lines[head[0] + 1:self._end(head)])

    def _methods(self, head) -> set:
        i = self.heads.index(head)
        end = self._end(head)
        return {h[3] for h in self.heads[i + 1:] if h[0] < end and not h[2]}

    def module_step(self) -> bool:
        """Module-level code calls a step call (a training script without functions)."""
        for m in self._calls_rx.finditer(self.text):
            line = self._line(m.start())
            if not self.chain(line):
                return True
        return False

    def _in_prose(self, pos: int) -> bool:
        if self._prose is None:
            self._prose = [(m.start(), m.end()) for m in _TRIPLE.finditer(self.text)] if (
                '"""' in self.text or "'''" in self.text) else []
        return _spans_hold(self._prose, pos)

    def mentions(self, name: str) -> list:
        """[(qualname or "" or None, how)] of each mention of the name outside comments and its own `def`: how is
        "call" (the name followed by `(`), "import" or "value" (anything else: handed over, in a string)."""
        if name not in self._mentions:
            out = []
            text = self.text
            for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text):
                pos = m.start()
                line = self._line(pos)
                start = self._starts[line]
                before = text[start:pos]
                if "#" in before and before.count("'") % 2 == 0 and before.count('"') % 2 == 0:
                    continue  # a comment
                if re.search(r"(?:def|class)[ \t]+$", before):
                    continue  # its own header
                if self._in_prose(pos):
                    continue  # a docstring's prose ("evaluates the results in the current process")
                after = text[m.end():m.end() + 80].lstrip(" \t")
                if before.endswith(("'", '"')) or before.rstrip().endswith(("'", '"')) and not after.startswith("("):
                    how = "value"
                elif _IMPORT_LINE.match(before) or any(a <= pos < b for a, b in self._imports):
                    how = "import"
                elif after.startswith("("):
                    how = "call"
                else:
                    how = "value"
                out.append((self.where(line), how))
            self._mentions[name] = out
        return self._mentions[name]


class _Lines:
    """The lines of a text by index, cut from it on demand (a list of them would hold the text twice)."""

    __slots__ = ("_text", "_starts")

    def __init__(self, text: str, starts: list):
        self._text, self._starts = text, starts

    def __len__(self) -> int:
        n = len(self._starts)
        return n - 1 if self._text.endswith("\n") or not self._text else n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        end = self._starts[i + 1] - 1 if i + 1 < len(self._starts) else len(self._text)
        return self._text[self._starts[i]:end].rstrip("\r")


def _indent(line: str) -> int:
    """The width of the line's leading blanks, tabs expanded (as the `def` headers' are)."""
    return len(line[:len(line) - len(line.lstrip())].expandtabs())


def _spans_hold(spans: list, pos: int) -> bool:
    i = bisect_right(spans, (pos, float("inf"))) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def _named_step(name: str, values: dict) -> bool:
    low = name.lower()
    return any(fnmatch.fnmatchcase(low, g) for g in values.get("step-function-names", ()))


def _step_call_rx(values: dict):
    """`.backward(` for "backward"; `<name holding optim>.step(` for "optim.step"."""
    parts = []
    for c in values.get("step-calls", ()):
        owner, _, method = c.rpartition(".")
        parts.append(rf"\w*{re.escape(owner)}\w*\s*\.\s*{re.escape(method)}\s*\(" if owner
                     else rf"\.\s*{re.escape(method)}\s*\(")
    return re.compile("|".join(parts) if parts else r"(?!)", re.I)


def guard_off_step(findings: list, files, values: dict, read, cache=None, read_any=None) -> list:
    """Mark guarded (`off-step`) the findings of `step-categories` in functions only code outside a training or
    model step calls (see the module's docstring). `read(sf)`: a scanned Python file's text or None; `read_any(sf)`:
    any scanned file's text ("" when unreadable or over the size limit)."""
    cats = frozenset(values.get("step-categories", ()))
    todo = {id(f) for f in findings if f.category in cats and not f.guarded and not f.suppressed and f.cell is None
            and f.path.endswith(".py")}
    if not todo:
        return findings
    py = {sf.rel: sf for sf in files if sf.kind == "python"}
    depth = int((values.get("step-reach-depth") or ["8"])[0])
    budget = int((values.get("step-reach-names") or ["200"])[0])
    user_scopes = frozenset(values.get("step-reach-user-scopes", ()))
    max_holders = int((values.get("step-reach-holders") or ["40"])[0])
    max_files = int((values.get("step-reach-files") or ["200"])[0])
    read_files: dict = {}

    def module(rel: str) -> _Module | None:
        if rel not in read_files:
            if len(read_files) >= max_files:
                return None  # (the search is undecided, and the finding stays)
            sf = py.get(rel)
            text = read(sf) if sf is not None else None
            read_files[rel] = _Module(text, values) if text else None
        return read_files[rel]

    holders = _Holders(files, read, cache, read_any)
    verdict: dict = {}  # (rel, qualname) -> True when off every step
    explored = [0]
    out = []
    for f in findings:
        if id(f) in todo:
            m = module(f.path)
            qual = m.where(f.line - 1) if m is not None else None
            if qual:
                key = (f.path, qual)
                if key not in verdict:
                    verdict[key] = len(holders.python(qual.rsplit(".", 1)[-1])) <= max_holders and _search(
                        f.path, qual, module, holders, depth, budget, explored, user_scopes, max_holders)
                if verdict[key]:
                    f = replace(f, guarded=True, guarded_by=REASON)
        out.append(f)
    return out


def _search(rel: str, qual: str, module, holders, depth: int, budget: int, explored: list,
            user_scopes: frozenset = frozenset(), max_holders: int = 40) -> bool:
    """True when every caller path of the function, `depth` levels back, ends in code that is no step."""
    from ..scope import classify

    seen = {(rel, qual)}
    level = [(rel, qual)]
    for _ in range(depth):
        nxt = []
        for r, q in level:
            name = q.rsplit(".", 1)[-1]
            explored[0] += 1
            if explored[0] > budget:
                return False
            if not holders.known(name):
                return False  # named in a file that is not Python (a config, a script): may be run from there
            holding = holders.python(name)
            if len(holding) > max_holders:
                return False  # a name as common as `run` or `process`: some file surely calls it in a step
            callers = []
            for hr in holding:
                m = module(hr)
                if m is None:
                    return False
                found = m.mentions(name)
                if found and classify(hr) in user_scopes:
                    return False  # a test or an example calls it as a library's user would, in a step of theirs
                for where, how in found:
                    if hr == r and where == q:
                        continue  # its own recursion
                    if where is None:
                        return False  # inside a step (a model part's method, a loss, a training function)
                    if how == "value":
                        return False
                    if how == "call":
                        callers.append((hr, where))
            if not callers and ((r, q) == (rel, qual) or "." not in q):
                # named by nothing that calls it: the finding's own function is never-referenced's to judge, and a
                # module-level function may be an entry point or a library's API; a method is a hook its class's
                # framework calls (detectron2's `DatasetEvaluator.process`), judged by its class above
                return False
            for c in callers:
                if c[1] == "":
                    if module(c[0]).module_step():
                        return False
                    continue  # module-level code that calls no step: a script or a module's set-up
                if c not in seen:
                    seen.add(c)
                    nxt.append(c)
        if not nxt:
            return True
        level = nxt
    return False


class _Holders:
    """Which scanned files hold a name as a whole word: the Python ones (to read) and whether any other kind does.
    Each file is asked through its words (word_sets: kept in the result cache, or split once here and kept as a
    small filter); a file that may hold the name is then read, and a non-Python one searched for the word."""

    def __init__(self, files, read, cache=None, read_any=None):
        self._files = files
        self._read = read
        self._read_any = read_any
        self._cache = cache
        self._filters: dict = {}
        self._found: dict = {}

    def _text_of(self, sf) -> str:
        if sf.kind == "python":
            return self._read(sf) or ""
        return self._read_any(sf) if self._read_any is not None else ""

    def _may(self, sf, name: str) -> bool:
        got = self._filters.get(sf.rel)
        if got is None:
            from .word_sets import Words, kept_only

            # the words another step kept in the cache, or a small filter of them made here (not kept: this step's
            # answer is remembered whole, and packing every file's words cost a cold scan of diffusers/src 0.17 s)
            kept = kept_only(self._cache, sf) if self._cache is not None else None
            got = self._filters[sf.rel] = kept if kept is not None else Words(self._text_of(sf)).bloom()
        return got.may(name)

    def _lookup(self, name: str) -> tuple:
        if name not in self._found:
            rx = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            py, other = [], False
            for sf in self._files:
                if not self._may(sf, name):
                    continue
                if sf.kind == "python":
                    py.append(sf.rel)  # (read by the caller, whose mentions settle it)
                elif not other and rx.search(self._text_of(sf)):
                    other = True
            self._found[name] = (py, other)
        return self._found[name]

    def python(self, name: str) -> list:
        return self._lookup(name)[0]

    def known(self, name: str) -> bool:
        """No file other than a Python one names it."""
        return not self._lookup(name)[1]
