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


def test_a_uv_application_declares_no_package():
    from trnready.project.app_packaging import declares_package

    app = '[project]\nname = "planner"\ndependencies = ["torch"]\n\n[tool.uv]\nexclude-newer = "7 days"\n'
    assert not declares_package(app)  # uv installs the dependencies only (tier4's Diffusion-Planner)
    assert declares_package(app + '\n[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n')
    assert declares_package(app.replace('exclude-newer = "7 days"', "package = true"))
    assert not declares_package('[tool.poetry]\nname = "x"\npackage-mode = false\n')
    assert declares_package('[project]\nname = "lib"\n')  # pip builds it with setuptools
    assert not declares_package('[tool.ruff]\nline-length = 120\n')


def test_a_named_backend_installs_the_package_named_after_the_distribution():
    from trnready.project.app_packaging import declares_package

    poetry = ('[tool.poetry]\nname = "voltaml-fast-stable-diffusion"\nversion = "0.1.0"\n\n[build-system]\n'
              'requires = ["poetry-core"]\nbuild-backend = "poetry.core.masonry.api"\n')
    assert not declares_package(poetry, lambda n: False)  # VoltaML: no voltaml_fast_stable_diffusion package
    assert declares_package(poetry, lambda n: n == "voltaml_fast_stable_diffusion")
    assert declares_package(poetry)  # nothing known of the tree: a distribution
    assert declares_package(poetry.replace('version = "0.1.0"', 'packages = [{include = "core"}]'), lambda n: False)
    setuptools = '[project]\nname = "app"\n[build-system]\nbuild-backend = "setuptools.build_meta"\n'
    assert declares_package(setuptools, lambda n: False)  # setuptools discovers every top-level package
