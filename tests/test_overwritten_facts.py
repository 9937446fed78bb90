"""The overwritten-parameter step (project/overwritten.py) reads what it needs of the syntax trees from the per-file
summaries (`kw`, `over`) and parses nothing again; a finding the per-file pass did not note is looked for in the
parsed file, with the same answer."""
import ast
import textwrap

from conftest import FIXTURES

from trnready import api
from trnready.project import overwritten, overwritten_facts
from trnready.project.summary import unpack

DIST = '''\
import torch.distributed


class Group:
    def __init__(self, backend: str = "nccl"):
        backend = "gloo"
        self.group = torch.distributed.new_group(backend=backend)


class Kept:
    def __init__(self, backend: str = "nccl"):
        self.group = torch.distributed.new_group(backend=backend)


def init_environment(backend: str = "nccl"):
    backend = "gloo"
    torch.distributed.init_process_group(backend=backend)


def twice(backend: str = "nccl"):
    backend = "gloo"
    torch.distributed.init_process_group(backend=backend)


def twice(backend: str = "nccl"):
    torch.distributed.init_process_group(backend=backend)
'''
DEMO = '''\
from dist import Group, Kept, init_environment, twice


def main():
    Group(backend="nccl")
    Kept(backend="nccl")
    init_environment(backend="nccl")
    twice(backend="nccl")
'''


def _scan(root):
    report = api.scan([root], api.Config(cache=False, jobs=1, show_guarded=True))
    return [(f.path, f.line, f.column, f.rule, f.guarded_by) for f in report.findings]


def _project(tmp_path):
    (tmp_path / "dist.py").write_text(DIST)
    (tmp_path / "demo.py").write_text(DEMO)
    return tmp_path


def test_a_class_init_that_overwrites_the_parameter_and_a_look_alike(tmp_path):
    assert _scan(_project(tmp_path)) == [
        ("demo.py", 5, 19, "TRN271", "overwritten-parameter"),  # Group.__init__ assigns backend before reading it
        # Kept.__init__ hands it on to new_group, whose finding at dist.py:12 already reports the same "nccl" (its
        # default): demo.py:6 is a place of that finding (project/report.py fold_values_into_calls)
        # twice(backend="nccl") at demo.py:8 (two definitions of `twice`: which one runs is not known) reaches a
        # call already reporting "nccl": a place of it too
        ("dist.py", 12, 22, "TRN271", ""),
        ("dist.py", 26, 5, "TRN271", ""),
    ]


def test_the_same_answers_when_the_step_parses_the_files(tmp_path, monkeypatch):
    project = _project(tmp_path)
    for root in (project, FIXTURES / "callers" / "overwritten"):
        noted = _scan(root)
        assert any(f[4] == "overwritten-parameter" for f in noted)
        parsed: list = []
        real = overwritten._fact

        def fact(tree, line, column, rec, parsed=parsed, real=real):
            parsed.append(line)
            return real(tree, line, column, rec)
        monkeypatch.setattr(overwritten, "_fact", fact)
        noted_calls = len(parsed)
        monkeypatch.setattr(overwritten_facts, "keyword_facts", lambda tree, findings, summary: [])
        assert _scan(root) == noted
        assert len(parsed) > noted_calls  # the step looked the keywords up in the parsed files
        monkeypatch.undo()


def test_the_facts_noted_in_the_summaries(tmp_path):
    from trnready.readers import python as reader

    project = _project(tmp_path)
    summaries = {}
    real = reader.project_summary

    def keep(ctx, *a, **k):
        s = real(ctx, *a, **k)
        summaries[ctx.rel] = s
        return s
    reader.project_summary = keep
    try:
        _scan(project)
    finally:
        reader.project_summary = real
    assert summaries["dist.py"]["over"] == [{"init_environment": ["backend"]}, {"Group": ["backend"]}]
    assert [row[:5] for row in summaries["demo.py"]["kw"]] == [
        [5, 19, "backend", 5, 4], [6, 18, "backend", 6, 4], [7, 30, "backend", 7, 4], [8, 19, "backend", 8, 4]]


def test_a_name_imported_inside_a_function_and_bound_nowhere_else():
    tree = ast.parse(textwrap.dedent('''\
        def launch():
            from dist import init_environment
            return init_environment(backend="nccl")

        def other():
            from dist import helper as h
            from tools import helper
            helper(backend="nccl")
    '''))
    assert overwritten_facts._local_source(tree, "init_environment") == "dist"
    assert overwritten_facts._local_source(tree, "helper") == "tools"
    assert overwritten_facts._local_source(tree, "h") is None  # imported under another name
    rebound = ast.parse("from dist import f\nf = None\nf(backend='nccl')\n")
    assert overwritten_facts._local_source(rebound, "f") is None
