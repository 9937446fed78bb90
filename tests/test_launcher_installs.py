"""Installs a launcher or notebook makes: pip command strings in Python, versioned distribution interpreters."""
import ast

from trnready import requirements as rq
from trnready.readers.job_scripts import command_string_lines


def _versions(text, interpreters=True):
    pos = [(1, i) for i in range(len(text) + 1)]
    return [r.raw for r in rq.shell_pyreqs(text, pos, {}, interpreters)]


def test_versioned_interpreters_installed_made_default_or_run():
    assert _versions("sudo apt-get install -y python3.8 python3.8-dev") == ["apt-get install -y python3.8"]
    assert _versions("update-alternatives --install /usr/bin/python3 python3 /usr/bin/python3.9 1")
    assert _versions("python3.8 app.py --port 1") == ["python3.8"]
    assert _versions("python3.8 -m mypkg.serve") == ["python3.8"]


def test_pip_venv_and_plain_python_are_not_interpreter_choices_here():
    assert _versions("python3.8 -m pip install -r requirements.txt") == []
    assert _versions("apt install -y ffmpeg") == []
    assert _versions("python app.py --version 3.8") == []
    assert _versions("apt install python3.8", interpreters=False) == []


def test_pip_command_strings_but_not_messages():
    src = ('CMD = "pip install torch --extra-index-url https://download.pytorch.org/whl/cu118"\n'
           'raise RuntimeError("pip install torch failed")\n'
           'print("pip install torch")\n'
           'logger.warning(f"pip install {name}")\n'
           'X = "python -m pip install x"\n')
    assert command_string_lines(ast.parse(src)) == {1, 5}
