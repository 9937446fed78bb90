"""`trnready fix`: apply the catalogue's rewrites at the places the scanner reports.

The scanner decides *where* (its findings: rule and position); the catalogue
decides *what* ([[rule.rewrite]] tables, see rewrite.py); libcst performs the
edit, so every byte outside an edited node stays as it was (comments, quotes,
line endings, encoding, BOM).

  plan.py      which findings become edits; one editor per file kind
  python.py    the Python editor (also used for each notebook cell)
  notebook.py  the notebook editor: cells, IPython magics, the JSON layout
  write.py     the atomic writer and its safety checks
  model.py     FileFix / FixPlan records and the unified diff

Nothing here prints: the CLI reports what the plan and the writer return.
"""
from .model import FileFix, FixPlan, Target, unified_diff
from .plan import EDITORS, STYLES, plan
from .write import write_fix

__all__ = ["EDITORS", "STYLES", "FileFix", "FixPlan", "Target", "plan", "unified_diff", "write_fix"]
