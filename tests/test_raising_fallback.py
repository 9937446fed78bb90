"""An optional import whose flag only ever leads to a raise is no optional dependency (context/_raising_fallback.py)."""
from conftest import scan_findings

RAISES = '''try:
    from mmcv.ops import DeformConv2d
    has_ops = True
except ImportError:
    has_ops = False


class Block:
    def __init__(self, c):
        if has_ops:
            self.conv = DeformConv2d(c, c, 3)
        else:
            raise ImportError("install the full mmcv to use DeformConv2d")
'''

FALLS_BACK = '''try:
    from mmcv.ops import DeformConv2d
    has_ops = True
except ImportError:
    has_ops = False


class Block:
    def __init__(self, c, conv):
        if not has_ops:
            raise ImportError("install the full mmcv")
        self.conv = DeformConv2d(c, c, 3) if has_ops else conv
'''


def _severity(tmp_path, src):
    """(line, "change" when reported as an optional import, else "blocker")."""
    (tmp_path / "head.py").write_text(src)
    return [(f[1], "change" if "optional import" in f[4] else "blocker")
            for f in scan_findings(tmp_path) if f[3] == "TRN296"]


def test_an_import_whose_fallback_raises_stays_a_blocker(tmp_path):
    assert _severity(tmp_path, RAISES) == [(2, "blocker")]


def test_a_flag_also_read_otherwise_keeps_the_import_optional(tmp_path):
    assert _severity(tmp_path, FALLS_BACK) == [(2, "change")]
