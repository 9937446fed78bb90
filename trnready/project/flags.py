"""Flags imported from another module of the project: `from ._import_guard import _SUPPORTS_FLEX` then
`if _SUPPORTS_FLEX:`. The per-file pass cannot tell whether such a name is a never-on-Neuron flag (it is
defined elsewhere), so each summary records the flags a module defines (`flags`) and the blocks it guards
with imported names (`guards`); this step resolves the names across modules and marks the findings of
those blocks guarded, as neuron-guarded does within one file."""
from __future__ import annotations

from dataclasses import replace

from ..context._needs_cuda import MARK
from ..context.neuron_guarded import RETURNED
from .conftest_fixtures import MARK as FIXTURE, skipping_fixture
from .inherited_flags import MARK as INHERITED
from .skip_markers import HELPER, MARK as SKIP_MARK, guarded_helpers, is_marker
from .summary import head_of

MAX_HOPS = 8  # links followed: re-exports (`from .utils import FLAG`) and linked flags (`HAVE_GTP = HAVE_TE`)


def _flag_at(modules, rel: str, name: str, hops: int, memo: dict | None = None) -> bool:
    """Whether `name` in module `rel` is (or re-exports) a flag some module of the project defines, or a
    linked flag ([NAME, dep, ...] in the summary: every value False or another name) whose deps all are.
    `memo`: (module, name) -> answer, None while it is being worked out, so a cycle (`A = B` in one module,
    `B = A` in the other) is no flag and a name several links lead to is judged once."""
    if hops > MAX_HOPS or rel not in modules.summaries:
        return False
    memo = {} if memo is None else memo
    key = (rel, name)
    if key in memo:
        return bool(memo[key])
    s = head_of(modules.summaries, rel)
    flags = s["flags"]
    if name in flags:
        return True
    memo[key] = None
    if RETURNED in name:
        # `get_args().cuda` with `from arguments import get_args`: the flag the defining module lists for it
        fn, _, attr = name.partition(RETURNED)
        source = modules.imported_from(s, rel, fn)
        found = source is not None and _flag_at(modules, source[0], f"{source[1]}{RETURNED}{attr}", hops + 1, memo)
        memo[key] = found
        return found
    if "." in name:
        # `hy.hybrid_available` with `import pkg.engines.hybrid as hy`: the name in that module
        where = _whole_module_name(modules, rel, s, name)
        found = where is not None and _flag_at(modules, where[0], where[1], hops + 1, memo)
        memo[key] = found
        return found
    found = False
    entry = next((e for e in flags if type(e) is list and e[0] == name), None)
    if entry is not None:
        found = all(_flag_at(modules, rel, dep, hops + 1, memo) for dep in entry[1:])
    else:
        source = modules.imported_from(s, rel, name)
        if source is not None:
            found = _flag_at(modules, source[0], source[1], hops + 1, memo)
    memo[key] = found
    return found


def _needs_cuda_at(modules, rel: str, name: str, hops: int, memo: dict) -> bool:
    """Whether the function `name` (or `module.name`, a module imported whole) of module `rel` cannot return
    without CUDA: listed "!name" in the defining module's flags, or ["!name", dep, ...] with every dep such a
    function too (context/_needs_cuda.py). Followed through re-exports (`from .quantization import f` in a
    package's __init__) up to MAX_HOPS links; a cycle needs no CUDA."""
    if hops > MAX_HOPS or rel not in modules.summaries:
        return False
    key = (rel, name)
    if key in memo:
        return bool(memo[key])
    memo[key] = None
    s = head_of(modules.summaries, rel)
    found = False
    if "." in name:
        # `te.is_fp8_available()` with `import pkg.sub as te`: the name in that module
        where = _whole_module_name(modules, rel, s, name)
        found = where is not None and _needs_cuda_at(modules, where[0], where[1], hops + 1, memo)
    elif MARK + name in s["flags"]:
        found = True
    else:
        entry = next((e for e in s["flags"] if type(e) is list and e[0] == MARK + name), None)
        if entry is not None:
            found = all(_needs_cuda_at(modules, rel, dep, hops + 1, memo) for dep in entry[1:])
        else:
            source = modules.imported_from(s, rel, name)
            if source is not None:
                found = _needs_cuda_at(modules, source[0], source[1], hops + 1, memo)
    memo[key] = found
    return found


def _whole_module_name(modules, rel: str, s: dict, name: str):
    """(module path, name) that `mod.name` reads, where module `rel` (summary `s`) imports a project module whole
    as `mod` (`import pkg.engines.hybrid as hy`, then `hy.hybrid_available`), or None."""
    head, _, rest = name.partition(".")
    imp = s["imports"].get(head)
    if imp is None or imp[2] is not None or "." in rest:
        return None
    target = modules.absolute(rel, imp[0], imp[1])
    return (modules.mods[target], rest) if target in modules.mods else None


def guard_imported_flags(findings: list, files, summaries, guard_blocks: dict, cache=None, digests=()) -> list:
    """Mark guarded the findings inside blocks guarded by a flag imported from another module, when that
    flag is assigned only from never-on-Neuron conditions there. As in neuron-guarded, the check picks the
    device and the arm is guarded; a process-group backend in a block with an else arm stays (the group starts
    on Neuron with the other arm's backend).
    `guard_blocks` (file index -> guards) was noted when the summaries were compacted (api.compact), so no
    summary is unpacked to find them; the blocks found are kept in the result cache under the digests of every
    Python file, so a warm re-scan of an unchanged tree unpacks none for this step either."""
    from ..cache import StepMemo

    if not guard_blocks:
        return findings
    memo = StepMemo(cache, "imported-flags")
    key = memo.key(files, digests)
    spans = _spans(memo.get(key))
    if spans is None:
        spans = _guarded_spans(files, summaries, guard_blocks)
        memo.put(key, {rel: [list(s) for s in got] for rel, got in spans.items()})
    if not spans:
        return findings
    out = []
    for f in findings:
        if not f.guarded and f.cell is None and f.path in spans and any(
                first <= f.line <= last and not (choice and f.category == "distributed-backend")
                for first, last, choice in spans[f.path]):
            f = replace(f, guarded=True, guarded_by="neuron-guarded")
        out.append(f)
    return out


def _guarded_spans(files, summaries, guard_blocks: dict) -> dict:
    """rel -> [(first line, last line, whether the block has an else arm)] guarded by an imported flag."""
    from .link import ModuleMap
    from .report import _EMPTY, _packed
    from .summary import Compacted

    py = {sf.rel: s for sf, s in zip(files, summaries) if sf.kind == "python"}
    modules = ModuleMap(Compacted({rel: _packed(s) for rel, s in py.items()}, _EMPTY))
    spans: dict = {}
    needs: dict = {}
    def flags_of(path):
        return head_of(modules.summaries, path)["flags"] if path in modules.summaries else None

    for i, guards in guard_blocks.items():
        rel = files[i].rel
        helpers = []
        for first, last, name, choice in guards:
            if name.startswith(HELPER):
                helpers.append((first, last, name))  # judged once the file's other blocks are known
            elif name.startswith(FIXTURE):
                # a test requesting a conftest fixture that skips without CUDA (project/conftest_fixtures.py)
                if any(skipping_fixture(flags_of, rel, n) for n in name[len(FIXTURE):].split("|")):
                    spans.setdefault(rel, []).append((first, last, choice))
            elif name.startswith(SKIP_MARK):
                # a test decorated with a skip marker imported from another module (project/skip_markers.py)
                if any(is_marker(modules, rel, n, 0, MAX_HOPS) for n in name[len(SKIP_MARK):].split("|")):
                    spans.setdefault(rel, []).append((first, last, choice))
            elif name.startswith(INHERITED):
                # `if self.use_gpu:` in a subclass of a class of another module (project/inherited_flags.py)
                if _inherited_flag(modules, rel, name):
                    spans.setdefault(rel, []).append((first, last, choice))
            elif name.startswith(MARK):
                if all(_needs_cuda_at(modules, rel, n, 0, needs) for n in name[len(MARK):].split("|")):
                    spans.setdefault(rel, []).append((first, last, choice))
            elif _flag_at(modules, rel, name, 0):
                spans.setdefault(rel, []).append((first, last, choice))
        if helpers and rel in spans:
            # helpers of a test module used only by the tests guarded above (project/skip_markers.py)
            spans[rel] += guarded_helpers(spans[rel], helpers)
    return spans


def _spans(stored):
    """The spans kept by an earlier run, or None when missing or of the wrong shape."""
    if not isinstance(stored, dict):
        return None
    out = {}
    for rel, got in stored.items():
        if not isinstance(got, list) or not all(
                isinstance(s, list) and len(s) == 3 and type(s[0]) is int and type(s[1]) is int
                and isinstance(s[2], bool) for s in got):
            return None
        out[rel] = [tuple(s) for s in got]
    return out


def _inherited_flag(modules, rel: str, name: str) -> bool:
    """Whether one of the `Base.attr` of a `<` guard names a class imported from a project module (followed through
    re-exports) whose module holds `self.attr` as a never-on-Neuron flag."""
    s = head_of(modules.summaries, rel)
    for part in name[len(INHERITED):].split("|"):
        base, _, attr = part.partition(".")
        found = modules.imported_from(s, rel, base)
        hops = 0
        while found is not None and hops < MAX_HOPS:
            where, cls = found
            t = head_of(modules.summaries, where)
            onward = modules.imported_from(t, where, cls)  # `from .engine import Engine` in a package __init__
            if onward is None:  # defined there (or outside the project)
                if "self." + attr in t["flags"]:
                    return True
                break
            found = onward
            hops += 1
    return False
