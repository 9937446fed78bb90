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
