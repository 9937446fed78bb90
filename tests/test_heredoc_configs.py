"""Config files a shell script writes with a here-document (readers/heredoc_configs.py)."""
from trnready.readers.heredoc_configs import heredoc_entries


def _keys(text):
    return [(first, [(e.keys, e.value, e.line) for e in entries if e.value is not None])
            for first, entries in heredoc_entries(text.splitlines())]


def test_a_body_written_to_a_file_is_read_at_the_scripts_lines():
    got = _keys('X=1\ncat <<EOT > $CFG\n{\n  "fp16": {"enabled": true},\n  "stage": $X\n}\nEOT\necho done\n')
    assert got == [(3, [(("fp16", "enabled"), "true", 4), (("stage",), "$X", 5)])]


def test_quoted_and_dashed_tags_and_tee_count():
    text = "tee c.yaml <<-'END'\n\tfp16: true\n\tEND\ncat > d.json << \"J\"\n{\"a\": 1}\nJ\n"
    got = _keys(text)
    assert [g[0] for g in got] == [2, 5]


def test_stdin_bodies_and_here_strings_are_not_configs():
    text = ("python - <<EOF\nfp16 = True\nEOF\ncat <<EOF\nfp16: true\nEOF\ncat <<EOF >&2\nfp16: true\nEOF\n"
            "grep x <<< \"$Y\"\n")
    assert _keys(text) == []
