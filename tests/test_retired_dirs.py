"""retired: a folder the project marks as deprecated is not ported, unless code outside it imports from it
(postprocess.retired; fresh48: mmskeleton's `deprecated/origin_stgcn_repo/`, the st-gcn code it replaced)."""
import json

from conftest import run_cli

CUDA = "import torch\n\nmodel = torch.nn.Linear(2, 2)\nmodel.cuda()\n"


def _scan(root):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--exit-zero", "--show-guarded")
    assert proc.returncode == 0, proc.stderr
    return sorted((f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"])


def test_a_deprecated_folder_nothing_imports_is_guarded_an_imported_one_stays(tmp_path):
    for rel in ("deprecated/origin_repo/processor/io.py", "pkg/deprecated/utils.py", "pkg/sub/deprecated/ops.py",
                "lib/models/deprecated/old.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(CUDA)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("")
    # an absolute import of the package's own deprecated folder, a relative one, and one through a `lib/` root
    (tmp_path / "pkg" / "data.py").write_text("from pkg.deprecated.utils import load\n")
    (tmp_path / "pkg" / "sub" / "model.py").write_text("from .deprecated import ops\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text("import models.deprecated.old as old\n# deprecated/origin_repo\n")
    assert _scan(tmp_path) == [
        ("deprecated/origin_repo/processor/io.py", 4, "TRN241", "retired"),
        ("lib/models/deprecated/old.py", 4, "TRN241", ""),
        ("pkg/deprecated/utils.py", 4, "TRN241", ""),
        ("pkg/sub/deprecated/ops.py", 4, "TRN241", ""),
    ]


def test_a_backup_folder_of_stale_copies_is_retired_too(tmp_path):
    # face.evoLVe (fresh51): `backup/` keeps old copies of its config.py, train.py and metrics.py that nothing imports;
    # look-alike: a `backups/` folder whose module the training script imports is live code
    for rel in ("backup/train.py", "backups/io.py", "train.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(CUDA)
    (tmp_path / "backups" / "__init__.py").write_text("")
    (tmp_path / "backups" / "io.py").write_text(CUDA + "\n\ndef save():\n    pass\n")
    (tmp_path / "train.py").write_text("from backups.io import save\n" + CUDA)
    assert _scan(tmp_path) == [
        ("backup/train.py", 4, "TRN241", "retired"),
        ("backups/io.py", 4, "TRN241", ""),
        ("train.py", 5, "TRN241", ""),
    ]


def test_an_underscore_archive_folder_is_retired_a_plain_archive_stays(tmp_path):
    # anima_lora (fresh72): `_archive/bench/...` holds retired benches nothing imports; a plain `archive/` folder is
    # kept (recall labels hold 28 hits in such folders)
    for rel in ("_archive/bench/run_bench.py", "archive/run.py", "pkg/_deprecated/sampler.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(CUDA)
    assert _scan(tmp_path) == [
        ("_archive/bench/run_bench.py", 4, "TRN241", "retired"),
        ("archive/run.py", 4, "TRN241", ""),
        ("pkg/_deprecated/sampler.py", 4, "TRN241", "retired"),
    ]


def test_configs_a_run_saved_are_records_not_inputs(tmp_path):
    # Improving-critical-exponents_pytorch (blind80): `saved_models/progan/*/config.json` records `"DEVICE": "cuda"`
    # of past runs beside their weights; nothing reads it to choose the next run. The configs the trainer reads stay,
    # and so does a Python file kept with results (a script still runs). A pipeline's `reports/` manifests
    # (GNN_PCNA, blind83) record runs too.
    files = {
        "saved_models/progan/L=64/config.json": '{\n  "EPOCHS": 10,\n  "device": "cuda"\n}\n',
        "logs/run1/configs/train.yaml": "trainer:\n  device: cuda:0\n",
        "configs/train.yaml": "trainer:\n  device: cuda\n",
        "results/plot.py": CUDA,
        "reports/phase3/fold0_seed2_manifest.json": '{\n  "seed": 2,\n  "device": "cuda"\n}\n',
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / "train.py").write_text("import yaml\ncfg = yaml.safe_load(open('configs/train.yaml'))\n"
                                       "device = cfg['trainer']['device']\n")
    assert _scan(tmp_path) == [
        ("configs/train.yaml", 2, "TRN242", ""),
        ("logs/run1/configs/train.yaml", 2, "TRN242", "run-record"),
        ("reports/phase3/fold0_seed2_manifest.json", 3, "TRN242", "run-record"),
        ("results/plot.py", 4, "TRN241", ""),
        ("saved_models/progan/L=64/config.json", 3, "TRN242", "run-record"),
    ]
