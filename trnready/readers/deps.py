"""Files a reader reads besides the one it was given, so that cached results change when they change.

CI workflows: whether a GitHub Actions test job's Python is reported depends on the other workflows of
`.github/workflows` and on the local composite actions its jobs use (readers/ci.py), and so does a local
action's. Dockerfiles: whether one is an image variant of another accelerator
depends on the other Dockerfiles next to it (readers/docker.py). Python modules: whether their `__main__`
block is a package module's self-check depends on an `__init__.py` next to them (postprocess.py). Standard
library only: the result cache asks for this signature before anything is scanned.
"""
from __future__ import annotations

from pathlib import Path


def is_workflow(rel: str) -> bool:
    return "/.github/workflows/" in "/" + rel and rel.endswith((".yml", ".yaml"))


def is_action(rel: str) -> bool:
    """A local composite action of GitHub Actions (`.github/actions/<name>/action.yml`), run as steps of the
    workflows' jobs that `uses: ./.github/actions/<name>`."""
    low = "/" + rel
    return "/.github/actions/" in low and low.rsplit("/", 1)[-1] in ("action.yml", "action.yaml")


def is_travis(rel: str) -> bool:
    """Travis CI's configuration, `.travis.yml` at the repository root."""
    return ("/" + rel).lower().rsplit("/", 1)[-1] in (".travis.yml", ".travis.yaml")


def github_root(path) -> Path:
    """The repository a `.github/workflows/*.yml` or `.github/actions/**/action.yml` file belongs to."""
    p = Path(path)
    for parent in p.parents:
        if parent.name == ".github":
            return parent.parent
    return p.parent.parent.parent


def actions_listing(root: Path) -> tuple:
    """(relative path, mtime_ns, size) of the local composite actions under `.github/actions`, sorted."""
    out = []
    base = root / ".github" / "actions"
    for pattern in ("*/action.y*ml", "*/*/action.y*ml"):
        try:
            for p in base.glob(pattern):
                st = p.stat()
                out.append((str(p.relative_to(base)), st.st_mtime_ns, st.st_size))
        except OSError:
            continue
        if len(out) > 256:
            break
    return tuple(sorted(out))


def folder_listing(folder: Path) -> tuple:
    """(name, mtime_ns, size) of the YAML files of a folder, sorted; () when it cannot be listed."""
    try:
        out = []
        for p in folder.iterdir():
            if p.suffix in (".yml", ".yaml") and p.is_file():
                st = p.stat()
                out.append((p.name, st.st_mtime_ns, st.st_size))
        return tuple(sorted(out))
    except OSError:
        return ()


_MAX_SIBLINGS = 256  # a folder with more entries is not a set of image variants


def image_siblings(path, rel: str) -> tuple:
    """Paths (relative to the Dockerfile's parent folder) of the other Dockerfiles in its folder and, unless it
    sits at the scan root, in the folders next to it: `peft-cpu/Dockerfile` for `docker/peft-gpu/Dockerfile`."""
    from ..filekinds import kind_of

    here = Path(path).parent
    folders = [(here, "")]
    if "/" in rel:
        try:
            subdirs = sorted(p for p in here.parent.iterdir() if p.is_dir() and p != here)[:_MAX_SIBLINGS]
        except OSError:
            subdirs = []
        folders = [(here, here.name + "/")] + [(d, d.name + "/") for d in subdirs]
    out: list = []
    for folder, prefix in folders:
        try:
            names = sorted(p.name for p in folder.iterdir())[:_MAX_SIBLINGS]
        except OSError:
            continue
        out.extend(prefix + n for n in names if kind_of(n) == "dockerfile" and (folder / n) != Path(path))
    return tuple(out)


PACKAGING_FILES = ("pyproject.toml", "setup.py", "setup.cfg")


_CI_DIRS = (".github", ".circleci", ".gitlab", ".buildkite", ".azure-pipelines", ".azure")
_CI_ROOT_FILES = (".gitlab-ci.yml", ".gitlab-ci.yaml", ".travis.yml", ".travis.yaml", "buildkite.yml", "buildkite.yaml",
                  "azure-pipelines.yml", "azure-pipelines.yaml")


def project_root_of_workflow(path) -> Path:
    """The repository a CI file belongs to: the folder above `.github` (a workflow, a local action), `.circleci`,
    `.gitlab`, `.buildkite` or the Azure folder, or the folder of a `.gitlab-ci.yml` / `azure-pipelines.yml`."""
    p = Path(path)
    for parent in p.parents:
        if parent.name in _CI_DIRS:
            return parent.parent
    if p.name in _CI_ROOT_FILES or p.name.endswith(".gitlab-ci.yml"):
        return p.parent
    return github_root(path)


def is_other_ci(rel: str) -> bool:
    """A CI configuration other than GitHub's (CircleCI, GitLab, Buildkite, Azure): its findings depend on the
    project's packaging too (readers/ci.py drop_admitted_image_pythons)."""
    low = "/" + rel
    name = low.rsplit("/", 1)[-1]
    if not name.endswith((".yml", ".yaml")):
        return False
    return any(f"/{d}/" in low for d in _CI_DIRS[1:]) or name in _CI_ROOT_FILES or name.endswith(".gitlab-ci.yml")


def packaging_stat(root: Path) -> tuple:
    """(name, mtime_ns, size) of the project's packaging files at `root`, sorted."""
    out = []
    for name in PACKAGING_FILES:
        try:
            st = (root / name).stat()
        except OSError:
            continue
        out.append((name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def dependency_signature(path, rel: str) -> str:
    """A string that changes whenever a file this file's findings depend on changes ("" for most files)."""
    if path is None:
        return ""
    if is_workflow(rel) or is_action(rel):
        # a workflow's jobs run its local actions' steps; an action is judged by the workflows that use it
        root = github_root(path)
        return "\0workflows:" + repr(folder_listing(root / ".github" / "workflows")) + repr(
            packaging_stat(root)) + repr(actions_listing(root))
    if is_other_ci(rel):
        return "\0packaging:" + repr(packaging_stat(project_root_of_workflow(path)))
    from ..filekinds import kind_of

    if kind_of(rel.rsplit("/", 1)[-1]) == "dockerfile":
        return "\0images:" + repr(image_siblings(path, rel))
    if kind_of(rel.rsplit("/", 1)[-1]) == "shell":
        # a launcher's variables may come from the config scripts it sources (readers/sourced_vars.py)
        from .sourced_vars import sourced_stat

        got = sourced_stat(path, rel)
        return "\0sourced:" + repr(got) if got else ""
    if rel.endswith(".py"):
        # postprocess.self_check_blocks: a module's `__main__` block is a self-check only inside a package
        return "\0package" if (Path(path).parent / "__init__.py").is_file() else ""
    return ""
