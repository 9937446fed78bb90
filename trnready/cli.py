"""Command line: parses flags, calls the API, picks reporters, sets the exit code.

Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it;
2 usage, configuration or catalogue error.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from pathlib import Path

import click

from .version import __version__
from .api import scan
from .catalogue import CatalogueError, load_catalogue
from .config import FAIL_ON, Config, ConfigError
from .model import CONFIDENCES, SEVERITIES, SEVERITY_RANK, Diagnostic, Report
from .reporters import FORMATS, get as get_reporter
from .read import MAX_FILE_SIZE_LIMIT
from .scope import SCOPES
from .reporters.text import safe, safe_line


class UserError(Exception):
    """A problem the user can fix (bad config, bad catalogue, bad flag): exit 2, no traceback."""


def write_atomic(path: str, content: str) -> None:
    """Write to a temp file beside the target and rename, so a report is never half-written.

    The temp file's name carries the writer's pid: one left by a writer that was killed is
    removed by the next write of the same target. A write that fails (full disk, no permission)
    is one line naming the file (exit 2)."""
    import errno

    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    tmp = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _remove_stale_temps(directory, target.name)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=directory)
        # mkstemp creates 0600 files; a report should get the usual umask-based mode.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(content)
        os.replace(tmp, target)
        tmp = None
    except OSError as e:
        reason = "the disk is full" if e.errno in (errno.ENOSPC, errno.EDQUOT) else (e.strerror or str(e))
        raise UserError(f"cannot write {path}: {reason}") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _remove_stale_temps(directory: Path, name: str) -> None:
    """Delete `.NAME.PID.*.tmp` files whose writer process no longer exists."""
    prefix = f".{name}."
    try:
        entries = [e for e in os.scandir(directory) if e.name.startswith(prefix) and e.name.endswith(".tmp")]
    except OSError:
        return
    for entry in entries:
        pid = entry.name[len(prefix):].split(".", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _alive(int(pid)):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else
    return True


def _valid_source_url(template: str) -> bool:
    from .sourcelink import valid_template
    return valid_template(template)


def _detect_source_url(root: str):
    from .sourcelink import detect
    return detect(root)


def render_to_string(fmt: str, report: Report, **options) -> str:
    buf = io.StringIO()
    get_reporter(fmt).render(report, buf, **options)
    return buf.getvalue()


def text_summary(report: Report, colour: bool, stream=None) -> None:
    from .reporters.text import render_summary
    render_summary(report, stream or sys.stdout, colour)


def gate(report: Report, fail_on: str) -> int:
    if fail_on == "never":
        return 0
    threshold = SEVERITY_RANK[fail_on]
    # Only what the verdict counts: the gate scopes, at or above the gate confidence.
    return 1 if any(SEVERITY_RANK[f.severity] >= threshold for f in report.counted) else 0


def _scopes_option(value: str | None) -> tuple[str, ...] | None:
    """--scope source,build -> ("source", "build"); an unknown scope is a usage error naming the valid ones."""
    if value is None:
        return None
    scopes = tuple(dict.fromkeys(x.strip().lower() for x in value.split(",") if x.strip()))
    bad = [x for x in scopes if x not in SCOPES]
    if bad or not scopes:
        raise click.BadParameter(f"{(bad[0] if bad else value)!r} is not a scope (one of {', '.join(SCOPES)})",
                                 param_hint="--scope")
    return scopes


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for v in values:
        out.extend(x.strip() for x in v.split(",") if x.strip())
    return tuple(out)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="trnready")
def main_group() -> None:
    """Static readiness scanner: what in a PyTorch codebase breaks on TorchNeuron (Trainium), and how to fix it."""


def _apply(fn, options):
    for opt in reversed(options):
        fn = opt(fn)
    return fn


def selection_options(fn):
    """Which files and rules: shared by scan, fix and baseline create."""
    return _apply(fn, [
        click.option("--select", multiple=True,
                     help="Only these rule ids, id prefixes or categories (comma-separated)."),
        click.option("--ignore", multiple=True, help="Skip these rule ids, id prefixes or categories (comma-separated)."),
        click.option("--exclude", multiple=True, help="Glob of paths to skip (repeatable)."),
        click.option("--catalogue", type=click.Path(dir_okay=False),
                     help="Use this catalogue instead of the built-in one."),
        click.option("--no-gitignore", is_flag=True, help="Include files that .gitignore excludes."),
    ])


def config_options(fn):
    return _apply(fn, [
        click.option("--config", "config_file", type=click.Path(dir_okay=False),
                     help="Read settings from FILE instead of searching for trnready.toml / pyproject.toml."),
        click.option("--no-config", is_flag=True, help="Ignore config files."),
    ])


def ci_options(fn):
    """Options for CI use: config files, suppression audit, baselines, changed files."""
    return config_options(_apply(fn, [
        click.option("--no-suppressions", is_flag=True,
                     help="Audit: ignore every `# trnready: ignore[...]` comment."),
        click.option("--baseline", type=click.Path(dir_okay=False),
                     help="Report and gate only findings not recorded in this baseline file."),
        click.option("--changed-since", metavar="REF",
                     help="Scan only files changed relative to git REF (plus untracked files)."),
    ]))


def _colour(flag: bool | None, to_terminal: bool) -> bool:
    """--color/--no-color, else NO_COLOR / FORCE_COLOR (https://no-color.org, force-color.org), else a TTY."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return to_terminal and sys.stdout.isatty()


def _formats(fmt: str | None, outputs: tuple[str, ...], write_formats: tuple[str, ...]):
    """(stdout format, [(format, file)]) from --format, --output-format and --write-format.

    `--output-format json` is ruff's spelling of `--format json`; the older `--output-format FMT=FILE`
    still works and points to --write-format.
    """
    extra: list[tuple[str, str]] = []
    plain: list[str] = []
    for spec in outputs:
        if "=" in spec:
            click.echo(f"trnready: warning: `--output-format {spec}` is deprecated; write "
                       f"`--write-format {spec}` (--output-format FMT now selects the stdout format, as in ruff)",
                       err=True)
            extra.append(_write_spec(spec, "--output-format"))
        else:
            plain.append(_ALIASES.get(spec, spec))
    extra.extend(_write_spec(spec, "--write-format") for spec in write_formats)
    for f in plain:
        if f not in FORMATS:
            raise click.UsageError(f"unknown format {f!r} in --output-format{_did_you_mean(f, FORMATS)}")
    chosen = set(plain) | ({fmt} if fmt else set())
    if len(chosen) > 1:
        raise click.UsageError(f"conflicting stdout formats: {', '.join(sorted(chosen))} "
                               "(--format and --output-format name the same thing; use --write-format FMT=FILE "
                               "for additional reports)")
    return (chosen.pop() if chosen else "text"), extra


_ALIASES = {"full": "text"}  # ruff's names for its two text layouts


def _write_spec(spec: str, flag: str) -> tuple[str, str]:
    f, sep, target = spec.partition("=")
    if not sep or not target:
        raise click.UsageError(f"{flag} expects FMT=FILE, got {spec!r}")
    f = _ALIASES.get(f, f)
    if f not in FORMATS:
        raise click.UsageError(f"unknown format {f!r} in {flag}{_did_you_mean(f, FORMATS)}")
    return f, target


def _did_you_mean(value: str, choices) -> str:
    import difflib

    match = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.5)
    return f"; did you mean {match[0]}?" if match else f" (choose from {', '.join(choices)})"


def _check_paths(paths: list[str]) -> None:
    """A path that does not exist is a usage error (a typo must not scan nothing and pass)."""
    import difflib

    if "-" in paths and len(paths) > 1:
        raise UserError("`-` (read stdin) cannot be combined with other paths")
    for p in paths:
        if p == "-" or os.path.lexists(p):
            continue
        parent = Path(p).parent
        try:
            names = [e.name for e in os.scandir(parent)] if parent.is_dir() else []
        except OSError:
            names = []
        match = difflib.get_close_matches(Path(p).name, names, n=1, cutoff=0.6)
        hint = f"; did you mean {(parent / match[0]).as_posix()}?" if match else ""
        raise UserError(f"path does not exist: {p}{hint}")


@main_group.command("scan")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Format written to stdout (or to --output) [default: text].")
@click.option("--output-format", "outputs", multiple=True, metavar="FMT",
              help="Same as --format (ruff's spelling). The old FMT=FILE form is deprecated: use --write-format.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), help="Write the --format output to FILE.")
@click.option("--write-format", "write_formats", multiple=True, metavar="FMT=FILE",
              help="Also write FMT to FILE; repeatable (e.g. --write-format sarif=trnready.sarif).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False),
              help="Also write the interactive HTML report to FILE (same as --write-format html=FILE).")
@click.option("--source-url", "source_url", metavar="TEMPLATE", default=None,
              help="HTML report: link each finding to its line at this URL template ({path}, {line}); "
                   "default: found from the checkout's remote (GitHub, GitLab, Bitbucket) and HEAD.")
@click.option("--stdin-filename", metavar="PATH",
              help="With `-`: the path the source read from stdin belongs to (file kind, config, per-file-ignores).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Lowest severity that makes the exit code 1 (default: blocker).")
@click.option("--exit-zero", is_flag=True, help="Always exit 0 unless trnready itself fails.")
@click.option("--statistics", is_flag=True, help="Show counts per rule instead of each finding.")
@click.option("--quiet", "-q", is_flag=True, help="Show the summary and verdict only.")
@click.option("--min-severity", type=click.Choice(SEVERITIES), default=None,
              help="Show only findings at or above this severity (display only: the exit code counts all).")
@click.option("--min-confidence", type=click.Choice(CONFIDENCES), default=None,
              help="Show only findings of this confidence or higher (display only: the exit code counts all).")
@click.option("--scope", "gate_scopes", metavar="SCOPES", default=None,
              help="Scopes the verdict and exit code count, comma-separated: " + ", ".join(SCOPES)
                   + " (default: source,build). Findings in other scopes are still listed.")
@click.option("--gate-min-confidence", type=click.Choice(CONFIDENCES), default=None,
              help="Lowest confidence the verdict and exit code count (default: medium, i.e. all); "
                   "`high` lists medium-confidence findings without counting them.")
@selection_options
@click.option("--max-file-size", type=click.IntRange(min=1, max=MAX_FILE_SIZE_LIMIT), default=None,
              help="Files larger than this many bytes are skipped with a diagnostic (default: 5 MiB).")
@click.option("--color/--no-color", default=None,
              help="Colour terminal output (default: on a TTY; NO_COLOR and FORCE_COLOR are honoured).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0: one per CPU). Output is identical for every value.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the per-file result cache.")
@click.option("--cache-dir", type=str, envvar="TRNREADY_CACHE_DIR",
              help="Result cache location (default: the user cache directory; never the scanned tree).")
@click.option("--no-prefilter", is_flag=True, hidden=True,
              help="Parse every file even when it cannot match (for testing the prefilter).")
@click.option("--strict", is_flag=True, help="Exit 2 when any file could not be scanned (diagnostics).")
@click.option("--show-guarded", is_flag=True,
              help="Also list findings in code that never runs on a Neuron machine (inside `if "
                   "torch.cuda.is_available():`, CUDA-only tests), marked guarded; they are never counted.")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@ci_options
def scan_cmd(paths, fmt, outputs, output, write_formats, html_out, source_url, stdin_filename, fail_on, exit_zero,
             statistics, quiet, min_severity, min_confidence, gate_scopes, gate_min_confidence, select, ignore, exclude, catalogue, max_file_size,
             no_gitignore, color, jobs, no_cache, cache_dir, no_prefilter, strict, show_guarded, debug, config_file, no_config,
             no_suppressions, baseline, changed_since):
    """Scan PATHS (default: the current directory) and report TorchNeuron blockers.

    `-` reads one file's source from stdin (name it with --stdin-filename).
    Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it;
    2 usage, configuration or catalogue error, or no file scanned.

    Example: trnready scan src/ --html report.html --write-format sarif=trnready.sarif
    """
    fmt, extra = _formats(fmt, outputs, write_formats)
    if html_out:
        extra.append(("html", html_out))
    if source_url is not None and not _valid_source_url(source_url):
        raise click.UsageError(f"--source-url must be an http(s) URL containing {{path}}, got {source_url!r}")
    if debug:
        os.environ["TRNREADY_DEBUG"] = "1"
    paths = list(paths) or ["."]
    _check_paths(paths)
    if stdin_filename and paths != ["-"]:
        raise UserError("--stdin-filename applies only when reading stdin (path `-`)")
    config_paths = [stdin_filename or "."] if paths == ["-"] else paths
    cli_select, cli_ignore = _split(select), _split(ignore)
    config = _config(config_paths, config_file, no_config, select=cli_select, ignore=cli_ignore,
                     exclude=_exclude(exclude, config_paths), fail_on=fail_on, max_file_size=max_file_size,
                     use_gitignore=False if no_gitignore else None, catalogue=catalogue,
                     suppressions=False if no_suppressions else None, jobs=jobs,
                     cache=False if no_cache else None, cache_dir=cache_dir,
                     prefilter=False if no_prefilter else None, show_guarded=True if show_guarded else None,
                     gate_scopes=_scopes_option(gate_scopes), gate_min_confidence=gate_min_confidence)
    cat = _checked_catalogue(config, cli_select, cli_ignore)
    fail_on = config.fail_on
    if paths == ["-"]:
        if changed_since:
            raise UserError("--changed-since cannot be used with stdin (`-`)")
        report = _scan_stdin(stdin_filename, config, cat, baseline)
    else:
        report = _scan(paths, config, baseline, changed_since, cat)
    _require_something_scanned(report, paths, changed_since)
    to_terminal = output is None
    colour = _colour(color, to_terminal)
    display = dict(quiet=quiet, statistics=statistics, min_severity=min_severity, min_confidence=min_confidence)
    html_opts = {}
    if fmt == "html" or any(f == "html" for f, _ in extra):
        html_opts["source_url"] = source_url if source_url is not None else _detect_source_url(report.root)
    main_out = render_to_string(fmt, report, colour=colour if to_terminal else False,
                                **(html_opts if fmt == "html" else display))
    for f, target in extra:
        write_atomic(target, render_to_string(f, report, **(html_opts if f == "html" else {})))
    if output:
        write_atomic(output, main_out)
        text_summary(report, colour)
        sys.stdout.write(f"Report written to {output}\n")
    else:
        sys.stdout.write(main_out)
        if fmt == "github":  # a log format: the summary reads well after the annotations
            text_summary(report, False)
        elif fmt not in ("text", "concise") and extra:
            text_summary(report, colour, sys.stderr)
    # Say where the HTML went; to stderr when stdout carries a machine-readable format.
    for f, target in extra:
        if f == "html":
            print(f"HTML report written to {target}", file=sys.stdout if fmt in ("text", "concise") else sys.stderr)
    sys.stdout.flush()
    if strict and report.diagnostics:
        click.echo(f"trnready: --strict: {len(report.diagnostics)} file(s) could not be scanned", err=True)
        return 2
    return 0 if exit_zero else gate(report, fail_on)


def _require_something_scanned(report: Report, paths, changed_since) -> None:
    """A scan that read no file is not a clean scan: exit 2 and say why.

    The one exception is --changed-since with no changed file, which is the expected
    outcome of a pull request that touches nothing trnready reads (verdict "nothing scanned").
    """
    if report.files_scanned or report.findings:
        return
    if changed_since and not report.diagnostics:
        return
    where = ", ".join(paths)
    if report.diagnostics:
        d = report.diagnostics[0]
        more = f" and {len(report.diagnostics) - 1} more" if len(report.diagnostics) > 1 else ""
        raise UserError(f"nothing scanned: no file under {where} could be read ({d.path}: {d.kind}{more})")
    raise UserError(f"nothing scanned: no file trnready reads under {where} (all excluded, ignored or of "
                    "other types); nothing was checked, so there is no verdict")


def _exclude(patterns: tuple[str, ...], paths) -> tuple[str, ...]:
    """--exclude values as globs relative to the scan root.

    A pattern naming an existing path relative to the current directory (`./tests`, `src/gen/`)
    is re-expressed relative to the scan root, so `trnready scan src --exclude src/gen` works.
    """
    from .config import normalise_glob
    from .discover import common_root

    if not patterns:
        return ()
    root = common_root([Path(p) for p in paths if p != "-"] or [Path(".")]).resolve()
    out = []
    for pat in patterns:
        norm = normalise_glob(pat)
        if norm and not any(c in norm for c in "*?[") and os.path.lexists(norm):
            try:
                rel = Path(norm).resolve().relative_to(root).as_posix()
                norm = rel if rel != "." else norm
            except ValueError:
                pass
        if norm:
            out.append(norm)
    return tuple(out)


@main_group.group("baseline")
def baseline_group():
    """Record today's findings so that `scan --baseline` reports and gates only new ones."""


@baseline_group.command("create")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), default="trnready-baseline.json",
              show_default=True, help="Baseline file to write.")
@selection_options
@config_options
def baseline_create_cmd(paths, output, select, ignore, exclude, catalogue, no_gitignore, config_file, no_config):
    """Scan PATHS (default: the current directory) and write every active finding to a baseline file.

    Example: trnready baseline create . --output trnready-baseline.json
    """
    from . import baseline as bl

    paths = list(paths) or ["."]
    _check_paths(paths)
    if "-" in paths:
        raise UserError("a baseline is made from files on disk, not stdin (`-`)")
    cli_select, cli_ignore = _split(select), _split(ignore)
    config = _config(paths, config_file, no_config, select=cli_select, ignore=cli_ignore,
                     exclude=_exclude(exclude, paths), use_gitignore=False if no_gitignore else None,
                     catalogue=catalogue)
    cat = _checked_catalogue(config, cli_select, cli_ignore)
    report = _scan(paths, config, None, None, cat)
    _require_something_scanned(report, paths, None)
    write_atomic(output, bl.render(report, output))
    click.echo(f"Baseline written to {output}: {len(report.active)} finding(s) in {report.files_scanned} file(s).")
    return 0


def _refuse_special_files(paths) -> None:
    """A FIFO, device or socket named on the command line would block or never end: refuse it."""
    import stat

    from .read import describe_mode
    for p in paths:
        if p == "-":
            continue  # stdin, read by its own path
        try:
            mode = os.stat(p).st_mode
        except OSError:
            continue  # missing paths become a diagnostic of the scan
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            raise UserError(f"{p}: not a regular file or directory ({describe_mode(mode)})")


def _config(paths, config_file, no_config, **cli) -> Config:
    from .config import resolve
    _refuse_special_files(paths)
    try:
        return resolve(paths, config_file=config_file, use_config=not no_config, **cli)
    except ConfigError as e:
        raise UserError(str(e)) from None


def _checked_catalogue(config: Config, cli_select=(), cli_ignore=()):
    """Load the catalogue once and check every selector against it (unknown ones are usage errors)."""
    from .config import SelectorError, check_config_selectors

    try:
        cat = load_catalogue(config.catalogue, list(config.extend_catalogue))
        check_config_selectors(config, cat.rules, cli_select, cli_ignore)
    except (CatalogueError, ConfigError, SelectorError) as e:
        raise UserError(str(e)) from None
    return cat


def _load_baseline(baseline_file):
    from . import baseline as bl

    if not baseline_file:
        return None
    try:
        return bl.load(baseline_file)
    except bl.BaselineError as e:
        raise UserError(str(e)) from None


def _scan(paths, config: Config, baseline_file, changed_since, catalogue=None) -> Report:
    """scan() with --changed-since and --baseline; every user error becomes UserError (exit 2)."""
    from dataclasses import replace

    from . import baseline as bl
    from . import gitdiff
    from .config import SelectorError
    from .discover import common_root

    base = _load_baseline(baseline_file)
    if changed_since:
        try:
            only = gitdiff.changed_files([Path(p) for p in paths], changed_since)
            config = replace(config, only_files=only)
        except gitdiff.BadRef as e:
            raise UserError(str(e)) from None
        except gitdiff.NotAGitRepo as e:
            click.echo(f"trnready: warning: --changed-since ignored ({safe(str(e))}); scanning everything",
                       err=True)
    natural_root = common_root([Path(p) for p in paths])
    # A baseline made from another root: fingerprints are computed from its root, paths shown from ours.
    scan_root = bl.scan_root_for(base, natural_root) if base is not None else None
    try:
        report = scan(paths, config, catalogue=catalogue, progress=True, root=scan_root)
    except (CatalogueError, ConfigError, SelectorError) as e:
        raise UserError(str(e)) from None
    if base is not None:
        bl.apply(report, base, partial=config.only_files is not None)
        if scan_root is not None:
            bl.rebase(report, natural_root)
        warning = bl.nothing_matched(report, base)
        if warning:
            click.echo(f"trnready: warning: {safe(warning)}", err=True)
    return report


def _scan_stdin(stdin_filename, config: Config, catalogue, baseline_file) -> Report:
    """`trnready scan - --stdin-filename src/x.py`: one file's source from stdin, reported under that path."""
    import datetime as _dt

    from . import __version__
    from . import baseline as bl
    from .api import build_engine, scan_bytes
    from . import postprocess
    from .filekinds import dir_kind, kind_of

    data = sys.stdin.buffer.read()
    name = stdin_filename or "stdin.py"
    root = Path.cwd()
    try:
        rel = Path(os.path.relpath(Path(name).absolute(), root)).as_posix()
    except ValueError:
        rel = Path(name).as_posix()
    if rel.startswith("../"):
        rel = Path(name).absolute().as_posix()
    p = Path(name)
    kind = kind_of(p.name) or dir_kind(p.parent.name, p.name) or "python"
    engine = build_engine(config, catalogue)
    report = Report(root=str(root), catalogue_version=catalogue.version, catalogue_sha256=catalogue.sha256,
                    tool_version=__version__, rules=catalogue.by_id(), gate_scopes=config.gate_scopes,
                    gate_min_confidence=config.gate_min_confidence,
                    started_at=_dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    if len(data) > config.max_file_size:
        report.diagnostics.append(Diagnostic(rel, "too-large", f"stdin holds {len(data)} bytes "
                                             f"(limit {config.max_file_size}; raise it with --max-file-size)"))
        return report
    findings, diag = scan_bytes(data, rel, kind, engine, config.prefilter)
    # The same report steps as a scan of files: per-file ignores, then repository-level rules and order.
    findings = postprocess.per_file_ignores(findings, root, config)
    report.findings = postprocess.report_findings(findings, engine,
                                                  lambda strings: any(x.encode() in data for x in strings),
                                                  root, config)
    if diag is not None:
        report.diagnostics.append(diag)
    from .model import PARTIAL_KINDS

    if diag is None or diag.kind in PARTIAL_KINDS:
        report.files_scanned = 1
        report.files_by_kind[kind] = 1
    base = _load_baseline(baseline_file)
    if base is not None:
        bl.apply(report, base, partial=True)
    return report


@main_group.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--catalogue", type=click.Path(dir_okay=False), help="Read this catalogue instead of the built-in one.")
def rules_cmd(fmt, catalogue):
    """List the catalogue: id, category, severity and title of every rule."""
    cat = _load(catalogue)
    if fmt == "json":
        data = {"catalogue": {"version": cat.version, "sha256": cat.sha256},
                "rules": [{"id": r.id, "name": r.name, "category": r.category, "severity": r.severity,
                           "title": r.title, "docs": r.docs, "source": r.source,
                           "sources": [{"title": s.title, "url": s.url} for s in r.sources]} for r in cat.rules]}
        click.echo(json.dumps(data, indent=2))
        return 0
    width = max((len(r.category) for r in cat.rules), default=10)
    # Catalogue text may come from a scanned repository (its config names the catalogue): escape it.
    for r in cat.rules:
        click.echo(f"{r.id}  {r.category:<{width}}  {r.severity:<8}  {safe_line(r.title)}")
    click.echo(f"\n{len(cat.rules)} rules, catalogue {safe_line(cat.version)}")
    return 0


@main_group.command("fix")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--write", is_flag=True, help="Apply the rewrites (default: print a unified diff and change nothing).")
@click.option("--unsafe", is_flag=True,
              help="Also rewrite medium-confidence findings (methods matched by name: x.cuda()).")
@click.option("--device-style", type=click.Choice(["neuron", "accelerator"]), default="neuron", show_default=True,
              help='Write "neuron" literals, or device-neutral torch.accelerator code where the catalogue has it.')
@selection_options
@click.option("--max-file-size", type=click.IntRange(min=1, max=MAX_FILE_SIZE_LIMIT), default=None,
              help="Files larger than this many bytes are skipped (default 5 MiB).")
@config_options
def fix_cmd(paths, write, unsafe, device_style, select, ignore, exclude, catalogue, max_file_size, no_gitignore,
            config_file, no_config):
    """Rewrite the mechanical changes (PATHS default: the current directory).

    Prints a unified diff and changes nothing; --write applies it. Exit code 1
    without --write when there is something to fix, or when a file could not be
    fixed or written; 0 otherwise.

    Example: trnready fix src/ --select cuda-device --write
    """
    paths = list(paths) or ["."]
    _check_paths(paths)
    if "-" in paths:
        raise UserError("`trnready fix` rewrites files on disk; it does not read stdin (`-`)")
    cli_select, cli_ignore = _split(select), _split(ignore)
    config = _config(paths, config_file, no_config, select=cli_select, ignore=cli_ignore,
                     exclude=_exclude(exclude, paths), max_file_size=max_file_size,
                     use_gitignore=False if no_gitignore else None, catalogue=catalogue)
    _checked_catalogue(config, cli_select, cli_ignore)
    try:
        return _run_fix(paths, config, write=write, unsafe=unsafe, style=device_style)
    except CatalogueError as e:
        raise UserError(str(e)) from None


def _run_fix(paths, config: Config, write: bool, unsafe: bool, style: str, out=None, err=None) -> int:
    """`trnready fix`: the diff (or the writes) on `out`, notes and the summary on `err`."""
    from .fix import plan, write_fix
    from .reporters.text import safe

    out = out or sys.stdout
    err = err or sys.stderr
    err_tty = hasattr(err, "isatty") and err.isatty()

    def progress(done: int, total: int) -> None:
        err.write(f"\rrewriting {done}/{total} files" + (" " * 10 if done < total else "\r" + " " * 40 + "\r"))
        err.flush()

    p = plan(paths, config, style=style, unsafe=unsafe, progress=progress if err_tty else None,
             scan_progress=err_tty and err is sys.stderr)
    tty = hasattr(out, "isatty") and out.isatty()
    failed = 0
    for ff in p.files:
        if ff.error:
            failed += 1
            err.write(f"{safe(ff.rel)}: not fixed: {safe(ff.error)}\n")
            continue
        for f, reason in ff.left:
            err.write(f"{safe(ff.rel)}:{f.line}:{f.column}: {f.rule} not rewritten: {reason}\n")
        if not ff.changed:
            continue
        if not write:
            # Escape control characters only for a terminal: a redirected diff must stay a valid patch.
            out.write(_safe_diff(ff.diff()) if tty else ff.diff())
            continue
        problem = write_fix(ff)
        if problem:
            failed += 1
            err.write(f"{safe(ff.rel)}: skipped: {problem}\n")
        else:
            n = len(ff.applied)
            out.write(f"fixed {safe(ff.rel)} ({n} change{'s' if n != 1 else ''})\n")
            for note in ff.notes:
                err.write(f"{safe(ff.rel)}: note: {safe(note)}\n")
    for rel, reason in p.unsupported:
        err.write(f"{safe(rel)}: not fixed: {reason}\n")
    out.flush()
    changed = p.changed
    done = [f for f in changed if f.written] if write else changed
    n, files = sum(len(f.applied) for f in done), len(done)
    what = f"{n} fix{'es' if n != 1 else ''} in {files} file{'s' if files != 1 else ''}"
    if not changed:
        err.write("Nothing to fix.\n")
    elif write:
        err.write(f"Applied {what}" + (f"; {failed} file(s) skipped" if failed else "") + ".\n")
    else:
        err.write(f"Would apply {what}; run `trnready fix --write` to apply.\n")
    if p.report.diagnostics:
        n_diag = len(p.report.diagnostics)
        err.write(f"{n_diag} file(s) could not be scanned and were left as they are (details: `trnready scan`).\n")
    if p.unsafe_skipped:
        err.write(f"{p.unsafe_skipped} more fixable with --unsafe (medium confidence: check the diff).\n")
    if failed:
        return 1
    return 1 if changed and not write else 0


def _safe_diff(diff: str) -> str:
    """Diff lines may carry terminal control characters from the source; neutralise them."""
    from .reporters.text import safe

    return "".join(safe(line[:-1]) + "\n" if line.endswith("\n") else safe(line) for line in diff.splitlines(True))


@main_group.command("explain")
@click.argument("rule_id")
@click.option("--catalogue", type=click.Path(dir_okay=False), help="Read this catalogue instead of the built-in one.")
def explain_cmd(rule_id, catalogue):
    """Explain one rule: what it flags, why it matters, the fix, an example and its source."""
    cat = _load(catalogue)
    rule = cat.by_id().get(rule_id.upper()) or next((r for r in cat.rules if r.name == rule_id), None)
    if rule is None:
        import difflib

        hint = difflib.get_close_matches(rule_id.upper(), [r.id for r in cat.rules], n=1, cutoff=0.6) \
            or difflib.get_close_matches(rule_id, [r.name for r in cat.rules], n=1, cutoff=0.6)
        raise UserError(f"unknown rule id {rule_id!r}" + (f"; did you mean {hint[0]}?" if hint
                                                           else "; `trnready rules` lists them"))
    # Catalogue text may come from a scanned repository (its config names the catalogue): escape it.
    click.echo(f"{rule.id} {safe_line(rule.name)}  [{rule.category}, {rule.severity}]")
    click.echo(f"Phase: {rule.phase} · effort: {rule.effort} (docs/plan.md)")
    click.echo(f"\n## What it flags\n{safe(rule.title)}")
    click.echo(f"\n## Why it matters\n{safe(rule.why)}")
    label = "## Fix (suggestion: the TorchNeuron material gives none)" if rule.fix_is_suggestion else "## Fix"
    click.echo(f"\n{label}\n{safe(rule.fix)}")
    ex = rule.hits[0]
    click.echo(f"\n## Example ({safe_line(ex.file)})\n{safe(ex.code.rstrip())}")
    if rule.corrected:
        click.echo(f"\n## Use instead\n{safe(rule.corrected.rstrip())}")
    if rule.rewrites:
        from .rewrite import describe_rewrites
        click.echo(f"\n## Automatic fix (trnready fix)\n{safe(describe_rewrites(rule))}")
    sources = "\n".join(f"- {safe_line(s.title)}: {safe_line(s.url)}" for s in rule.sources) or safe(rule.source)
    click.echo(f"\n## Sources\n{sources}\n\n## Reference\n{safe(rule.docs)}")
    return 0


def _load(catalogue):
    """The catalogue `scan .` would use here: --catalogue, else the config file's catalogue + extend-catalogue."""
    extra: list = []
    if not catalogue:
        cfg = _config(["."], None, False)
        catalogue, extra = cfg.catalogue, list(cfg.extend_catalogue)
    try:
        return load_catalogue(catalogue, extra)
    except CatalogueError as e:
        raise UserError(str(e)) from None


# Seconds the clean-up after an interruption may take before the process exits anyway: a pool whose manager
# thread waits on a half-sent result must not keep a stopped scan alive.
_STOP_GRACE = 5


# The stop signal last received; 0 while none was.
_stop_signal = 0


def _on_stop_signal(signum, frame):
    import signal

    global _stop_signal
    first, _stop_signal = not _stop_signal, signum
    if first:  # the grace period counts from the first signal, not from a re-sent one
        try:
            signal.signal(signal.SIGALRM, _on_grace_over)
            signal.alarm(_STOP_GRACE)
        except (ValueError, AttributeError):  # no SIGALRM (Windows) or not the main thread
            pass
    raise KeyboardInterrupt


def _on_grace_over(signum, frame):
    _interrupted()


def _on_unraisable(unraisable, default=sys.unraisablehook):
    """A stop signal can arrive while the interpreter runs code whose exceptions it only prints and drops
    (an at-fork callback while the pool starts a worker, a `__del__`). The KeyboardInterrupt raised there
    would be printed as a traceback and lost; send the signal again so it is raised where the scan can stop."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt) and _stop_signal:
        import threading

        # From another thread and a moment later: a signal sent from here would be handled at once, inside
        # the same dropping context. If it is dropped again, this repeats; the grace alarm bounds it.
        timer = threading.Timer(0.02, _resend_stop_signal)
        timer.daemon = True
        timer.start()
        return
    default(unraisable)


def _resend_stop_signal() -> None:
    try:
        os.kill(os.getpid(), _stop_signal)
    except (OSError, ValueError):  # cannot signal ourselves: the grace alarm still ends the run
        pass


def _install_stop_handlers() -> None:
    import signal

    try:
        signal.signal(signal.SIGTERM, _on_stop_signal)
        signal.signal(signal.SIGINT, _on_stop_signal)  # Ctrl-C: the same bounded stop as SIGTERM
    except ValueError:  # not in the main thread (e.g. embedded): keep the default
        return
    sys.unraisablehook = _on_unraisable


def _show_catalogue_deprecations() -> None:
    """Deprecated catalogue keys are reported as one `trnready: warning:` line each, once."""
    import warnings

    from .catalogue import CatalogueDeprecation
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, CatalogueDeprecation):
            click.echo(f"trnready: warning: {safe(str(message))}", err=True)
        else:
            shown(message, category, filename, lineno, file, line)
    warnings.showwarning = show
    warnings.simplefilter("default", CatalogueDeprecation)


def _interrupted() -> None:
    """Exit 130 at once. A worker stopped while sending a result leaves a half-written message that the
    process pool's manager thread would wait on forever, and the interpreter joins that thread at exit:
    so the exit skips interpreter shutdown. Nothing is lost: reports are written atomically and only
    after a scan completes, and the scan's own clean-up (flushing the result cache) has already run."""
    click.echo("trnready: interrupted", err=True)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(130)


def main(argv=None) -> None:
    _install_stop_handlers()
    debug = "--debug" in (argv if argv is not None else sys.argv)
    _show_catalogue_deprecations()
    try:
        rv = main_group.main(args=argv, prog_name="trnready", standalone_mode=False)
    except UserError as e:
        click.echo(f"trnready: error: {safe(str(e))}", err=True)
        sys.exit(2)
    except (click.exceptions.Abort, KeyboardInterrupt):
        _interrupted()
    except click.ClickException as e:
        e.show()
        sys.exit(2)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except BrokenPipeError:
        sys.exit(1)
    except Exception as e:  # a bug in trnready itself: one line, exit 2; --debug shows the traceback
        if debug:
            raise
        click.echo(f"trnready: internal error: {type(e).__name__}: {safe(str(e))} (rerun with --debug)", err=True)
        sys.exit(2)
    sys.exit(rv if isinstance(rv, int) else 0)
