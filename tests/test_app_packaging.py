"""Root packaging that pins torch exactly is an application's (trnready/project/app_packaging.py)."""
from trnready.project.app_packaging import pins_torch


def _root(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return tmp_path


def test_project_dependencies_pinning_torch(tmp_path):
    assert pins_torch(_root(tmp_path, "pyproject.toml", '[project]\nname = "vila"\n'
                                                         'dependencies = ["torch==2.3.0", "numpy"]\n'))


def test_a_range_or_an_extra_is_a_library(tmp_path):
    assert not pins_torch(_root(tmp_path, "pyproject.toml", '[project]\nname = "lib"\ndependencies = ["torch>=2.1"]\n'
                                                             '[project.optional-dependencies]\n'
                                                             'test = ["torch==2.3.0"]\n'))


def test_torchvision_pins_are_not_torch(tmp_path):
    assert not pins_torch(_root(tmp_path, "pyproject.toml", '[project]\nname = "lib"\n'
                                                             'dependencies = ["torchvision==0.18.0"]\n'))


def test_poetry_and_setup_py(tmp_path):
    assert pins_torch(_root(tmp_path, "pyproject.toml", '[tool.poetry.dependencies]\ntorch = "2.1.0"\n'))
    (tmp_path / "pyproject.toml").unlink()
    assert pins_torch(_root(tmp_path, "setup.py", 'setup(install_requires=["torch == 2.1.0", "x"])\n'))
    assert not pins_torch(_root(tmp_path, "setup.py", 'setup(install_requires=["torch"], '
                                                       'extras_require={"a": ["torch==2.1.0"]})\n'))


def test_unreadable_toml_is_no_pin(tmp_path):
    assert not pins_torch(_root(tmp_path, "pyproject.toml", '[project\ndependencies = ["torch==2.3.0"]\n'))
