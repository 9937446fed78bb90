"""Code nothing in the project names (trnready/project/unreferenced.py), through the real CLI on small projects.

The fixtures are copied out of this repository first: a scan whose root lies inside a project (a folder above it
holds .git or packaging) sees part of it only, and the step then judges nothing."""
import json
import shutil

from conftest import FIXTURES, run_cli

from trnready.project.unreferenced import top_definitions

ROOT = FIXTURES / "unreferenced"
DEAD = "never-referenced"


def findings(path):
    proc = run_cli("scan", path, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    assert report["diagnostics"] == []
    return [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in report["findings"]]


def _copy(tmp_path, name):
    dest = tmp_path / name
    shutil.copytree(ROOT / name, dest)
    return dest


def test_functions_and_classes_no_file_names_are_guarded(tmp_path):
    assert findings(_copy(tmp_path, "dead")) == [
        ("devtools.py", 3, "TRN241", ""),  # a module no file names: a tool imported by hand
        # a module whose name getattr() looks up with a computed name, a module that calls eval()
        ("lookup/blocks.py", 2, "TRN241", ""),
        ("lookup/evaluated.py", 2, "TRN241", ""),
        # a config picks UsedEncoder by its dotted path: it may pick OtherEncoder too
        ("models/encoders.py", 3, "TRN241", ""),
        ("models/encoders.py", 8, "TRN241", ""),
        ("models/ops.py", 7, "TRN241", ""),  # a custom autograd Function: a custom op to port
        ("models/ops.py", 11, "TRN241", ""),  # named in README.md
        ("models/utils.py", 16, "TRN121", DEAD),  # count_flops_attn: named nowhere
        ("models/utils.py", 20, "TRN241", ""),  # used_helper: imported and called by train.py
        ("models/utils.py", 26, "TRN241", DEAD),  # countdown: named only by its own recursion
        ("models/utils.py", 34, "TRN241", DEAD),  # DeadLoss: named only in its own super() call
        # a method of a used class nothing names: the never-called-method step (session 35), not this one
        ("models/utils.py", 39, "TRN241", "never-called-method"),
        ("models/utils.py", 44, "TRN241", ""),  # decorated (a registry)
        # listed in __all__ only: a star import hands it on, but nothing that imports it writes its name (prec29b)
        ("models/utils.py", 48, "TRN241", DEAD),
        ("models/utils.py", 52, "TRN241", ""),  # named in configs/run.yaml
        ("models/utils.py", 56, "TRN241", ""),  # named in scripts/launch.sh
        ("models/utils.py", 60, "TRN241", ""),  # named in a string (getattr(module, "named_in_string"))
        ("models/utils.py", 64, "TRN241", ""),  # named in a comment of another file
        ("models/utils.py", 68, "TRN241", ""),  # main: an entry point
        ("models/utils.py", 72, "TRN241", DEAD),  # _private_dead
        ("tests/test_utils.py", 2, "TRN241", ""),  # test code: pytest finds it by its file
    ]


def test_public_names_of_a_declared_package_are_library_api(tmp_path):
    # setup.py declares mylib: its public functions are called by the library's users; a private one, and a
    # script outside the package (run by scripts/convert.sh), are judged
    assert findings(_copy(tmp_path, "library")) == [
        ("mylib/ops.py", 2, "TRN241", ""),
        ("mylib/ops.py", 6, "TRN241", DEAD),
        ("scripts/convert.py", 2, "TRN241", DEAD),
    ]


def test_a_generic_package_name_is_no_library(tmp_path):
    # setup.py collects every folder with find_packages(): `models` is an application's folder (installed, it would
    # collide with every other project's `models`), so its unnamed define_G is judged; mylib stays library API
    assert findings(_copy(tmp_path, "generic_app")) == [
        ("models/networks_other.py", 2, "TRN241", DEAD),
        ("models/networks_other.py", 6, "TRN241", ""),
        ("mylib/ops.py", 2, "TRN241", ""),
        ("mylib/ops.py", 6, "TRN241", ""),
    ]


def test_a_module_path_in_an_import_names_no_function(tmp_path):
    # `from model.data_parallel import DataParallel` and `import model.data_parallel as dp_module` name the module
    # data_parallel.py: its function data_parallel stays unnamed (CenterTrack's copy of DataParallel's functional form)
    assert findings(_copy(tmp_path, "module_named")) == [
        ("model/data_parallel.py", 5, "TRN243", DEAD),
        ("model/data_parallel.py", 10, "TRN352", ""),
    ]


def test_a_scan_of_part_of_a_project_judges_nothing(tmp_path):
    # the folder above holds setup.py: the rest of the project may call anything here
    assert findings(_copy(tmp_path, "library") / "mylib") == [
        ("ops.py", 2, "TRN241", ""),
        ("ops.py", 6, "TRN241", ""),
    ]


def _state(path, cache):
    proc = run_cli("scan", path, "--format", "json", "--cache-dir", cache, "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]
            if f["path"] == "models/utils.py" and f["line"] in (16, 72)]


def test_warm_rescan_follows_a_new_mention_in_another_file(tmp_path):
    proj = _copy(tmp_path, "dead")
    cache = tmp_path / "cache"
    cold = _state(proj, cache)
    assert cold == [("models/utils.py", 16, DEAD), ("models/utils.py", 72, DEAD)]
    assert _state(proj, cache) == cold
    (proj / "configs" / "run.yaml").write_text("model:\n  hook: _private_dead\n")
    assert _state(proj, cache) == [("models/utils.py", 16, DEAD), ("models/utils.py", 72, "")]


def test_top_definitions_read_from_the_text():
    src = ("import x\n\n@reg\n@other(\n  a=1,\n)\ndef f(a,\n):\n    return 1\n    # c\n\n# comment\nX = 1\n"
           "class C(B):\n    y = 2\n\n    def m(self):\n        pass\n\n\nif __name__ == '__main__':\n    f()\n"
           "async def g():\n    pass")
    assert [d[:4] for d in top_definitions(src)] == [("f", 3, 9, True), ("C", 14, 18, False), ("g", 23, 24, False)]
    assert [d[:4] for d in top_definitions(src + "\n\n")] == [d[:4] for d in top_definitions(src)]
    # the text of a definition ends with its last line of code
    d = top_definitions(src)[0]
    assert src[d[4]:d[5]].startswith("@reg") and src[d[4]:d[5]].endswith("return 1")
    # a file with lone carriage returns is not read
    assert top_definitions("def f():\r    pass\r") == []


def test_sibling_scripts_defining_the_same_helper_and_commented_out_calls(tmp_path):
    # demo/vis_*.py each define warmup_model and never call it (tools/batch_size.py holds only a commented-out
    # call): another script's `def warmup_model(` and `# warmup_model(...)` are no mention
    assert findings(_copy(tmp_path, "scripts_demo")) == [
        ("demo/features.py", 7, "TRN191", ""),  # `# feat = Feature()` in its own module still counts
        ("demo/vis_depth.py", 5, "TRN241", DEAD),
        ("demo/vis_depth.py", 10, "TRN241", ""),  # load_model: called by main in this script
        ("demo/vis_depth.py", 15, "TRN241", ""),
        # the checkpoint path given to main enters load_model's torch.load (no map_location): reported where it
        # enters, with the chain (line 10 holds the .cuda() move of the same line's load)
        ("demo/vis_depth.py", 19, "TRN351", ""),
        ("demo/vis_normal.py", 5, "TRN241", DEAD),
        ("demo/vis_normal.py", 10, "TRN241", ""),
        ("demo/vis_normal.py", 15, "TRN241", ""),
        ("demo/vis_normal.py", 19, "TRN351", ""),
        ("demo/vis_seg.py", 5, "TRN241", DEAD),
        # load_model: the siblings call their own load_model (each file's call refers to its own definition)
        ("demo/vis_seg.py", 10, "TRN241", DEAD),
        ("demo/vis_seg.py", 14, "TRN351", ""),
        ("demo/vis_seg.py", 15, "TRN241", ""),
        ("tools/batch_size.py", 7, "TRN241", ""),
        ("tools/prepare.py", 5, "TRN241", ""),  # prepare_inputs: named in prose in a comment of batch_size.py
    ]


def test_a_usage_example_in_its_own_module_is_no_mention(tmp_path):
    # attention.py imports only torch_dfs from reference_pipeline.py; ReferencePipeline is named only in the
    # module's EXAMPLE_DOC_STRING (`>>> pipe = ReferencePipeline.from_pretrained(...)`); DocumentedPipeline is
    # named in README.md
    assert findings(_copy(tmp_path, "pipelines")) == [
        ("models/reference_pipeline.py", 22, "TRN241", DEAD),
        ("models/reference_pipeline.py", 29, "TRN241", ""),
    ]


def test_dead_holders_foreign_names_headers_and_commented_code(tmp_path):
    # compute_edges is named only in avg_edge_length, which nothing names (followed up to MAX_HOLDER_DEPTH
    # levels: deep_helper's chain of four holders is longer, so it is kept); ping and pong name only each other;
    # segment_sum is named only in the comment block above its own def; Resize only as torchvision's
    # (`from torchvision.transforms import Resize`, `T.Resize`, `torchvision.transforms.Resize`);
    # CUDAPrefetcher sits in a package that train.py looks a module up in, but the name taken from that module is
    # written out (`core.__dict__[version].__dict__["Trainer"]`); _convert_mlp_traced is named only in code left
    # commented out in another module (`# prior.apply(_convert_mlp_traced)`)
    assert findings(_copy(tmp_path, "reach")) == [
        ("audio/modules.py", 6, "TRN241", DEAD),
        ("audio/modules.py", 11, "TRN241", ""),  # Normalize: a string names it (`dict(type="Normalize")`)
        ("audio/modules.py", 16, "TRN241", ""),  # Blur: `modules.Blur()`, beside kornia's Blur
        ("core/prefetch.py", 11, "TRN243", DEAD),
        ("prior/transformer.py", 2, "TRN241", DEAD),
        ("prior/transformer.py", 6, "TRN241", ""),  # named in prose in a comment
        ("render/mesh.py", 5, "TRN241", DEAD),
        ("render/mesh.py", 9, "TRN241", ""),  # live_edges: named in laplace, which train.py calls
        ("render/mesh.py", 13, "TRN241", ""),  # in_method: named in a method of a class train.py uses
        ("render/mesh.py", 17, "TRN241", ""),  # deep_helper: the chain of holders is longer than the bound
        ("render/mesh.py", 21, "TRN241", DEAD),
        ("render/mesh.py", 33, "TRN241", DEAD),
    ]


def test_mentions_helpers():
    from trnready.project.mentions import commented_code, foreign_at, foreign_names, header_start

    text = "x = 1\n\n#---\n# like tf.f\n#---\n\ndef f():\n    pass\n"
    assert text[header_start(text, text.index("def f")):].startswith("#---\n# like")
    assert header_start("def f():\n    pass\n", 0) == 0
    src = ("import torchvision\nimport torch.distributed as dist\nfrom torchvision.transforms import (\n    Resize,\n"
           "    Compose as C,\n)\nfrom .local import Blur\nfrom mypkg.ops import Pad\nfrom kornia import Pad\n")
    foreign = foreign_names(src, frozenset({"mypkg"}))
    assert foreign == {"torchvision", "dist", "Resize", "C"}  # Pad is bound by a project import too
    line = "y = dist.all_gather(x) + Resize(2) + 'Resize' + ops.Resize\n"
    at = [i for i in range(len(line)) if line.startswith(("all_gather", "Resize"), i)]
    assert [foreign_at(line, i, foreign, line[i:i + 6].rstrip("(")) for i in at] == [True, True, False, False]
    assert commented_code("    # prior.apply(fn)") and commented_code("# x = fn(y)")
    assert not commented_code("# fn is the slow path") and not commented_code("# fn") and not commented_code("#")


def test_a_top_level_module_used_by_attribute_picks_no_other_name_of_it(tmp_path):
    # VAR: `import dist` then `dist.initialize()`: the attribute names initialize only, so set_gpu_id and allgather,
    # named nowhere, are dead; a dotted path in a string (`"dist.picked_by_string"`, a config written in code) may
    # pick any name of the module: picked_by_string is kept, and so is everything else of the module
    got = findings(_copy(tmp_path, "top_module"))
    assert len(got) == 5 and all(f[3] == "" for f in got)
    gone = tmp_path / "top_module_plain"
    shutil.copytree(ROOT / "top_module", gone)
    train = gone / "train.py"
    train.write_text(train.read_text().replace('TARGETS = {"target": "dist.picked_by_string"}\n', ""))
    assert findings(gone) == [
        ("dist.py", 8, "TRN241", ""),  # initialize: called by train.py
        ("dist.py", 13, "TRN241", DEAD),  # set_gpu_id: named nowhere
        ("dist.py", 17, "TRN241", DEAD),  # allgather: named nowhere
        ("dist.py", 21, "TRN241", DEAD),  # picked_by_string: no longer named
        ("dist.py", 25, "TRN241", ""),  # reduced: imported and called
    ]


TRITON_MODEL = '''import torch


class TritonPythonModel:
    def initialize(self, args):
        self.device = torch.device("cuda")

    def execute(self, requests):
        torch.cuda.synchronize()
        return requests


class OldRunner:
    def run(self, x):
        return x.cuda()
'''


def test_the_model_class_triton_loads_is_an_entry_point(tmp_path):
    # Triton Inference Server's Python backend loads `TritonPythonModel` from <repository>/<model>/<version>/model.py
    # by name: nothing in the project names it, but the server runs it. Look-alike: another class of that file that
    # nothing names stays guarded
    (tmp_path / "model_repo/encoder/1").mkdir(parents=True)
    (tmp_path / "model_repo/encoder/1/model.py").write_text(TRITON_MODEL)
    (tmp_path / "client.py").write_text("import model\n\nprint(model.__name__)\n")
    assert [f for f in findings(tmp_path) if f[0] != "client.py"] == [
        ("model_repo/encoder/1/model.py", 6, "TRN242", ""),
        ("model_repo/encoder/1/model.py", 9, "TRN243", ""),
        ("model_repo/encoder/1/model.py", 15, "TRN241", DEAD),
    ]


def test_copies_in_a_monorepo_re_exports_imports_and_registries(tmp_path):
    # squad/ and glue/ are independent examples holding copies of one model file; a mention refers to the
    # definition its file binds: its own module-level copy, or the project module its import names
    assert findings(_copy(tmp_path, "monorepo")) == [
        ("glue/bertlib/modeling.py", 9, "TRN241", ""),  # run_glue imports it through its package's __init__
        ("glue/run_glue.py", 3, "TRN241", ""),
        ("squad/heads.py", 10, "TRN241", ""),  # registered, and a config builds it by its name
        ("squad/heads.py", 16, "TRN241", DEAD),  # registered by its own name, which no config or file writes
        ("squad/heads.py", 22, "TRN241", ""),  # registered under another name
        ("squad/heads.py", 27, "TRN243", ""),  # @atexit.register runs it unnamed
        ("squad/run_squad.py", 5, "TRN241", ""),
        ("squad/turing/modeling.py", 6, "TRN241", DEAD),  # Head: only PretrainModel, which nothing names, uses it
        # TokenModel: glue's __init__ imports the glue copy, glue's copy names itself, and squad's own __init__
        # only hands it on (re-export, __all__) to importers there are none of
        ("squad/turing/modeling.py", 17, "TRN241", DEAD),
        ("squad/turing/modeling.py", 22, "TRN241", ""),
        # extra.py imports gpu_helper at its top but calls it only in never_called, which nothing names
        ("squad/turing/utils.py", 5, "TRN243", DEAD),
    ]


def test_an_import_nothing_uses_hands_the_name_on(tmp_path):
    # engine.py imports parse_devices and never uses it: a re-export nobody imports from, so the helper is dead;
    # free_cache reaches train.py through the same kind of import, and dispatch.py looks names up in globals()
    assert findings(_copy(tmp_path, "reexport")) == [
        ("utils/pyt_utils.py", 5, "TRN243", DEAD),
        ("utils/pyt_utils.py", 9, "TRN243", ""),
        ("utils/pyt_utils.py", 13, "TRN243", ""),
        ("utils/pyt_utils.py", 17, "TRN243", ""),
        ("utils/pyt_utils.py", 21, "TRN243", ""),  # imported under another name, which alias_user.py calls
    ]


def test_binding_and_registry_helpers():
    from trnready.project.mentions import defines_at_top, imports_name, name_imports
    from trnready.project.unreferenced import _elsewhere, _registered, _resolver

    text = "from .modeling import (A,\n    Tok as T)\nfrom pkg.sub import Tok\nimport os\n"
    assert [m for _, _, m in name_imports(text, "Tok")] == [".modeling", "pkg.sub"]
    assert name_imports(text, "os") == [] and imports_name(text, "os") and imports_name(text, "sub")
    assert defines_at_top("x = 1\nclass Tok(B):\n    pass\n", "Tok")
    assert not defines_at_top("if x:\n    def Tok():\n        pass\n", "Tok")
    assert not defines_at_top("def Token():\n    pass\n", "Tok")
    py = dict.fromkeys(["a/pkg/__init__.py", "a/pkg/modeling.py", "b/pkg/modeling.py", "a/run.py"])
    resolve = _resolver(py)
    assert resolve("a/pkg/__init__.py", ".modeling") == {"a/pkg/modeling.py"}
    assert resolve("a/pkg/modeling.py", ".") == {"a/pkg/__init__.py"}
    assert resolve("a/run.py", "pkg.modeling") == {"a/pkg/modeling.py", "b/pkg/modeling.py"}
    assert resolve("a/run.py", "torch.nn") == frozenset()
    assert _elsewhere(frozenset({"b/pkg/modeling.py"}), "a/pkg/modeling.py")
    assert not _elsewhere(frozenset({"a/pkg/__init__.py"}), "a/pkg/modeling.py")  # the package may re-export it
    assert not _elsewhere(frozenset(), "a/pkg/modeling.py")  # no project file: may be this one
    cases = [("@MODELS.register_module()\nclass A:\n", True), ("@register_model\ndef f():\n", True),
             ("@BACKBONE_REGISTRY.register()\nclass B:\n", True), ("@HEADS.register_module\nclass A:\n", True),
             ("@MODELS.register_module(name='x')\nclass A:\n", False),
             ("@MODELS.register_module()\n@other\nclass A:\n", False), ("@atexit.register\ndef f():\n", False),
             ("@fn.register\ndef _(x):\n", False), ("@triton.jit\ndef k():\n", False)]
    for src, judged in cases:
        assert _registered(src, 0) is judged, src


def test_a_function_a_program_running_at_import_never_calls_is_dead(tmp_path):
    # chat_demo.py parses its command line and prints at its top level: nobody imports it to call a function, so
    # setup_determinism, which it never calls (a `setup_*` name that is no pytest or nose hook), never runs;
    # helpers_tool.py only defines things outside its `__main__` block: a tool someone may import by hand;
    assert findings(_copy(tmp_path, "program_at_import")) == [
        ("chat_demo.py", 7, "TRN261", DEAD),
        ("chat_demo.py", 12, "TRN241", ""),  # load: called at the top level
        ("helpers_tool.py", 5, "TRN261", ""),
        ("helpers_tool.py", 10, "TRN241", ""),
        # a print in an import guard runs no program: an agent file an evaluation tool loads by its path
        ("path_agent.py", 11, "TRN243", ""),
    ]


def test_helpers_only_a_refusing_entry_function_reaches(tmp_path):
    # frozen_train.main() raises before doing anything, so run() and train_one_epoch(), reached only from it, never
    # run (run is an entry name, judged here because the module refuses to run); export.py imports the model
    # helpers, which stay reported (the README and run.sh name `run` in prose, which is followed from what other
    # files import instead); train.py's run() and main() do not raise and are never judged
    assert findings(_copy(tmp_path, "refusing")) == [
        ("recipe/frozen_train.py", 8, "TRN242", ""),
        ("recipe/frozen_train.py", 16, "TRN251", DEAD),
        ("recipe/frozen_train.py", 18, "TRN241", DEAD),
        ("recipe/frozen_train.py", 22, "TRN271", DEAD),
        ("recipe/frozen_train.py", 23, "TRN273", DEAD),
        ("recipe/frozen_train.py", 23, "TRN241", DEAD),
        ("recipe/train.py", 5, "TRN241", ""),
        ("recipe/train.py", 10, "TRN241", ""),
    ]


def test_raises_first():
    from trnready.project.unreferenced import _raises_first

    for src, want in [("def main():\n    raise RuntimeError('no')\n    go()\n", True),
                      ('def main():\n    """Doc."""\n    raise SystemExit(1)\n', True),
                      ("def main():\n    if x:\n        raise RuntimeError('no')\n    go()\n", False),
                      ("def main():\n    go()\n    raise RuntimeError('done')\n", False),
                      ("class main:\n    pass\n", False)]:
        assert _raises_first(src, 0, len(src)) is want, src


def test_a_repository_imported_under_its_own_folder_name(tmp_path):
    # mae_st's scripts import `from mae_st.engine_pretrain import train_one_epoch`: the head is the scanned folder
    # itself (run from the folder above it), not a library, so the function is named and stays reported
    root = tmp_path / "mae_proj"
    root.mkdir()
    (root / "engine.py").write_text("import torch\n\n\ndef train_one_epoch(x):\n    return x.cuda()\n\n\n"
                                    "def unused(x):\n    return x.cuda()\n")
    (root / "main.py").write_text("from mae_proj.engine import train_one_epoch\n\n"
                                  "if __name__ == '__main__':\n    train_one_epoch(1)\n")
    assert findings(root) == [("engine.py", 5, "TRN241", ""), ("engine.py", 9, "TRN241", DEAD)]


def test_a_package_init_is_judged_for_what_it_defines_not_for_what_it_imports(tmp_path):
    # DiffSinger's utils/__init__.py holds the project's helpers: `remove_padding`, which no file names, is dead;
    # `to_cuda` is imported by train.py; `ops.helper` re-exported by the __init__ stays its module's to judge
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text(
        "import torch\nfrom .ops import helper\n\n\ndef remove_padding(x, mask):\n    return x[mask.cuda()]\n\n\n"
        "def to_cuda(x):\n    return x.cuda()\n")
    (tmp_path / "utils" / "ops.py").write_text("def helper(x):\n    return x.cuda()\n")
    (tmp_path / "train.py").write_text("from utils import to_cuda, helper\n\nprint(to_cuda(1), helper(2))\n")
    assert findings(tmp_path) == [
        ("utils/__init__.py", 6, "TRN241", DEAD),
        ("utils/__init__.py", 10, "TRN241", ""),
        ("utils/ops.py", 2, "TRN241", ""),
    ]


def test_a_definition_the_module_binds_again_below_before_using_it_is_dead(tmp_path):
    # DiffSinger's source.py defines SineGen twice; PulseGen between them builds one in a method, which runs after
    # the module bound the second. Helper is aliased at module level between its two definitions: the first stays
    (tmp_path / "source.py").write_text(
        "import torch\n\n\nclass SineGen:\n    def f(self, x):\n        return x.cuda()\n\n\n"
        "class PulseGen:\n    def __init__(self):\n        self.gen = SineGen()\n\n\n"
        "def helper(x):\n    return x.cuda()\n\n\nALIAS = helper\n\n\n"
        "class SineGen:\n    def f(self, x):\n        return x.cuda()\n\n\n"
        "def helper(x):\n    return x.cuda()\n")
    (tmp_path / "train.py").write_text("from source import SineGen, PulseGen, ALIAS, helper\n\n"
                                       "print(SineGen(), PulseGen(), ALIAS, helper)\n")
    assert findings(tmp_path) == [
        ("source.py", 6, "TRN241", DEAD),
        ("source.py", 15, "TRN241", ""),
        ("source.py", 23, "TRN241", ""),
        ("source.py", 27, "TRN241", ""),
    ]


def test_a_cut_down_framework_fork_shipped_under_its_name_is_no_library(tmp_path):
    # libfacedetection.train ships a trimmed mmdetection as `mmdet` (setup.py declares it) to train YuNet: without
    # the framework's test suite, its public names serve the repository's configs only, so an unused sampler is dead;
    # with a tests/ folder (the framework itself) the package stays a library whose public names are its API
    (tmp_path / "setup.py").write_text("from setuptools import setup, find_packages\n"
                                       "setup(name='mmdet', packages=find_packages())\n")
    (tmp_path / "mmdet" / "samplers").mkdir(parents=True)
    (tmp_path / "mmdet" / "__init__.py").write_text("")
    (tmp_path / "mmdet" / "samplers" / "__init__.py").write_text("from .random import RandomSampler, Pseudo\n")
    (tmp_path / "mmdet" / "samplers" / "random.py").write_text(
        "import torch\n\n\nclass RandomSampler:\n    def pick(self, x):\n        return x.nonzero().cuda()\n\n\n"
        "class Pseudo:\n    def pick(self, x):\n        return x.cuda()\n")
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "yunet.py").write_text("sampler = dict(type='Pseudo')\n")
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "train.py").write_text("import mmdet.samplers\n\nprint(mmdet.samplers)\n")
    assert [f for f in findings(tmp_path) if f[2] == "TRN241"] == [
        ("mmdet/samplers/random.py", 6, "TRN241", DEAD),
        ("mmdet/samplers/random.py", 11, "TRN241", ""),
    ]
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_samplers.py").write_text("from mmdet.samplers import RandomSampler\n")
    assert [f for f in findings(tmp_path) if f[2] == "TRN241"] == [
        ("mmdet/samplers/random.py", 6, "TRN241", ""),
        ("mmdet/samplers/random.py", 11, "TRN241", ""),
    ]


def test_a_subclass_shadowing_the_imported_base_holds_it(tmp_path):
    # neuralangelo: `from imaginaire.trainers.base import BaseTrainer` then `class BaseTrainer(BaseTrainer):` in
    # projects/nerf, subclassed by the trainer a config picks by module path: the base's mention sits inside another
    # module's definition of the same name, a holder that is used, so the base is used; a class nothing names is not
    assert findings(_copy(tmp_path, "shadowing_subclass")) == [
        ("imaginaire/trainers/base.py", 6, "TRN243", ""),
        ("imaginaire/trainers/base.py", 11, "TRN243", DEAD),
    ]


def test_an_import_from_another_copy_names_that_copy_only(tmp_path):
    # diffaug_SimCLR (fresh85): main.py imports PGD from attack.py, main2.py from attack2.py, a copy of it, and
    # neither uses it. main2's import names attack2's PGD, not attack.py's: both classes are dead, while the
    # train_step each script calls stays reported
    assert findings(_copy(tmp_path, "script_copies")) == [
        ("attack.py", 6, "TRN122", DEAD), ("attack.py", 6, "TRN241", DEAD), ("attack.py", 10, "TRN241", ""),
        ("attack2.py", 6, "TRN122", DEAD), ("attack2.py", 6, "TRN241", DEAD), ("attack2.py", 10, "TRN241", ""),
    ]
