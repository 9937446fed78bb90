"""Link step caller-places (project/caller_places.py): a helper's finding that is the caller's doing is placed at
the helper's calls (`elsewhere`) instead of being a finding of its own there."""
import json

from conftest import FIXTURES, run_cli

FIXTURE = FIXTURES / "caller_places"


def _findings():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded", "--exit-zero")
    return {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}


def test_cuda_on_a_parameter_is_placed_at_the_calls_passing_it():
    f = _findings()[("pkg/util/devices.py", 7, "TRN241")]
    # positional and keyword arguments count; the test module and the renamed import are not followed
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("run.py", 8, 11), ("run.py", 9, 13)]
    assert f["message"].endswith("place_on_gpu() called at run.py:8, run.py:9")


def test_cuda_on_a_local_tensor_stays_in_the_helper():
    f = _findings()[("pkg/util/devices.py", 12, "TRN241")]
    assert "elsewhere" not in f and "called at" not in f["message"]


def test_a_helper_that_only_sets_nccl_variables_is_placed_at_its_calls_and_its_def():
    f = _findings()[("pkg/util/comm.py", 6, "TRN277")]
    assert [(e["path"], e["line"]) for e in f["elsewhere"]] == [("run.py", 6)]
    assert [(o["line"], o["column"]) for o in f["occurrences"]] == [(4, 1), (7, 16)]


def test_a_helper_doing_more_than_the_setting_keeps_its_finding_alone():
    f = _findings()[("pkg/util/comm.py", 11, "TRN277")]
    assert "elsewhere" not in f and "occurrences" not in f
    assert len([k for k in _findings() if k[0] == "run.py"]) == 0


def test_an_option_default_is_placed_where_a_helper_of_another_module_reads_it():
    found = _findings()
    # the namespace comes from get_args(), which returns parser.parse_args(); print() only shows the value
    f = found[("launch.py", 8, "TRN271")]
    # the second default (line 9) is folded into the first; its helper gets it by keyword, read under its `dest`
    assert [(o["line"], o["column"]) for o in f["occurrences"]] == [(9, 66)]
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("pkg/util/setup.py", 6, 5),
                                                                          ("pkg/util/setup.py", 11, 5)]
    assert f["message"].endswith("read at pkg/util/setup.py:6, pkg/util/setup.py:11")
    assert not [k for k in found if k[0] == "pkg/util/setup.py"]


def test_a_helper_returning_a_cuda_autocast_is_placed_at_its_calls():
    found = _findings()
    # the bare API and a lambda calling it are both handed out; the calls go on the first finding of the helper
    f = found[("pkg/util/amp.py", 8, "TRN251")]
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("train_amp.py", 6, 16)]
    assert f["message"].endswith("pick_autocast() called at train_amp.py:6")
    assert "elsewhere" not in found[("pkg/util/amp.py", 10, "TRN251")]
    assert not [k for k in found if k[0] == "train_amp.py"]


def test_a_class_keeping_a_cuda_grad_scaler_is_placed_where_it_is_built_under_an_alias():
    f = _findings()[("pkg/util/amp.py", 16, "TRN251")]
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("train_amp.py", 7, 14)]


def test_a_helper_using_autocast_itself_keeps_its_finding_alone():
    f = _findings()[("pkg/util/amp.py", 25, "TRN251")]
    assert "elsewhere" not in f and "called at" not in f["message"]


def test_a_helper_bracketing_its_callable_parameter_is_placed_at_its_calls():
    found = _findings()
    # the helper runs the caller's step between CUDA events: its calls are places of its first finding
    f = found[("pkg/util/timing.py", 5, "TRN243")]
    assert [(e["path"], e["line"]) for e in f["elsewhere"]] == [("train_timed.py", 6)]
    assert "elsewhere" not in found[("pkg/util/timing.py", 10, "TRN243")]
    # a helper that calls no parameter of its own keeps its finding alone
    assert "elsewhere" not in found[("pkg/util/timing.py", 15, "TRN243")]


def test_a_call_the_helpers_finding_lists_is_not_reported_again_through_its_default():
    proc = run_cli("scan", FIXTURES / "caller_places_listed", "--format", "json", "--no-cache", "--exit-zero")
    found = {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}
    # the GradScaler finding lists fit.py:8 (new_scaler() called there); the "cuda" default reaching the same
    # GradScaler from that call says it again in another category, so it is no finding of its own
    f = found[("tools/scaling.py", 5, "TRN252")]
    assert [(e["path"], e["line"]) for e in f["elsewhere"]] == [("fit.py", 8)]
    assert ("tools/scaling.py", 4, "TRN242") in found
    assert not [k for k in found if k[0] == "fit.py"]


def test_an_option_default_is_placed_where_an_api_of_its_rule_gets_it_by_name():
    # option-api-calls: the namespace travels params.py -> train.py -> comm/setup.py, which no import chain from the
    # parsing module shows; `backend=args.dist_backend` of init_process_group / new_group is where the default acts
    proc = run_cli("scan", FIXTURES / "option_api_reads", "--format", "json", "--no-cache", "--show-guarded",
                   "--exit-zero")
    found = {(f["path"], f["line"], f["rule"]): f for f in json.loads(proc.stdout)["findings"]}
    f = found[("opts/params.py", 6, "TRN271")]
    # print() is no API of the rule, `cfg.backend` is another attribute, and the test module is not read
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("comm/setup.py", 7, 17),
                                                                          ("comm/setup.py", 10, 43)]
    assert f["message"].endswith("read at comm/setup.py:7, comm/setup.py:10")
    assert list(found) == [("opts/params.py", 6, "TRN271")]


def test_a_helper_handed_on_by_two_package_levels_is_placed_at_its_calls():
    # run.py imports async_copy_to from pkg.nn, whose __init__ takes it from pkg.nn.parallel, whose __init__ takes it
    # from copying.py (semantic-segmentation-pytorch's mit_semseg.lib.nn; recall labels of blind40)
    proc = run_cli("scan", FIXTURES / "caller_places_deep", "--format", "json", "--no-cache", "--exit-zero")
    (f,) = json.loads(proc.stdout)["findings"]
    assert (f["path"], f["line"], f["column"], f["rule"]) == ("pkg/nn/parallel/copying.py", 2, 12, "TRN241")
    assert f["message"] == ".cuda() moves a tensor or module to a GPU: `cuda`; async_copy_to() called at run.py:5"
    assert [(e["path"], e["line"], e["column"]) for e in f["elsewhere"]] == [("run.py", 5, 13)]

