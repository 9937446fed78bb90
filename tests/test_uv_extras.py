"""Report step uv-extras (trnready/project/uv_extras.py): a CUDA wheel index uv uses only for an extra is an opt-in,
reported where the project installs that extra and guarded where nothing does."""
import json

from conftest import FIXTURES, run_cli


def _findings(root, *args):
    proc = run_cli("scan", root, "--format", "json", "--no-cache", "--no-config", "--show-guarded", *args)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f.get("guarded_by") or "", [o["line"] for o in f.get("occurrences", ())],
             f["message"]) for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN505"]


def test_an_index_for_an_extra_is_reported_where_the_extra_is_installed_and_guarded_where_nothing_does():
    # The Dockerfile installs the cu129 extra (`ARG UV_EXTRA=cu129`, `uv sync --extra ${UV_EXTRA}`): that index stays
    # reported, with the source entry routing torch to it as an occurrence, and the command is a finding naming
    # the index. Nothing installs cu126: its explicit index is guarded. Not findings: `uv sync --extra dev` and
    # `pip install -e ".[cpu]"` (their extras take nothing from a CUDA index).
    assert _findings(FIXTURES / "uv_extras") == [
        ("docker/Dockerfile", 5, "", [], "Installs an optional-dependency group of the project: `uv sync --extra "
         "cu129` installs from the CUDA wheel index https://download.pytorch.org/whl/cu129 (pyproject.toml:16)"),
        ("pyproject.toml", 26, "opt-in-extra", [15], "CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index): "
         "`download.pytorch.org/whl/cu126` (only for the extra cu126, which no command of the project installs)"),
        ("pyproject.toml", 31, "", [16], "CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index): "
         "`download.pytorch.org/whl/cu129`"),
    ]


def test_an_index_every_install_uses_stays_reported_and_a_command_without_such_an_index_is_dropped(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "demo"\ndependencies = ["torch==2.14.0"]\n\n[project.optional-dependencies]\n'
        'gpu = ["flash-attn-stub"]\n\n[tool.uv.sources]\ntorch = { index = "cu128" }\n\n'
        '[[tool.uv.index]]\nname = "cu128"\nurl = "https://download.pytorch.org/whl/cu128"\n')
    (tmp_path / "run.sh").write_text("uv sync --extra gpu\n")
    # not explicit and not tied to an extra: every install takes torch from it; `--extra gpu` selects nothing CUDA
    assert _findings(tmp_path) == [
        ("pyproject.toml", 13, "", [9], "CUDA build of PyTorch (+cuXXX wheel or CUDA wheel index): "
         "`download.pytorch.org/whl/cu128`"),
    ]


def test_a_poetry_source_lists_the_dependencies_routed_to_it(tmp_path):
    # ESPCN_PYTORCH (blind80): `[[tool.poetry.source]] name = "pytorch_cuda"` with the cu126 index, and `torch = {source
    # = "pytorch_cuda"}` (torchvision, torchaudio too): the lines installing from the index are places of its
    # finding. A dependency from PyPI and a CPU source are not.
    (tmp_path / "pyproject.toml").write_text(
        '[tool.poetry]\nname = "x"\n\n'
        '[[tool.poetry.source]]\nname = "pytorch_cuda"\nurl = "https://download.pytorch.org/whl/cu126"\n'
        'priority = "explicit"\n\n'
        '[[tool.poetry.source]]\nname = "pytorch_cpu"\nurl = "https://download.pytorch.org/whl/cpu"\n'
        'priority = "explicit"\n\n'
        '[tool.poetry.dependencies]\npython = "^3.12"\ntorch = {source = "pytorch_cuda"}\nnumpy = "^2.0"\n\n'
        '[tool.poetry.group.cpu.dependencies]\ntorchaudio = {source = "pytorch_cpu"}\n\n'
        '[tool.poetry.group.gpu.dependencies]\ntorchvision = { source = "pytorch_cuda" }\n')
    assert [f[:4] for f in _findings(tmp_path)] == [("pyproject.toml", 6, "", [16, 23])]
