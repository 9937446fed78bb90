"""project/call_text.call_text against ast.unparse on every call of the given trees (must be equal).

    python bench/call_text.py DIR [DIR ...]

Prints, per tree, the calls compared, how many differ (0 expected) and the time each took.
"""
from __future__ import annotations

import ast
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from trnready.project.call_text import call_text


def compare(root: Path) -> tuple[int, list, float, float]:
    calls, differ, fast, slow = 0, [], 0.0, 0.0
    for path in sorted(root.rglob("*.py")):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                tree = ast.parse(path.read_bytes())
        except (SyntaxError, ValueError, RecursionError, OSError):
            continue
        for node in ast.walk(tree):
            if type(node) is not ast.Call:
                continue
            calls += 1
            t0 = time.process_time()
            try:
                want = ast.unparse(node)
            except RecursionError:
                continue
            t1 = time.process_time()
            got = call_text(node)
            fast += time.process_time() - t1
            slow += t1 - t0
            if got != want:
                differ.append((f"{path}:{node.lineno}", want, got))
    return calls, differ, fast, slow


def main(argv: list[str]) -> int:
    bad = 0
    for d in argv:
        calls, differ, fast, slow = compare(Path(d))
        print(f"{d}: {calls} calls, {len(differ)} differ; call_text {fast:.2f} s, ast.unparse {slow:.2f} s")
        for where, want, got in differ[:5]:
            print(f"  {where}\n    ast.unparse: {want[:200]}\n    call_text:   {got[:200]}")
        bad += len(differ)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
