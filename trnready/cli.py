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
from .model import SEVERITY_RANK, Report
from .reporters import FORMATS, get as get_reporter
from .reporters.text import safe


class UserError(Exception):
    """A problem the user can fix (bad config, bad catalogue, bad flag): exit 2, no traceback."""


def write_atomic(path: str, content: str) -> None:
    """Write to a temp file beside the target and rename, so a report is never half-written."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp creates 0600 files; a report should get the usual umask-based mode.
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(content)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


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
    return 1 if any(SEVERITY_RANK[f.severity] >= threshold for f in report.active) else 0


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


@main_group.command("scan")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="Format written to stdout (or to --output).")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), help="Write the --format output to FILE.")
@click.option("--output-format", "outputs", multiple=True, metavar="FMT=FILE",
              help="Also write FMT to FILE; repeatable (e.g. --output-format json=report.json).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False),
              help="Also write the interactive HTML report to FILE (same as --output-format html=FILE).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default=None,
              help="Lowest severity that makes the exit code 1 (default: blocker).")
@click.option("--exit-zero", is_flag=True, help="Always exit 0 unless trnready itself fails.")
@selection_options
@click.option("--max-file-size", type=click.IntRange(min=1), default=None,
              help="Files larger than this many bytes are skipped with a diagnostic (default: 5 MiB).")
@click.option("--color/--no-color", default=None, help="Colour terminal output (default: only on a TTY).")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=0, show_default=True,
              help="Worker processes (0: one per CPU). Output is identical for every value.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the per-file result cache.")
@click.option("--cache-dir", type=str, envvar="TRNREADY_CACHE_DIR",
              help="Result cache location (default: the user cache directory; never the scanned tree).")
@click.option("--no-prefilter", is_flag=True, hidden=True,
              help="Parse every file even when it cannot match (for testing the prefilter).")
@click.option("--strict", is_flag=True, help="Exit 2 when any file could not be scanned (diagnostics).")
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@ci_options
def scan_cmd(paths, fmt, output, outputs, html_out, fail_on, exit_zero, select, ignore, exclude, catalogue,
             max_file_size, no_gitignore, color, jobs, no_cache, cache_dir, no_prefilter, strict, debug,
             config_file, no_config, no_suppressions, baseline, changed_since):
    """Scan PATHS (default: the current directory) and report TorchNeuron blockers.

    Example: trnready scan src/ --html report.html --output-format json=report.json
    """
    extra = []
    for spec in outputs:
        if "=" not in spec:
            raise click.UsageError(f"--output-format expects FMT=FILE, got {spec!r}")
        f, _, target = spec.partition("=")
        if f not in FORMATS:
            raise click.UsageError(f"unknown format {f!r} in --output-format (choose from {', '.join(FORMATS)})")
        extra.append((f, target))
    if html_out:
        extra.append(("html", html_out))
    if debug:
        os.environ["TRNREADY_DEBUG"] = "1"
    paths = list(paths) or ["."]
    config = _config(paths, config_file, no_config, select=_split(select), ignore=_split(ignore),
                     exclude=tuple(exclude), fail_on=fail_on, max_file_size=max_file_size,
                     use_gitignore=False if no_gitignore else None, catalogue=catalogue,
                     suppressions=False if no_suppressions else None, jobs=jobs,
                     cache=False if no_cache else None, cache_dir=cache_dir,
                     prefilter=False if no_prefilter else None)
    fail_on = config.fail_on
    report = _scan(paths, config, baseline, changed_since)
    colour = color if color is not None else (output is None and sys.stdout.isatty())
    main_out = render_to_string(fmt, report, colour=colour)
    for f, target in extra:
        write_atomic(target, render_to_string(f, report))
    if output:
        write_atomic(output, main_out)
        text_summary(report, colour)
        sys.stdout.write(f"Report written to {output}\n")
    else:
        sys.stdout.write(main_out)
        if fmt == "github":  # a log format: the summary reads well after the annotations
            text_summary(report, False)
        elif fmt != "text" and extra:
            text_summary(report, colour, sys.stderr)
    # Say where the HTML went; to stderr when stdout carries a machine-readable format.
    for f, target in extra:
        if f == "html":
            print(f"HTML report written to {target}", file=sys.stdout if fmt == "text" else sys.stderr)
    sys.stdout.flush()
    if strict and report.diagnostics:
        click.echo(f"trnready: --strict: {len(report.diagnostics)} file(s) could not be scanned", err=True)
        return 2
    return 0 if exit_zero else gate(report, fail_on)


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
    config = _config(paths, config_file, no_config, select=_split(select), ignore=_split(ignore),
                     exclude=tuple(exclude), use_gitignore=False if no_gitignore else None, catalogue=catalogue)
    report = _scan(paths, config, None, None)
    write_atomic(output, bl.render(report, output))
    click.echo(f"Baseline written to {output}: {len(report.active)} finding(s) in {report.files_scanned} file(s).")
    return 0


def _config(paths, config_file, no_config, **cli) -> Config:
    from .config import resolve
    try:
        return resolve(paths, config_file=config_file, use_config=not no_config, **cli)
    except ConfigError as e:
        raise UserError(str(e)) from None


def _scan(paths, config: Config, baseline_file, changed_since) -> Report:
    """scan() with --changed-since and --baseline; every user error becomes UserError (exit 2)."""
    from dataclasses import replace

    from . import baseline as bl
    from . import gitdiff

    base = None
    if baseline_file:
        try:
            base = bl.load(baseline_file)
        except bl.BaselineError as e:
            raise UserError(str(e)) from None
    if changed_since:
        try:
            only = gitdiff.changed_files([Path(p) for p in paths], changed_since)
            config = replace(config, only_files=only)
        except gitdiff.BadRef as e:
            raise UserError(str(e)) from None
        except gitdiff.NotAGitRepo as e:
            click.echo(f"trnready: warning: --changed-since ignored ({safe(str(e))}); scanning everything",
                       err=True)
    try:
        report = scan(paths, config, progress=True)
    except (CatalogueError, ConfigError) as e:
        raise UserError(str(e)) from None
    if base is not None:
        warning = bl.root_mismatch(report, base)
        if warning:
            click.echo(f"trnready: warning: {safe(warning)}", err=True)
        bl.apply(report, base, partial=config.only_files is not None)
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
                           "title": r.title, "docs": r.docs, "source": r.source} for r in cat.rules]}
        click.echo(json.dumps(data, indent=2))
        return 0
    width = max((len(r.category) for r in cat.rules), default=10)
    for r in cat.rules:
        click.echo(f"{r.id}  {r.category:<{width}}  {r.severity:<8}  {r.title}")
    click.echo(f"\n{len(cat.rules)} rules, catalogue {cat.version}")
    return 0


@main_group.command("fix")
@click.argument("paths", nargs=-1, type=click.Path(path_type=str))
@click.option("--write", is_flag=True, help="Apply the rewrites (default: print a unified diff and change nothing).")
@click.option("--unsafe", is_flag=True,
              help="Also rewrite medium-confidence findings (methods matched by name: x.cuda()).")
@click.option("--device-style", type=click.Choice(["neuron", "accelerator"]), default="neuron", show_default=True,
              help='Write "neuron" literals, or device-neutral torch.accelerator code where the catalogue has it.')
@selection_options
@click.option("--max-file-size", type=click.IntRange(min=1), default=None,
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
    from .fix import run_cli

    paths = list(paths) or ["."]
    config = _config(paths, config_file, no_config, select=_split(select), ignore=_split(ignore),
                     exclude=tuple(exclude), max_file_size=max_file_size,
                     use_gitignore=False if no_gitignore else None, catalogue=catalogue)
    try:
        return run_cli(paths, config, write=write, unsafe=unsafe, style=device_style)
    except CatalogueError as e:
        raise UserError(str(e)) from None


@main_group.command("explain")
@click.argument("rule_id")
@click.option("--catalogue", type=click.Path(dir_okay=False), help="Read this catalogue instead of the built-in one.")
def explain_cmd(rule_id, catalogue):
    """Explain one rule: what it flags, why it matters, the fix, an example and its source."""
    cat = _load(catalogue)
    rule = cat.by_id().get(rule_id.upper())
    if rule is None:
        raise UserError(f"unknown rule id {rule_id!r}; `trnready rules` lists them")
    click.echo(f"{rule.id} {rule.name}  [{rule.category}, {rule.severity}]")
    click.echo(f"\n## What it flags\n{rule.title}")
    click.echo(f"\n## Why it matters\n{rule.why}")
    label = "## Fix (suggestion: the TorchNeuron material gives none)" if rule.fix_is_suggestion else "## Fix"
    click.echo(f"\n{label}\n{rule.fix}")
    ex = rule.hits[0]
    click.echo(f"\n## Example ({ex.file})\n{ex.code.rstrip()}")
    if rule.corrected:
        click.echo(f"\n## Use instead\n{rule.corrected.rstrip()}")
    if rule.rewrites:
        from .rewrite import describe_rewrites
        click.echo(f"\n## Automatic fix (trnready fix)\n{describe_rewrites(rule)}")
    click.echo(f"\n## Source\n{rule.source}\n\n## Reference\n{rule.docs}")
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


def _on_sigterm(signum, frame):
    raise KeyboardInterrupt


def main(argv=None) -> None:
    import signal

    try:
        signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not in the main thread (e.g. embedded): keep the default
        pass
    debug = "--debug" in (argv if argv is not None else sys.argv)
    try:
        rv = main_group.main(args=argv, prog_name="trnready", standalone_mode=False)
    except UserError as e:
        click.echo(f"trnready: error: {safe(str(e))}", err=True)
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("trnready: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        click.echo("trnready: interrupted", err=True)
        sys.exit(130)
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
