"""Repository-level advisories: matchers with `scope = "repo"` and `unless-mentioned = [...]`.

Their hits are found file by file like any other finding; after all files are scanned, each such rule
keeps one finding (the first in report order, anchored to the file that triggered it) unless one of the
`unless-mentioned` strings occurs in any scanned file, in which case the rule reports nothing.
"""
from __future__ import annotations

from dataclasses import replace

from .read import read_bytes


def repo_rules(engine) -> tuple[dict, dict]:
    """(rule id -> strings) for repo-scoped rules, and for file-scoped rules whose strings are looked up
    repo-wide (`mentioned-in = "repo"`)."""
    single: dict = {}
    filtered: dict = {}
    for rule in getattr(engine, "rules", ()):
        for m in rule.matchers:
            if getattr(m, "scope", "file") == "repo":
                single.setdefault(rule.id, set()).update(m.unless_mentioned)
            elif getattr(m, "mentioned_in", "file") == "repo":
                filtered.setdefault(rule.id, set()).update(m.unless_mentioned)
    return single, filtered


def capped_rules(engine) -> dict:
    """rule id -> the `unless-capped` requirements of its repo-scoped matchers."""
    out: dict = {}
    for rule in getattr(engine, "rules", ()):
        for m in rule.matchers:
            if getattr(m, "scope", "file") == "repo" and getattr(m, "unless_capped", ()):
                out.setdefault(rule.id, set()).update(m.unless_capped)
    return out


def collapse(findings: list, engine, mentioned, root=None) -> list:
    """Keep one finding per repo-scoped rule unless `mentioned(strings)` says the repo already has it, or
    the project's root manifests keep the library the rule is about below the releases it concerns;
    drop findings of `mentioned-in = "repo"` rules when their strings occur anywhere."""
    single, filtered = repo_rules(engine)
    caps = capped_rules(engine)
    if not single and not filtered:
        return findings
    pending: dict = {}
    rest = []
    for f in findings:
        if f.rule in single:
            pending.setdefault(f.rule, []).append(f)
        elif f.rule in filtered and mentioned(sorted(filtered[f.rule])):
            continue
        else:
            rest.append(f)
    for rid, group in pending.items():
        strings = sorted(single[rid])
        if mentioned(strings):
            continue
        if rid in caps and root is not None:
            from .project.root_pins import capped

            if any(capped(root, req) for req in sorted(caps[rid])):
                continue
        # Anchored at a use that counts: a use in guarded or suppressed code alone would hide the project's item.
        group.sort(key=lambda f: (bool(f.guarded), bool(f.suppressed), f.sort_key()))
        first = group[0]
        files = len({f.path for f in group})
        count = sum(1 + len(f.occurrences) for f in group)  # a run folded into one finding is still several uses
        uses = f"{count} use{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''}"
        names = " or ".join(strings)
        rest.append(replace(first, message=f"{first.message} ({uses}, first here); {names} "
                                            f"appears in no scanned file"))
    return rest


# Text files that are not scanned but often set environment variables for a fleet (launch configs, Terraform,
# Makefiles, docs): a mention there also counts.
_CONFIG_SUFFIXES = (".json", ".toml", ".cfg", ".ini", ".conf", ".tf", ".tfvars", ".hcl", ".mk", ".j2", ".jinja",
                    ".tpl", ".template", ".properties", ".md", ".rst", ".txt", ".service")
_CONFIG_MAX = 256 * 1024  # configuration files are small; large JSON/text files are data
_CONFIG_NAMES = ("makefile", "justfile", "procfile", "dockerfile", "containerfile")


def _config_kind(name: str):
    lower = name.lower()
    return "config" if lower.endswith(_CONFIG_SUFFIXES) or lower in _CONFIG_NAMES else None


def mentioned_in_files(files, max_bytes: int, more=None):
    """A `mentioned` callback that searches the scanned files' bytes, then the files `more()` yields
    (read only when a repo-scoped rule has a pending finding)."""
    cache: dict = {}

    def mentioned(strings) -> bool:
        key = tuple(strings)
        if key in cache:
            return cache[key]
        needles = [s.encode("utf-8") for s in strings]
        found = False
        seen = set()
        for group in (files, more() if more else ()):
            for sf in group:
                if sf.rel in seen:
                    continue
                seen.add(sf.rel)
                data, diag = read_bytes(sf.path, sf.rel, max_bytes if group is files else min(max_bytes, _CONFIG_MAX))
                if data is not None and any(n in data for n in needles):
                    found = True
                    break
            if found:
                break
        cache[key] = found
        return found

    return mentioned


def repo_files(root, paths, config):
    """Other text files under the scanned paths (same excludes and .gitignore) that may set variables."""
    from .discover import Discoverer

    found: list = []

    def more():
        # Walked once per scan, however many repo-level rules ask.
        if not found:
            disc = Discoverer(root, config.exclude, config.use_gitignore, kind_of=_config_kind)
            found.append(list(disc.files([p for p in paths if p.is_dir()])))
        return found[0]
    return more
