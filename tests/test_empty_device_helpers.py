"""empty-device-helper: a test command whose CUDA_VISIBLE_DEVICES a project helper fills, with no GPU when the host
has no CUDA, runs its program on the CPU on Neuron (session 22 test policy)."""
import ast

from conftest import CONTEXT_FIXTURES, scan_findings

from trnready.project.empty_device_helpers import answers_empty_without_cuda

FIX = CONTEXT_FIXTURES / "empty_device_helpers"


def _visible(name):
    return [(f[0], f[1], f[5]) for f in scan_findings(FIX / name, "--show-guarded") if f[3] == "TRN245"]


def test_commands_of_tests_filled_by_an_empty_answer_are_guarded():
    assert _visible("project") == [
        ("tests/test_train.py", 8, True),  # first_gpu(): "" in the else of a CUDA flag (through a name)
        ("tests/test_train.py", 12, True),  # gpu_list(): "-1" returned under `if not torch.cuda.is_available()`
        ("tests/test_train.py", 17, False),  # pinned_gpu() always names GPU 0
        ("tools/launch.py", 8, False),  # not a test: a launcher whose child silently runs on the CPU
    ]


def test_a_helper_defined_twice_is_not_judged():
    assert _visible("twice") == [("tests/test_run.py", 8, False)]


def _fn(src):
    return ast.parse(src).body[0]


def test_answers_empty_without_cuda():
    empty = ("", "-1")
    assert answers_empty_without_cuda(_fn("def f():\n    if use_gpu:\n        return '1'\n    else:\n"
                                          "        return ''\n"), empty)
    assert answers_empty_without_cuda(_fn("def f():\n    ids = '0'\n    if not torch.cuda.is_available():\n"
                                          "        ids = -1\n    return ids\n"), empty)
    # the empty value is not what the function returns, or is given under a test that is no CUDA check
    assert not answers_empty_without_cuda(_fn("def f():\n    if use_gpu:\n        x = '1'\n    else:\n"
                                              "        y = ''\n    return x\n"), empty)
    assert not answers_empty_without_cuda(_fn("def f(debug):\n    if debug:\n        return '0'\n"
                                              "    else:\n        return ''\n"), empty)
    assert not answers_empty_without_cuda(_fn("def f():\n    if use_gpu:\n        return ''\n"
                                              "    return '0'\n"), empty)
