"""Project-wide link step: values, wrappers, re-exports and aliases followed across modules."""
import json
import shutil
import sqlite3

from conftest import FIXTURES, run_cli
from conftest import scan_findings as _scan_findings

ROOT = FIXTURES / "project"
# TRN114 (torch.compile naming no backend) is reported at every such call, wrappers' callers included; these
# fixtures are about the values the link step follows, so it is left out here (tests/test_catalogue.py and the
# rule's examples pin it).
NOT_HERE = {"TRN114"}


def scan_findings(path, *args):
    return [f for f in _scan_findings(path, *args) if f[3] not in NOT_HERE]
INTERP = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"
NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group`"


def test_wrapper_in_another_module_is_reported_where_the_value_enters():
    assert scan_findings(ROOT / "wrapper") == [
        ("models/head.py", 6, 13, "TRN191",
         f"{INTERP} (via models/head.py:6 resize(mode='bilinear') → models/ops.py:5 F.interpolate)", False),
        # positional argument bound to the `mode` parameter; the call without one keeps the default
        ("models/head.py", 9, 16, "TRN191",
         f"{INTERP} (via models/head.py:9 resize('bicubic') → models/ops.py:5 F.interpolate)", False),
        # the per-file finding at the wrapper's call also names the default it comes from
        ("models/ops.py", 9, 12, "TRN191", f"{INTERP} (`mode` defaults to it at line 8)", False)]
    # smooth()'s call already reports "bilinear" (its default), so the values reaching that call from head.py are
    # places of that one finding (project/report.py fold_values_into_calls), not findings of their own: the
    # explicit smooth(mode="bilinear") (column 13) and smooth(x, size) relying on the default (column 82, found by
    # trnready/project/callers.py, step 3); "nearest" is nothing
    proc = run_cli("scan", ROOT / "wrapper", "--format", "json", "--no-cache", "--exit-zero")
    at_call = [f for f in json.loads(proc.stdout)["findings"] if (f["path"], f["line"]) == ("models/ops.py", 9)]
    assert [(p["path"], p["line"], p["column"], p["rule"]) for p in at_call[0]["elsewhere"]] == [
        ("models/head.py", 8, 13, "TRN191"), ("models/head.py", 8, 82, "TRN191")]


def test_default_forwarded_through_another_function_is_reported_at_the_default():
    assert scan_findings(ROOT / "defaults") == [
        # init_dist(backend="nccl") -> _init_pytorch(backend) -> init_process_group(backend=backend);
        # "gloo" forwarded the same way and a "nccl" default only printed: nothing
        # a wrapper of a wrapper: the default is reported, and so is the call in another module relying on it
        ("launch/resize.py", 4, 29, "TRN191",
         f"{INTERP} (via launch/resize.py:4 rescale(mode='bilinear') → launch/resize.py:5 resize → "
         "launch/resize.py:9 F.interpolate)", False),
        ("launch/use.py", 6, 12, "TRN191",
         f"{INTERP} (via launch/use.py:6 rescale() → launch/resize.py:4 rescale(mode='bilinear') → "
         "launch/resize.py:5 resize → launch/resize.py:9 F.interpolate)", False),
        ("launch/utils.py", 5, 33, "TRN271",
         f"{NCCL} (via launch/utils.py:5 init_dist(backend='nccl') → launch/utils.py:7 _init_pytorch → "
         "launch/utils.py:19 dist.init_process_group)", False),
        # a method's default used in the same method: reported at the call, the default named and
        # listed as an occurrence; mode="default" is nothing to change
        ("launch/utils.py", 24, 24, "TRN263",
         'torch.compile mode="reduce-overhead" (CUDA graphs): `torch.compile` (`mode` defaults to it at line 23)',
         False),
        ("launch/utils.py", 24, 24, "TRN701",
         "torch.compile without a shared NEFF cache (TORCH_NEURONX_NEFF_CACHE_DIR): `torch.compile` (2 uses in 1 file, "
         "first here); TORCH_NEURONX_NEFF_CACHE_DIR appears in no scanned file", False)]
    proc = run_cli("scan", ROOT / "defaults", "--format", "json", "--no-cache")
    occ = [f.get("occurrences") for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN263"]
    assert occ == [[{"line": 23, "column": 28, "rule": "TRN263"}]]


def test_class_attribute_and_dataclass_field_read_through_an_instance():
    assert scan_findings(ROOT / "instance_attr") == [
        # reported where the value is defined; DeviceCPU's "gloo" is nothing to change, and
        # `opts.mode` in a module that imports no module defining `mode` is not looked up
        ("app/devices.py", 2, 5, "TRN271",
         f"{NCCL} (via app/devices.py:2 DeviceGPU.dist_backend = 'nccl' → "
         "app/dist.py:7 dist.init_process_group(device_obj.dist_backend))", False),
        ("app/pipeline.py", 9, 5, "TRN111",
         "torch.compile with a backend other than neuron: `compile` (via app/pipeline.py:9 "
         "CompileConfig.backend = 'inductor' → app/pipeline.py:19 self.model.compile(backend=cc.backend))", False)]


def test_module_that_stores_a_parameter_on_self_is_followed_from_its_construction():
    assert scan_findings(ROOT / "stored_param") == [
        # Interpolate(mode="bilinear") keeps mode on self and forward passes it to interpolate through
        # self.interp; mode="nearest" is fine; Upsample sets self.mode twice (no single value)
        ("head.py", 29, 19, "TRN191",
         f"{INTERP} (via head.py:29 Interpolate(scale_factor=2, mode='bilinear', align_corners=True) → "
         "head.py:13 self.interp)", False)]


def test_a_library_subclass_hands_its_parameters_to_the_base_it_constructs():
    # `super().__init__(mode=mode)` of an nn.Upsample subclass is the construction of nn.Upsample: the caller passing
    # mode="bilinear" is reported; the subclass's nearest default and a subclass fixing its own mode are not
    assert scan_findings(ROOT / "library_subclass") == [
        ("head.py", 10, 19, "TRN191",
         "Bilinear or bicubic interpolation: `torch.nn.Upsample` (via head.py:10 Resize(scale_factor=8, "
         "mode='bilinear', align_corners=True) → layers.py:6 nn.Upsample)", False)]


def test_imported_constant_and_module_attribute():
    assert scan_findings(ROOT / "imported_const") == [
        ("trainer/launch.py", 8, 5, "TRN271",
         f"{NCCL} (via trainer/launch.py:8 dist.init_process_group(backend=DIST_BACKEND) → "
         "trainer/config.py:1 DIST_BACKEND = 'nccl')", False),
        ("trainer/launch.py", 10, 5, "TRN271",
         f"{NCCL} (via trainer/launch.py:10 dist.init_process_group(config.DIST_BACKEND) → "
         "trainer/config.py:1 DIST_BACKEND = 'nccl')", False)]


def test_class_attribute_of_a_top_level_module():
    assert scan_findings(ROOT / "class_attr") == [
        ("run.py", 6, 5, "TRN271",
         f"{NCCL} (via run.py:6 init_process_group(backend=TrainConfig.dist_backend) → "
         "settings.py:2 TrainConfig.dist_backend = 'nccl')", False)]


def test_reexport_through_init_in_a_src_layout():
    assert scan_findings(ROOT / "reexport") == [
        ("app/train.py", 5, 12, "TRN252",
         "torch.amp.GradScaler on the CUDA device (cuda given, or left to its default): "
         "`torch.distributed.fsdp.sharded_grad_scaler.ShardedGradScaler` (via app/train.py:5 ShardedGradScaler() → "
         "src/mylib/fsdp/__init__.py from torch.distributed.fsdp.sharded_grad_scaler import ShardedGradScaler)",
         False)]


def test_project_aliases_by_name_and_by_attribute():
    assert scan_findings(ROOT / "alias") == [
        # a name flagged on its own is reported where it is aliased, not again at each call
        ("mylib/__init__.py", 4, 14, "TRN251", "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`", False),
        ("train.py", 6, 9, "TRN191",
         f"{INTERP} (via train.py:6 mylib.upsample(scale_factor=2, mode='bilinear') → "
         "mylib/__init__.py:5 upsample = F.interpolate)", False),
        ("train.py", 7, 9, "TRN191",
         f"{INTERP} (via train.py:7 mylib.resize(scale_factor=2, mode='bicubic') → "
         "mylib/patch.py:4 mylib.resize = torch.nn.functional.interpolate)", False)]


def test_cycle_between_modules_ends_the_chain():
    assert scan_findings(ROOT / "cycle") == [
        ("a.py", 9, 12, "TRN271", f"{NCCL} (via a.py:9 f('nccl') → a.py:5 g → b.py:9 dist.init_process_group)",
         False)]


def test_unresolvable_values_are_never_guessed():
    # a parameter, a missing module, a relative import outside a package, a name assigned twice and
    # a conditional value: none has one literal the link step could know
    assert scan_findings(ROOT / "unresolvable") == []


def _messages(path, cache):
    proc = run_cli("scan", path, "--format", "json", "--cache-dir", cache)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["message"]) for f in json.loads(proc.stdout)["findings"]]


def test_warm_rescan_links_from_cached_summaries_and_follows_an_edit(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "imported_const", proj)
    cache = tmp_path / "cache"
    cold = _messages(proj, cache)
    assert len(cold) == 2 and _messages(proj, cache) == cold
    # only the constant's module changes: the calls that use it are linked again with the new value
    (proj / "trainer" / "config.py").write_text('DIST_BACKEND = "gloo"\nGLOO = "nccl"\n')
    assert _messages(proj, cache) == [
        ("trainer/launch.py", 9, f"{NCCL} (via trainer/launch.py:9 dist.init_process_group(backend=GLOO) → "
                                 "trainer/config.py:2 GLOO = 'nccl')")]


def test_cached_summary_of_the_wrong_shape_is_a_miss(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "wrapper", proj)
    cache = tmp_path / "cache"
    cold = _messages(proj, cache)
    db = sqlite3.connect(str(next(cache.glob("results-v*.sqlite"))))
    with db:
        for key, data in db.execute("SELECT key, data FROM results").fetchall():
            entry = json.loads(data)
            if isinstance(entry, dict) and entry.get("summary"):
                entry["summary"]["funcs"] = {"resize": "not a list"}
                db.execute("UPDATE results SET data = ? WHERE key = ?", (json.dumps(entry), key))
    db.close()
    assert _messages(proj, cache) == cold


def test_a_suppression_at_the_call_silences_the_linked_finding(cli):
    proc = cli("scan", ROOT / "suppressed", "--format", "json", "--no-cache")
    assert proc.returncode == 1, proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["suppressed"]) for f in json.loads(proc.stdout)["findings"]]
    # no TRN902 "suppresses nothing" for the directive: it silences the linked finding
    assert got == [("head.py", 5, 9, "TRN191", True), ("head.py", 6, 12, "TRN191", False)]


def test_star_reexport_and_a_wrapper_of_a_wrapper():
    assert scan_findings(ROOT / "star") == [
        ("vision/jpeg.py", 5, 9, "TRN191",
         f"{INTERP} (via vision/jpeg.py:5 rescale(2, interpolation='bilinear') → vision/transform/resize.py:11 resize"
         " → vision/transform/resize.py:7 F.interpolate)", False),
        ("vision/jpeg.py", 6, 9, "TRN191",
         f"{INTERP} (via vision/jpeg.py:6 resize((8, 8), 'bicubic') → vision/transform/resize.py:7 F.interpolate)",
         False)]


def test_config_component_naming_a_project_reexport_of_a_library_class():
    torchao = "TorchAO (quantization and float8 training): `torchao.quantization.qat.Int8DynActInt4WeightQATQuantizer`"
    via = "mylib/training/quantization.py from torchao.quantization.qat import Int8DynActInt4WeightQATQuantizer"
    assert scan_findings(ROOT / "config_component") == [
        # the project's own class and function named by a component: nothing
        ("configs/qat.yaml", 4, 16, "TRN201",
         f"{torchao} (via configs/qat.yaml:4 mylib.training.quantization.Int8DynActInt4WeightQATQuantizer → {via})",
         False),
        ("configs/qat.yaml", 9, 16, "TRN201",
         f"{torchao} (via configs/qat.yaml:9 mylib.training.Int8DynActInt4WeightQATQuantizer → {via})", False),
        ("mylib/training/quantization.py", 1, 1, "TRN201",
         "TorchAO (quantization and float8 training): `torchao.quantization.qat`", False)]


def test_warm_rescan_follows_a_class_attribute_edited_in_an_imported_module(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "instance_attr", proj)
    # (the device classes are named somewhere, as a registry would: a class nothing names is never-referenced)
    (proj / "app" / "registry.py").write_text("from app.devices import DeviceGPU\n\nKNOWN = [DeviceGPU]\n")
    cache = tmp_path / "cache"
    cold = _messages(proj, cache)
    assert ("app/devices.py", 2) in [(p, n) for p, n, _ in cold]
    # another module of the imported package gains a class with the attribute: dist.py, which reads
    # device_obj.dist_backend, is linked again although it never consulted that module before
    (proj / "app" / "other_settings.py").write_text('class Resample:\n    mode = "bilinear"\n\n\n'
                                                    'class DeviceTPU:\n    dist_backend = "nccl"\n\n\n'
                                                    'KNOWN = [DeviceTPU]\n')
    assert [(p, n) for p, n, _ in _messages(proj, cache)] == [
        ("app/devices.py", 2), ("app/other_settings.py", 6), ("app/pipeline.py", 9)]


def test_a_method_called_through_self_is_followed_within_its_class():
    assert scan_findings(ROOT / "methods") == [
        # "nearest", no argument, and a class without such a method: nothing
        ("up.py", 7, 16, "TRN191", f"{INTERP} (via up.py:7 Up._resize(mode='bilinear') → up.py:16 F.interpolate)",
         False)]


def test_partial_of_a_project_wrapper_is_followed_into_it():
    assert scan_findings(ROOT / "partial_wrapper") == [
        # the partial that fixes mode="nearest" is fine
        ("head.py", 5, 6, "TRN191",
         f"{INTERP} (via head.py:5 functools.partial(resize, mode='bilinear') → ops.py:5 F.interpolate)", False)]


def test_keywords_collected_by_a_wrappers_kwargs_reach_the_library_call():
    assert scan_findings(ROOT / "kwargs") == [
        ("app/ops.py", 6, 12, "TRN701",
         "torch.compile without a shared NEFF cache (TORCH_NEURONX_NEFF_CACHE_DIR): `torch.compile` (1 use in 1 file, "
         "first here); TORCH_NEURONX_NEFF_CACHE_DIR appears in no scanned file", False),
        # compile_model(fullgraph=False), upsample(mode="nearest") and a **fields wrapper that only prints
        # its keywords: nothing
        ("app/train.py", 5, 12, "TRN112", "torch.compile mode other than default: `torch.compile` (via app/train.py:5 "
         "compile_model(mode='max-autotune') → app/ops.py:6 torch.compile)", False),
        ("app/train.py", 7, 11, "TRN191", f"{INTERP} (via app/train.py:7 upsample(64, mode='bicubic', "
         "align_corners=False) → app/ops.py:10 F.interpolate)", False)]


def test_a_device_handed_to_a_wrapper_that_moves_or_allocates_with_it_is_reported_at_the_call():
    # `.to(device)` and a `device=` keyword in the wrapper are device sinks like a catalogue API's argument;
    # "cpu" (and a keyword "cpu") passed the same way are not findings
    cuda = '"cuda" device string: `{}` (via pkg/train.py:{} → pkg/optim.py:{})'
    assert [f for f in scan_findings(ROOT / "device_sinks") if f[3] == "TRN242"] == [
        ("pkg/train.py", 5, 5, "TRN242", cuda.format("cuda", "5 state_dict_to_device('cuda')", "8 tensor.to"), False),
        ("pkg/train.py", 7, 11, "TRN242", cuda.format("cuda:0", "7 zeros_on('cuda:0')", "13 torch.zeros"), False),
    ]


def test_default_an_init_keeps_on_self_is_a_place_to_change():
    findings = scan_findings(ROOT / "stored_default")
    assert findings == [
        # a library call in a method reading self.mode: reported there, the default named and listed
        ("vae/layers.py", 15, 16, "TRN191", f"{INTERP} (`mode` defaults to it at line 10)", False),
        # through a project wrapper: reported at the default, which every construction without `mode` runs with
        ("vae/layers.py", 19, 29, "TRN191",
         f"{INTERP} (via vae/layers.py:19 UpSampleLayer(mode='bicubic') → vae/layers.py:25 resize → "
         "vae/ops.py:5 F.interpolate)", False),
        # partial(F.interpolate, mode=method) in __init__ itself: the default is noted at the partial
        ("vae/layers.py", 31, 29, "TRN191", f"{INTERP} (`method` defaults to it at line 29)", False)]
    # NearestUp ("nearest") and Logged (kept but never passed to a call): nothing
    proc = run_cli("scan", ROOT / "stored_default", "--format", "json", "--no-cache")
    occ = {f["line"]: f.get("occurrences") for f in json.loads(proc.stdout)["findings"]}
    assert occ[15] == [{"line": 10, "column": 47, "rule": "TRN191"}]
    assert occ[31] == [{"line": 29, "column": 43, "rule": "TRN191"}]


def test_default_reaching_a_call_through_a_conditional_arm_is_a_place_to_change():
    # `mixed_precision=mixed_precision_type if amp else "no"`: the parameter's default is one arm of the value the
    # call passes, so the default is named and listed as an occurrence of the finding at the call
    amp = "float16 mixed precision switched on by a training setting or launch flag: `accelerate.Accelerator` (`mixed_precision` may be " \
          "'fp16' or 'no')"
    assert scan_findings(ROOT / "conditional_default") == [
        ("trainers/amp.py", 7, 28, "TRN254", f"{amp} (`mixed_precision_type` defaults to it at line 5)", False),
        # BfloatTrainer (a bf16 default behind the same switch): nothing; ChosenTrainer writes fp16 in the call
        # itself, which is the place to change: no default to name
        ("trainers/amp.py", 22, 28, "TRN254", amp, False),
        # a nested conditional: the default is an arm of the inner one; downsample's "nearest" default: nothing
        ("trainers/resize.py", 6, 12, "TRN191",
         f"{INTERP} (`mode` may be 'bilinear' or 'nearest') (`method` defaults to it at line 4)", False)]
    proc = run_cli("scan", ROOT / "conditional_default", "--format", "json", "--no-cache")
    occ = {(f["path"], f["line"]): f.get("occurrences") for f in json.loads(proc.stdout)["findings"]}
    assert occ[("trainers/amp.py", 7)] == [{"line": 5, "column": 63, "rule": "TRN254"}]
    assert occ[("trainers/amp.py", 22)] is None
    assert occ[("trainers/resize.py", 6)] == [{"line": 4, "column": 44, "rule": "TRN191"}]


def test_a_dataclass_field_default_written_with_field_is_followed_like_a_literal_field():
    # `dist_backend: str = field(default="nccl")` read through `args.dist_backend`: reported at the field, with the
    # read in the chain; the per-file finding of the field's own line (a keyword default) says the same and is not
    # repeated. A default_factory is built at run time: not followed.
    assert scan_findings(ROOT / "field_default") == [
        ("app/settings.py", 6, 5, "TRN271",
         f"{NCCL} (via app/settings.py:6 DistArgs.dist_backend = 'nccl' → "
         "app/launch.py:7 dist.init_process_group(backend=args.dist_backend))", False)]


def test_import_helper_called_with_a_literal_is_an_import_of_it():
    # `try_import("awq_ext")`, a project helper whose body is `importlib.import_module(module_name)` in a try: an
    # import of awq_ext, reported at the call with the library's rule; a module no rule knows (json), a helper
    # building a project module's name around the string (`f"kern.plugins.{name}"`) and a helper that only opens
    # the string as a file name: nothing. Nor does `is_available("flash_attn")` (kern/ops/probe.py), a helper whose
    # returns are all True or False: it probes, and its caller takes another path when the answer is False
    assert scan_findings(ROOT / "import_helper", "--no-config") == [
        ("kern/ops/gemm.py", 5, 16, "TRN294",
         "GPU weight-quantization libraries (AutoGPTQ, AutoAWQ, GPTQModel, ModelOpt): `awq_ext` (via "
         "kern/ops/gemm.py:5 try_import('awq_ext') → kern/utils/module.py:7 importlib.import_module)", False),
        ("kern/ops/gemm.py", 6, 17, "TRN281",
         "flash-attn (CUDA-only kernels): `flash_attn` (via kern/ops/gemm.py:6 try_import('flash_attn') → "
         "kern/utils/module.py:7 importlib.import_module)", False)]


def test_calls_of_a_module_imported_through_a_helper_are_places_of_its_finding():
    # `awq_ext.gemm_forward_cuda(...)` (line 15) and `awq_ext.gemmv2_forward_cuda(...)` (19) run the module line 5
    # imported through try_import; not the call under `if awq_ext is not None:` (24), nor `flash(x, w)` (29), a name
    # no helper bound
    proc = run_cli("scan", ROOT / "import_helper", "--format", "json", "--no-cache", "--no-config")
    places = {(f["path"], f["line"]): [o["line"] for o in f.get("occurrences", ())]
              for f in json.loads(proc.stdout)["findings"]}
    assert places == {("kern/ops/gemm.py", 5): [15, 19], ("kern/ops/gemm.py", 6): []}


def test_a_constant_a_star_import_brings_is_followed_at_each_use():
    # `from devices import *` binds ACCEL = torch.device("cuda:0"): its uses as a device (a `device=` keyword of a
    # tensor factory, `.to(...)`, a project function's device parameter) are reported where the value enters;
    # log_step (no device use), a local `cpu` device and the definition's own finding stay as they are
    dev = '"cuda" device string: `cuda:0`'
    assert scan_findings(ROOT / "star_constant") == [
        ("calibrate.py", 8, 12, "TRN242", f"{dev} (via calibrate.py:8 torch.ones(device=ACCEL) → devices.py:3 "
                                          "ACCEL = 'cuda:0')", False),
        ("calibrate.py", 19, 17, "TRN242", f"{dev} (via calibrate.py:19 model.to(ACCEL) → devices.py:3 "
                                           "ACCEL = 'cuda:0')", False),
        ("calibrate.py", 20, 9, "TRN242", f"{dev} (via calibrate.py:20 warm(ACCEL) → calibrate.py:13 model.to)",
         False),
        ("devices.py", 3, 22, "TRN242", dev, False)]


def _with_places(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["end_line"], f["rule"], [(e["path"], e["line"]) for e in f.get("elsewhere", ())])
            for f in json.loads(proc.stdout)["findings"]]


def test_a_dataclass_field_read_through_a_config_section_in_another_module(tmp_path):
    # launch.py reads cfg.dist.backend (a section, then its field): the field's default "nccl" reaches
    # init_process_group there. The per-file finding at the field (its default an occurrence) is the one thing to
    # change and takes the read as a place; timeout (an int) leads nowhere
    assert _with_places(ROOT / "config_field") == [
        ("configs.py", 6, 8, "TRN271", [("launch.py", 7)])]
    # a field the per-file pass does not flag by its name (`distributed_backend`): the linked finding spans the
    # field's statement, the per-file finding at its `default="nccl",` line is restated by it and dropped
    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "config_field", proj)
    configs, launch = proj / "configs.py", proj / "launch.py"
    configs.write_text(configs.read_text().replace("    backend: str", "    distributed_backend: str"))
    launch.write_text(launch.read_text().replace("backend=cfg.dist.backend", "backend=cfg.dist.distributed_backend"))
    assert _with_places(proj) == [("configs.py", 6, 8, "TRN271", [("launch.py", 7)])]


def test_a_default_handed_to_spawned_workers_reaches_their_process_group():
    # mp.spawn(_worker, args=(main_func, backend, url)) runs _worker(rank, main_func, backend, url) in each process:
    # the default "nccl" of launch() reaches init_process_group there. Reported at the default, the library call of
    # the same file a place of it; train.py's launch(main, 8) leaves the backend out and runs with it (callers step)
    chain = ("launcher.py:5 launch(backend='nccl') → launcher.py:6 _worker → launcher.py:10 "
             "dist.init_process_group)")
    assert scan_findings(ROOT / "spawned") == [
        ("launcher.py", 5, 39, "TRN271", f"{NCCL} (via {chain}", False),
        ("train.py", 9, 5, "TRN271", f"{NCCL} (via train.py:9 launch() → {chain}", False)]
    assert [(p, ln) for p, ln, _, _, _ in _with_places(ROOT / "spawned")] == [("launcher.py", 5), ("train.py", 9)]


def test_a_linked_call_over_several_lines_restates_the_keyword_finding_inside_it():
    """`engine = Engine(` / `attn_impl="flash_attention_2",` / `)`: the link step's finding at the call (its chain
    reaching flash-attn) spans the call's lines; the per-file finding at the keyword on a later line points at the
    value to change and stays, the linked one goes. A per-file finding after the call, or of another rule, leaves
    the linked one."""
    from dataclasses import replace

    from trnready import scan
    from trnready.project.report import drop_spanning_calls

    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "run.py").write_text('from engine import Engine\n\nengine = Engine(\n    "org/model",\n'
                                        '    attn_impl="flash_attention_2",\n)\n')
        per_file = [f for f in scan([d]).findings if f.rule == "TRN281"]
    assert [(f.line, f.occurrences) for f in per_file] == [(5, ())]
    keyword = per_file[0]
    linked = replace(keyword, line=3, end_line=6, message=keyword.message + " (via run.py:3 Engine(...))")
    assert drop_spanning_calls(per_file, [linked]) == []
    assert drop_spanning_calls([replace(keyword, line=7)], [linked]) == [linked]
    assert drop_spanning_calls([replace(keyword, rule="TRN282")], [linked]) == [linked]


def test_a_package_name_two_folders_claim_resolves_from_the_importing_script_s_folder():
    # SparseInst keeps a MindSpore port in `mindspore/sparseinst/` beside its `sparseinst/`: `from sparseinst import x`
    # in the root's demo.py means the root package, in `mindspore/test.py` the port; a name no file claims from the
    # scan root stays unresolved
    from trnready.project.link import ModuleMap

    rels = ["sparseinst/__init__.py", "sparseinst/decoder.py", "mindspore/sparseinst/__init__.py",
            "mindspore/sparseinst/decoder.py", "mindspore/test.py", "demo.py", "a/util.py", "b/util.py"]
    m = ModuleMap({r: {} for r in rels})
    assert m.mods[m.absolute("demo.py", "sparseinst.decoder", 0)] == "sparseinst/decoder.py"
    assert m.mods[m.absolute("mindspore/test.py", "sparseinst.decoder", 0)] == "mindspore/sparseinst/decoder.py"
    assert m.mods[m.absolute("mindspore/test.py", "sparseinst", 0)] == "mindspore/sparseinst/__init__.py"
    assert "util" not in m.mods


def test_a_linked_call_on_a_line_of_a_folded_per_file_finding_is_dropped():
    """imips_pytorch (fresh80): `IMIPNet(checkpoint_path=p, device="cuda:0")` then the same with "cuda:1" on the next
    line. The per-file finding at the first literal folds the second as a place; the link step's findings at the two
    calls (`(via ... IMIPNet(device='cuda:0') → ...)`) say the same things again and go. A guarded per-file finding,
    one without places, a linked finding of another rule or on another line leave the linked findings standing."""
    from dataclasses import replace

    from trnready import scan
    from trnready.project.report import drop_linked_on_folded_lines

    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "bench.py").write_text('import torch\n\na = torch.zeros(2, device="cuda:0")\n'
                                          'b = torch.zeros(2, device="cuda:1")\n')
        per_file = [f for f in scan([d]).findings if f.rule == "TRN242"]
    assert [(f.line, [o[0] for o in f.occurrences]) for f in per_file] == [(3, [4])]
    literal = per_file[0]
    at_call = [replace(literal, column=5, occurrences=(), message=literal.message + " (via bench.py:3 Net(...))"),
               replace(literal, line=4, end_line=4, column=5, occurrences=(), message=literal.message + " (via x)")]
    assert drop_linked_on_folded_lines(per_file + at_call) == per_file
    assert drop_linked_on_folded_lines([replace(literal, guarded=True)] + at_call) == \
        [replace(literal, guarded=True)] + at_call
    assert drop_linked_on_folded_lines([replace(literal, occurrences=())] + at_call) == \
        [replace(literal, occurrences=())] + at_call
    other = [replace(at_call[0], rule="TRN243"), replace(at_call[0], line=9, end_line=9)]
    assert drop_linked_on_folded_lines(per_file + other) == per_file + other
