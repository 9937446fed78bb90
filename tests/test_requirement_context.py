"""Requirements that are not the port's business: the project's own distribution named as a dependency
(own-package), and the optional-dependency groups named for a CUDA build or another platform (platform-extra,
guarded). Everything else a manifest declares stays reported."""
import json

from conftest import run_cli

PYPROJECT = '''[project]
name = "fastllm"
dependencies = [
    "torch>=2.4",
    "bitsandbytes>=0.43",
]

[project.optional-dependencies]
triton = [
    "fastllm[base]",
    "triton>=3.0",
]
cu121-torch240 = [
    "bitsandbytes>=0.45.5",
    "xformers @ https://download.pytorch.org/whl/cu121/xformers-0.0.27-cp312-cp312-manylinux2014_x86_64.whl",
]
colab-ampere = [
    "flash-attn>=2.6.3",
]
rocm62 = [
    "bitsandbytes @ https://example.org/bitsandbytes-rocm.whl",
]
intelgputorch291 = [
    "bitsandbytes>=0.46",
]
flashattention = [
    "flash-attn>=2.6.3",
]
gpu = [
    "flash-attn>=2.6.3",
]
'''

SETUP_PY = '''from setuptools import setup

setup(
    name="fastllm",
    install_requires=["torch"],
    extras_require={
        "cu118": ["flash-attn>=2.6.3"],
        "speed": ["xformers"],
    },
)
'''


def scan(tmp_path, *args):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", *args, cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["guarded"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"]]


def test_own_distribution_is_no_dependency_and_platform_extras_are_guarded(tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    got = scan(tmp_path, "--show-guarded")
    assert [g for g in got if g[0] == "pyproject.toml"] == [
        ("pyproject.toml", 5, "TRN502", False, None),  # a main requirement: reported
        # line 10, `fastllm[base]`, names the project itself: no finding
        ("pyproject.toml", 11, "TRN501", False, None),  # triton in an extra named for the library: reported
        ("pyproject.toml", 14, "TRN502", True, "platform-extra"),  # cu121-torch240
        ("pyproject.toml", 15, "TRN501", True, "platform-extra"),
        ("pyproject.toml", 15, "TRN505", True, "platform-extra"),  # its CUDA wheel index, a line rule
        ("pyproject.toml", 18, "TRN501", True, "platform-extra"),  # colab-ampere
        ("pyproject.toml", 21, "TRN502", True, "platform-extra"),  # rocm62
        ("pyproject.toml", 24, "TRN502", True, "platform-extra"),  # intelgputorch291 (begins with "intel")
        ("pyproject.toml", 27, "TRN501", False, None),  # flashattention: an opt-in feature, not a platform
        ("pyproject.toml", 30, "TRN501", False, None),  # a plain "gpu" extra: the accelerated path to replace
    ]
    # without --show-guarded the platform extras are left out of the report
    assert [g[1] for g in scan(tmp_path) if g[0] == "pyproject.toml"] == [5, 11, 27, 30]


def test_setup_py_extras_keep_their_names(tmp_path):
    (tmp_path / "setup.py").write_text(SETUP_PY)
    got = [g for g in scan(tmp_path, "--show-guarded") if g[0] == "setup.py"]
    assert [(line, rule, guarded) for _, line, rule, guarded, _ in got] == [
        (7, "TRN501", True),  # the "cu118" extra
        (8, "TRN501", False),  # the "speed" extra: an opt-in feature, reported
    ]
