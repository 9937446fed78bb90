"""host-data-code: dataset readers, loaders and collate functions prepare data on the host, not the device."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

UNIQUE = "Operation whose output shape depends on the data: `torch.unique`"
INTERP = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"


def test_host_data_preparation_is_guarded_device_code_is_reported():
    assert scan_findings(CONTEXT_FIXTURES / "host_data_code", "--show-guarded") == [
        # a data_provider/ module (a transform of the loader) that moves nothing to a device
        ("shop/data_provider/resize.py", 6, 16, "TRN191", INTERP, True),
        # datasets/ module that moves its result to a device: may run there, stays a finding
        ("shop/datasets/features.py", 5, 11, "TRN104", UNIQUE, False),
        # datasets/ module that only reads files into CPU tensors
        ("shop/datasets/reviews.py", 7, 13, "TRN104", UNIQUE, True),
        ("shop/datasets/reviews.py", 8, 28, "TRN121", "float64 or complex128 dtype: `torch.float64`", True),
        ("shop/datasets/reviews.py", 14, 12, "TRN104", "Indexing with a boolean mask: the result has one row per "
         "True value, a size known only at run time", True),  # boolean-mask indexing (subscript kind)
        # a CUDA call is not a data-representation category: reported wherever it is
        ("shop/datasets/warm.py", 5, 12, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", False),
        ("shop/model.py", 10, 16, "TRN104", UNIQUE, True),  # Dataset.__getitem__
        ("shop/model.py", 17, 12, "TRN151", "NestedTensor (torch.nested, layout=torch.jagged): `torch.nested`",
         True),  # a collate function
        ("shop/model.py", 21, 12, "TRN104", UNIQUE, False),  # model code in the same file
        # the __getitem__ of a tensor type (it defines __add__): indexes device data, no dataset's sample
        ("shop/sparse.py", 13, 19, "TRN104", "Operation whose output shape depends on the data: `nonzero`", False),
        # called only from a checkpoint filter: weights reshaped once while loading
        ("shop/vit.py", 5, 12, "TRN191", INTERP, True),
        ("shop/vit.py", 18, 16, "TRN191", INTERP, True),  # called only from a state-dict load hook
        ("shop/vit.py", 21, 16, "TRN191", INTERP, False),  # forward: device code
    ]


def test_guarded_host_code_is_left_out_of_the_default_report():
    found = scan_findings(CONTEXT_FIXTURES / "host_data_code")
    assert [(f[0], f[1]) for f in found] == [
        ("shop/datasets/features.py", 5), ("shop/datasets/warm.py", 5), ("shop/model.py", 21), ("shop/sparse.py", 13),
        ("shop/vit.py", 21)]


def test_file_name_words_input_devices_and_host_functions():
    f64 = "float64 or complex128 dtype: `torch.float64`"
    mask = ("Indexing with a boolean mask: the result has one row per True value, a size known only at run time")
    assert scan_findings(CONTEXT_FIXTURES / "host_data_code_words", "--show-guarded") == [
        # takes checkpoint weights: reshapes them while they load, whoever calls it (another module)
        ("lab/models/vit.py", 7, 12, "TRN191", INTERP, True),
        ("lab/models/vit.py", 11, 12, "TRN191", INTERP, True),  # pos_embed_checkpoint
        ("lab/models/vit.py", 19, 12, "TRN191", INTERP, True),  # called only from _load_weights
        ("lab/models/vit.py", 24, 16, "TRN191", INTERP, False),  # use_checkpoint is a switch of the forward
        ("lab/models/vit.py", 28, 12, "TRN191", INTERP, False),  # gradient_checkpointing too
        ("lab/models/vit.py", 32, 12, "TRN191", INTERP, True),  # checkpoint_model: MAE's interpolate_pos_embed
        # a transform that follows its input's device moves nothing to a device
        ("lab/transforms/blur.py", 5, 70, "TRN121", f64, True),
        ("lab/transforms/blur.py", 6, 12, "TRN104", mask, True),
        # `targets.device` follows a tensor: "arg" inside a word is not `args`
        ("lab/transforms/boxes.py", 6, 82, "TRN121", f64, True),
        ("lab/transforms/boxes.py", 7, 12, "TRN191", INTERP, True),
        # self.device is a device the code chose
        ("lab/transforms/gpu_blur.py", 6, 75, "TRN121", f64, False),
        ("lab/transforms/gpu_blur.py", 7, 16, "TRN104", mask, False),
        # a collate function naming no device, next to a batch-moving helper of the same module
        ("lab/utils/batching.py", 5, 38, "TRN121", f64, True),
        ("lab/utils/batching.py", 9, 65, "TRN121", f64, False),  # follows its items' device: they may be there
        ("lab/utils/batching.py", 13, 38, "TRN121", f64, False),  # takes a device
        ("lab/utils/sample_model.py", 5, 38, "TRN121", f64, False),  # `sample` is not `sampler`
        ("lab/utils/scheduled_sampler.py", 5, 38, "TRN121", f64, True),  # a file name's word
    ]


def test_registered_as_a_guard():
    assert context.get("host-data-code").effect == "guard"


def test_a_data_directory_counts_by_its_name_only():
    # `host-data-dirs-only`: a data/ package holds dataset code (egnn's qm9/data/utils.py, fresh39); `data` as a word
    # of a file name does not say as much (data_parallel.py, models/data.py stay reported)
    assert [(f[0], f[1], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_data_dirs_only", "--show-guarded")] == [
        ("qm9/data/utils.py", 5, True),
        ("qm9/data_parallel.py", 5, False),
        ("qm9/models/data.py", 5, False),
    ]


def test_a_logger_or_plotting_module_is_host_output_for_dynamic_shapes():
    # `host-output-dirs`: YOLOv3's Comet logger and plots.py (fresh48); a drawing module that moves its tensors to a
    # device, and model code, stay reported
    assert [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_output_dirs", "--show-guarded")] == [
        ("models/head.py", 5, "TRN104", False),
        ("utils/loggers/comet/__init__.py", 5, "TRN104", True),
        ("utils/loggers/comet/__init__.py", 6, "TRN104", True),
        ("utils/plots.py", 5, "TRN104", True),
        ("utils/plots.py", 6, "TRN104", True),
        ("utils/vis_tools.py", 7, "TRN104", False),
    ]


def test_a_detectors_box_samplers_are_not_data_samplers():
    # `host-data-dirs-not-under`: mmdet's core/bbox/samplers/ pick positive boxes on the device (PytorchInsight's
    # copy, blind55); a dataset's samplers/ folder still holds host code
    got = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_data_not_under", "--show-guarded")]
    assert got == [("mmdet/core/bbox/samplers/pseudo_sampler.py", 6, "TRN104", False),
                   ("mmdet/datasets/samplers/group_sampler.py", 6, "TRN104", True)]


def test_a_device_parameter_every_call_fills_with_an_inputs_device():
    # torchvision's functional_tensor copied into detectron2 forks: `_perspective_grid(..., device=img.device)` is
    # no move; the same helper called with "cuda" is one, and the module is not host code
    got = [(f[0], f[1], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "host_data_device_param", "--show-guarded")
           if f[3] == "TRN104"]
    assert got == [("processors/functional.py", 10, "TRN104", False), ("transforms/functional.py", 10, "TRN104", True)]
