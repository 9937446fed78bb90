"""Print the README's catalogue coverage table (category -> severity mix -> entries) from blockers.toml."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trnready.catalogue import load_catalogue


def main() -> None:
    cat_ = load_catalogue()
    rules = cat_.rules
    print("| category | entries | severities | rules |")
    print("|---|---|---|---|")
    for cat in cat_.categories:
        rs = [r for r in rules if r.category == cat]
        sev = ", ".join(f"{s} {sum(r.severity == s for r in rs)}" for s in ("blocker", "change", "advisory")
                        if any(r.severity == s for r in rs))
        ids = ", ".join(r.id for r in rs)
        print(f"| {cat} | {len(rs)} | {sev} | {ids} |")
    print(f"| **total** | **{len(rules)}** | | |")


if __name__ == "__main__":
    main()
