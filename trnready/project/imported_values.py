"""Link step `imported-value`: a module-level finding the `unread-value` predicate guarded (a device value bound to
a name its file never reads) is put back when another scanned Python file names the module by its file name (an
import, `app.device`): that file may read the name. Only the files' text is read, and only when such a finding
exists."""
from __future__ import annotations

from dataclasses import replace

from .unreferenced import _word_at, top_definitions

REASON = "unread-value"


def unguard_imported_values(findings: list, files, text_of) -> list:
    """`text_of(rel)`: a scanned Python file's text or None."""
    held = [i for i, f in enumerate(findings) if f.guarded and f.guarded_by == REASON and f.cell is None]
    if not held:
        return findings
    stems: dict = {}  # index -> the module's file name, for findings at module level
    for i in held:
        f = findings[i]
        defs = top_definitions(text_of(f.path) or "")
        if not any(d[1] <= f.line <= d[2] for d in defs):
            stems[i] = f.path.rsplit("/", 1)[-1][:-3] if f.path.endswith(".py") else ""
    if not stems:
        return findings
    named: set = set()
    wanted = {s for s in stems.values() if s}
    for sf in files:
        if sf.kind != "python" or not wanted - named:
            continue
        text = None
        for stem in wanted - named:
            if any(findings[i].path != sf.rel and s == stem for i, s in stems.items()):
                text = text if text is not None else (text_of(sf.rel) or "")
                if stem in text and _word_at(text, stem, 0, len(text)):
                    named.add(stem)
    out = list(findings)
    for i, stem in stems.items():
        if not stem or stem in named:
            out[i] = replace(findings[i], guarded=False, guarded_by="")
    return out
