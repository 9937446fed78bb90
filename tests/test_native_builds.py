"""Native builds and INI training defaults: the file kinds that read them, the INI outline and the kernel
prototypes a .cu file declares ahead of its definitions (readers/ini_configs.py, readers/cuda.py)."""
from trnready.filekinds import kind_of
from trnready.readers.cuda import kernel_prototypes
from trnready.readers.ini_configs import ini_entries


def test_kinds_of_native_build_and_ini_files():
    assert kind_of("Makefile") == "makefile" and kind_of("GNUmakefile") == "makefile"
    assert kind_of("rules.mk") == "makefile" and kind_of("Makefile.cuda") == "makefile"
    assert kind_of("Makefile.am") is None and kind_of("Makefile.in") is None and kind_of("makefile.md") is None
    assert kind_of("CMakeLists.txt") == "cmake" and kind_of("cuda.cmake") == "cmake"
    assert kind_of("cudnn_att.cpp") == "cpp" and kind_of("common.h") == "cpp" and kind_of("ops.cu") == "cuda"
    assert kind_of("defaults.ini") == "ini" and kind_of("requirements.txt") == "requirements"


def test_ini_entries_keep_keys_values_and_columns():
    text = '[DEFAULTS]\n# a comment\nprecision = "16-mixed"\n; precision = 16\nseed=42  # inline\n  continued\n'
    values = [(e.keys, e.value, e.line, e.col) for e in ini_entries(text) if e.value is not None]
    assert values == [(("precision",), "16-mixed", 3, 14), (("seed",), "42", 5, 6)]
    keys = [e.keys for e in ini_entries(text) if e.value is None]
    assert keys == [("precision",), ("seed",)]


def test_prototypes_of_kernels_defined_in_the_file():
    text = ("__global__ void a(float* x);\n__global__ void elsewhere(float* x);\n"
            "__global__ void a(float* x) {\n}\n// __global__ void a(float* x);\n")
    assert kernel_prototypes(text) == [1]


def test_toml_entries_keep_table_paths_values_and_columns():
    from trnready.readers.toml_configs import toml_entries

    text = ('seed = 0\ndevice = "cuda:1"  # the run\n\n[model_params.rtdl_params]\nd_layers = [\n    256,\n]\n'
            'dropout = 0.0\n["train".main]\nlr = 0.001\n')
    values = [(e.keys, e.value, e.line, e.col) for e in toml_entries(text) if e.value is not None]
    assert values == [(("seed",), "0", 1, 8), (("device",), "cuda:1", 2, 11),
                      (("model_params", "rtdl_params", "dropout"), "0.0", 8, 11),
                      (("train", "main", "lr"), "0.001", 10, 6)]
    keys = [e.keys for e in toml_entries(text) if e.value is None]
    assert ("model_params", "rtdl_params", "d_layers") in keys and ("seed",) in keys


def test_a_toml_run_config_is_read_by_its_keys_and_tool_settings_are_not(tmp_path):
    from conftest import scan_findings

    (tmp_path / "exp").mkdir()
    (tmp_path / "exp" / "config.toml").write_text(
        'seed = 0\nparent_dir = "exp/check"\ndevice = "cuda:1"\n\n[train.main]\nlr = 0.001\nbatch_size = 4096\n')
    # a tool's settings file holding a `device` key but no other training key: not a config
    (tmp_path / "tool.toml").write_text('[tool]\ndevice = "cuda"\n')
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\nrequires-python = ">=3.12"\n')
    assert [(f[0], f[1], f[2], f[3]) for f in scan_findings(tmp_path, "--show-guarded")] == [
        ("exp/config.toml", 3, 11, "TRN242")]
