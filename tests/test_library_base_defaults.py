"""A method's backend default handed only to super() is reported when the base class is another library's."""
from conftest import scan_findings


def _write(tmp_path, text):
    (tmp_path / "strategy.py").write_text(text)
    return [(f[1], f[3]) for f in scan_findings(tmp_path) if f[3] == "TRN271"]


def test_default_handed_to_a_library_base_is_reported(tmp_path):
    assert _write(tmp_path, (
        "from mmengine._strategy import DeepSpeedStrategy\n"
        "class S(DeepSpeedStrategy):\n"
        "    def _setup_distributed(self, launcher=None, backend='nccl', **kw):\n"
        "        super()._setup_distributed(launcher, backend, **kw)\n")) == [(3, "TRN271")]


def test_default_handed_to_a_base_of_the_project_is_left_to_the_link_step(tmp_path):
    assert _write(tmp_path, (
        "class Base:\n"
        "    def setup(self, backend):\n"
        "        return backend\n"
        "class S(Base):\n"
        "    def setup(self, backend='nccl'):\n"
        "        return super().setup(backend)\n")) == []


def test_default_also_handed_to_another_call_is_not_reported_here(tmp_path):
    assert _write(tmp_path, (
        "from mmengine._strategy import DeepSpeedStrategy\n"
        "class S(DeepSpeedStrategy):\n"
        "    def _setup_distributed(self, launcher=None, backend='nccl', **kw):\n"
        "        super()._setup_distributed(launcher, backend, **kw)\n"
        "        log(backend)\n")) == []


def test_default_passed_by_its_keyword_is_reported_once_at_the_call(tmp_path):
    assert _write(tmp_path, (
        "from mmengine._strategy import DeepSpeedStrategy\n"
        "class S(DeepSpeedStrategy):\n"
        "    def _setup_distributed(self, launcher=None, backend='nccl', **kw):\n"
        "        super()._setup_distributed(launcher=launcher, backend=backend, **kw)\n")) == [(4, "TRN271")]
