"""A copy of another project nested in a package keeps its own absolute imports (`from annotator.uniformer.mmcv
import ...` inside `lavis/common/annotator/`): its findings are guarded as vendored (project/vendored.py)."""
import json

from conftest import run_cli

CUDA_CODE = "import torch\n\n\ndef run(x):\n    return x.cuda()\n"


def _write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _findings(root):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", "--show-guarded", cwd=root)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f["guarded"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"]]


def test_a_nested_copy_importing_itself_by_its_own_name_is_vendored(tmp_path):
    _write(tmp_path, "lavis/__init__.py", "")
    # the project imports the folder by its full path (lavis/common is a namespace package)
    _write(tmp_path, "lavis/models/use.py", "from lavis.common.annotator.canny import detect\n" + CUDA_CODE)
    _write(tmp_path, "lavis/common/annotator/canny.py", "def detect(x):\n    return x\n")
    _write(tmp_path, "lavis/common/annotator/uniformer/mmcv/cnn.py",
           "from annotator.uniformer.mmcv.utils import helper\n" + CUDA_CODE)
    _write(tmp_path, "lavis/common/annotator/uniformer/mmcv/utils.py",
           "import torch\nfrom annotator.uniformer.mmcv.cnn import run\n\n\ndef helper():\n    return torch.zeros(1)\n")
    assert _findings(tmp_path) == [
        ("lavis/common/annotator/uniformer/mmcv/cnn.py", 6, 12, "TRN241", True, "vendored"),
        ("lavis/models/use.py", 6, 12, "TRN241", False, None),  # the project's own code stays
    ]


def test_a_top_level_package_or_a_single_file_is_not_a_copy(tmp_path):
    # `tools/` is not below a package: importing `tools.x` from inside it is how the project runs its scripts
    _write(tmp_path, "tools/a.py", "from tools.b import helper\n" + CUDA_CODE)
    _write(tmp_path, "tools/b.py", "import tools.a\n\n\ndef helper():\n    pass\n")
    # one file naming its folder is not enough evidence
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/sub/__init__.py", "")
    _write(tmp_path, "pkg/sub/inner/m.py", "from inner.x import y\n" + CUDA_CODE)
    assert _findings(tmp_path) == [
        ("pkg/sub/inner/m.py", 6, 12, "TRN241", False, None),
        ("tools/a.py", 6, 12, "TRN241", False, None),
    ]


def test_a_folder_named_like_the_library_it_imports_is_not_a_copy(tmp_path):
    # `ops/triton/` importing the Triton library (`import triton.language`) is the project's own kernel folder
    _write(tmp_path, "pkg/__init__.py", "")
    _write(tmp_path, "pkg/ops/__init__.py", "")
    for name in ("a", "b"):
        _write(tmp_path, f"pkg/ops/triton/{name}.py",
               "import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef k(x):\n    pass\n")
    found = _findings(tmp_path)
    assert {f[0] for f in found} == {"pkg/ops/triton/a.py", "pkg/ops/triton/b.py"}
    assert not any(f[4] for f in found)


def test_a_source_folder_on_the_path_is_not_a_copy(tmp_path):
    # s4-style: `src/` is not a package; `src/models/` imports itself as `models` (src on the path) and the
    # entry points import `src.models...`: the project's own code
    _write(tmp_path, "train.py", "from src.models.seq.base import run\n")
    _write(tmp_path, "src/models/__init__.py", "")
    _write(tmp_path, "src/models/seq/__init__.py", "")
    _write(tmp_path, "src/models/seq/base.py", "from models.seq.attn import run as attend\n" + CUDA_CODE)
    _write(tmp_path, "src/models/seq/attn.py", "from models.seq.base import run\n" + CUDA_CODE)
    assert not any(f[4] for f in _findings(tmp_path))


def test_a_warm_rescan_keeps_the_copy_guarded(tmp_path):
    _write(tmp_path, "lavis/__init__.py", "")
    _write(tmp_path, "lavis/models/deep/use.py", "from lavis.common.annotator.canny import detect\n" + CUDA_CODE)
    _write(tmp_path, "lavis/common/annotator/canny.py", "def detect(x):\n    return x\n")
    _write(tmp_path, "lavis/common/annotator/uniformer/mmcv/cnn.py",
           "from annotator.uniformer.mmcv.utils import helper\n" + CUDA_CODE)
    _write(tmp_path, "lavis/common/annotator/uniformer/mmcv/utils.py",
           "import torch\nfrom annotator.uniformer.mmcv.cnn import run\n\n\ndef helper():\n    return torch.zeros(1)\n")

    def scan():
        proc = run_cli("scan", ".", "--format", "json", "--show-guarded", "--cache-dir", str(tmp_path / ".cache"),
                       cwd=tmp_path)
        assert proc.returncode in (0, 1), proc.stderr
        return [(f["path"], f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]]

    cold = scan()
    assert ("lavis/common/annotator/uniformer/mmcv/cnn.py", 6, "vendored") in cold
    assert scan() == cold


def test_a_framework_pasted_below_the_top_level_is_vendored(tmp_path):
    # ControlNet-style: mmcv and mmseg pasted under annotator/uniformer/ and imported by their full path
    _write(tmp_path, "annotator/uniformer/mmcv/ops/nms.py", CUDA_CODE)
    _write(tmp_path, "annotator/uniformer/mmseg/inference.py", CUDA_CODE)
    _write(tmp_path, "app.py", "from annotator.uniformer.mmseg.inference import run\n" + CUDA_CODE)
    # look-alikes that stay the project's own: a folder only starting with the name, a module named like it,
    # and the framework at the top level of the repository (a project that is mmcv, or vendors nothing)
    _write(tmp_path, "annotator/mmcv_custom/checkpoint.py", CUDA_CODE)
    _write(tmp_path, "models/mmcv.py", CUDA_CODE)
    _write(tmp_path, "mmseg/apis.py", CUDA_CODE)
    assert _findings(tmp_path) == [
        ("annotator/mmcv_custom/checkpoint.py", 5, 12, "TRN241", False, None),
        ("annotator/uniformer/mmcv/ops/nms.py", 5, 12, "TRN241", True, "vendored"),
        ("annotator/uniformer/mmseg/inference.py", 5, 12, "TRN241", True, "vendored"),
        ("app.py", 6, 12, "TRN241", False, None),
        ("mmseg/apis.py", 5, 12, "TRN241", False, None),
        ("models/mmcv.py", 5, 12, "TRN241", False, None)]


def test_a_framework_that_is_the_project_itself_is_not_vendored(tmp_path):
    # the repository of a framework keeps its package under src/ or a second level: still its own code
    _write(tmp_path, "pyproject.toml", '[project]\nname = "mmcv"\n')
    _write(tmp_path, "src/mmcv/__init__.py", "")
    _write(tmp_path, "src/mmcv/ops/nms.py", CUDA_CODE)
    assert _findings(tmp_path) == [("src/mmcv/ops/nms.py", 5, 12, "TRN241", False, None)]


def test_a_scopes_glob_claims_a_pasted_framework_back(tmp_path):
    _write(tmp_path, "annotator/uniformer/mmseg/inference.py", CUDA_CODE)
    _write(tmp_path, "trnready.toml", "[scopes]\n\"annotator/uniformer/mmseg/**\" = \"source\"\n")
    assert _findings(tmp_path) == [("annotator/uniformer/mmseg/inference.py", 5, 12, "TRN241", False, None)]
