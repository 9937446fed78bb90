"""A library module's own `__main__` self-check: code that runs only when someone executes the file by hand.

awd-lstm-lm's `weight_drop.py` ends with `if __name__ == '__main__':` and a few lines that build a `WeightDrop` on
`.cuda()` tensors and print its output; `model.py` imports the module for its class, and no command of the project
ever runs the file. CMC's `models/alexnet.py`, semseg's `model/pspnet.py` and SCINet's `models/SCINet.py` end the
same way. Such a block is the author's smoke test, not part of what the port moves to Trainium: its findings are
guarded (`guarded_by` "module-self-test").

A finding is judged only when all of these hold, so the step errs on the side of keeping it:

- it sits in a top-level `if __name__ == "__main__":` block of a Python file that is not a test, or in a
  module-level function only that block runs: named in the block (or in another such function) and nowhere else,
  neither in the module's code outside its own lines nor by an importer (`from network import test`, or
  `network.test` where the module is imported whole): material-classification's `def test(): Net().cuda() ...`;
- the block reads no command line (`[context.values] command-line-words`: `parse_args`, `sys.argv`, `fire.Fire`,
  `hydra`...), nor do the functions only it runs (`raise SystemExit(main())` with `def main(): args =
  build_parser().parse_args()`): a block that does is a program's entry, run with arguments;
- another Python file of the scan imports the module (`from model.pspnet import PSPNet`, `import weight_drop`,
  `from . import loss`), resolved from the importer's folder or a folder above it, as `sys.path` finds it for a
  script (experiments/a/train.py's `from network import Net` is experiments/a/network.py): the module is a
  library first. So is the root `hubconf.py`, which `torch.hub.load` imports for its entry points (melgan's ends
  with a `__main__` demo that loads the vocoder through the hub and moves it with `.cuda()`);
- nothing names the file as a program: no scanned file (shell, config, CI, notebook, Dockerfile, Python), no root
  packaging file and no Markdown or reStructuredText file in a folder of the scan, up to its root, mentions
  `weight_drop.py`, runs `-m ...weight_drop`, declares an entry point `...weight_drop:main`, or writes a dotted path
  of the module of two parts or more (pytorch-YOLOv4's README documents `python models.py ...`, mace's setup.cfg
  installs `mace_eval_configs = mace.cli.eval_configs:main`: those blocks are entry points);
- the scan covers the whole project (no folder above the root holds `.git` or packaging).

Cheap: nothing is read unless a finding sits in such a block; the import search reads only the Python files whose
text holds the module's name.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

from .unreferenced import _COL0, doc_dirs, doc_texts

REASON = "module-self-test"
HUBCONF = "hubconf.py"
_MAIN = re.compile(r"^if[ \t]+(?:__name__[ \t]*==[ \t]*(['\"])__main__\1|(['\"])__main__\2[ \t]*==[ \t]*__name__)"
                   r"[ \t]*:", re.M)
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(?P<rel>\.*)(?P<mod>[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^\n#;]+)"
                     r"|import[ \t]+(?P<plain>[\w.]+(?:[ \t]*,[ \t]*[\w.]+)*))", re.M)


def guard_module_self_tests(findings: list, files, root, values: dict, read_text) -> list:
    """Mark guarded (`module-self-test`) the findings in the `__main__` block of a module other files import and
    nothing runs (see the docstring). `read_text(rel)` returns a scanned Python file's text."""
    from ..scope import classify
    from .unreferenced import _partial_scan

    todo = sorted({f.path for f in findings if not f.guarded and not f.suppressed and f.cell is None
                   and f.path.endswith(".py") and classify(f.path) != "test"})
    if not todo:
        return findings
    words = tuple(str(w) for w in values.get("command-line-words", ()))
    blocks = {}
    for rel in todo:
        text = read_text(rel) or ""
        span = _main_block(text) if "__main__" in text else None
        if span is not None and not any(w in text[span[2]:span[3]] for w in words):
            blocks[rel] = span[:2]
    if not blocks:
        return findings
    if _partial_scan(Path(root)):
        return findings
    py = [sf.rel for sf in files if sf.kind == "python"]
    spans: dict = {}  # rel -> [(first line, last line)] of the self-test: the block and the helpers only it calls
    held = sorted({f.path for f in findings if f.path in blocks and not f.guarded and not f.suppressed})
    imported = _importers(held, py, read_text)
    # torch.hub imports the repository's root `hubconf.py` for its entry points (`torch.hub.load(repo, "melgan")`):
    # a module imported by the hub, whoever else does
    programs = _run_by_name([rel for rel in held if imported[rel] or rel == HUBCONF], files, root, read_text)
    for rel in held:
        importers = imported[rel]
        if (importers or rel == HUBCONF) and rel not in programs:
            stem = rel[:-3].rsplit("/", 1)[-1]
            folder = rel.rsplit("/", 1)[0] if "/" in rel else ""
            uses = []
            for other in importers:
                o = read_text(other) or ""
                here = other.rsplit("/", 1)[0] if "/" in other else ""
                uses.append((o, _import_uses(o, rel, stem, folder, here)))
            text = read_text(rel) or ""
            helpers = _helpers(text, blocks[rel], uses)
            # `if __name__ == "__main__": raise SystemExit(main())` with `def main(): args = parser.parse_args()`:
            # the functions only the block runs read the command line, so the block is the program's entry
            if not _reads_command_line(text, helpers, words):
                spans[rel] = [blocks[rel]] + helpers
    if not spans:
        return findings
    return [replace(f, guarded=True, guarded_by=REASON) if f.path in spans and not f.guarded and not f.suppressed
            and any(a <= f.line <= b for a, b in spans[f.path]) else f for f in findings]


def _reads_command_line(text: str, spans: list, words: tuple) -> bool:
    """Some of the lines `spans` [(first, last)] of `text` hold a word of `command-line-words`."""
    if not spans:
        return False
    lines = text.splitlines()
    return any(w in "\n".join(lines[a - 1:b]) for a, b in spans for w in words)


def _main_block(text: str):
    """(first line, last line, start offset, end offset) of the file's first top-level `__main__` block, or None.
    The block ends before the next statement in column 0."""
    m = _MAIN.search(text)
    if m is None:
        return None
    nxt = _COL0.search(text, m.end())
    end = nxt.start() if nxt else len(text)
    first = text.count("\n", 0, m.start()) + 1
    return first, first + text[m.start():end].rstrip().count("\n"), m.start(), end


def _module_paths(rel: str) -> set:
    """The dotted names an import may use for the module: every tail of its path (`utils.loss`, `loss` for
    `Segmentation/utils/loss.py`), also without a leading `src`."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return {".".join(parts[i:]) for i in range(len(parts))} if parts else set()


def _helpers(text: str, block: tuple, importers: list) -> list:
    """[(first line, last line)] of the module-level functions only the self-test runs: named in the `__main__`
    block (or in another such function) and nowhere else, neither in the module outside their own lines nor by a
    file that imports the module (material-classification's `def test(): net = Net(nclass=23).cuda() ...`).
    `importers`: [(text, what it imports of the module: a set of names, or "*" for the whole module)]."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    defs = {st.name: (st.lineno, st.end_lineno or st.lineno) for st in tree.body
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and not st.decorator_list}
    if not defs:
        return []
    uses_at: dict = {}  # name -> lines where the module's code reads it (a name or an attribute; no comments)
    for node in ast.walk(tree):
        if type(node) is ast.Name and node.id in defs:
            uses_at.setdefault(node.id, []).append(node.lineno)
        elif type(node) is ast.Attribute and node.attr in defs:
            uses_at.setdefault(node.attr, []).append(node.lineno)
        elif type(node) is ast.Constant and type(node.value) is str and node.value in defs:
            uses_at.setdefault(node.value, []).append(node.lineno)  # `getattr(module, "test")`, `__all__`
    others = importers
    inside = [block]
    chosen: dict = {}
    changed = True
    while changed:
        changed = False
        for name, span in defs.items():
            if name in chosen:
                continue
            at = [n for n in uses_at.get(name, ()) if not span[0] <= n <= span[1]]
            if at and all(any(a <= n <= b for a, b in inside) for n in at) and not any(
                    uses == "*" and re.search(rf"\.{re.escape(name)}(?!\w)", o) or uses != "*" and name in uses
                    for o, uses in others):
                chosen[name] = span
                inside.append(span)
                changed = True
    return list(chosen.values())


def _importers(rels, py: list, read_text) -> dict:
    """rel -> the other Python files that import the module `rel` (absolutely by a tail of its dotted path,
    relatively from its own folder, or as a name of its package: `from utils import loss`), for every module of
    `rels` in one read of the Python files."""
    out: dict = {rel: [] for rel in rels}
    forms = [(rel, rel[:-3].rsplit("/", 1)[-1], rel.rsplit("/", 1)[0] if "/" in rel else "") for rel in out]
    for other in py:
        text = None
        here = other.rsplit("/", 1)[0] if "/" in other else ""
        for rel, stem, folder in forms:
            if other == rel:
                continue
            if text is None:
                text = read_text(other) or ""
            if stem in text and _imports(text, rel, stem, folder, here):
                out[rel].append(other)
    return out


def _imports(text: str, rel: str, stem: str, folder: str, here: str) -> bool:
    """The file's text (in folder `here`) holds an import of the module `rel`."""
    return _import_uses(text, rel, stem, folder, here) is not None


def _import_uses(text: str, rel: str, stem: str, folder: str, here: str):
    """How the file's text (in folder `here`) imports the module `rel`: the set of names it takes from it
    (`from network import DEPNet`), "*" for the module as a whole (`import network`, `from . import network`:
    any attribute may be read), or None when it does not import it."""
    names_from: set = set()
    whole = False
    for m in _IMPORT.finditer(text):
        if m.group("plain") is not None:
            for p in m.group("plain").split(","):
                path = p.strip().split()[0].replace(".", "/") if p.strip() else ""
                if path and any(rel in _forms(d, path) for d in _ancestors(here)):
                    whole = True
            continue
        dots, mod = m.group("rel"), m.group("mod")
        names = [n.split()[0] for n in m.group("names").strip("()").replace("\n", " ").split(",") if n.split()]
        if dots:
            base = here.split("/") if here else []
            up = len(dots) - 1
            if up > len(base):
                continue
            base = base[:len(base) - up] if up else base
            target = "/".join(base + (mod.split(".") if mod else []))
            if rel in _forms("", target):
                names_from.update(names)
            elif target == folder and stem in names:
                whole = True
            continue
        # an absolute import finds the module from the importing script's folder or a folder above it (what
        # sys.path holds when a script or the repository root runs): `from network import DEPNet` in
        # experiments/dtd.dep.resnet/train.py is that folder's network.py, not a sibling experiment's
        path = mod.replace(".", "/")
        for d in _ancestors(here):
            if rel in _forms(d, path):
                names_from.update(names)
            elif stem in names and rel in _forms(d, f"{path}/{stem}"):
                whole = True
    if whole:
        return "*"
    return names_from or None


def _forms(folder: str, path: str) -> tuple:
    base = f"{folder}/{path}" if folder else path
    return (base + ".py", base + "/__init__.py")


def _ancestors(folder: str) -> list:
    """`a/b` -> ["a/b", "a", ""]."""
    parts = folder.split("/") if folder else []
    return ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]


def _run_by_name(rels, files, root, read_text) -> set:
    """The modules of `rels` some file of the project names as a program: the file name (`weight_drop.py`) or `-m`
    with its dotted path, in a scanned file of any kind, a root packaging file or a Markdown / reStructuredText
    file of a folder of the scan. Every file is read once for all of them."""
    patterns = {rel: _program_patterns(rel) for rel in rels}
    found: set = set()

    def check(text: str, python: bool, skip: str = "") -> None:
        for rel, (stem, in_code, runs) in patterns.items():
            if rel not in found and rel != skip and stem in text and (in_code if python else runs).search(text):
                found.add(rel)

    for sf in files:
        python = sf.kind == "python"
        text = read_text(sf.rel) if python else _read(sf.path)
        if text:
            check(text, python, sf.rel)
        if len(found) == len(patterns):
            return found
    root = Path(root)
    for manifest in ("setup.py", "setup.cfg", "pyproject.toml"):
        text = _read(root / manifest)
        if text:
            check(text, manifest.endswith(".py"))
    for text in doc_texts(doc_dirs(files, root)):
        if len(found) == len(patterns):
            break
        check(text, False)
    return found


def _program_patterns(rel: str) -> tuple:
    """(stem, pattern in Python text, pattern in any other text) of the ways a file names the module `rel` as a
    program: the file's name, `-m <dotted path>`, an entry point `= <dotted path>:main` (or quoted), and outside
    Python (where an import writes the dotted path) any dotted path of two parts or more (setup.cfg's
    `mace_eval_configs = mace.cli.eval_configs:main`, a launcher's `-m` list)."""
    name = rel.rsplit("/", 1)[-1]
    dotted = sorted(_module_paths(rel), key=len, reverse=True)
    alts = "|".join(re.escape(d) for d in dotted)
    longer = "|".join(re.escape(d) for d in dotted if "." in d)
    in_code = re.compile(rf"(?<![\w.-]){re.escape(name)}(?!\w)|-m[ \t]+(?:{alts})\b|[=\"'][ \t]*(?:{alts})[ \t]*:[ \t]*"
                         rf"[A-Za-z_]")
    runs = re.compile(in_code.pattern + (rf"|(?<![\w.])(?:{longer})(?![\w])" if longer else ""))
    return name[:-3], in_code, runs


def _read(path) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read(4_000_000)
    except OSError:
        return ""
