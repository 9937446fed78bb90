"""Apptainer / Singularity definition files: the header's `From:` is a base image, `%post` runs like RUN."""
from conftest import FIXTURES, scan_findings


def test_definition_files_are_read_like_dockerfiles_and_look_alikes_are_not():
    got = scan_findings(FIXTURES / "apptainer", "--no-config")
    # cpu.def (a python base image, numpy), the %labels / %help text of train.def and a Windows
    # module-definition file (no Bootstrap: header) give nothing
    assert got == [
        ("containers/train.def", 3, 1, "TRN603", "CUDA container base image: `From: nvcr.io/nvidia/pytorch:24.05-py3`",
         False),
        ("containers/train.def", 11, 9, "TRN501",
         "CUDA-only kernel library declared as a dependency: `flash-attn==2.5.8`", False),  # a `\` continuation
        ("containers/train.def", 12, 21, "TRN501", "CUDA-only kernel library declared as a dependency: `xformers`",
         False),
    ]
