"""A config mapping switched off by a key of its own (`amp: {enabled: false, amp_dtype: float16}`): nothing under it
takes effect, so none of its settings is reported; the same mapping switched on is (readers/configs.py,
`[context.values] switch-off-keys`)."""
from conftest import scan_findings, write

BLOCK = """\
trainer:
  max_epochs: 10
  optim:
    amp:
      enabled: {enabled}
      amp_dtype: float16 # bfloat16 or float16
    cudnn:
      benchmark: true
"""


def _yaml_findings(root):
    return [f[1:5] for f in scan_findings(root) if f[0].endswith(".yaml")]


def test_settings_under_a_mapping_switched_off_are_not_reported(tmp_path):
    write(tmp_path, "configs/base.yaml", BLOCK.format(enabled="False"))
    assert [f for f in _yaml_findings(tmp_path) if f[2] == "TRN254"] == []


def test_the_same_mapping_switched_on_is_reported(tmp_path):
    # one finding for the switched-on block: at its switch (the dtype beside it is the same work item)
    write(tmp_path, "configs/base.yaml", BLOCK.format(enabled="true"))
    assert [(f[0], f[1], f[2]) for f in _yaml_findings(tmp_path) if f[2] == "TRN254"] == [(5, 16, "TRN254")]


def test_a_switch_reaches_nested_mappings_but_not_siblings(tmp_path):
    write(tmp_path, "configs/run.yaml", """\
        trainer:
          max_epochs: 10
          amp:
            enable: off
            opts:
              amp_dtype: fp16
          eval_amp:
            amp_dtype: fp16
        """)
    assert [(f[0], f[2]) for f in _yaml_findings(tmp_path) if f[2] == "TRN254"] == [(8, "TRN254")]


def test_a_root_level_switch_does_not_hide_the_file(tmp_path):
    # `enabled: false` at the top of a file switches nothing the reader can place; the file's settings stay
    write(tmp_path, "configs/run.yaml", """\
        enabled: false
        amp_dtype: float16
        max_epochs: 3
        """)
    assert [(f[0], f[2]) for f in _yaml_findings(tmp_path) if f[2] == "TRN254"] == [(2, "TRN254")]
