"""mocked-unit-test: a test that replaces part of the program with mocks and puts nothing on a device is a CPU unit
test of the program's logic; a mocking test that still runs a model, a patch that only sets up the environment, a
spy, a helper outside the tests and library code stay reported."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

AMP = "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`"
NCCL = "Distributed process group on NCCL: `torch.distributed.init_process_group`"
MATMUL = "cuDNN / CUDA backend flag: `torch.backends.cuda.matmul`"
CUDNN = "cuDNN / CUDA backend flag: `torch.backends.cudnn.benchmark`"
COMPILE = "torch.compile with no backend named: `torch.compile`"
CUDA = '"cuda" device string: `cuda`'
MOVES = ".cuda() moves a tensor or module to a GPU: `cuda`; _build() called at proj/tests/test_mocked_plugins.py:53"
TEST = "proj/tests/test_mocked_plugins.py"
LINKED = "proj/tests/test_linked_amp.py"
SCALER = "torch.amp.GradScaler on the CUDA device (cuda given, or left to its default): `torch.amp.GradScaler`"


def _ours(findings):
    rules = ("TRN251", "TRN271", "TRN261", "TRN241", "TRN242", "TRN114")
    return [f for f in findings if f[0] != LINKED and f[3] in rules]


def test_mocking_tests_without_device_work_are_guarded():
    found = _ours(scan_findings(CONTEXT_FIXTURES / "mocked_unit_test", "--show-guarded"))
    assert found == [
        # library code: a mock made there guards nothing
        ("proj/proj/plugins.py", 8, 14, "TRN251", AMP, False),
        # Mock() as an argument, @mock.patch of the process-group call, monkeypatch.setattr with a MagicMock,
        # mocker.patch: CPU unit tests of the plugin logic
        (TEST, 15, 38, "TRN251", AMP, True),
        (TEST, 20, 5, "TRN271", NCCL, True),
        (TEST, 26, 5, "TRN261", MATMUL, True),
        (TEST, 32, 48, "TRN251", AMP, True),
        # a mocking test that hands a model to Trainer(...).fit, compiles a CUDA tensor, or calls a helper of the
        # file that moves a model (.cuda()) still runs on the device
        (TEST, 39, 14, "TRN251", AMP, False),
        (TEST, 46, 16, "TRN114", COMPILE, False),
        (TEST, 47, 31, "TRN242", CUDA, False),
        (TEST, 54, 5, "TRN261", CUDNN, False),
        (TEST, 59, 12, "TRN241", MOVES, False),
        # only the environment is patched (setenv, patch.dict(os.environ), patch("sys.argv")), a spy
        # (Mock(wraps=...)), torch._dynamo.config.patch, setitem(os.environ) / setattr(sys, "argv"): no unit test
        (TEST, 65, 9, "TRN271", NCCL, False),
        (TEST, 71, 5, "TRN271", NCCL, False),
        (TEST, 76, 5, "TRN261", MATMUL, False),
        (TEST, 82, 5, "TRN261", MATMUL, False),
        # a helper that makes a mock is no test
        (TEST, 87, 5, "TRN261", CUDNN, False),
        # a method patched by its decorator is; its unmocked neighbour is not
        (TEST, 94, 9, "TRN261", CUDNN, True),
        (TEST, 97, 9, "TRN261", CUDNN, False),
        # a fixture is no test
        (TEST, 102, 22, "TRN251", AMP, False),
    ]


def test_guarded_by_names_the_predicate():
    import json
    from conftest import run_cli
    proc = run_cli("scan", CONTEXT_FIXTURES / "mocked_unit_test", "--format", "json", "--no-cache", "--show-guarded")
    by = {(f["path"], f["line"]): f.get("guarded_by") for f in json.loads(proc.stdout)["findings"] if f["guarded"]}
    assert by == {**{(TEST, line): "mocked-unit-test" for line in (15, 20, 26, 32, 94)},
                  (LINKED, 7): "mocked-unit-test"}


def test_linked_findings_at_a_mocking_tests_call_are_guarded():
    """The link step follows `device="cuda"` into the plugin's GradScaler and reports it at the test's call: in
    a test that mocks (the scaler replaced by a Mock) it is guarded there too; in a test that uses the real
    scaler it stays."""
    found = [f for f in scan_findings(CONTEXT_FIXTURES / "mocked_unit_test", "--show-guarded") if f[0] == LINKED]
    via = " (via proj/tests/test_linked_amp.py:{0} MixedPrecision('16-mixed', device='cuda') → proj/proj/amp.py:7 " \
          "torch.amp.GradScaler)"
    assert found == [
        (LINKED, 7, 17, "TRN242", CUDA + via.format(7), True),
        (LINKED, 7, 17, "TRN252", SCALER + via.format(7), True),
        (LINKED, 13, 17, "TRN242", CUDA + via.format(13), False),
        (LINKED, 13, 17, "TRN252", SCALER + via.format(13), False),
    ]


def test_registered_as_a_guard():
    assert context.get("mocked-unit-test").effect == "guard"
