"""Link step caller-places, helpers that act when called (project/acting_helpers.py): a helper resizing bilinearly,
writing the cuDNN flags, emptying the CUDA cache or seeding the CUDA generators does so at each call, so its calls
are places of its one finding."""
import ast
import json

from conftest import FIXTURES, run_cli

from trnready.project.acting_helpers import acting_helper, calls_of, reaches

FIXTURE = FIXTURES / "acting_helpers"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def _places(f):
    return [(e["path"], e["line"]) for e in f.get("elsewhere", ())]


def test_a_resize_helper_is_placed_at_the_calls_that_reach_the_resize():
    found = _findings()
    # `scale(img)` leaves ratio at 1.0, which returns before the resize; `masks_up(m, s)` leaves upsample False;
    # halve_twice's calls of scale, in scale's own file, sit beside the finding already
    assert _places(found[("pkg/imaging.py", 7, "TRN191")]) == [("train.py", 12)]
    assert _places(found[("pkg/imaging.py", 16, "TRN191")]) == [("train.py", 14)]
    assert found[("pkg/imaging.py", 7, "TRN191")]["message"].endswith("scale() called at train.py:12")


def test_a_long_function_is_the_run_not_a_helper():
    assert _places(_findings()[("pkg/imaging.py", 62, "TRN191")]) == []


def test_flag_writes_cache_flushes_and_cuda_seeds_are_placed_at_the_calls():
    found = _findings()
    # the arm init_seeds(1) never takes is guarded (callers-switch-off); the other arm gets the call
    assert found[("pkg/seeding.py", 10, "TRN261")]["guarded"]
    assert _places(found[("pkg/seeding.py", 12, "TRN261")]) == [("train.py", 8)]
    # the test module's call is not followed
    assert _places(found[("pkg/seeding.py", 17, "TRN243")]) == [("train.py", 17)]
    # through the package the helper's module belongs to, imported as a module (`dist.seed_all(0)`)
    assert _places(found[("pkg/dist/rng.py", 16, "TRN249")]) == [("train.py", 9)]


def test_a_query_is_no_action():
    assert _places(_findings()[("pkg/seeding.py", 21, "TRN243")]) == []


def test_a_nested_function_moving_its_parameter_moves_the_callers_sample():
    assert _places(_findings()[("pkg/batches.py", 9, "TRN241")]) == [("train.py", 11)]


def test_a_method_is_placed_at_its_calls_through_self():
    assert _places(_findings()[("model.py", 7, "TRN191")]) == [("model.py", 11)]
    assert not [k for k in _findings() if k[0] == "train.py"]


class _F:
    def __init__(self, line, column, occurrences=()):
        self.line, self.column, self.occurrences = line, column, occurrences


def _first_call(src):
    return next(n for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Call))


def test_acting_helper_reads_tests_and_effects():
    src = "import torch\ndef f(x):\n    if torch.cuda.is_available():\n        x = 1\n    torch.cuda.synchronize()\n" \
          "    y = torch.cuda.current_device()\n"
    tree, lines = ast.parse(src), src.splitlines()
    assert acting_helper(tree, _F(3, 8), lines, False, 40) is None  # a test asks
    assert acting_helper(tree, _F(5, 5), lines, True, 40).name == "f"  # a statement of its own acts
    assert acting_helper(tree, _F(6, 9), lines, True, 40) is None  # a value handed on is no effect


def test_a_value_from_the_helpers_default_is_left_to_the_link_step():
    src = "import torch.nn.functional as F\ndef smooth(x,\n           mode='bilinear'):\n    return F.interpolate(x, mode=mode)\n"
    tree, lines = ast.parse(src), src.splitlines()
    assert acting_helper(tree, _F(4, 12), lines, False, 40).name == "smooth"
    assert acting_helper(tree, _F(4, 12, ((3, 17, "TRN191"),)), lines, False, 40) is None


def test_reaches_binds_literals_and_defaults():
    tree = ast.parse("def up(x, on=False, mode='a'):\n    if on and mode == 'a':\n        x = g(x)\n    return x\n")
    got = acting_helper(tree, _F(3, 13), ["", "", "        x = g(x)"], False, 40)
    assert not reaches(got, _first_call("up(x)"))
    assert reaches(got, _first_call("up(x, True)"))
    assert not reaches(got, _first_call("up(x, on=True, mode='b')"))
    assert reaches(got, _first_call("up(x, flag)"))  # not a literal: may reach
    assert reaches(got, _first_call("up(x, *rest)"))
    assert [n.lineno for n in calls_of(got, ast.parse("up(1, True)\nup(2)\n"), {"up"}, False)] == [1]


def test_a_default_dtype_helper_is_placed_at_its_calls_through_the_package():
    # `tools.use_dtype(args.dtype)` sets the default dtype the helper's table may make float64; the test module's
    # call exercises the helper with its own setup and is no place
    proc = run_cli("scan", FIXTURES / "acting_dtype", "--format", "json", "--no-cache", "--show-guarded",
                   "--exit-zero")
    found = {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}
    assert list(found) == [("sim/tools/numeric.py", 7, "TRN123")]
    assert _places(found[("sim/tools/numeric.py", 7, "TRN123")]) == [("sim/run.py", 10)]
