"""Report step nested, rule set copied_packages.py: the programs of another project's tree kept as a package of the
repository (fresh51: few-shot-vid2vid's copy of flownet2-pytorch, with its own Dockerfile, Docker launchers and
main.py) are guarded; what the repository imports from it stays."""
import json

from conftest import FIXTURES, run_cli


def test_the_programs_of_a_copied_package_are_guarded_and_what_the_project_runs_stays():
    proc = run_cli("scan", FIXTURES / "copied_package", "--no-config", "--format", "json", "--no-cache",
                   "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f.get("guarded_by", ""))
           for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        # the copy's image and its Docker launcher: nothing outside the folder names them
        ("models/networks/flow_copy/Dockerfile", 1, 1, "TRN603", "nested-copy-manifest"),
        ("models/networks/flow_copy/Dockerfile", 2, 17, "TRN506", "nested-copy-manifest"),
        # look-alike: convert.py is a program too, but train.py imports it and calls run()
        ("models/networks/flow_copy/convert.py", 5, 5, "TRN243", ""),
        ("models/networks/flow_copy/launch_docker.sh", 2, 1, "TRN610", "unused-nested-script"),
        # the copy's own training program, which no file imports, runs or names; its device count is only printed,
        # which unread-value (a per-file guard, first) reads as no use since session 54
        ("models/networks/flow_copy/main.py", 6, 12, "TRN243", "unread-value"),
        # the model the repository imports from the copy
        ("models/networks/flow_copy/models.py", 7, 19, "TRN191", ""),
        # look-alike: a program in a package of the project's own (no Dockerfile there)
        ("models/networks/own/run.py", 12, 45, "TRN242", ""),
        ("train.py", 7, 9, "TRN241", ""),
    ]
