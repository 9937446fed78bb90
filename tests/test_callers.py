"""What the project's own callers pass (trnready/project/callers.py), through the real CLI on small projects."""
import json

from conftest import FIXTURES, run_cli

ROOT = FIXTURES / "callers"
MHA = "nn.MultiheadAttention called with a padding mask or a non-causal attention mask: " \
      "`torch.nn.MultiheadAttention.__call__`"
CUDA = '"cuda" device string: `cuda`'


def findings(name):
    proc = run_cli("scan", ROOT / name, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by", ""),
             [(o["line"], o["column"]) for o in f.get("occurrences", ())], f["message"])
            for f in report["findings"] if f["rule"] != "TRN114"]


def test_masks_every_caller_passes_as_none_are_guarded():
    # Decoder.forward -> self.blocks[i](x, mask=None, padding=None) -> SelfAttention.forward -> forward_post;
    # Decoder.forward -> run(x) (mask left at its default None) -> attend(x, mask)
    assert findings("masks_none") == [
        ("layers.py", 10, 16, "TRN172", "callers-pass-none", [], MHA),
        ("layers.py", 20, 12, "TRN172", "callers-pass-none", [], MHA),
    ]


def test_a_caller_passing_a_mask_keeps_the_finding():
    # `block(x, padding=padding)` in a loop over the kept layers, `run(x, padding)` next to `run(x, mask=None)`;
    # `SHARED(...)[0].transpose(0, 1)`: the call judged is the attention's, not the outer one starting there
    assert findings("masks_passed") == [
        ("layers.py", 10, 16, "TRN172", "", [], MHA),
        ("layers.py", 20, 12, "TRN172", "", [], MHA),
        ("layers.py", 28, 12, "TRN172", "", [], MHA),
    ]


def test_unknown_callers_keep_the_finding():
    # attend is also held in a dict (a callback: who calls it is unknown); an instance of SelfAttention is
    # returned by build(), so its calls are not all seen
    assert findings("masks_callback") == [
        ("layers.py", 10, 16, "TRN172", "", [], MHA),
        ("layers.py", 20, 12, "TRN172", "", [], MHA),
    ]


def test_default_every_caller_overrides_is_guarded():
    # _place(x, "cpu") and _place(y, device=dev): "cuda" never applies; place() is public in a packaged library
    # (setup.py), so users of the library get its default whatever the project passes; place_all has no caller in
    # the project
    assert findings("default_overridden") == [
        ("ops.py", 1, 22, "TRN242", "callers-override-default", [], CUDA),
        ("ops.py", 5, 21, "TRN242", "", [], CUDA),
        ("ops.py", 9, 26, "TRN242", "", [], CUDA),
    ]


def test_calls_leaving_a_flagged_default_out_are_its_places():
    # in another module: reported at the first such call, the file's others are its places; in the function's
    # own module: a place of the default's finding (the outer call of place(place(x, "cpu")))
    assert findings("default_left_out") == [
        ("main.py", 6, 9, "TRN242", "", [(7, 9)],
         f"{CUDA} (via main.py:6 place() → ops.py:1 place(device='cuda') → ops.py:2 x.to)"),
        ("ops.py", 1, 21, "TRN242", "", [(6, 12)], CUDA),
    ]


def _state(path, cache):
    proc = run_cli("scan", path, "--format", "json", "--cache-dir", cache, "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f.get("guarded_by", ""), f["message"])
            for f in json.loads(proc.stdout)["findings"] if f["rule"] != "TRN114"]


def test_warm_rescan_answers_from_the_cache_and_follows_an_edited_caller(tmp_path):
    import shutil

    proj = tmp_path / "proj"
    shutil.copytree(ROOT / "masks_none", proj)
    (proj / "main.py").write_text("from ops import _place\n\n\ndef main(x):\n    return _place(x, 'cpu')\n")
    (proj / "ops.py").write_text('def _place(x, device="cuda"):\n    return x.to(device)\n')
    cache = tmp_path / "cache"
    cold = _state(proj, cache)
    assert [f[3] for f in cold] == ["callers-pass-none", "callers-pass-none", "callers-override-default"]
    assert _state(proj, cache) == cold
    # a caller now passes a mask, another call leaves the device out: both findings stand again, and the new
    # call is reported where it leaves the default out
    (proj / "decoder.py").write_text((proj / "decoder.py").read_text().replace("mask=None, padding=None",
                                                                               "mask=x, padding=None"))
    (proj / "main.py").write_text("from ops import _place\n\n\ndef main(x):\n    return _place(x)\n")
    assert _state(proj, cache) == [
        ("layers.py", 10, "TRN172", "", MHA),
        ("layers.py", 20, "TRN172", "callers-pass-none", MHA),
        ("main.py", 5, "TRN242", "",
         f"{CUDA} (via main.py:5 _place() → ops.py:1 _place(device='cuda') → ops.py:2 x.to)"),
        ("ops.py", 1, "TRN242", "", CUDA),
    ]


def test_a_mask_the_function_assigns_again_keeps_the_finding():
    # forward_post replaces a None mask with one of its own; forward hands on what widen() returned, not its
    # parameter; in mix, the mask at the call is the nested step()'s own parameter, not mix's (always None)
    assert findings("masks_rebound") == [
        ("layers.py", 13, 16, "TRN172", "", [], MHA),
        ("layers.py", 31, 20, "TRN172", "", [], MHA),
    ]


def test_layers_of_the_same_file_kept_in_a_sequential_stack():
    # `nn.Sequential(*[Layer(d) ...])` of a class defined in the same file, looped over and called without a mask:
    # guarded; the ModuleList of Padded passes a padding mask: kept, with the mask built in Net.forward as its
    # place (trnready/mask_sources.py)
    assert findings("stack_same_file") == [
        ("model.py", 10, 16, "TRN172", "callers-pass-none", [], MHA),
        ("model.py", 19, 16, "TRN172", "", [(34, 30)], MHA),
    ]


UPSAMPLE = "Bilinear or bicubic interpolation: `torch.nn.functional.interpolate`"


def test_a_branch_every_caller_switches_off_is_guarded():
    # BiSeNet.forward: `if return_feat:` (default False) and `if mode == "image":` (default "batch") are never
    # taken, the one caller passing neither; the `elif mode in ("batch", "none")` arm is taken and stays.
    # Head.forward: one call passes upsample=True, another passes a value the scanner cannot see (kind=self.kind);
    # resize assigns `fast` again before testing it: all kept.
    got = findings("switch_off")
    assert [(p, ln, c, r, g) for p, ln, c, r, g, _o, _m in got] == [
        ("parse.py", 13, 20, "TRN191", "callers-switch-off"),
        ("parse.py", 16, 20, "TRN104", "callers-switch-off"),
        ("parse.py", 18, 20, "TRN191", ""),
        ("parse.py", 29, 17, "TRN191", ""),
        ("parse.py", 31, 17, "TRN104", ""),
        ("parse.py", 38, 16, "TRN191", ""),
    ]
    assert got[0][6] == UPSAMPLE


def test_a_device_test_passed_by_every_caller_switches_off():
    # _set_seed(seed, using_cuda=self.device.type == th.device("cuda").type): False on every Neuron machine, so the
    # cudnn flags (10, with 11 folded into it: the same arm) never run; fast=self.device.type == "mps" is no CUDA
    # test, and the flag under it stays
    got = findings("switch_device_test")
    assert [(p, ln, c, r, g, o) for p, ln, c, r, g, o, _m in got] == [
        ("seeding.py", 10, 9, "TRN261", "callers-switch-off", [(11, 9)]),
        ("seeding.py", 16, 9, "TRN261", "", []),
    ]


def test_a_method_called_on_an_instance_the_function_built_is_a_resolved_call():
    # dla34 / dla46 build `model = DLA(...)` and call model.load_pretrained_model with hub names: the `.pth` arm
    # (13) never runs. load_local (20) is also called through `model.module` in rebuilt, where `model` is bound
    # twice: that call is not resolved, the callers stay unknown and the load stays
    got = findings("switch_local_instance")
    assert [(p, ln, c, r, g) for p, ln, c, r, g, _o, _m in got] == [
        ("dla.py", 13, 23, "TRN351", "callers-switch-off"),
        ("dla.py", 20, 23, "TRN351", ""),
        ("dla.py", 41, 13, "TRN352", ""),
    ]


def test_layers_cloned_from_a_constructor_parameter_reach_their_callers():
    # DETR's shape: Transformer builds `decoder_layer = TransformerDecoderLayer(...)` and hands it to
    # TransformerDecoder, which keeps `_get_clones(decoder_layer, n)` and calls each clone without tgt_mask: the
    # self-attention's mask (38) is None in every run. The cross-attention's padding mask (40) comes from the
    # caller's `mask`, a value the scanner cannot see. Encoder also keeps its `layer` parameter under a second
    # name (`self.spare`): the instance may go elsewhere, so its layer's mask (54) stays.
    got = findings("masks_cloned")
    assert [(p, ln, c, r, g) for p, ln, c, r, g, _o, _m in got] == [
        ("transformer.py", 38, 16, "TRN172", "callers-pass-none"),
        ("transformer.py", 40, 16, "TRN172", ""),
        ("transformer.py", 54, 16, "TRN172", ""),
    ]


def test_a_detr_chain_whose_root_passes_a_local_none(tmp_path):
    # MaskFormer's predictor: `mask = None` handed to a Transformer built into a local and kept on self; DETR's
    # Transformer flattens the mask only when it is not None; five calls down the padding mask reaches the attention.
    # Other files name `.layers`, `.encoder` and `.transformer` for other things (CLIP's own Transformer, a
    # tokenizer's dict, a settings object, a method, a read through an attribute, a dataset label; since session 43
    # also OneFormer's `self.tokenizer.encoder["<|startoftext|>"]`, a lookup by a string key, and a checkpoint key
    # tested with `key.startswith("encoder")`): none is a call of the kept instances. A caller handing a real mask
    # keeps the finding.
    got = findings("detr_chain")
    assert [(p, ln, c, r, g) for p, ln, c, r, g, _o, _m in got] == [
        ("transformer.py", 40, 16, "TRN172", "callers-pass-none"),
    ]
    import shutil

    dest = tmp_path / "detr_chain"
    shutil.copytree(ROOT / "detr_chain", dest)
    text = (dest / "predictor.py").read_text().replace("mask = None", "mask = x.isnan().any(-1)")
    (dest / "predictor.py").write_text(text)
    proc = run_cli("scan", dest, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["path"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
           if f["rule"] == "TRN172"]
    assert got == [("transformer.py", 40, "")]


def test_literal_locals_and_none_kept_parameters_in_the_record():
    import ast

    from trnready.project.call_sites import _held_constructions, _literal_locals, _none_kept

    fn = ast.parse("def f(a, m):\n    mask = None\n    mode = 'bilinear'\n    mode2 = 'x'\n    mode2 = 'y'\n"
                   "    if m is not None:\n        m = m.flatten(1)\n    a = a + 1\n"
                   "    g = lambda mask: mask\n").body[0]
    assert _literal_locals(fn) == {"mode": "='bilinear'"}  # mask: a lambda's parameter too; mode2 bound twice
    assert _none_kept(fn, {"m", "a"}) == {"m"}
    init = ast.parse("def __init__(self, d):\n    t = Transformer(d)\n    self.t = t\n    self.d = t.d_model\n"
                     "    u = Transformer(d)\n    self.u = u\n    use(u)\n").body[0]
    assert _held_constructions(init, {"Transformer"}) == {"t": "Transformer"}


def test_a_parameter_every_caller_fills_with_the_modules_cuda_flag(tmp_path):
    # bearpaw's cifar.py template: `use_cuda = torch.cuda.is_available()` at the top, handed to train(); its
    # `if on_gpu:` arm never runs on Neuron. test() is also called with True: its arm stays
    got = findings("flag_param")
    assert [(p, ln, c, r, g) for p, ln, c, r, g, _o, _m in got if r == "TRN241"] == [
        ("cifar.py", 9, 31, "TRN241", "callers-switch-off"),
        ("cifar.py", 16, 22, "TRN241", ""),
    ]


def test_copies_of_one_script_each_call_their_own_helper():
    # rethinking-network-pruning keeps a dozen copies of one training script, each with its own `test`: a copy that
    # imports neither the name nor this module means its own (other/run.py hands its own `test` to map(), a mention
    # no call accounts for). `split="test"` (a keyword's string value) and `train=False` (a keyword's name) name no
    # function.
    got = findings("script_copies")
    assert [(p, ln, r, g) for p, ln, _c, r, g, _o, _m in got if r == "TRN241"] == [
        ("slimming/main.py", 10, "TRN241", "callers-switch-off"),
        ("weight/cifar.py", 10, "TRN241", "callers-switch-off"),
    ]


def test_keyword_names_and_data_values_are_no_mentions_of_a_function():
    from trnready.project.code_words import CodeWords

    text = 'CIFAR10(root, train=True)\nf(split="test", type="test")\ntrain = 1\nif train == 2: test()\n'
    words = CodeWords.of(text)
    assert words.count("train", False) == 2  # the assignment and the comparison, not the keyword
    assert words.count("test", False) == 2  # the registry-like `type="test"` and the call, not `split="test"`


def test_mentions_are_counted_as_whole_words_attributes_or_quoted_names():
    from trnready.project.callers import count_mentions

    text = "x.mask = mask; y . mask; masks; _mask; getattr(m, 'mask'); \"mask\"'mask'; mask_fn(mask)"
    assert count_mentions(text, "mask", attribute=False) == 7  # not masks, _mask, mask_fn
    # attributes: x.mask, y . mask; quoted: 'mask', "mask", 'mask'
    assert count_mentions(text, "mask", attribute=True) == 5
    assert count_mentions("'mask'mask'", "mask", attribute=True) == 1  # one quote closes one and opens no other
    assert count_mentions("", "mask", attribute=False) == 0 and count_mentions("mask", "mask", attribute=True) == 0


def test_prose_naming_a_function_leaves_its_callers_known():
    # `attention` is written in docstrings and comments of both files; only code counts (project/code_words.py):
    # both calls leave the mask out
    assert [f[:5] for f in findings("masks_prose")] == [("attn_ops.py", 7, 12, "TRN171", "callers-pass-none")]


def test_a_name_looked_up_by_string_keeps_the_finding():
    # getattr(attn_ops, "attention") and "attn_ops.attention": calls no resolved call accounts for
    assert [f[:5] for f in findings("masks_named_string")] == [("attn_ops.py", 7, 12, "TRN171", "")]


def test_code_words_count_code_not_prose():
    from trnready.project.code_words import CodeWords

    text = '"""attention here"""\nx.attention(1)  # attention\ny = attention\ngetattr(m, "attention")\n' \
           'p = "pkg.mod:attention"\nq = "the attention"\n'
    w = CodeWords.of(text)
    assert w.count("attention", attribute=False) == 4  # x.attention, attention, and the two quoted names
    assert w.count("attention", attribute=True) == 3  # x.attention and the two quoted names
    assert CodeWords.of('x = """never closed\n') is None  # counted as text then (count_mentions)


def test_a_class_reached_through_a_star_import_and_its_own_attribute_of_the_same_name():
    # block.py builds SelfAttention through `from tracker.model.layers import *` and calls it without masks;
    # SelfAttention's own `self.self_attn` (an nn.MultiheadAttention) is its attribute, not the holder's instance
    assert [f[:5] for f in findings("masks_star")] == [
        ("tracker/model/layers.py", 11, 16, "TRN172", "callers-pass-none")]
    # the same with a mask passed: kept
    assert [f[:5] for f in findings("masks_star_passed")] == [("tracker/model/layers.py", 11, 16, "TRN172", "")]


def test_a_device_built_from_the_literal_in_the_default_is_the_default():
    # wanda: `def prune_weights(model, device=torch.device("cuda:0"))`, called from main.py with a device every time; no
    # packaging. evaluate(model) leaves its default: kept
    got = [f[:5] for f in findings("device_ctor_default")]
    assert got == [
        ("lib/prune.py", 4, 46, "TRN242", "callers-override-default"),
        ("lib/prune.py", 8, 41, "TRN242", ""),
    ]


def test_a_parameter_assigned_before_any_read_takes_nothing_from_its_default_or_callers():
    # init_environment and init_with_helper assign `backend` as a statement of their own before reading it: neither
    # the "nccl" default nor demo.py:5's backend="nccl" reaches a process group (the keyword is guarded, the link
    # follows nothing); init_maybe assigns it only in a branch and init_read_first reads it first: kept
    got = [f[:5] for f in findings("overwritten")]
    assert got == [
        ("demo.py", 5, 44, "TRN271", "overwritten-parameter"),
        ("demo.py", 6, 5, "TRN271", ""),
        ("demo.py", 12, 37, "TRN271", "overwritten-parameter"),  # imported inside the calling function
        ("dist.py", 19, 5, "TRN271", ""),
        ("dist.py", 27, 36, "TRN271", ""),
    ]


def test_a_constructor_default_every_construction_overrides_in_a_project_without_packaging():
    # no setup.py / pyproject.toml: the project's constructions are every call of BaseSegmenter.__init__, and each
    # passes device; Painter is built without it and SubTracker derives from Tracker (a super().__init__ call no
    # record resolves): kept. With packaging (setup.py), users of the library get the defaults: all kept
    got = [f[:5] for f in findings("init_default")]
    assert got == [
        ("tools/segmenter.py", 2, 55, "TRN242", "callers-override-default"),
        ("tools/segmenter.py", 7, 43, "TRN242", ""),
        ("tools/segmenter.py", 12, 43, "TRN242", ""),
    ]
    assert [f[4] for f in findings("init_default_packaged")] == ["", "", ""]


def test_super_with_the_class_name_and_an_all_entry_neither_call_nor_pass_the_class():
    # InstantMesh: `super(PerspectiveCamera, self).__init__()` and `__all__ = ["FlexiCubes"]` are mentions that build
    # nothing; every construction passes device, so the "cuda" default never applies. OrthoCamera is built without
    # it, Registered is also handed over as a value, Cubes is only named: kept
    got = [f[:5] for f in findings("init_default_quiet")]
    assert got == [
        ("geometry/camera.py", 10, 42, "TRN242", "callers-override-default"),
        ("geometry/camera.py", 16, 31, "TRN242", ""),
        ("geometry/camera.py", 22, 31, "TRN242", ""),
        ("geometry/cubes.py", 7, 31, "TRN242", "callers-override-default"),
        ("geometry/cubes.py", 12, 31, "TRN242", ""),
    ]


def test_quiet_mentions_counts_super_with_self_and_all_entries_only():
    from trnready.project.quiet_mentions import quiet_mentions

    text = 'super(Cam, self).__init__()\nsuper(Cam, cls)\n__all__ = ["Cam", \'Other\']\nx = "Cam"\n'
    assert quiet_mentions(text, "Cam") == 2
    assert quiet_mentions(text, "Other") == 1
    assert quiet_mentions("Cam()", "Cam") == 0


def test_a_mask_attribute_set_from_a_constructor_argument_no_construction_passes_is_guarded():
    # Block keeps `self.attn_mask = attn_mask` (and only re-casts it when not None); Stack hands its own attn_mask
    # on, and the one Stack built leaves it out. MaskedBlock is built with attn_mask=pad: the finding stays.
    assert findings("masks_from_constructor") == [
        ("blocks.py", 13, 16, "TRN172", "callers-pass-none", [], MHA),
        ("blocks.py", 35, 16, "TRN172", "", [], MHA),
    ]


def test_default_of_a_test_helper_every_test_overrides_is_guarded():
    # pkg/common/test_utils.py is test code in a packaged project: its public helpers serve the project's tests,
    # so the tests are all their callers. The call reached by `backend="nccl"` (the default listed as its place)
    # is guarded when every call passes backend; place_batch's default, left out by its caller, stays.
    got = [(f[0], f[1], f[3], f[4]) for f in findings("test_helper_default")]
    assert got == [
        ("pkg/common/test_utils.py", 5, "TRN271", "callers-override-default"),
        ("pkg/common/test_utils.py", 8, "TRN242", ""),
        ("tests/test_group.py", 8, "TRN242", ""),
    ]


UTILS = "import torch\n\n\ndef prepare_z_y(batch, dim_z, device='cuda'):\n    return torch.randn(batch, dim_z, device=device)\n"
TRAIN = "import utils\n\n\ndef run():\n    return utils.prepare_z_y(4, 8, device='cpu')\n"


def test_packaging_of_a_sibling_project_leaves_this_folder_callers_known(tmp_path):
    # data-efficient-gans: `DiffAugment-biggan-cifar/` (scripts importing their own utils.py) beside the installable
    # `DiffAugment-biggan-imagenet/` (its own setup.py): nothing outside the cifar folder imports its functions
    for rel, text in (("cifar/utils.py", UTILS), ("cifar/train.py", TRAIN),
                      ("imagenet/setup.py", "from setuptools import setup\n\nsetup(name='compare_gan')\n")):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text(text)

    def scan():
        proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
        assert proc.returncode in (0, 1), proc.stderr
        return [(f["path"], f["line"], f["rule"], f.get("guarded_by", ""))
                for f in json.loads(proc.stdout)["findings"]]
    assert scan() == [("cifar/utils.py", 4, "TRN242", "callers-override-default")]
    # packaging above the folder (the scan root's own setup.py) makes the function a library's API: kept
    (tmp_path / "setup.py").write_text("from setuptools import setup\n\nsetup(name='gans')\n")
    assert scan() == [("cifar/utils.py", 4, "TRN242", "")]


def test_a_size_test_of_a_list_every_caller_leaves_empty_switches_off():
    # PIFu's init_net: `if len(gpu_ids) > 0:` with every caller leaving `gpu_ids=[]`; init_parts is handed the
    # option's value, which the scanner cannot see: kept
    got = [(p, ln, r, g) for p, ln, _c, r, g, _o, _m in findings("switch_len")]
    assert got == [
        ("lib/net_util.py", 7, "TRN352", "callers-switch-off"),
        ("lib/net_util.py", 13, "TRN241", ""),
    ]


def test_quiet_mentions_count_type_annotations_not_dict_values_lambdas_or_comments():
    from trnready.project.quiet_mentions import quiet_mentions

    text = ('def __init__(self, ctrl:Ctrl,\n             other: Optional[Ctrl] = None) -> Ctrl:\n'
            '    self.c: "Ctrl" = other\n    table = {"a": Ctrl}\n    make = lambda x: Ctrl\n'
            '    # ctrl: Ctrl\n    return Ctrl(1)\n')
    assert quiet_mentions(text, "Ctrl") == 4


def test_a_constructor_default_stays_judged_when_other_files_only_annotate_with_the_class():
    # XMem's GUI takes `s2m_ctrl: S2MController` that its demo builds with device=device (no packaging): the
    # annotations are no mentions; Loose is built once without a device (and handed out by a lambda), so it stays
    got = [f[:5] for f in findings("init_default_annotated")]
    assert got == [
        ("interact/controller.py", 5, 49, "TRN242", "callers-override-default"),
        ("interact/controller.py", 11, 31, "TRN242", ""),
    ]


def test_a_decoder_built_by_a_function_and_handed_to_a_constructor_is_followed():
    # 3detr: `build_decoder(args)` returns the Decoder it builds, `Detector(encoder, decoder)` keeps it on self and
    # calls it without masks; the Decoder's layers come from an imported clone helper and are read for a member
    # (`self.layers[0].linear`); the encoder's layers are looped over with `enumerate` and read for `layer.nhead`,
    # and the subclass MaskedEncoder calls the layers its base keeps with a real mask: that finding stays
    assert findings("detr_built") == [
        ("models/transformer.py", 13, 16, "TRN172", "", [], MHA),
        ("models/transformer.py", 42, 16, "TRN172", "callers-pass-none", [], MHA),
    ]


def test_a_class_built_only_in_an_arm_no_caller_takes_never_runs():
    # detectron2's demo predictor: VisualizationDemo builds an AsyncPredictor only `if parallel:`, and its one
    # construction leaves `parallel=False`; AsyncPredictor's own mentions are a type test and a nested class read
    # through it. Its "cuda:{}" device is guarded with the arm; the SyncPredictor built in the other arm stays.
    got = [f[:5] for f in findings("built_switched_off")]
    assert got == [
        ("predictor.py", 10, 32, "TRN242", "callers-switch-off"),
        ("predictor.py", 20, 28, "TRN242", ""),
        ("predictor.py", 27, 23, "TRN243", "callers-switch-off"),
    ]


def test_quiet_mentions_count_type_tests_and_nested_classes_not_prose():
    from trnready.project.quiet_mentions import quiet_mentions

    text = ("if isinstance(task, AsyncPredictor._StopToken):\n    w = AsyncPredictor._PredictWorker(cfg)\n"
            "ok = isinstance(p, (int, AsyncPredictor))\np = AsyncPredictor.from_config(cfg)\n"
            "help = 'True if AsyncPredictor. False otherwise'\n")
    assert quiet_mentions(text, "AsyncPredictor") == 3


def test_another_argument_assigned_again_does_not_hide_a_mask_passed_on(tmp_path):
    # MOTR's decoder layer: `forward` sets `attn_mask = None` and hands it down two private methods; the middle one
    # writes `tgt = self._forward_self_attn(tgt, query_pos, attn_mask)`, assigning `tgt` (another argument) again
    (tmp_path / "layer.py").write_text(
        "from torch import nn\n\n\nclass DecoderLayer(nn.Module):\n    def __init__(self, d, h):\n"
        "        super().__init__()\n        self.self_attn = nn.MultiheadAttention(d, h)\n\n"
        "    def _forward_self_attn(self, tgt, query_pos, attn_mask=None):\n        q = k = tgt + query_pos\n"
        "        if attn_mask is not None:\n            tgt2 = self.self_attn(q, k, tgt, attn_mask=attn_mask)[0]\n"
        "        else:\n            tgt2 = self.self_attn(q, k, tgt)[0]\n        return tgt + tgt2\n\n"
        "    def _forward_self_cross(self, tgt, query_pos, attn_mask=None):\n"
        "        tgt = self._forward_self_attn(tgt, query_pos, attn_mask)\n        return tgt\n\n"
        "    def forward(self, tgt, query_pos):\n        attn_mask = None\n"
        "        return self._forward_self_cross(tgt, query_pos, attn_mask)\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    got = [(f["line"], f["column"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
           if f["rule"] == "TRN172"]
    assert got == [(12, 20, "callers-pass-none")]
    # the middle method assigning the mask itself again keeps the finding
    text = (tmp_path / "layer.py").read_text().replace(
        "        tgt = self._forward_self_attn(", "        attn_mask = tgt.isnan()\n        tgt = self._forward_self_attn(")
    (tmp_path / "layer.py").write_text(text)
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert [(f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
            if f["rule"] == "TRN172"] == [(12, "")]


LAZY_MODEL = ("import torch.nn as nn\n\n\nclass DETR(nn.Module):\n"
              "    def __init__(self, backbone, num_classes=80, device=\"cuda\"):\n"
              "        super().__init__()\n        self.device = device\n")
LAZY_CONFIG = ("from detectron2.config import LazyCall as L\nfrom projects.detr.modeling import DETR\n\n"
               "model = L(DETR)(\n    backbone=None,\n    device=\"cpu\",\n)\n")
LIB_LAYER = "import torch\n\n\ndef make_anchors(n, device=\"cuda\"):\n    return torch.zeros(n, device=device)\n"
LIB_USE = "from lzlib.layers import make_anchors\n\nANCHORS = make_anchors(4, device=\"cpu\")\n"


def _lazy_project(tmp_path, setup: str) -> None:
    files = {"setup.py": setup, "lzlib/__init__.py": "", "lzlib/layers.py": LIB_LAYER,
             "projects/detr/modeling/__init__.py": "from .detr import DETR\n",
             "projects/detr/modeling/detr.py": LAZY_MODEL, "projects/detr/configs/detr_r50.py": LAZY_CONFIG,
             "tools/anchors.py": LIB_USE}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def _scan_guards(tmp_path) -> list:
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by", ""))
            for f in json.loads(proc.stdout)["findings"]]


def test_a_lazy_call_is_a_construction_and_find_packages_installs_regular_packages_only(tmp_path):
    # detrex: setup.py installs what find_packages() finds; `projects/` holds no __init__.py, so DETR's module is
    # not installed and the LazyConfig's `L(DETR)(..., device="cpu")` is every construction there is. lzlib is an
    # installed package: its public default stays for the library's other users, whatever tools/ passes.
    _lazy_project(tmp_path, "from setuptools import find_packages, setup\n\n"
                            "setup(name='lz', packages=find_packages(exclude=('configs',)))\n")
    assert _scan_guards(tmp_path) == [
        ("lzlib/layers.py", 4, 28, "TRN242", ""),
        ("projects/detr/modeling/detr.py", 5, 57, "TRN242", "callers-override-default"),
    ]


def test_namespace_packages_or_renamed_package_folders_keep_the_whole_folder_packaged(tmp_path):
    # find_namespace_packages() installs folders without __init__.py too; package_dir moves packages elsewhere:
    # what is installed is not read from the __init__.py files, so every module stays a library's API
    for setup in ("from setuptools import find_namespace_packages, setup\n\n"
                  "setup(name='lz', packages=find_namespace_packages())\n",
                  "from setuptools import find_packages, setup\n\n"
                  "setup(name='lz', package_dir={'lz': '.'}, packages=find_packages())\n"):
        _lazy_project(tmp_path, setup)
        assert [f[4] for f in _scan_guards(tmp_path)] == ["", ""], setup


def test_a_pyproject_holding_only_tool_settings_is_no_packaging(tmp_path):
    # `[tool.black]` alone installs nothing: the project's callers stay every caller (the cifar-style script folder)
    for rel, text in (("cifar/utils.py", UTILS), ("cifar/train.py", TRAIN),
                      ("pyproject.toml", "[tool.black]\nline-length = 100\n")):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text(text)
    assert _scan_guards(tmp_path) == [("cifar/utils.py", 4, 38, "TRN242", "callers-override-default")]
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'gans'\n")
    assert _scan_guards(tmp_path) == [("cifar/utils.py", 4, 38, "TRN242", "")]


def test_a_list_appended_then_wrapped_is_a_list_of_its_constructions():
    # `blocks.append(DecoderLayer(...))` then `self.blocks = nn.ModuleList(blocks)` (SimpleAICV's DETR): the loop's
    # calls are DecoderLayer's, which never pass tgt_mask (guarded) and do pass a padding mask (kept)
    assert findings("appended_list") == [
        ("model.py", 11, 21, "TRN172", "callers-pass-none", [], MHA),
        ("model.py", 12, 22, "TRN172", "", [], MHA),
    ]


def test_callers_importing_the_function_inside_a_function_are_its_callers():
    # Diffusion-Planner's batch_generate imports run_simulation inside the function that calls it (a lazy import):
    # that call passes device too, so the "cuda" default is overridden by every caller
    got = findings("default_overridden_lazy")
    assert [(f[0], f[1], f[3], f[4]) for f in got] == [("pkg/sim.py", 14, "TRN242", "callers-override-default")]


def test_a_dispatch_through_a_dict_written_in_the_call_calls_each_value():
    # learnable-triangulation's train.py: `{"alg": AlgNet, "vol": VolNet}[name](config, device=device)` overrides both
    # constructors' "cuda:0" default; `{"raw": RawNet}[k](config)` leaves RawNet's
    got = [f[:5] for f in findings("dict_dispatch") if f[3] == "TRN242"]
    assert got == [
        ("mvn/models.py", 6, 39, "TRN242", "callers-override-default"),
        ("mvn/models.py", 12, 39, "TRN242", "callers-override-default"),
        ("mvn/models.py", 18, 39, "TRN242", ""),
    ]


def _script_folders(tmp_path, extra: dict) -> None:
    # two model folders with the same script names side by side (LLM_based_Segmentation, fresh81): each main.py
    # imports its own folder's train.py (the script's folder is first on sys.path), whose "cuda" default every
    # call overrides; the folder names are no identifiers
    train = ("def train_model(model, loader, epochs=2, device='cuda'):\n"
             "    return model.to(device)\n")
    main = ("import torch\n"
            "from train import train_model\n"
            "\n"
            "device = torch.device('cpu')\n"
            "train_model(None, [], 3, device)\n")
    for folder in ("Model A 2025", "Model B (v2)"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "train.py").write_text(train)
        (tmp_path / folder / "main.py").write_text(main)
    for rel, text in extra.items():
        (tmp_path / rel).write_text(text)


def test_a_script_imports_its_own_folders_module_when_several_folders_hold_one_of_that_name(tmp_path):
    # the chat log beside one of them quotes the scripts (`train_model(model, ...)`, `from train import train_model`,
    # a traceback's `in train_model`): prose and code in a data file name nothing a program looks up
    _script_folders(tmp_path, {"Model A 2025/chat.json": json.dumps({"answer": (
        "Functions: train_model, test_model.\ndef train_model(model, loader):\n    ...\n"
        "from train import train_model\n  File \"main.py\", line 5, in train_model\n")})})
    assert _scan_guards(tmp_path) == [
        ("Model A 2025/train.py", 1, 49, "TRN242", "callers-override-default"),
        ("Model B (v2)/train.py", 1, 49, "TRN242", "callers-override-default"),
    ]


def test_a_config_naming_the_function_as_a_value_keeps_its_callers_unknown(tmp_path):
    # `step: train_model` / `"fn": "train.train_model"`: a config may hand the function to a loader, which calls it
    # with its default
    _script_folders(tmp_path, {"run.yaml": "step: train_model\n"})
    assert [g[4] for g in _scan_guards(tmp_path)] == ["", ""]
    (tmp_path / "run.yaml").unlink()
    (tmp_path / "run.json").write_text('{"fn": "train.train_model"}\n')
    assert [g[4] for g in _scan_guards(tmp_path)] == ["", ""]


def test_masks_through_clones_written_in_place_and_an_encoder_read_for_its_weights():
    # RewardMachines-torch (fresh81): `nn.ModuleList([copy.deepcopy(encoder_layer) for ...])` written in __init__
    # keeps copies of the parameter, and the holder's `named_parameters()` / `state_dict()` / `load_state_dict()` /
    # `.eval()` run no forward: every caller leaves both masks None. `self.inner.to(...)` hands the instance on
    # (its result may be called anywhere): that layer's mask stays
    got = [f[:5] for f in findings("masks_inline_clones") if f[3] == "TRN172"]
    assert got == [
        ("encoder.py", 54, 16, "TRN172", "callers-pass-none"),
        ("encoder.py", 74, 16, "TRN172", ""),
    ]


def test_mentions_in_a_data_file_count_only_where_they_name_a_value():
    from trnready.project.callers import _names_a_value, count_mentions

    values = "a: train_model\n- train_model\nk = train_model  # x\n\"train.train_model\""
    prose = "call train_model(x)\nFunctions: train_model, b\nin train_model\n"
    assert count_mentions(values, "train_model", False, quoted=False) == 4
    assert count_mentions(values, "train_model", False, quoted=False, keep=_names_a_value) == 4
    assert count_mentions(prose, "train_model", False, quoted=False) == 3
    assert count_mentions(prose, "train_model", False, quoted=False, keep=_names_a_value) == 0
    # an attribute word: only its dotted mentions are counted, and only they are judged (the bare word in prose
    # takes nothing off the count)
    attr = "the train_model step\nrun x.train_model(y)\nstep: pkg.train_model\n"
    assert count_mentions(attr, "train_model", True, quoted=False) == 2
    assert count_mentions(attr, "train_model", True, quoted=False, keep=_names_a_value) == 1
