"""config-device-set: a default detectron2 config is a CUDA device choice only where the file never sets its device."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MESSAGE = ('detectron2 config left on its default device: `detectron2.config.get_cfg` (MODEL.DEVICE is "cuda" unless '
           'the code sets it)')


def test_a_default_config_is_reported_where_nothing_sets_its_device():
    # predict.py builds a predictor on the default config; demo.py merges MODEL.DEVICE from its options;
    # other_config.py calls a get_cfg of its own (not detectron2's); anchors_test.py builds only an anchor generator
    assert scan_findings(CONTEXT_FIXTURES / "config_device_set") == [
        ("predict.py", 6, 11, "TRN242", MESSAGE, False),
    ]


def test_registered_for_call_matchers():
    p = context.get("config-device-set")
    assert p.kinds == ("call",) and p.effect == "drop" and "MODEL.DEVICE" in p.doc


def test_the_library_repository_itself_reports_its_defaults_file(tmp_path):
    # scanning detectron2: `get_cfg()` of its own tools is the defaults file's item, not one per script
    (tmp_path / "detectron2" / "config").mkdir(parents=True)
    (tmp_path / "detectron2" / "__init__.py").write_text("")
    (tmp_path / "detectron2" / "config" / "__init__.py").write_text("def get_cfg():\n    return None\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train_net.py").write_text(
        "from detectron2.config import get_cfg\nfrom detectron2.engine import DefaultTrainer\n\n\n"
        "def setup():\n    cfg = get_cfg()\n    return DefaultTrainer(cfg)\n")
    assert scan_findings(tmp_path) == []
