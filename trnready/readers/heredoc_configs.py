"""Config files a shell script writes with a here-document (`cat <<EOT > $DS_CONFIG` ... `EOT`).

Megatron-DeepSpeed-style launchers build their DeepSpeed config in the script itself, filling in batch sizes and
the ZeRO stage from shell variables, then pass the file to the program (`--deepspeed_config=$DS_CONFIG`). What the
config turns on (`"fp16": {"enabled": true}`) is as much a setting of the run as the same key in a ds_config.json
of the repository, so the body is read like that file: its outline (readers/outline.py, which takes `$VARIABLE`
values as plain scalars), its role by its keys (readers/configs.role_of), then the `setting` matchers of that role,
at the body's own lines in the script.

A here-document counts when its command writes a file (`> path`, `>> path`, `tee path`): a body fed to a program's
standard input (`python - <<EOF`, `mysql <<SQL`) is that program's input, not a config file.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .outline import Entry, outline

# `<<EOT`, `<<-EOT`, `<< 'EOT'`, `<<"EOT"`; not `<<<` (a here-string)
_HEREDOC = re.compile(r"(?<!<)<<(?P<dash>-?)[ \t]*(?P<q>['\"]?)(?P<tag>[A-Za-z_]\w*)(?P=q)")
# the command writes a file: a redirection to a path (not `>&2`, not `2>/dev/null`), or `tee`
_WRITES = re.compile(r"(?:^|[\s;|&])(?:\d?>>?[ \t]*(?![&\s])(?!/dev/)\S|tee\b)")
_MAX_BODY = 2000  # lines: a config, not a data dump


def heredoc_entries(lines: list[str]) -> list[tuple[int, list[Entry]]]:
    """[(first body line, outline entries at the script's own line numbers)] of each here-document the script
    writes to a file. Lines are 1-based."""
    out: list = []
    i = 0
    n = len(lines)
    while i < n:
        text = lines[i]
        m = _HEREDOC.search(text) if "<<" in text else None
        if m is None or text.lstrip().startswith("#"):
            i += 1
            continue
        tag, dash = m.group("tag"), bool(m.group("dash"))
        end = i + 1
        while end < n and (lines[end].lstrip("\t") if dash else lines[end]).rstrip() != tag:
            end += 1
        body = lines[i + 1:end]
        if _WRITES.search(text[:m.start()] + " " + text[m.end():]) and 0 < len(body) <= _MAX_BODY:
            entries = outline("\n".join(body))
            if entries:
                out.append((i + 2, [replace(e, line=e.line + i + 1, key_line=e.key_line + i + 1 if e.key_line else 0,
                                            item=e.item + i + 1 if e.item else 0) for e in entries]))
        i = end + 1
    return out
