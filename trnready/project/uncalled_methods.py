"""Methods nothing calls: a method whose name no scanned file mentions outside its own lines.

kuangliu's RetinaNet keeps `FocalLoss.focal_loss` beside `focal_loss_alt`, and `forward` calls only the second;
graph-rcnn keeps `ROIRelationHead._get_proposal_pairs`, and EfficientDet `EfficientDetBackbone.init_backbone`,
which no line of either project calls. `never-referenced` (unreferenced.py) judges module-level definitions only;
this step judges the methods of a module-level class, and guards the findings inside one nothing names
(`guarded_by` "never-called-method").

The check errs on the side of keeping a finding. A method is judged only when all of these hold:

- it is a plain method of a module-level class in a Python file that is not a test: not decorated (a property, a
  registered hook), not a dunder, not named like a hook a framework calls by name (`[context.values]
  framework-method-names`: `forward`, `backward`, `extra_repr`, `training_step`, `on_*` ...), in a class not named
  like an entry point a server builds by its fixed name (`entry-function-names`: Triton's `TritonPythonModel`,
  whose `initialize` and `execute` the server calls);
- another Python file imports its module (resolved as `sys.path` finds it for a script): a module nothing imports
  is a script or a tool imported by hand, whose methods a user may call;
- every base of its class is one of `[context.values] plain-method-bases` (`object`, `nn.Module` and the other
  `torch.nn` containers) or a class defined in a scanned file: a base from elsewhere (`build_ext`, a Lightning
  module, a Keras-style callback) may call any of its methods by name;
- its file does not look names up at run time (`getattr(self, "forward_" + mode)`, `globals()`, a
  `[context.values] dynamic-lookup-words` word);
- it is no public method of a public class of a library package the root packaging declares (its users call it);
- its name occurs in no scanned file (any kind: a config naming a method, a shell script) and no Markdown or
  reStructuredText file of a folder of the scan, outside the method's own lines; another class's method of the same
  name counts as a mention (a call through a base or a duck-typed object may reach this one);
- the scan covers the whole project (no folder above the root holds `.git` or packaging).

Cheap: only the files holding candidate findings are parsed; the candidate names are searched as substrings and
confirmed as words in one pass over the scanned files' text.
"""
from __future__ import annotations

import ast
import fnmatch
import re
from dataclasses import replace
from pathlib import Path

REASON = "never-called-method"
_DYNAMIC_GETATTR = re.compile(r"getattr\(\s*[\w.]+\s*,\s*(?![\s'\"][^,)]*['\"]\s*[,)])")


def guard_uncalled_methods(findings: list, files, root, values: dict, read_text, read_any) -> list:
    """Mark guarded (`never-called-method`) the findings inside a method nothing names (see the docstring).
    `read_text(rel)`: a scanned Python file's text; `read_any(sf)`: any scanned file's text."""
    from ..scope import classify
    from .self_tests import _importers
    from .unreferenced import _declared_packages, _documented, _in_library, _partial_scan, doc_dirs, looks_names_up

    todo = [f for f in findings if not f.guarded and not f.suppressed and f.cell is None and f.path.endswith(".py")
            and classify(f.path) != "test"]
    if not todo:
        return findings
    hooks = tuple(str(h) for h in values.get("framework-method-names", ()))
    plain = frozenset(str(b) for b in values.get("plain-method-bases", ()))
    # a class a server builds by its fixed name (Triton's `TritonPythonModel`) is driven through its methods too
    entries = tuple(str(e) for e in values.get("entry-function-names", ()))
    lookups = tuple(str(w) for w in values.get("dynamic-lookup-words", ()))
    by_file: dict = {}
    for f in todo:
        by_file.setdefault(f.path, []).append(f)
    if _partial_scan(Path(root)):
        return findings
    packages = _declared_packages(Path(root), frozenset(values.get("generic-package-names", ())),
                                  frozenset(values.get("copied-frameworks", ())))
    project_classes: set | None = None
    candidates: dict = {}  # (rel, first, last) -> method name
    held: list = []  # (finding, key)
    for rel, fs in by_file.items():
        text = read_text(rel) or ""
        if not text or looks_names_up(text, lookups) or _DYNAMIC_GETATTR.search(text):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        spans = []
        for cls in tree.body:
            if type(cls) is not ast.ClassDef or cls.decorator_list or any(
                    fnmatch.fnmatchcase(cls.name, e) for e in entries):
                continue
            bases = [ast.unparse(b) for b in cls.bases] + [ast.unparse(k) for k in cls.keywords]
            if any(b not in plain for b in bases):
                if project_classes is None:
                    project_classes = _project_classes(files, read_text)
                if any(b.rsplit(".", 1)[-1] not in project_classes and b not in plain for b in bases):
                    continue
            for fn in cls.body:
                if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or fn.decorator_list:
                    continue
                name = fn.name
                if name.startswith("__") or any(fnmatch.fnmatchcase(name, h) for h in hooks) or \
                        not name.startswith("_") and _in_library(rel, cls.name, packages):
                    continue
                spans.append((fn.lineno, fn.end_lineno or fn.lineno, name))
        for f in fs:
            for first, last, name in spans:
                if first <= f.line <= last:
                    held.append((f, (rel, first, last)))
                    candidates[(rel, first, last)] = name
                    break
    if not held:
        return findings
    # a module no other file imports is a script or a tool imported by hand, whose methods a user may call (as
    # never-referenced leaves such a module's functions alone)
    imported = _importers(sorted({key[0] for _f, key in held}), [sf.rel for sf in files if sf.kind == "python"],
                          read_text)
    held = [(f, key) for f, key in held if imported[key[0]]]
    candidates = {key: name for key, name in candidates.items() if imported[key[0]]}
    if not held:
        return findings
    names = set(candidates.values())
    mentioned = _mentioned(names, candidates, files, read_any)
    left = {n: True for n in names - mentioned}
    if left:
        mentioned |= _documented(left, files, doc_dirs(files, Path(root)))
    dead = {key for key, name in candidates.items() if name not in mentioned}
    if not dead:
        return findings
    drop = {id(f) for f, key in held if key in dead}
    return [replace(f, guarded=True, guarded_by=REASON) if id(f) in drop else f for f in findings]


def _project_classes(files, read_text) -> set:
    """Names of the classes defined at any level of the scanned Python files (read as text)."""
    out: set = set()
    pat = re.compile(r"^[ \t]*class[ \t]+([A-Za-z_]\w*)", re.M)
    for sf in files:
        if sf.kind == "python":
            out.update(pat.findall(read_text(sf.rel) or ""))
    return out


def _mentioned(names: set, candidates: dict, files, read_any) -> set:
    """The names of `names` some scanned file writes as a word outside the candidate methods' own lines."""
    found: set = set()
    own: dict = {}
    for (rel, first, last), name in candidates.items():
        own.setdefault(rel, []).append((first, last, name))
    pat = re.compile(r"(?<![\w])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")(?![\w])")
    for sf in files:
        if len(found) == len(names):
            break
        text = read_any(sf) or ""
        if not any(n in text for n in names - found):
            continue
        spans = own.get(sf.rel, ())
        for m in pat.finditer(text):
            name = m.group(1)
            if name in found:
                continue
            if spans:
                line = text.count("\n", 0, m.start()) + 1
                if any(first <= line <= last and name == n for first, last, n in spans):
                    continue
            found.add(name)
    return found
