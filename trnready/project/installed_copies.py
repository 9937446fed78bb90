"""Copies under a vendored folder that the project installs and imports are the project's code (link step).

The report step `vendored` guards everything below `third_party/<project>/` and the other `vendored-dirs`: a copy
the project keeps but does not run. Some projects run it: ODISE keeps Mask2Former in `third_party/Mask2Former/`,
installs it (`mask2former @ file://.../third_party/Mask2Former/` in its setup.py) and imports `mask2former` across
its model code, so Mask2Former's decoder masks, its CUDA deformable attention and its `torch.cuda.amp` regions are
what ODISE runs on the device (56 blind66 misses at the start lay in that copy; 23 came back). A copy folder that is
installable (its own setup.py, pyproject.toml or setup.cfg) and one of whose top-level modules a Python file outside
every vendored folder imports by absolute name (a name the project's own tree does not also hold) is left reported
by `vendored`; the parts of it nothing reaches are guarded by the nested-copy step (project/nested_installed.py:
unused packages, modules and scripts of an installed copy).
"""
from __future__ import annotations

from .nested_installed import _INSTALLABLE


def copy_folder(path: str, names: frozenset) -> str | None:
    """`third_party/Mask2Former` for a file below it (the folder right inside a vendored folder), else None."""
    parts = path.split("/")
    for i, seg in enumerate(parts[:-2]):
        if seg.lower() in names:
            return "/".join(parts[:i + 2])
    return None


def top_modules(folder: str, rels) -> set:
    """The names a copy installs: its packages (a folder right inside it holding `__init__.py`) and modules."""
    out = set()
    n = folder.count("/") + 1
    for rel in rels:
        if not rel.startswith(folder + "/") or not rel.endswith(".py"):
            continue
        parts = rel.split("/")
        if len(parts) == n + 2 and parts[-1] == "__init__.py":
            out.add(parts[n])
        elif len(parts) == n + 1 and parts[-1] not in _INSTALLABLE:
            out.add(parts[n][:-3])
    return out


def imported_copies(findings: list, files, summaries, values: dict, cache=None, digests=()) -> frozenset:
    """The copy folders (`third_party/Mask2Former`) holding findings that the project installs and imports; the
    report step `vendored` leaves them reported (postprocess.vendored reads them from the engine)."""
    from .report import _EMPTY, _packed
    from .summary import Compacted

    names = frozenset(n.lower() for n in values.get("vendored-dirs", ()))
    folders = {c for f in findings if not f.guarded for c in [copy_folder(f.path, names)] if c}
    if not folders:
        return frozenset()
    rels = {sf.rel for sf in files}
    folders = {c for c in folders if any(f"{c}/{p}" in rels for p in _INSTALLABLE)}
    tops = {c: top_modules(c, rels) for c in folders}
    tops = {c: t for c, t in tops.items() if t}
    if not tops:
        return frozenset()
    py_all = [sf.rel for sf in files if sf.kind == "python"]
    # a name the project's own tree also holds (`utils`, `models` at the top or under src/) says nothing
    own = {r.split("/")[0][:-3] if "/" not in r else r.split("/")[0] for r in py_all
           if copy_folder(r, names) is None} | {r.split("/")[1] for r in py_all if r.startswith("src/") and
                                                r.count("/") >= 2}
    wanted = {m: c for c, t in tops.items() for m in t if m not in own}
    if not wanted:
        return frozenset()
    # the answer is kept under the digests of every file, so a warm re-scan of an unchanged tree decodes nothing
    from ..cache import StepMemo

    memo = StepMemo(cache, "imported-copies")
    key = memo.key(files, digests)
    stored = memo.get(key)
    if isinstance(stored, list) and all(isinstance(c, str) for c in stored):
        return frozenset(stored)
    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"
          and not any(seg.lower() in names for seg in sf.rel.split("/")[:-1])}  # the project's own files
    table = Compacted({r: _packed(s) for r, s in py.items()}, _EMPTY)
    run: set = set()
    for rel in py:
        for mod, level, _ in (table.head(rel).get("imports") or {}).values():
            if level or not mod:
                continue
            c = wanted.get(mod.split(".", 1)[0])
            if c is not None:
                run.add(c)
        if len(run) == len(tops):
            break
    memo.put(key, sorted(run))
    return frozenset(run)
