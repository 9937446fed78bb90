"""host-built-value: operations on tensors a function builds on the host from Python values run on the CPU."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

SHAPE = "Operation whose output shape depends on the data: `%s`"
F64 = "float64 or complex128 dtype: `%s`"
MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"


def test_host_built_values_are_guarded_and_look_alikes_stay():
    assert scan_findings(CONTEXT_FIXTURES / "host_built_value", "--show-guarded") == [
        ("attributes.py", 10, 64, "TRN242", '"cuda" device string: `cuda`', False),
        ("attributes.py", 15, 16, "TRN104", SHAPE % "torch.nonzero", True),  # self.offsets: device="cpu", pinned
        ("attributes.py", 16, 17, "TRN104", SHAPE % "nonzero", True),  # self.grid: an arange never moved
        ("attributes.py", 31, 17, "TRN104", SHAPE % "torch.nonzero", False),  # self.sent.to(device) in send()
        ("attributes.py", 32, 18, "TRN104", SHAPE % "torch.nonzero", False),  # allocated on "cuda"
        ("attributes.py", 33, 17, "TRN104", SHAPE % "torch.nonzero", False),  # assigned a parameter
        ("attributes.py", 44, 16, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`",
         False),  # an nn.Parameter moves with its module
        ("cast_on_leaving.py", 6, 63, "TRN121", F64 % "torch.float64", True),  # leaves as np.clip(...).numpy()
        ("cast_on_leaving.py", 16, 47, "TRN121", F64 % "torch.float64", True),  # returned cast to float32
        ("cast_on_leaving.py", 26, 42, "TRN121", F64 % "torch.float64", False),  # returned in float64
        ("cast_on_leaving.py", 38, 42, "TRN121", F64 % "torch.float64", False),  # a helper keeps it in a dict
        ("cast_on_leaving.py", 44, 35, "TRN121", F64 % "torch.float64", False),  # the function names a device
        ("decode.py", 9, 19, "TRN104", SHAPE % "nonzero", True),  # torch.tensor(Python tokens), then a mask of it
        ("decode.py", 16, 23, "TRN104", SHAPE % "torch.unique", True),  # arange of a parameter's size
        ("decode.py", 22, 12, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`",
         True),  # a NumPy array bridged with from_numpy
        ("decode.py", 29, 19, "TRN104", SHAPE % "nonzero", False),  # a parameter: unknown
        ("decode.py", 34, 12, "TRN104", SHAPE % "nonzero", False),  # moved to a device on the way
        ("decode.py", 39, 12, "TRN104", SHAPE % "nonzero", False),  # a 0-dim tensor meeting the input
        ("decode.py", 45, 18, "TRN104", SHAPE % "nonzero", False),  # in a forward: compiled code breaks its graph
        ("decode.py", 52, 12, "TRN104", MASK, True),  # the result goes to scikit-learn: a host array
        ("decode.py", 58, 12, "TRN104", MASK, False),  # look-alike: parameters, kept in torch
        ("default_device.py", 3, 26, "TRN242", '"cuda" device string: `cuda`', False),
        ("default_device.py", 7, 12, "TRN104", SHAPE % "nonzero", False),  # factories build on the default device
        # a test's expected value compared only with a result brought to the host (`.cpu()`) stays there
        ("expected.py", 7, 37, "TRN121", F64 % "torch.float64", True),
        ("expected.py", 14, 37, "TRN121", F64 % "torch.float64", False),  # compared with a device tensor
        ("expected.py", 21, 37, "TRN121", F64 % "torch.float64", False),  # moved to the device
        ("host_names.py", 10, 19, "TRN104", MASK, True),  # x = x[mask] after x = logits.cpu().clone()
        ("host_names.py", 17, 12, "TRN104", SHAPE % "torch.unique", True),  # as_tensor of a `.numpy()` result
        ("host_names.py", 26, 19, "TRN104", MASK, False),  # no `.cpu()` on the way
        ("host_names.py", 33, 14, "TRN104", MASK, False),  # taken back to a device before the filter
        ("host_names.py", 40, 12, "TRN191", "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`",
         False),  # narrowed from a parameter that is re-bound later: still the caller's tensor
        ("host_names.py", 49, 13, "TRN104", MASK, False),  # narrowed in a loop over enumerate(a parameter)
        ("kept.py", 5, 40, "TRN121", F64 % "torch.double", True),  # an expected value compared in place
        ("kept.py", 13, 43, "TRN121", F64 % "torch.float64", False),  # returned: the caller may move it
        ("kept.py", 20, 62, "TRN121", F64 % "torch.float64", False),  # a module buffer moves with the module
    ]


def test_registered_as_a_guard():
    assert context.get("host-built-value").effect == "guard"


def test_a_schedule_returned_to_callers_that_store_it_cast_is_host_data():
    # the callers of a schedule helper keep its float64 result only through a lambda that casts it to float32
    # (also when the helper is picked into a local name first); a lambda that stores it as is keeps the finding
    assert scan_findings(CONTEXT_FIXTURES / "host_built_schedules", "--show-guarded") == [
        ("schedules.py", 6, 51, "TRN121", F64 % "torch.float64", True),
        ("schedules.py", 11, 52, "TRN121", F64 % "torch.float64", True),
        ("schedules.py", 15, 52, "TRN121", F64 % "torch.float64", False),
        ("schedules.py", 39, 17, "TRN242", '"cuda" device string: `cuda`', False),
    ]


def test_weights_of_a_checkpoint_loaded_onto_the_cpu_are_host_tensors():
    # a position-embedding resize of weights loaded with map_location="cpu" (torch.load or the hub loader) runs on
    # the host while the checkpoint loads; loaded onto "cuda", moved to a device, or loaded where it was saved: kept
    interp = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
    found = scan_findings(CONTEXT_FIXTURES / "host_built_checkpoints", "--show-guarded")
    assert [f for f in found if f[3] == "TRN191"] == [
        ("finetune.py", 12, 11, "TRN191", interp, True),
        ("finetune.py", 20, 12, "TRN191", interp, False),
        ("finetune.py", 26, 12, "TRN191", interp, False),
        ("finetune.py", 31, 12, "TRN191", interp, False),
    ]


def test_a_scripts_top_level_statements_bind_its_host_tensors():
    # a conversion script's top level: a safetensors file read onto the CPU (its default) and an arange are host
    # tensors; a float64 value at the top level may be read by any function of the file, so it is kept
    # resize.py: sizes read from a config (unknown) and re-bound from themselves are read on many lines; each name
    # is followed once under the same assumptions, so the second look at the table still finds the checkpoint
    found = scan_findings(CONTEXT_FIXTURES / "host_built_scripts", "--show-guarded")
    assert [(f[0], f[1], f[3], f[5]) for f in found] == [
        ("convert.py", 6, "TRN191", True), ("convert.py", 8, "TRN104", True), ("convert.py", 9, "TRN121", False),
        ("resize.py", 14, "TRN191", True)]


def test_torchvision_box_ops_on_host_tensors_run_on_the_host():
    # pytorch-faster-rcnn's demo and test_net (fresh48): NMS of `torch.from_numpy(...)` boxes and scores runs on the
    # CPU; NMS of a function's tensor parameters stays reported
    assert [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_built_nms", "--show-guarded")
            if f[3] == "TRN104"] == [("demo.py", 12, "TRN104", True), ("demo.py", 18, "TRN104", False)]


def test_the_result_of_a_function_of_the_file_returning_host_tensors_is_host_data():
    # pytracking's trackers: `self.optimize_boxes(...)` returns `boxes.cpu(), iou.cpu()` on every path (one through
    # another such method), so the box filtering after it runs on the host; `predict` returns a device tensor on
    # one path: its result stays unknown
    assert [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_built_returns",
                                                            "--show-guarded") if f[3] == "TRN104"] == [
        ("tracker.py", 9, "TRN104", True), ("tracker.py", 25, "TRN104", False)]


def test_a_parameter_moved_to_the_cpu_first_is_host_data():
    # pytorch_retrieve's metrics: `device = torch.device("cpu")`, `pred = pred.to(device=device)`, then a boolean
    # mask of the moved values; a move to a device parameter stays unknown, and a move after another read of the
    # parameter still makes the re-bound name a host tensor where it is read
    mask = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
    assert scan_findings(CONTEXT_FIXTURES / "host_built_cpu_moves", "--show-guarded") == [
        ("metrics.py", 9, 12, "TRN104", mask, True),
        ("metrics.py", 15, 12, "TRN104", mask, False),
        ("metrics.py", 21, 12, "TRN104", mask, True),
        # pytorch-adapt's ist_loss: the parameter re-bound from itself keeps the caller's tensor, wherever it lives
        ("metrics.py", 27, 9, "TRN104", mask, False),
    ]


def test_predictions_collected_on_the_cpu_by_a_function_of_the_file_are_host_data():
    # TIDAL's notebooks (fresh82): `collect_predictions` appends each batch's `logits.cpu()` to an empty list and
    # returns `{"logits": torch.cat(all_logits), ...}`; the threshold sweep selecting from those values runs on the
    # host. A collector appending device tensors leaves its values unknown. So does a script's own list
    # (manifold-contrastive's notebooks, fresh84): `.detach().cpu()` copies joined by torch.cat are host data
    assert [(f[0], f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_built_collected",
                                                                  "--show-guarded") if f[3] == "TRN104"] == [
        ("evaluate.py", 33, 11, "TRN104", True), ("evaluate.py", 35, 12, "TRN104", False),
        ("evaluate.py", 47, 10, "TRN104", True), ("evaluate.py", 49, 12, "TRN104", False),
        ("evaluate.py", 57, 10, "TRN104", True)]
