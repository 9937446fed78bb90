"""readers/sourced_vars.py: literals a launcher takes from the config scripts of the tree it sources."""
import os

from trnready.readers.deps import dependency_signature
from trnready.readers.lines import _literal_variables, shell_variable_lines
from trnready.readers.sourced_vars import sourced_files, sourced_literals


def _literals(lines):
    return _literal_variables(lines, shell_variable_lines(lines))


def _tree(tmp_path):
    (tmp_path / "configs").mkdir()
    (tmp_path / "scripts").mkdir()
    (tmp_path / "configs" / "model.sh").write_text('MP_SIZE=8\nNAME="large"\nTWICE=1\nTWICE=2\nFROM=$OTHER\n')
    script = tmp_path / "scripts" / "run.sh"
    script.write_text('main_dir=$(dirname $(dirname $0))\nsource "${main_dir}/configs/model.sh"\n'
                      '. ./configs/absent.sh\nsource $CONFIG\nsource /etc/profile\n'
                      'torchrun --nproc_per_node $MP_SIZE run.py\n')
    return script


def test_a_path_with_variables_is_found_by_its_literal_tail_in_the_tree(tmp_path):
    script = _tree(tmp_path)
    lines = script.read_text().splitlines()
    assert sourced_files(lines, script, "scripts/run.sh") == [(2, tmp_path / "configs" / "model.sh")]
    # the variables assigned once to a literal, as set at the `source` line
    assert sourced_literals(lines, script, "scripts/run.sh", _literals) == {"MP_SIZE": ("8", 2, 1), "NAME": ("large", 2, 1)}


def test_nothing_outside_the_scanned_tree_and_nothing_without_a_path(tmp_path):
    script = _tree(tmp_path)
    lines = script.read_text().splitlines()
    # scanned from scripts/ alone, the config folder is outside the tree
    assert sourced_files(lines, script, "run.sh") == []
    assert sourced_literals(lines, None, "scripts/run.sh", _literals) == {}


def test_the_cache_key_follows_the_sourced_file(tmp_path):
    script = _tree(tmp_path)
    before = dependency_signature(script, "scripts/run.sh")
    assert before
    config = tmp_path / "configs" / "model.sh"
    config.write_text("MP_SIZE=16\n")
    st = config.stat()
    os.utime(config, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert dependency_signature(script, "scripts/run.sh") != before
