"""Write one Markdown page per catalogue rule (docs/rules/TRNxxx.md) and docs/rules/index.md.

The pages are generated from blockers.toml and nothing else, so they never drift from what
`trnready explain` prints. Run after editing the catalogue:

    python scripts/gen_rule_docs.py            # rewrite docs/rules/
    python scripts/gen_rule_docs.py --check    # exit 1 and name the stale pages (what the test runs)

Output depends only on the catalogue text: rules are ordered by category (vocabulary order) and id,
and nothing time- or machine-dependent is written.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # a checkout without an installed trnready still works

from trnready.catalogue import CatalogueError, load_catalogue  # noqa: E402
from trnready.rewrite import describe_rewrites  # noqa: E402

REGENERATE = "python scripts/gen_rule_docs.py"
HEADER = f"<!-- Generated from blockers.toml by `{REGENERATE}`: edit the catalogue, not this file. -->\n"

_LANG = {".py": "python", ".pyw": "python", ".ipynb": "json", ".json": "json", ".toml": "toml", ".cfg": "ini",
         ".yml": "yaml", ".yaml": "yaml", ".sh": "sh", ".bash": "sh", ".sbatch": "sh", ".slurm": "sh",
         ".pbs": "sh", ".lsf": "sh", ".env": "sh", ".envrc": "sh", ".cu": "cuda", ".cuh": "cuda", ".tf": "hcl",
         ".tfvars": "hcl", ".hcl": "hcl",
         ".cpp": "cpp", ".cc": "cpp", ".h": "cpp", ".txt": "text", ".in": "text"}
_OPS = {"equals": "is {v}", "not-equals": "is not literally {v}", "in": "is one of {v}", "not-in": "is none of {v}",
        "is-none": "is None", "is-not-none": "is not None", "present": "is passed", "absent": "is not passed",
        "matches": "matches `{v}`"}
_KINDS = {"call": "call of", "method": "method call", "reference": "use of", "import": "import of",
          "decorator": "decorator", "device": "device string", "keyword": "keyword argument",
          "env": "environment variable", "line": "line matching", "requirement": "dependency on",
          "python": "Python requirement admitting none of", "file": "file of kind",
          "meta": "trnready check"}


def _lang(file: str) -> str:
    name = file.rsplit("/", 1)[-1]
    if name in ("Dockerfile", "Containerfile") or name.startswith("Dockerfile.") or name.endswith(".dockerfile"):
        return "dockerfile"
    if name in ("Pipfile", ".python-version"):
        return "toml" if name == "Pipfile" else "text"
    dot = name.rfind(".")
    return _LANG.get(name[dot:], "text") if dot >= 0 else "text"


def _fence(code: str, lang: str) -> str:
    code = code.rstrip("\n")
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}{lang}\n{code}\n{ticks}\n"


def _text(s: str) -> str:
    """Catalogue prose into Markdown: nothing in it may open HTML or a table cell."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("*", "\\*")


def _cell(s: str) -> str:
    return _text(s).replace("|", "\\|")


def _code(s: str) -> str:
    ticks = "``" if "`" in s else "`"
    return f"{ticks}{s}{ticks}" if ticks == "`" else f"{ticks} {s} {ticks}"


def _value(v) -> str:
    if isinstance(v, (list, tuple)):
        return ", ".join(_value(x) for x in v)
    if hasattr(v, "pattern"):
        return v.pattern
    if isinstance(v, bool):
        return "True" if v else "False"
    return repr(v) if isinstance(v, str) else str(v)


def _pred(p) -> str:
    where = f"`{p.name}`" if p.name else f"positional argument {p.position}"
    if p.name and p.position is not None:
        where += f" (position {p.position})"
    vals = p.values[0] if p.op in ("equals", "not-equals", "matches") and p.values else p.values
    text = f"{where} {_OPS.get(p.op, p.op).format(v=_value(vals))}"
    if p.has_default:
        text += f" (default {_value(p.default)})"
    return text


def _matcher(m) -> str:
    names = ", ".join(_code(n) for n in m.names)
    line = f"{_KINDS.get(m.kind, m.kind)} {names}"
    if m.args:
        line += ", where " + " and ".join(_pred(p) for p in m.args)
    version, shape = getattr(m, "version", None), getattr(m, "version_shape", None)
    if version is not None:
        line += f" whose highest allowed version is in {_code(str(version))}"
    if shape is not None:
        line += f" naming a version that matches {_code(getattr(shape, 'pattern', str(shape)))}"
    if m.files:
        line += f" (in {', '.join(m.files)} files)"
    mentioned = getattr(m, "unless_mentioned", ())
    if mentioned:
        where = "the repository" if getattr(m, "mentioned_in", "file") == "repo" or \
            getattr(m, "scope", "file") == "repo" else "the file"
        line += f", unless {' or '.join(_code(x) for x in mentioned)} appears in {where}"
    if getattr(m, "scope", "file") == "repo":
        line += " (one finding per scan)"
    if m.confidence != "high":
        line += f"; {m.confidence} confidence"
    return line


def rule_page(rule) -> str:
    out = [HEADER, f"# {rule.id}: {_text(rule.title)}\n",
           f"`{rule.name}` · category [{rule.category}](index.md#{rule.category}) · severity **{rule.severity}**"
           f" · phase [{rule.phase}](../plan.md#phases) · effort [{rule.effort}](../plan.md#effort-classes)\n",
           "## What it flags\n", f"{_text(rule.title)}. trnready reports:\n"]
    out += [f"- {_matcher(m)}" for m in rule.matchers]
    out.append("")
    out += ["## Why it matters\n", _text(rule.why) + "\n"]
    if rule.fix_is_suggestion:
        out.append("## Fix (suggestion: the TorchNeuron material documents none)\n")
    else:
        out.append("## Fix\n")
    out.append(_text(rule.fix) + "\n")
    if rule.corrected:
        out += ["Use instead:\n", _fence(rule.corrected, "python")]
    if rule.rewrites:
        out += ["## Automatic fix (`trnready fix`)\n", describe_rewrites(rule) + "\n"]
    out.append("## Examples\n")
    for label, examples in (("Flagged", rule.hits), ("Not flagged", rule.cleans)):
        for ex in examples:
            out += [f"{label} (`{ex.file}`):\n", _fence(ex.code, _lang(ex.file))]
    out.append("## Sources\n")
    out += [f"- [{_text(s.title).replace('[', '(').replace(']', ')')}]({s.url})" for s in rule.sources]
    out += ["", f"Reference: <{rule.docs}>" if rule.docs.startswith(("https://", "http://")) else
            f"Reference: {_text(rule.docs)}", ""]
    return "\n".join(out)


def index_page(cat) -> str:
    CATEGORIES = tuple(cat.categories)  # the vocabulary, in catalogue order ([categories] in blockers.toml)
    by_cat = {c: sorted((r for r in cat.rules if r.category == c), key=lambda r: r.id) for c in CATEGORIES}
    out = [HEADER, "# Rules\n",
           f"{len(cat.rules)} rules in catalogue {cat.version}, by category. Each page says what the rule flags, "
           "why it matters on TorchNeuron, the fix, examples and the public documents it rests on. "
           "`trnready explain ID` prints the same in a terminal.\n"]
    out.append(" · ".join(f"[{c}](#{c})" for c in CATEGORIES if by_cat[c]) + "\n")
    for c in CATEGORIES:
        if not by_cat[c]:
            continue
        out += [f"## {c}\n", "| rule | severity | what it flags |", "|---|---|---|"]
        out += [f"| [{r.id}]({r.id}.md) | {r.severity} | {_cell(r.title)} |" for r in by_cat[c]]
        out.append("")
    return "\n".join(out)


def render(cat) -> dict[str, str]:
    pages = {f"{r.id}.md": rule_page(r) for r in cat.rules}
    pages["index.md"] = index_page(cat)
    return pages


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--catalogue", type=Path, default=None, help="catalogue file (default: the built-in one)")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "rules", help="output directory (default: docs/rules)")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if any page is missing or stale")
    args = ap.parse_args(argv)
    try:
        cat = load_catalogue(args.catalogue)
    except CatalogueError as e:
        print(f"gen_rule_docs: {e}", file=sys.stderr)
        return 2
    pages = render(cat)
    existing = {p.name for p in args.out.glob("*.md")} if args.out.is_dir() else set()
    stale = sorted(n for n, text in pages.items()
                   if n not in existing or (args.out / n).read_text(encoding="utf-8") != text)
    extra = sorted(n for n in existing - set(pages) if n.startswith("TRN"))
    if args.check:
        if stale or extra:
            names = ", ".join(stale + [f"{n} (no such rule)" for n in extra])
            print(f"gen_rule_docs: {args.out} is out of date ({names}); run `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for n in stale:
        (args.out / n).write_text(pages[n], encoding="utf-8", newline="\n")
    for n in extra:
        (args.out / n).unlink()
    print(f"gen_rule_docs: {len(pages)} pages in {args.out} ({len(stale)} written, {len(extra)} removed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
