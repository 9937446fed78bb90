"""YAML and JSON files: training configs and CI workflows, read by their keys; every file's lines too.

A YAML or JSON file is first read line by line like any other line-oriented kind (readers/lines.py). Then
its role decides what more is read from its outline (readers/outline.py):

- **ci** (GitHub Actions, GitLab CI, CircleCI, Buildkite, Azure Pipelines, by path): readers/ci.py, plus
  the catalogue's `setting` matchers with role = "ci" (GPU runners);
- **config** (a training config: Hydra, torchtune, Lightning CLI, Hugging Face / TRL / axolotl recipes,
  Accelerate and DeepSpeed configs): the `setting` matchers with role = "config", and every dotted path under
  `_component_`, `_target_` or `class_path`, resolved through the same catalogue tables as a Python import;
- **container** (a container build definition read by its keys: Replicate's `cog.yaml`): the `setting`
  matchers with role = "container" (`build.gpu: true`, `build.python_version`), and the requirement rules over
  the package specs of `build.python_packages`;
- anything else (data, docs, issue forms, dependabot, Kubernetes manifests, compose files): lines only.

A file is a config by its keys: a Hydra/torchtune component key anywhere, or at least two top-level keys
that only training configs use, or one of them in a file under a config folder (configs/, recipes/, ...).
"""
from __future__ import annotations

import bisect
import fnmatch
import re
from dataclasses import replace

from . import lines as line_reader
from .config_dirs import CONFIG_DIRS, in_config_dir_parts
from .component_calls import COMPONENT_KEYS, component_call_findings, components
from .context import FileContext, ReadResult
from .emit import Emitter, msg
from .outline import Entry, outline, top_keys

# Keys that make a config (a file, or a dict built in code) the DeepSpeed engine's: its `setting` matchers of role
# "deepspeed" apply there only
DS_KEYS = frozenset({"zero_optimization", "train_micro_batch_size_per_gpu"})
# Keys naming a registry entry rather than a dotted path: a config of their own only inside a config folder
REGISTRY_KEYS = ("_name_",)
# Top-level keys of training configs (Hydra / torchtune / Lightning / HF TrainingArguments / TRL / axolotl /
# Accelerate / DeepSpeed / Megatron); a data file, a docs page or a deployment manifest has at most one of them.
TRAINING_KEYS = frozenset({
    "trainer", "model", "optimizer", "optim", "lr", "learning_rate", "batch_size", "per_device_train_batch_size",
    "micro_batch_size", "gradient_accumulation_steps", "base_model", "model_name_or_path", "output_dir",
    "num_epochs", "num_train_epochs", "epochs", "max_steps", "max_epochs", "device", "dtype", "precision",
    "distributed", "compute_environment", "distributed_type", "mixed_precision", "deepspeed", "deepspeed_config",
    "fsdp", "fsdp_config", "lr_scheduler", "scheduler", "loss", "tokenizer", "checkpointer", "accelerator",
    "devices", "strategy", "fp16", "bf16", "tf32", "zero_optimization", "train_micro_batch_size_per_gpu",
    "train_batch_size", "gradient_clipping", "launcher", "compile", "attn_implementation", "load_in_4bit",
    "load_in_8bit", "torch_dtype", "gradient_checkpointing", "warmup_steps", "weight_decay", "seed",
    "num_processes", "flash_attention", "sequence_len", "adapter", "lora_r", "training", "train", "dist_backend",
    # flash-attn's model config switch (`use_flash_attn: True` of a layer config beside `num_heads`), the
    # counterpart of `flash_attention` / `attn_implementation` above: a data file or a docs page does not set it
    "use_flash_attn",
    # Megatron / GPT-NeoX: model-parallel training configs that split model and training settings over files
    "pipe_parallel_size", "model_parallel_size", "tensor_model_parallel_size", "pipeline_model_parallel_size",
    "train_iters", "attention_config",
    # BasicSR and the restoration projects built on it (Real-ESRGAN, GFPGAN, ...): `num_gpu`, `manual_seed`,
    # `dist_params` sit at the top of every train and test option file
    "num_gpu", "manual_seed", "dist_params",
})
# Never configs: repository metadata, docs sites, linters, deployment and compose files.
_NOT_CONFIG_NAMES = frozenset({
    ".pre-commit-config.yaml", ".pre-commit-hooks.yaml", "mkdocs.yml", "mkdocs.yaml", ".readthedocs.yml",
    ".readthedocs.yaml", "codecov.yml", ".codecov.yml", "dependabot.yml", "_config.yml", "chart.yaml",
    ".yamllint", ".yamllint.yml", "package.json", "package-lock.json", "tsconfig.json", "renovate.json",
    "citation.cff", ".markdownlint.yaml", "environment.yml", "meta.yaml", "docker-compose.yml",
    "docker-compose.yaml", "compose.yml", "compose.yaml",
})
_NOT_CONFIG_DIRS = frozenset({".github", "docs", "doc", ".devcontainer", ".vscode", "templates", "node_modules"})
_CI_PATHS = ("/.github/workflows/*.y*ml", "/.gitlab-ci.yml", "/*.gitlab-ci.yml", "/.gitlab/ci/*.y*ml",
             "/.gitlab/*.gitlab-ci.yml", "/.circleci/*.y*ml", "/.buildkite/*.y*ml", "/buildkite.y*ml",
             "/azure-pipelines.y*ml", "/.azure-pipelines/*.y*ml", "/.azure/*.y*ml",
             "/.github/actions/*/action.y*ml",  # local composite actions: steps of the workflows' jobs
             "/.travis.y*ml")
# Container build definitions whose keys say what the image holds (Replicate Cog: build.gpu, build.python_version).
_CONTAINER_NAMES = frozenset({"cog.yaml", "cog.yml"})


def role_of(rel: str, entries: list[Entry]) -> str | None:
    """"ci", "config", "container" or None (read line by line only)."""
    path = "/" + rel.lower()
    if any(fnmatch.fnmatchcase(path, "*" + p) for p in _CI_PATHS):
        return "ci"
    parts = path.split("/")[1:]
    name = parts[-1]
    if name in _CONTAINER_NAMES and "build" in top_keys(entries):
        return "container"
    if name in _NOT_CONFIG_NAMES or any(p in _NOT_CONFIG_DIRS for p in parts[:-1]):
        return None
    top = top_keys(entries)
    if "apiversion" in {k.lower() for k in top} and "kind" in {k.lower() for k in top}:
        return None  # a Kubernetes / Kubeflow manifest: its GPU requests are line matchers' business
    if "services" in top or ("dependencies" in top and ("channels" in top or "name" in top)):
        return None  # compose and conda files
    if any(e.value is None and e.path and e.path[-1] in COMPONENT_KEYS for e in entries):
        return "config"
    known = len({k.lower() for k in top} & TRAINING_KEYS)
    known = max(known, _section_known(entries))
    config_dir = in_config_dir_parts(parts)
    if known >= 2 or (known and config_dir):
        return "config"
    if config_dir and _section_known(entries, any_name=True) >= 2:
        return "config"  # `meta: {training: true, device: cuda:0}`: settings grouped under sections of any name
    if "defaults" in top and config_dir:
        return "config"  # a Hydra config group file
    if config_dir and any(e.value is not None and len(e.path) >= 2 and e.path[-1] in REGISTRY_KEYS for e in entries):
        # a node naming the registry entry it builds (`model_config: {_name_: lm, ...}`: the state-spaces family's
        # `instantiate(registry.model, config)` passes the node's other keys to the class as keywords). A file that
        # is itself one entry's options (`configs/dataset/hmdb51.yaml` with a top-level `_name_`) is a config group
        # file, judged by its keys like any other
        return "config"
    if "hydra" in top:
        return "config"  # Hydra's own node (launcher, sweeps): a run-config overlay holding only `hydra.launcher`
    if _RUNX_KEYS <= top:
        return "config"  # a runx experiment: `HPARAMS` holds the flags `CMD` (the training command) is run with
    return None


# NVIDIA runx experiment files (`CMD: "python -m torch.distributed.launch ... train.py"` and `HPARAMS: [{apex: true,
# fp16: true, ...}]`): each key of HPARAMS becomes a `--key value` flag of CMD, so the file is the run's training
# config whatever folder it sits in and however few of its keys are training keys
_RUNX_KEYS = frozenset({"CMD", "HPARAMS"})


# Top-level sections that group a training config's keys (`"train_config": {"epochs": ..., "learning_rate": ...}`,
# `"dist_config": {...}`: NVIDIA's WaveGlow / Tacotron 2 JSON configs and the TTS recipes derived from them).
_SECTION = re.compile(r"^[a-z]\w*_(?:config|cfg|conf|params|hparams|args|opts|options)$", re.I)


def _section_known(entries: list[Entry], any_name: bool = False) -> int:
    """The most training keys any one `*_config` section holds directly: a file whose training keys sit in named
    sections is a training config as much as one holding them at the top. Such a section counts at any depth (a
    sweep file's `SETUP: BASE_CFG: {TRAIN: ..., OPTIM: ...}` is the config every run of the sweep starts from).
    `any_name`: top-level sections of any name count (for a file in a config folder, where a run's settings are
    often grouped under `meta:` or `run:`); two of their keys are still needed, as a data file's section rarely
    holds two."""
    got: dict = {}
    for e in entries:
        p = e.path
        if len(p) < 2 or "-" in p or p[-1].lower() not in TRAINING_KEYS:
            continue
        if (any_name and len(p) == 2) or (not any_name and _SECTION.match(p[-2])):
            got.setdefault(p[:-1], set()).add(p[-1].lower())
    return max((len(v) for v in got.values()), default=0)


_PACKAGE = re.compile(r"(?m)^#\s*@package\s+(?P<name>[\w.]+)\s*$")


def hydra_node(rel: str, text: str, entries: list[Entry]) -> tuple:
    """The node a Hydra config group file is merged at: a file with a `defaults` list in a folder below a config
    folder (`training/configs/trainer/ddp.yaml`) holds the keys of `trainer`, so its `accelerator: gpu` is
    `trainer.accelerator` (Lightning reads it). A `# @package` header says otherwise (`_global_`: the root)."""
    if "defaults" not in top_keys(entries):
        return ()
    m = _PACKAGE.search(text[:2000])
    if m is not None and not m.group("name").startswith("_group_"):
        name = m.group("name")
        return () if name.startswith("_global_") else tuple(k for k in name.split(".") if k)
    parts = rel.split("/")
    at = [i for i, p in enumerate(parts[:-1]) if p.lower() in CONFIG_DIRS or "config" in p.lower()]
    return tuple(parts[at[-1] + 1:-1]) if at else ()


def _suffix(keys: tuple[str, ...], pattern: tuple[str, ...]) -> bool:
    if len(keys) < len(pattern):
        return False
    tail = keys[len(keys) - len(pattern):]
    # `distributed-backend` (argparse spelling) and `distributed_backend` are one key; so are
    # `_attn_implementation` (a private config field mirroring Transformers' own) and `attn_implementation`.
    return all(fnmatch.fnmatchcase(_key(k), p.lower().replace("-", "_")) for k, p in zip(tail, pattern))


def _key(k: str) -> str:
    k = k.lower().replace("-", "_")
    return k.lstrip("_") or k


def _has_word(value: str, globs) -> bool:
    """`linux.g5.12xlarge.nvidia.gpu`, `aws-g4dn-metal`: a word of the value (split at anything but letters
    and digits, lower-case) matches one of the globs."""
    return any(fnmatch.fnmatchcase(t, g) for t in re.split(r"[^a-z0-9]+", value.lower()) if t for g in globs)


_QUOTED = re.compile(r"'([^']*)'|\"([^\"]*)\"")


def literal_words(value: str) -> str:
    """The value as written, or for a GitHub expression only its quoted literals: `${{ needs.setup.outputs.label ||
    'L20x8' }}` runs on L20x8 unless a caller says otherwise; the names of inputs and outputs are not machines."""
    if "${{" not in value:
        return value
    return " ".join(a or b for a, b in _QUOTED.findall(value))


def _value_in(value: str, globs) -> bool:
    v = _python_string(value.strip()).lower()
    return any(fnmatch.fnmatchcase(v, g) for g in globs)


def _python_string(value: str) -> str:
    """The text of a value written as a Python string literal, else the value. Configs a project evaluates
    (`eval(config, {}, ...)`) quote their strings twice, as YAML and as Python: efficient_det_pytorch's
    `device: '''cuda'''` is the YAML string `'cuda'`, which the code turns into `"cuda"` (blind80, 45 labels)."""
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"" and value[0] not in value[1:-1]:
        return value[1:-1]
    return value


def setting_findings(entries: list[Entry], role: str, lines: list[str], engine, em: Emitter, rel: str = "",
                     notes: list | None = None, node: tuple = ()) -> None:
    """The catalogue's `setting` matchers of this role against the file's scalars. `notes`: a list to receive
    [line, rule, keys the project's code must name] of each finding (project/config_keys.py); `node`: the keys a
    Hydra config group places the file under (`configs/trainer/ddp.yaml` is the `trainer` node)."""
    matchers = [(r, m) for r, m in engine.surface.get("setting", ()) if m.role == role]
    if any(m.files for _, m in matchers):
        # `files = ["yaml", "json"]`: a setting matcher for config documents only, not the flags of a launch command
        # or a Python config module read as settings too
        from ..filekinds import kind_of

        kind = kind_of(rel.rsplit("/", 1)[-1]) if rel else None
        matchers = [(r, m) for r, m in matchers if not m.files or kind in m.files]
    scalars = [e for e in entries if e.value is not None and e.keys]
    present = [(r, m) for r, m in matchers if m.present]
    if present:
        # a key's presence counts only beside the settings the matcher names (`fp16:` of an mmcv config, whose
        # `loss_scale` child says what it is, and no `fp16.enabled` of a DeepSpeed section)
        present = [(r, m) for r, m in present if _settings_hold(m, scalars)]
        _present_findings(entries, present, lines, em)
        matchers = [(r, m) for r, m in matchers if not m.present]
    if not matchers:
        return
    if role == "ci":
        from .ci import matrix_runners

        # `runs-on: ${{ matrix.os }}`: the machines are the matrix values, read where they are written
        scalars += matrix_runners(rel, entries)
        # The inputs of a step's action (`uses: docker/build-push-action` + `with: tags: org/x-gpu`) are not
        # the job's settings: a runner is chosen by the job, not by what one step passes to an action.
        # Nor is a workflow's trigger (`on: push: tags: [ciflow/rocm/*]`): it says when a workflow runs, not where.
        scalars = [e for e in scalars if not _step_input(e.keys) and e.keys[0] != "on"]
    compiled = [(r, m, [tuple(n.split(".")) for n in m.names]) for r, m in matchers]
    satisfied: dict = {}

    def is_set(key: str, globs, command: int) -> bool:
        """Some scalar of the file (of the same launch command, for a shell flag) sets `key` to one of `globs`."""
        k = (key, globs, command)
        if k not in satisfied:
            pat = tuple(key.split("."))
            satisfied[k] = any(_suffix(o.keys, pat) and _value_in(o.value, globs) for o in scalars
                               if o.command == command)
        return satisfied[k]

    def with_ok(m, command: int) -> bool:
        return all(is_set(key, globs, command) for key, globs in m.with_setting) and not any(
            is_set(key, globs, command) for key, globs in m.without_setting)

    words = {m.value_words: tuple(w.lower() for w in engine.catalogue.context_values.get(m.value_words, ()))
             for _, m in matchers if m.value_words}
    off = switched_off_blocks(entries, scalars, engine.catalogue.context_values.get("switch-off-keys", ()))
    for e in scalars:
        if off and off.covers(e):
            continue
        for rule, m, pats in compiled:
            pat = next((p for p in pats if _suffix(e.keys, p)), None)
            if pat is None or not (_value_in(e.value, m.values) or (
                    m.value_words and _has_word(literal_words(e.value), words[m.value_words]))):
                continue
            if (m.with_setting or m.without_setting) and not with_ok(m, e.command):
                continue
            snippet = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
            shown = _shown(e, len(pat), snippet)
            before = len(em.out)
            em.add(rule, m, e.line, e.col, e.end_col, snippet, msg(rule, m, shown), shown)
            # a line already reported under this rule (the Python pass's keyword finding of `dist_params =
            # dict(backend="nccl")` in a Python config module: the emitter adds nothing then) keeps that finding, with
            # the setting's note: the key is judged read or unread all the same (project/config_keys.py)
            if notes is not None and (len(em.out) > before or e.command == 0) and len(notes) < 400:
                from ..project.config_keys import needed_keys, norm

                values = engine.catalogue.context_values
                # (`amp.*@deepspeed,...`: read by those libraries only, which the project step checks)
                read = [r.split("@", 1)[0] for r in values.get("library-read-settings", ())]
                path = node + e.keys
                if rel.endswith(".py"):
                    # a Python config module is read by the project's own training script (mmcv's tools/train.py
                    # calls `init_dist(args.launcher, **cfg.dist_params)`, and init_dist reads the rest): its code
                    # must name the node, not what the library reads below it
                    own = values.get("python-config-own-settings", ())
                    read = [r for r in read if r not in own]
                    for pat in own:
                        parts = pat.split(".")
                        if len(path) >= len(parts) and all(fnmatch.fnmatchcase(norm(k), p) for k, p in
                                                           zip(path[len(path) - len(parts):], parts)):
                            path = path[:len(path) - len(parts) + 1]
                            break
                keys = needed_keys(path, read)
                # the whole path too: a project that declares it itself (yacs defaults) reads all of it
                full = [k for k in (norm(k) for k in path) if k.isidentifier()]
                if keys or len(full) > len(keys):
                    notes.append([e.line, rule.id, keys, full])


_OFF = {"false", "no", "off", "0"}


class _Blocks:
    """The mappings a config switches off with a key of their own (`amp: {enabled: false, amp_dtype: float16}`):
    nothing under such a mapping takes effect, so none of its settings is a place to change. A mapping is its key
    path and the line of the key that opens it (two dicts of one Python file, or two documents, may share a path)."""

    def __init__(self, entries: list[Entry], off: list[Entry]):
        self._opens: dict = {}
        for e in entries:
            if e.value is None and e.path:
                self._opens.setdefault(e.path, []).append(e.line)
        for lines in self._opens.values():
            lines.sort()
        self.blocks = {(e.path[:-1], self._opener(e.path[:-1], e.line)) for e in off}

    def _opener(self, path: tuple, line: int) -> int:
        lines = self._opens.get(path, ())
        i = bisect.bisect_right(lines, line) - 1
        return lines[i] if i >= 0 else 0

    def __bool__(self) -> bool:
        return bool(self.blocks)

    def covers(self, e: Entry) -> bool:
        return any((e.path[:i], self._opener(e.path[:i], e.line)) in self.blocks for i in range(1, len(e.path)))


def switched_off_blocks(entries: list[Entry], scalars: list[Entry], keys) -> _Blocks:
    """The mappings of `keys` switched off (config files only: a launch flag's command has no blocks)."""
    names = set(keys)
    return _Blocks(entries, [e for e in scalars if e.command == 0 and len(e.path) > 1 and e.path[-1] in names
                             and (e.value or "").strip().lower() in _OFF])


def _settings_hold(m, scalars: list[Entry]) -> bool:
    """The `with-setting` / `without-setting` tables of a config-file matcher (command 0: not a launch flag)."""
    def is_set(key: str, globs) -> bool:
        pat = tuple(key.split("."))
        return any(_suffix(o.keys, pat) and _value_in(o.value, globs) for o in scalars if o.command == 0)
    return all(is_set(k, g) for k, g in m.with_setting) and not any(is_set(k, g) for k, g in m.without_setting)


def _present_findings(entries: list[Entry], matchers, lines: list[str], em: Emitter) -> None:
    """`present` matchers: a key whose presence makes the file what the rule is about, whatever it holds
    (`"zero_optimization": {...}` makes a DeepSpeed config). One finding per file and matcher, at the key of the
    first of its names (in the catalogue's order) the file has."""
    keyed = [e for e in entries if e.keys and not e.in_list]
    for rule, m in matchers:
        for name in m.names:
            pat = tuple(name.split("."))
            e = next((e for e in keyed if _suffix(e.keys, pat)), None)
            if e is None:
                continue
            line = e.line if e.value is None else (e.key_line or e.line)
            snippet = lines[line - 1] if 0 < line <= len(lines) else ""
            key = e.keys[-1]
            col = snippet.find(key) + 1 if key in snippet else (e.col if e.value is None else 1)
            shown = ".".join(e.keys[-len(pat):])
            em.add(rule, m, line, col, col + len(key), snippet, msg(rule, m, shown), shown)
            break


def _step_input(keys: tuple[str, ...]) -> bool:
    return "steps" in keys and "with" in keys[keys.index("steps"):]


def _shown(e: Entry, depth: int, snippet: str) -> str:
    """`fp16.enabled: true`, `devices: [0, 1]`: the key path as deep as the matcher named it, and the value
    as written (a whole flow list when the matched scalar is one of its items)."""
    key = ".".join(e.keys[-max(depth, 1):])
    if "\n" in e.value:
        return key
    if e.in_list and e.line == e.key_line:
        i = snippet.find("[")
        j = snippet.rfind("]")
        if 0 <= i < j:
            return f"{key}: {snippet[i:j + 1]}"
    return f"{key}: {e.value}"


def _module_class_recipe(entries: list[Entry]) -> bool:
    """The config builds the classes it names the flame way: a mapping with `module: pkg.mod`, `class: Name` and a
    `Name:` mapping of the keyword arguments (efficient_det_pytorch's `engine: {module: flame.core.engine.evaluator,
    class: Evaluator, Evaluator: {device: ...}}`, blind80). The loader hands each node to its class, so the keys are
    the class's parameters, read whoever names them."""
    values = {e.path[:-1]: e.value for e in entries if e.value is not None and e.path and e.path[-1] == "class"}
    if not values:
        return False
    keys = {e.path for e in entries if e.value is None}
    modules = {e.path[:-1] for e in entries if e.value is not None and e.path and e.path[-1] == "module"}
    return any(parent in modules and parent + (name.strip(),) in keys for parent, name in values.items())


def resolve_dotted(name: str, engine):
    """A dotted path from a config (`bitsandbytes.optim.PagedAdamW8bit`) -> [(rule, matcher)] of the Python
    import, reference and call matchers it falls under, exactly as if the code imported and used it."""
    q = engine.resolver.canonical(name)
    parts = q.split(".")
    prefixes = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
    out, seen = [], set()
    for p in prefixes:
        for table in (engine.imports, engine.refs):
            for rule, m in table.get(p, ()):
                if rule.id not in seen:
                    seen.add(rule.id)
                    out.append((rule, m))
    for rule, m in engine.calls.get(q, ()):
        if not m.args and rule.id not in seen:  # argument predicates need a call to read them from
            seen.add(rule.id)
            out.append((rule, m))
    return out


def component_findings(entries: list[Entry], lines: list[str], engine, em: Emitter, unresolved=None) -> None:
    """unresolved: a list to receive [line, col, end_col, dotted path] of the components no rule knows
    (for the project-wide link step: they may name a project module that re-exports a library)."""
    for e, path in components(entries):
        found = resolve_dotted(path, engine)
        if not found and unresolved is not None and len(unresolved) < 400:
            unresolved.append([e.line, e.col, e.end_col, path])
        for rule, m in found:
            snippet = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
            shown = f"{e.key}: {path}"
            em.add(rule, m, e.line, e.col, e.end_col, snippet, msg(rule, m, shown), shown)


_VALUE_TOKENS = re.compile(r"[A-Za-z0-9_]+")


def package_value_findings(entries: list[Entry], lines: list[str], engine, em: Emitter) -> None:
    """A key that chooses an implementation (a word of the key in [context.values] implementation-key-words:
    `attn_type`, `efficient_attention_backend`, `attention_impl`) set to a value naming a CUDA-only package
    ([context.values] cuda-only-packages) as a word (`vanilla-xformers`, `xformers`): the config selects that
    package's kernels, reported with the package's own import rule. A boolean or a path is never a choice."""
    values = engine.catalogue.context_values
    words = frozenset(w.lower() for w in values.get("implementation-key-words", ()))
    packages = {p.lower(): p for p in values.get("cuda-only-packages", ())}
    if not words or not packages:
        return
    for e in entries:
        if e.value is None or not e.keys or "\n" in e.value or len(e.value) > 80:
            continue
        if not words & set(_key(e.key).split("_")):
            continue
        v = e.value.strip()
        if "/" in v or "${" in v:  # a path or an interpolation: the value is not a choice written here
            continue
        names = [v.lower().replace("-", "_")] + [t.lower() for t in _VALUE_TOKENS.findall(v.replace("_", "-"))]
        names += [t.lower() for t in _VALUE_TOKENS.findall(v)]
        pkg = next((packages[n] for n in names if n in packages), None)
        if pkg is None:
            continue
        snippet = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
        shown = f"{e.key}: {v}"
        for rule, m in resolve_dotted(pkg, engine)[:1]:
            # medium: a project may fall back to its own attention when the package is missing
            m = replace(m, confidence="medium")
            em.add(rule, m, e.line, e.col, e.end_col, snippet, msg(rule, m, shown), shown)


# The keys of a container build definition that list the Python packages installed into the image (Cog's
# `build.python_packages`): a requirements file written as YAML, so the image holds what they name
_CONTAINER_PACKAGE_KEYS = frozenset({("build", "python_packages")})


def container_packages(entries: list[Entry], lines: list[str], engine, em: Emitter, text: str) -> None:
    """The requirement rules over the package specs a container build installs (`- "bitsandbytes==0.41.0"`)."""
    from .. import requirements as rq
    from .emit import emit_deps, uncommented

    deps = [d for e in entries if e.in_list and e.value and e.keys in _CONTAINER_PACKAGE_KEYS
            for d in (rq.dep_from_string(e.value, e.line, e.col, e.end_col),) if d is not None]
    emit_deps(deps, lines, engine, em, uncommented(text))


def one_request_per_mapping(findings: list, entries: list[Entry], values: dict) -> list:
    """One GPU request per mapping of a training config: a finding of `one-per-mapping-rules` (a count, `devices:
    2`) folds into the first finding of its category in the same mapping (the trainer's `accelerator: 'gpu'`, or
    another count), whose places it joins: the keys are one request, changed together (`accelerator: neuron`).
    Keys of different mappings (two trainers, a launcher and a trainer) stay apart."""
    rules = set(values.get("one-per-mapping-rules", ()))
    if not rules or not any(f.rule in rules for f in findings):
        return findings
    parent = {e.line: e.path[:-1] for e in entries if e.value is not None and e.path}

    def key(f):
        where = parent.get(f.line)
        return None if where is None or f.guarded or f.suppressed else (f.category, f.cell, where)
    return fold_into_first(findings, rules, key)


def fold_into_first(findings: list, rules: set, key) -> list:
    """Each finding of `rules` joins, as a place, the first finding (in line order) with the same `key(f)`; a
    finding whose key is None stays as it is. Sorted by line and column."""
    ordered = sorted(findings, key=lambda f: (f.line, f.column))
    first: dict = {}
    for i, f in enumerate(ordered):
        k = key(f)
        if k is not None:
            first.setdefault(k, i)
    out = list(ordered)
    dropped = set()
    for i, f in enumerate(ordered):
        k = key(f)
        if f.rule not in rules or k is None or first[k] == i:
            continue
        j = first[k]
        out[j] = replace(out[j], occurrences=out[j].occurrences + ((f.line, f.column, f.rule),))
        dropped.add(i)
    return [f for i, f in enumerate(out) if i not in dropped]


def read(ctx: FileContext) -> ReadResult:
    base = line_reader.read(ctx)
    if not base.sources:  # skipped by the line reader (issue forms, oversized JSON data)
        return base
    entries = outline(ctx.text)
    role = role_of(ctx.rel, entries)
    if role is None:
        return base
    em = Emitter(ctx.rel)
    if role == "ci":
        # The Python a CI job installs (`conda create -n env python=3.10` in a step) is the project's Python
        # requirement only as readers/ci.py judges it: per test job, and only when no job tests on 3.12+.
        python_rules = {r.id for r, _ in ctx.engine.surface.get("python", ())}
        base.findings = [f for f in base.findings if f.rule not in python_rules]
    em.seen = {(f.path, f.cell, f.rule, f.line) for f in base.findings}  # one finding per rule and line
    lines = ctx.text.splitlines()
    link = getattr(ctx.engine, "link", False)
    # A recipe whose nodes name the classes they build (`_target_`, `_component_`, `class_path`) is handed to
    # those classes by a framework: its keys are theirs to read, whoever wrote the classes.
    settings: list | None = [] if link and role == "config" and not any(
        e.value is None and e.path and e.path[-1] in COMPONENT_KEYS for e in entries) \
        and not _module_class_recipe(entries) else None
    node = hydra_node(ctx.rel, ctx.text, entries) if settings is not None else ()
    setting_findings(entries, role, lines, ctx.engine, em, ctx.rel, settings, node)
    if role == "config" and DS_KEYS & {k.lower() for k in top_keys(entries)}:
        # keys only the DeepSpeed engine gives a meaning (`optimizer.type: Adam` is its fused CUDA Adam there)
        setting_findings(entries, "deepspeed", lines, ctx.engine, em, ctx.rel, settings, node)
    if role == "config":  # a trainer's `accelerator: gpu` and `devices: 2` are one request
        base.findings, em.out = [], one_request_per_mapping(base.findings + em.out, entries,
                                                            ctx.engine.catalogue.context_values)
    summary = None
    if role == "container":
        container_packages(entries, lines, ctx.engine, em, ctx.text)
        return ReadResult(base.findings + em.out, base.diag, base.sources, summary)
    if role == "config":
        unresolved: list | None = [] if link else None
        component_findings(entries, lines, ctx.engine, em, unresolved)
        component_call_findings(entries, lines, ctx.engine, em)
        package_value_findings(entries, lines, ctx.engine, em)
        switches: list = []
        if link:
            from ..project.config_keys import true_switches

            switches = true_switches(entries, ctx.engine.catalogue.context_values)
        if unresolved or settings or switches:
            from ..project.summary import config_summary

            from ..project.config_keys import norm

            tops = sorted({norm(k) for k in top_keys(entries) if norm(k).isidentifier()})[:200] if settings else []
            summary = config_summary(unresolved or [], settings or [], tops, switches)
    else:
        from .ci import ci_findings
        from .deps import is_action, is_workflow

        ci_findings(ctx.rel, entries, lines, ctx.engine, em,
                    ctx.path if ctx.path is not None and (is_workflow(ctx.rel) or is_action(ctx.rel)) else None)
        from .ci import guard_accelerator_legs

        from .ci import (drop_admitted_image_pythons, drop_cpu_wheel_job_findings, drop_lint_job_findings,
                         guard_admitted_torch_pins)

        values = ctx.engine.catalogue.context_values
        found = drop_cpu_wheel_job_findings(ctx.rel, entries, drop_lint_job_findings(
            ctx.rel, entries, base.findings + em.out, values), values)
        found = drop_admitted_image_pythons(ctx.rel, found, values, ctx.path)
        found = guard_admitted_torch_pins(found, values, ctx.path)
        found = guard_accelerator_legs(ctx.rel, entries, found, values, lines)
        from .cpu_branches import guard_cpu_wheel_branches

        found = guard_cpu_wheel_branches(found, lines, values, yaml=True)
        return ReadResult(found, base.diag, base.sources, summary)
    return ReadResult(base.findings + em.out, base.diag, base.sources, summary)
