"""One GPU request per mapping of a training config (readers/configs.py one_request_per_mapping)."""
import json

from conftest import run_cli

CONFIG = """model:
  target: ldm.models.diffusion.ddpm.LatentDiffusion
lightning:
  trainer:
    accelerator: 'gpu'
    devices: 2
    max_epochs: 2
launcher:
  gpus_per_node: 8
"""


def test_a_count_beside_the_gpu_pick_is_a_place_of_it(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text(CONFIG)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    got = [(f["line"], f["column"], f["rule"], f["message"], f.get("occurrences"))
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        (5, 18, "TRN242", '"cuda" device string: `accelerator: gpu`', [{"line": 6, "column": 14, "rule": "TRN610"}]),
        # another mapping is another request
        (9, 18, "TRN610", "GPU resource request in a job, container or cluster definition: `gpus_per_node: 8`", None),
    ]
