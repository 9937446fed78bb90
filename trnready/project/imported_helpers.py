"""Link step `imported-helper`: a finding the `guarded-helper` predicate guarded (a private module-level function its
file calls only from code Neuron never runs) is put back when another scanned file names that function (`from
.utils import _infer_nvidia_arch`, a call through the module): that caller was not judged. A test module naming it
does not count: it unit-tests the helper with its own mocks (Liger's `test_utils.py` monkeypatches
`torch.cuda.get_device_capability`) and runs no path of the library. Only the files' text is read, and only when
such a finding exists."""
from __future__ import annotations

from dataclasses import replace

from ..scope import classify
from .unreferenced import _word_at, top_definitions

REASON = "guarded-helper"


def unguard_imported_helpers(findings: list, files, text_of) -> list:
    """`text_of(rel)`: a scanned Python file's text or None. A finding whose helper another file names loses the
    guard (Markdown and other kinds of files do not call it)."""
    held = [i for i, f in enumerate(findings) if f.guarded and f.guarded_by == REASON and f.cell is None]
    if not held:
        return findings
    names: dict = {}  # index -> helper name
    for i in held:
        f = findings[i]
        text = text_of(f.path) or ""
        d = next((d for d in top_definitions(text) if d[1] <= f.line <= d[2]), None)
        names[i] = (d[0] if d is not None else None)
    wanted = {n for n in names.values() if n}
    named: set = set()
    for sf in files:
        if sf.kind != "python" or not wanted - named or classify(sf.rel) == "test":
            continue  # (a test importing the helper tests it, with its own mocks: no caller of the library's)
        text = None
        for n in wanted - named:
            if any(findings[i].path != sf.rel for i, m in names.items() if m == n):
                text = text if text is not None else (text_of(sf.rel) or "")
                if n in text and _word_at(text, n, 0, len(text)):
                    named.add(n)
    out = list(findings)
    for i, n in names.items():
        if n is None or n in named:
            out[i] = replace(findings[i], guarded=False, guarded_by="")
    return out
