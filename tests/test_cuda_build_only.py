"""Link step cuda-build-only (trnready/project/cuda_build.py): test code that never runs without the project's CUDA
build. A test skipped on a flag its import failure sets, and a test or benchmark module importing the build
at its top, are guarded (an example is not: it is a program using the project); the same shapes around a module that imports without the build (pure Python, or with a
fallback) stay reported, and so does library code importing the build (it is the port)."""
import ast
import json

from conftest import FIXTURES, run_cli
from trnready.project.cuda_build import _failure_flags, setup_extensions, skipped_spans, top_imports

PROJ = FIXTURES / "cuda_build"


def _scan():
    proc = run_cli("scan", PROJ, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"].removeprefix("proj/"), f["line"], f["rule"], f.get("guarded_by"))
            for f in json.loads(proc.stdout)["findings"]]


def test_test_code_that_needs_the_cuda_build_is_guarded_and_its_look_alikes_stay():
    assert _scan() == [
        # a benchmark importing a package module that imports the built extension (two modules down)
        ("benchmarks/bench_norm.py", 5, "TRN241", "cuda-kernel-test"),
        ("benchmarks/bench_norm.py", 6, "TRN243", "cuda-kernel-test"),
        # the same as an example: a program using the project, whose device code is the next change once the
        # kernel is ported (session 44: lietorch's demos, 58 blind63 labels)
        ("examples/run_norm.py", 5, "TRN241", None),
        ("examples/run_norm.py", 6, "TRN243", None),
        ("examples/run_plain.py", 5, "TRN241", None),  # imports only pure Python
        # a kernel package's check script named test.py is source by its path: it stays (the blind recall labels
        # count such a script's device code as work of the port)
        ("mypkg/kops/test.py", 7, "TRN122", None),
        ("mypkg/kops/test.py", 7, "TRN241", None),
        ("mypkg/train.py", 7, "TRN241", None),  # library code importing the build: the port item
        ("plugins/setup.py", 6, "TRN243", "check-without-placement"),
        ("plugins/setup.py", 7, "TRN302", "neuron-guarded"),  # the CUDA pick, only where CUDA is
        # the two builds; the imports of their modules are places of these findings (elsewhere)
        ("setup.py", 8, "TRN302", None),
        ("setup.py", 13, "TRN302", None),
        # an entry point named test.py reaching the kernel only through the model's packages: the project's code
        ("test.py", 7, "TRN241", None),
        ("test.py", 8, "TRN261", None),
        # dual_ext falls back to CppExtension when CUDA is missing: it imports on the CPU, the test may run
        ("tests/test_dual_ext.py", 6, "TRN241", None),
        ("tests/test_flag_unused.py", 14, "TRN241", None),  # the flag is set but no test is skipped on it
        ("tests/test_has_flag.py", 17, "TRN241", "cuda-build-only"),  # skipIf(not HAS_NORM), False in the handler
        # a test's import of the build is a kernel use exercised by a test (policy s23): guarded, not a place
        ("tests/test_optional_ext.py", 4, "TRN302", "test-exercised-operation"),
        ("tests/test_optional_ext.py", 10, "TRN241", None),  # the extension is imported with a fallback
        ("tests/test_optional_flag.py", 15, "TRN241", None),  # mypkg.optional imports the build with a fallback
        ("tests/test_package_flag.py", 5, "TRN281", "optional-gpu-import"),
        ("tests/test_package_flag.py", 13, "TRN241", "cuda-build-only"),  # a CUDA-only package of the catalogue
        ("tests/test_plain_flag.py", 15, "TRN241", None),  # the flag's import is pure Python: the test runs
        # the helper only the skipped class uses is guarded with it
        ("tests/test_skip_flag.py", 13, "TRN122", "cuda-build-only"),
        ("tests/test_skip_flag.py", 19, "TRN241", "cuda-build-only"),
        ("tests/test_syncbn_ext.py", 2, "TRN302", "test-exercised-operation"),
        ("tests/test_syncbn_ext.py", 6, "TRN241", "cuda-kernel-test"),
        ("tests/test_syncbn_ext.py", 8, "TRN122", "cuda-kernel-test"),
    ]


def test_setup_extensions_reads_the_class_and_a_name_bound_to_it():
    tree = ast.parse((PROJ / "proj" / "setup.py").read_text())
    assert setup_extensions(tree) == {"fused_norm_cuda", "syncbn_ext"}
    assert setup_extensions(ast.parse('CppExtension("cpu_only", ["a.cpp"])\n')) == set()
    # a build that keeps CppExtension when CUDA is missing makes a module that imports on the CPU
    assert setup_extensions(ast.parse((PROJ / "proj" / "plugins" / "setup.py").read_text())) == set()
    assert setup_extensions(ast.parse("if cuda:\n    CUDAExtension('a', [])\nelse:\n    CppExtension('a', [])\n"
                                      "if cuda:\n    CUDAExtension('b', [])\nelse:\n    raise SystemExit('CUDA')\n")) == {"b"}


def test_top_imports_are_those_run_unconditionally():
    tree = ast.parse("import a\nif True:\n    import b\nelse:\n    import c\n"
                     "try:\n    import d\nexcept ImportError:\n    raise RuntimeError('build d')\n"
                     "try:\n    import e\nexcept ImportError:\n    e = None\n"
                     "def f():\n    import g\n")
    assert [m for _st, m, _lv, _n in top_imports(tree)] == ["a", "b", "d"]


def test_failure_flags_and_the_tests_they_skip():
    src = ("X = None\ntry:\n    import k\nexcept ImportError as err:\n    X = err\n"
           "try:\n    import k2\nexcept ImportError:\n    Y = False\nelse:\n    Y = True\n"
           "try:\n    import k3\nexcept ImportError as err:\n    Z = err\nZ = None\n"
           "@skipIf(X, 'x')\nclass A: pass\n@skipUnless(Y, 'y')\nclass B: pass\n@skipIf(not Y, 'y')\nclass C: pass\n"
           "@skipIf(Y, 'y')\nclass D: pass\n@skipIf(Z, 'z')\nclass E: pass\n")
    tree = ast.parse(src)
    flags = _failure_flags(tree, lambda t: True)
    assert flags == {"X": True, "Y": False}  # Z is bound again after its try
    assert skipped_spans(tree, flags) == [(17, 18), (19, 20), (21, 22)]
    assert _failure_flags(tree, lambda t: False) == {}  # imports that work set no flag


def test_the_answer_kept_in_the_cache_follows_an_edit_of_the_imported_module(tmp_path):
    # A warm re-scan answers this step from the result cache; giving the package module a fallback (not an
    # edit of the test) must change the answer.
    import shutil

    proj, cache = tmp_path / "proj", tmp_path / "cache"
    shutil.copytree(PROJ / "proj", proj)

    def skipped_test() -> list:
        proc = run_cli("scan", ".", "--format", "json", "--show-guarded", cwd=proj,
                       env={"TRNREADY_CACHE_DIR": str(cache)})
        assert proc.returncode in (0, 1), proc.stderr
        return [(f["line"], f.get("guarded_by")) for f in json.loads(proc.stdout)["findings"]
                if f["path"] == "tests/test_skip_flag.py"]

    guarded = [(13, "cuda-build-only"), (19, "cuda-build-only")]
    assert skipped_test() == guarded  # cold
    assert skipped_test() == guarded  # warm, from the cache
    norm = proj / "mypkg" / "norm.py"
    norm.write_text(norm.read_text().replace("import fused_norm_cuda\n",
                                             "try:\n    import fused_norm_cuda\nexcept ImportError:\n"
                                             "    fused_norm_cuda = None\n"))
    # 13 is a float64 reference of a test: guarded whatever the build (test-reference-dtype, policy s22)
    assert skipped_test() == [(13, "test-reference-dtype"), (19, None)]
