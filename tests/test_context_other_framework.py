"""other-framework: modules of another framework (`import oneflow as torch`, `import paddle`) that never import
PyTorch are not a PyTorch path; a converter importing both stays."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

CUDA = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_other_framework_modules_are_dropped_torch_modules_stay():
    # flow_infer.py (`import oneflow as torch`, .cuda() on line 6), paddle_infer.py (.cuda(), paddle.amp) and
    # jax_rays.py (a boolean mask on JAX arrays, session 48) and jax_first_torch.py (the same after `import torch`
    # then `del torch`) report nothing, even with --show-guarded: the predicate drops
    assert scan_findings(CONTEXT_FIXTURES / "other_framework", "--show-guarded") == [
        ("proj/convert.py", 6, 16, "TRN241", CUDA, False),
        # a TensorFlow HParams container of a PyTorch project: its "nccl" feeds init_process_group elsewhere
        ("proj/hparams.py", 7, 22, "TRN271", "Distributed process group on NCCL: `dist_backend`", False),
        ("proj/torch_infer.py", 5, 12, "TRN241", CUDA, False),
    ]


def test_registered_as_a_drop():
    assert context.get("other-framework").effect == "drop"


def test_a_tensorflow_folder_beside_the_pytorch_code_is_another_framework(tmp_path):
    # dgcnn keeps `tensorflow/` (its TensorFlow version, Python 2 with NumPy helpers) beside `pytorch/` (fresh49)
    import json

    from conftest import run_cli

    (tmp_path / "tensorflow" / "sem_seg").mkdir(parents=True)
    (tmp_path / "pytorch").mkdir()
    (tmp_path / "tensorflow" / "train.py").write_text(
        "import tensorflow as tf\nimport numpy as np\nprint 'training'\nx = np.float(1)\n")
    (tmp_path / "tensorflow" / "sem_seg" / "provider.py").write_text(
        "import numpy as np\n\n\ndef shuffle(n):\n    return [i for i in xrange(n)]\n")
    (tmp_path / "tensorflow" / "convert.py").write_text(
        "import torch\nimport tensorflow as tf\nstate = torch.load('m.pth')\n")
    (tmp_path / "pytorch" / "main.py").write_text(
        "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\nprint 'done'\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    got = sorted((f["path"], f["line"], f["rule"]) for f in json.loads(proc.stdout)["findings"])
    assert got == [("pytorch/main.py", 2, "TRN241"), ("pytorch/main.py", 3, "TRN324"),
                   ("tensorflow/convert.py", 3, "TRN351")]  # a converter importing both stays


def _notebook(cells):
    import json
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                                  "source": c} for c in cells],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def test_a_tensorflow_notebook_is_another_framework(tmp_path):
    # malaya-speech's TensorFlow notebooks pin TensorFlow's GPU with CUDA_VISIBLE_DEVICES (fresh71); a notebook that
    # also imports torch, and a TensorFlow module outside a TensorFlow folder, stay
    import json

    from conftest import run_cli

    env = "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = '1'\n"
    (tmp_path / "tf.ipynb").write_text(_notebook([env, "import tensorflow as tf\nmodel = tf.keras.Sequential()\n"]))
    (tmp_path / "both.ipynb").write_text(_notebook([env, "import tensorflow as tf\nimport torch\n"]))
    (tmp_path / "hparams.py").write_text("import os\nimport tensorflow as tf\n" + env.split("\n", 1)[1])
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--exit-zero")
    assert proc.returncode == 0, proc.stderr
    got = sorted((f["path"], f["rule"]) for f in json.loads(proc.stdout)["findings"])
    assert got == [("both.ipynb", "TRN245"), ("hparams.py", "TRN245")]
