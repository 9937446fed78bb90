"""check-without-placement: an availability check that only gates CUDA statistics is not a device pick."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

API = "torch.cuda device, memory, stream or RNG API: `torch.cuda.{}`"
DP = "nn.DataParallel (one process driving several GPUs): `torch.nn.DataParallel`"


def test_checks_that_place_nothing_are_guarded_device_picks_stay():
    assert scan_findings(CONTEXT_FIXTURES / "check_without_placement", "--show-guarded") == [
        ("train.py", 5, 8, "TRN243", API.format("is_available"), True),  # only adds a log column
        ("train.py", 11, 8, "TRN243", API.format("is_available"), False),  # the branch moves the model
        ("train.py", 12, 17, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", True),
        ("train.py", 17, 14, "TRN242", '"cuda" device string: `cuda`', False),  # a device pick (IfExp)
        ("train.py", 22, 12, "TRN243", API.format("is_available"), False),  # raises: the program stops
        ("train.py", 27, 8, "TRN243", API.format("is_available"), True),  # a cache fingerprint
        ("train.py", 28, 22, "TRN243", API.format("get_device_capability"), True),
        ("train.py", 31, 12, "TRN243", API.format("is_available"), False),  # a flag: its uses decide
        ("train.py", 36, 26, "TRN243", API.format("is_available"), True),  # self.sync_cuda: read nowhere
        ("train.py", 37, 25, "TRN243", API.format("is_available"), False),  # self.use_cuda is read
        ("train.py", 45, 16, "TRN243", API.format("is_available"), True),  # a local never loaded
        # train.py:50-52: only printed or logged (`print("CUDA is available:", torch.cuda.is_available())`): no
        # finding at all since session 34 (only-shown, `shown-queries`)
        ("train.py", 53, 16, "TRN243", API.format("is_available"), False),  # returned: the caller decides
        ("train.py", 59, 49, "TRN243", API.format("is_available"), True),  # self.pin_memory: host memory only
        # `if device_count() > 1: model = DataParallel(model)`: one device runs the module unwrapped (reid-strong-
        # baseline, pytorch-YOLOv4); a block that also moves the module picks a device
        ("train.py", 63, 8, "TRN243", API.format("device_count"), True),
        ("train.py", 64, 17, "TRN352", DP, True),
        ("train.py", 66, 8, "TRN243", API.format("device_count"), False),
        ("train.py", 67, 17, "TRN241", ".cuda() moves a tensor or module to a GPU: `cuda`", True),
        ("train.py", 67, 17, "TRN352", DP, True),
    ]


def test_a_module_flag_of_a_test_module_read_nowhere_is_guarded():
    # TTS test_glow_tts.py: `use_cuda = torch.cuda.is_available()` at module level, never read. No module imports a
    # test module, so the name is read nowhere; in helpers.py (importable) and with a read (on_gpu) or a name in
    # a string (`__all__`) the check stays a finding.
    assert scan_findings(CONTEXT_FIXTURES / "check_without_placement_tests", "--show-guarded") == [
        ("helpers.py", 3, 12, "TRN243", API.format("is_available"), False),
        ("test_glow.py", 3, 12, "TRN243", API.format("is_available"), True),
        # on_gpu's check (line 4) is a place of the pick that reads it (one_per_thing: a pick on a flag)
        ("test_glow.py", 8, 14, "TRN242", '"cuda" device string: `cuda`', False),
        ("test_named.py", 3, 9, "TRN243", API.format("is_available"), False),
    ]


def test_registered_as_a_guard():
    assert context.get("check-without-placement").effect == "guard"


def test_a_check_that_turns_on_model_parallelism_is_a_pick(tmp_path):
    (tmp_path / "finetune.py").write_text('''import torch


def train(model, ddp):
    if not ddp and torch.cuda.device_count() > 1:
        model.is_parallelizable = True
        model.model_parallel = True
    if torch.cuda.device_count() > 1:
        model.note = "several GPUs"
        print("several GPUs")
''')
    # with one GPU counted on Neuron (zero), the model is silently never split: the check stays; a branch that
    # only logs is guarded
    assert [(f[1], f[2], f[5]) for f in scan_findings(tmp_path, "--show-guarded")] == [
        (5, 20, False), (8, 8, True)]


def test_a_check_that_picks_the_precision_is_a_pick(tmp_path):
    (tmp_path / "serve.py").write_text('''import torch

if torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 8:
    torch_type = torch.bfloat16
else:
    torch_type = torch.float16

if torch.cuda.is_available():
    stats = torch.float32
''')
    # CogVLM: on Neuron the query answers False and float16 is silently used where bfloat16 was meant (the capability
    # query after `and` never runs there); a branch that only names float32 picks no half precision
    got = scan_findings(tmp_path, "--show-guarded")
    assert [(line, col, rule, guarded) for _p, line, col, rule, _m, guarded in got] == [
        (3, 4, "TRN243", False), (3, 34, "TRN243", True), (8, 4, "TRN243", True)]


def test_a_check_that_gates_or_switches_a_feature_off_stays(tmp_path):
    (tmp_path / "infer.py").write_text('''import torch


def build(cfg, args):
    if torch.cuda.is_available():
        assert cfg.NUM_GPUS <= 8
    else:
        assert cfg.NUM_GPUS == 0, "set NUM_GPUS: 0 to run on CPUs"
    if not torch.cuda.is_available():
        upsampler = None
    else:
        upsampler = make(args)
    if torch.cuda.is_available():
        upsampler = make(args)
    else:
        note = "slow"
    return upsampler
''')
    # SlowFast asserts NUM_GPUS == 0 without CUDA (the program stops on Neuron); GFPGAN sets its background upsampler
    # to None without CUDA (a feature silently off on Neuron); an else arm that sets something else is no switch
    got = scan_findings(tmp_path, "--show-guarded")
    assert [(line, col, guarded) for _p, line, col, _r, _m, guarded in got] == [
        (5, 8, False), (9, 12, False), (13, 8, True)]


def test_checks_whose_answer_picks_no_device_value_are_guarded():
    # smollm: Accelerator rng_types lists; a timer's CUDA events vs time.time(); PhotoMaker: a device pick only
    # compared with "mps" (the same on a CUDA and a Neuron host). A device index, a flag whose arm moves the
    # model and a pick compared with "cuda" stay.
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_picks",
                                                          "--show-guarded")]
    assert got == [
        (9, 51, "TRN243", True),  # rng_types = ["torch", "cuda", ...] if ... else [...]
        (14, 17, "TRN243", False),  # 0 if ... else -1: a device index
        (19, 34, "TRN243", True),  # self.is_cuda_available: only tested, the arms place nothing
        (23, 32, "TRN243", True),  # torch.cuda.Event in the CUDA arm (neuron-guarded)
        (30, 23, "TRN243", False),  # self.on_gpu: an arm moves the model
        (34, 13, "TRN241", True),
        (37, 4, "TRN243", True),  # device compared only with "mps"
        (38, 14, "TRN242", True),
        (50, 8, "TRN243", False),  # where == "cuda": the pick decides
    ]


def test_default_tensor_type_and_worker_count_are_picks(tmp_path):
    (tmp_path / "build.py").write_text('''import torch


def build():
    if torch.cuda.is_bf16_supported():
        torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)
    else:
        torch.set_default_tensor_type(torch.cuda.HalfTensor)


def spawn_count():
    if torch.cuda.is_available():
        workers = torch.cuda.device_count()
    else:
        workers = 1
    return workers


def report():
    if torch.cuda.is_available():
        used = torch.cuda.memory_allocated()
        print(used)
''')
    # the bf16 query picks the default precision and device, the availability check picks how many workers run
    # (one on Neuron); a branch that only reads memory statistics picks nothing
    assert [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")
            if f[3] == "TRN243" and f[1] in (5, 12, 20)] == [
        (5, 8, "TRN243", False), (12, 8, "TRN243", False), (20, 8, "TRN243", True)]


def test_a_test_adding_a_cuda_variant_to_its_devices_picks_nothing():
    # `["cpu"] + (["cuda"] if ... else [])` and `devices.append("cuda")` under the check, in a test module: the CPU
    # variant runs on Neuron. A one-device pick, an arm doing more, or the same list in a library module stay.
    assert scan_findings(CONTEXT_FIXTURES / "check_without_placement_variants", "--show-guarded") == [
        # shown.py: a count only logged, or a check gating only a dependency's version assertion, picks nothing
        ("shown.py", 12, 13, "TRN243", API.format("device_count"), True),
        ("shown.py", 18, 13, "TRN243", API.format("device_count"), False),  # also returned
        ("shown.py", 24, 12, "TRN243", API.format("is_available"), True),  # assert somelib's __version__
        ("shown.py", 30, 12, "TRN243", API.format("is_available"), False),  # assert no GPU asked for: a gate
        ("shown.py", 36, 74, "TRN243", API.format("is_available"), True),  # pin_memory=: host memory only
        ("shown.py", 40, 81, "TRN242", '"cuda" device string: `cuda`', False),  # pin_memory_device="cuda": a device
        ("shown.py", 44, 45, "TRN243", API.format("is_available"), True),  # an ONNX Runtime provider
        # a side stream or nullcontext(): the check (51:60) is guarded and joins the guarded stream's finding
        ("shown.py", 51, 12, "TRN243", API.format("stream"), True),
        ("shown.py", 52, 11, "TRN253", 'autocast or custom_fwd / custom_bwd on the "cuda" device: `torch.autocast`',
         False),
        ("shown.py", 52, 37, "TRN243", API.format("is_available"), False),  # autocast or nullcontext: a precision
        ("test_boxes.py", 5, 42, "TRN243", API.format("is_available"), True),
        ("test_boxes.py", 12, 8, "TRN243", API.format("is_available"), True),
        # a test's pick with a CPU arm: the test still runs on Neuron, on the CPU (test-cpu-fallback, policy s22)
        ("test_boxes.py", 19, 14, "TRN242", '"cuda" device string: `cuda`', True),
        ("test_boxes.py", 25, 8, "TRN243", API.format("is_available"), True),  # in a test: the arm only adds a CUDA case (policy s22)
        ("test_boxes.py", 27, 9, "TRN243", API.format("set_device"), True),
        ("variants.py", 5, 35, "TRN243", API.format("is_available"), False),  # not a test module
    ]


def test_a_query_after_a_missing_cuda_only_package_raised_is_never_asked():
    # `if not is_xformers_available(): raise` / `elif not torch.cuda.is_available(): raise`: on Neuron the package
    # test raises first. A package every host may have before it, or a plain gate of the program, keeps the check.
    assert [(f[0], f[1], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_requirement",
                                                      "--show-guarded") if f[3] == "TRN243"] == [
        ("attention.py", 16, True), ("attention.py", 26, False), ("attention.py", 37, False)]


def test_a_statistic_or_zero_and_data_parallel_in_a_conjunction_pick_nothing():
    # YOLOv3's progress line (`memory_reserved() / 1e9 if torch.cuda.is_available() else 0`) and its `if cuda and
    # RANK == -1 and torch.cuda.device_count() > 1: model = DataParallel(model)`. A current device index, a string
    # in the other arm, or a block that also moves the model keep the check.
    # describe.py (session 56): the GPU's name or RNG state (other arm None or a string) and its total memory (other
    # arm 0) describe the GPU for metadata and checkpoints; `current_device()` against "cpu" picks
    assert [(f[0], f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_statistics",
                                                                  "--show-guarded")
            if f[3] == "TRN243" and f[0] == "describe.py"] == [
        ("describe.py", 5, 12, "TRN243", True), ("describe.py", 10, 13, "TRN243", True),
        ("describe.py", 15, 13, "TRN243", True), ("describe.py", 21, 12, "TRN243", True),
        ("describe.py", 21, 43, "TRN243", False)]
    assert [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_statistics",
                                                            "--show-guarded") if f[3] == "TRN243" and f[0] == "train.py"] == [
        (6, 32, "TRN243", True),
        (9, 29, "TRN243", True),  # the statistics of lines 9-10 and their checks: one guarded finding
        (16, 23, "TRN243", False),  # the block also moves the model
        (18, 13, "TRN243", True),  # current_device (and line 19's statistic) guarded by the check ...
        (18, 44, "TRN243", False)]  # ... which picks an index; line 19's check ("n/a" arm) is its place


def test_a_query_picking_only_data_loader_host_options_picks_nothing(tmp_path):
    (tmp_path / "mnist.py").write_text('''import torch


def loaders(dataset):
    kwargs = {"num_workers": 1, "pin_memory": True} if torch.cuda.is_available() else {}
    options = dict(num_workers=4) if torch.cuda.is_available() else dict(num_workers=0)
    placed = {"num_workers": 1, "device": "cuda"} if torch.cuda.is_available() else {}
    return torch.utils.data.DataLoader(dataset, **kwargs), options, placed
''')
    # worker processes and page-locked host memory are host-side loading options: nothing is placed; a dict that
    # also holds a device is a pick
    import json

    from conftest import run_cli
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["line"], f["rule"], f["guarded"], [(o["line"], o["rule"]) for o in f.get("occurrences", ())])
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [(5, "TRN243", True, [(6, "TRN243")]),  # two host-option picks of one function: one item
                   (7, "TRN242", False, [(7, "TRN243")])]  # the "cuda" device of the third, its query a place


def test_a_flag_on_an_object_the_script_keeps_to_itself(tmp_path):
    # DeepRobust's examples: args.cuda is shown and only tests the CUDA seed; the device is picked on its own line.
    # Handing args on (another module may read args.cuda) or an arm that moves something keeps the check.
    (tmp_path / "seed_only.py").write_text('''import argparse
import torch

parser = argparse.ArgumentParser()
args = parser.parse_args()
args.cuda = torch.cuda.is_available()
print('cuda: %s' % args.cuda)
torch.manual_seed(args.seed)
if args.cuda:
    torch.cuda.manual_seed(args.seed)
''')
    (tmp_path / "handed_on.py").write_text('''import argparse
import torch
from trainer import train

args = argparse.ArgumentParser().parse_args()
args.cuda = torch.cuda.is_available()
if args.cuda:
    torch.cuda.manual_seed(args.seed)
train(args)
''')
    (tmp_path / "moves.py").write_text('''import argparse
import torch

args = argparse.ArgumentParser().parse_args()
args.cuda = torch.cuda.is_available()
model = torch.nn.Linear(2, 2)
if args.cuda:
    model.cuda()
''')
    got = [(p, line, r, guarded) for p, line, _c, r, _m, guarded in scan_findings(tmp_path, "--show-guarded")
           if r == "TRN243" and line in (5, 6)]
    assert got == [("handed_on.py", 6, "TRN243", False), ("moves.py", 5, "TRN243", False),
                   ("seed_only.py", 6, "TRN243", True)]


def test_a_check_choosing_an_optional_cuda_kernel_over_the_plain_module_returned_after_it_picks_nothing(tmp_path):
    (tmp_path / "layers.py").write_text('''import torch

try:
    from apex.normalization import FusedLayerNorm as FusedNorm
    has_fused = True
except ImportError:
    has_fused = False


def LayerNorm(shape, eps=1e-5, export=False):
    if not export and torch.cuda.is_available():
        try:
            from apex.normalization import FusedLayerNorm
            return FusedLayerNorm(shape, eps)
        except ImportError:
            pass
    return torch.nn.LayerNorm(shape, eps)


def FairseqNorm(shape, export=False):
    if not export and torch.cuda.is_available() and has_fused:
        return FusedNorm(shape)
    return torch.nn.LayerNorm(shape)


def Picked(shape):
    if torch.cuda.is_available():
        return FusedNorm(shape).cuda()
    return torch.nn.LayerNorm(shape)


def NoFallback(shape):
    if torch.cuda.is_available():
        return FusedNorm(shape)
    raise RuntimeError("needs CUDA")
''')
    # DiffSinger's (fairseq's) LayerNorm: the check only chooses apex's fused kernel over the plain module returned
    # after it (guarded); a returned kernel moved to CUDA, or no fallback after the if, stays a gate
    got = scan_findings(tmp_path, "--show-guarded")
    assert [(line, col, guarded) for _p, line, col, rule, _m, guarded in got if rule == "TRN243"] == [
        (11, 23, True), (21, 23, True), (27, 8, False), (33, 8, False)]


def test_a_check_that_only_maps_a_checkpoint_is_no_pick():
    # fresh59 class (torchreid's `load_checkpoint` copied into AlphaPose's trackers, BLINK's loader): the query only
    # decides torch.load's map_location, the host on Neuron. A picked value also used to move the checkpoint
    # (line 19), and a CUDA arm mapping onto CUDA beside a plain load (line 25), stay picks. (Line 14's load without
    # map_location is guarded by the check: only a CUDA machine takes it.)
    assert [f for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_load", "--show-guarded",
                                     "--no-config") if f[3] in ("TRN243", "TRN242")] == [
        ("checkpoint.py", 5, 28, "TRN243", API.format("is_available"), True),
        ("checkpoint.py", 11, 19, "TRN243", API.format("is_available"), True),
        ("checkpoint.py", 19, 22, "TRN243", API.format("is_available"), False),
        ("checkpoint.py", 25, 8, "TRN243", API.format("is_available"), False),
        ("checkpoint.py", 26, 47, "TRN242", '"cuda" device string: `cuda`', True),
    ]


def test_a_local_flag_that_only_warms_the_device_up_picks_nothing(tmp_path):
    (tmp_path / "ppo.py").write_text('''import torch


def main(cfg):
    CUDA_AVAILABLE = torch.cuda.is_available()
    if CUDA_AVAILABLE:
        v = torch.ones(1, device="cuda:0")
    run(cfg)


def place(model):
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        w = torch.zeros(1).cuda()
        model = model.cuda()
    return model, w
''')
    # salina's examples (fresh65): the flag gates a tensor nothing reads, made to start CUDA; on Neuron the arm is
    # skipped and nothing stays behind on the CPU. In place() the arm moves the model and `w` is returned: a pick
    assert [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")] == [
        (5, 22, "TRN243", True), (7, 34, "TRN242", True), (12, 16, "TRN243", False), (14, 13, "TRN241", True)]


def test_a_check_choosing_an_optimizer_kernel_or_pinned_memory_is_guarded(tmp_path):
    (tmp_path / "build.py").write_text('''import torch
from torch.utils.data import DataLoader


def build(model, ds):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, fused=torch.cuda.is_available())
    sgd = torch.optim.SGD(model.parameters(), lr=0.1, foreach=torch.cuda.is_available())
    loader = DataLoader(ds, batch_size=4, pin_memory=torch.cuda.is_available())
    return opt, sgd, loader
''')
    # KempnerForge's Muon: `fused=False` on Neuron is the plain implementation the port wants
    got = scan_findings(tmp_path, "--show-guarded")
    # (the three checks are one finding of the file, its first place kept; all guarded)
    assert [(line, rule, guarded) for _p, line, _c, rule, _m, guarded in got] == [(6, "TRN243", True)]


def test_a_check_whose_arm_builds_cuda_tensor_types_picks_where_tensors_live(tmp_path):
    # pytorch_models' multimodal fusion (blind77): `if torch.cuda.is_available(): torch.cuda.FloatTensor(n, 1)` / `else:
    # torch.FloatTensor(n, 1)`, concatenated with a layer's output: on Neuron the host arm's ones meet device tensors.
    # A check that only logs a CUDA tensor type's name places nothing.
    (tmp_path / "fusion.py").write_text('''import torch


def fuse(o1):
    if torch.cuda.is_available():
        o1 = torch.cat((o1, torch.cuda.FloatTensor(o1.shape[0], 1).fill_(1)), 1)
    else:
        o1 = torch.cat((o1, torch.FloatTensor(o1.shape[0], 1).fill_(1)), 1)
    return o1


def cast(x):
    if torch.cuda.is_available():
        x = x.type(torch.cuda.LongTensor)
    return x


def log():
    if torch.cuda.is_available():
        print("tensor type", "torch.cuda.FloatTensor")
''')
    got = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[4] == API.format("is_available")]
    assert got == [(5, "TRN243", False), (13, "TRN243", False), (19, "TRN243", True)]


def test_a_check_filling_a_sentence_of_an_f_string_picks_nothing():
    # kgcnn-torch's `save_results` (fresh79): `f"device: {get_device_name() if is_available() else 'cpu'}"` is a line
    # of a results summary; an f-string of no words (`f"{'cuda' if ... else 'cpu'}:{rank}"`) builds a device name
    # line 6: get_device_name is only reached with CUDA, and its check (6:61, a place of the same guarded finding)
    # only fills a sentence; line 12's check picks the device
    assert [(f[1], f[2], f[3], f[5]) for f in scan_findings(CONTEXT_FIXTURES / "check_without_placement_text",
                                                            "--show-guarded")] == [
        (6, 29, "TRN243", True),
        (12, 25, "TRN243", False),
    ]


def test_a_notebook_flag_only_shown_and_tested_around_shown_values_picks_nothing(tmp_path):
    # speech-experiments' environment-check notebook (fresh83): `cuda_available = torch.cuda.is_available()` at the
    # top level of a cell, printed and tested only to print the GPU's name. A notebook is never imported, so its
    # top-level names are the cells' locals; a flag that also picks the device stays
    import json

    from conftest import run_cli

    def cell(src):
        return {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                "source": src.splitlines(keepends=True)}

    (tmp_path / "check.ipynb").write_text(json.dumps({"cells": [
        cell("import torch\ncuda_available = torch.cuda.is_available()\nprint(f'CUDA available: {cuda_available}')\n"
             "if cuda_available:\n    print(torch.cuda.get_device_name(0))\n"),
        cell("use_gpu = torch.cuda.is_available()\nif use_gpu:\n    device = 'cuda'\nelse:\n    device = 'cpu'\n"
             "x = torch.ones(2).to(device)\n")], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded", "--select", "TRN243")
    got = [(f["cell"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(0, 2, "check-without-placement"), (0, 5, "neuron-guarded"), (1, 1, "")]
