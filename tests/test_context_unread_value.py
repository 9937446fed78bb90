"""unread-value: a device value bound to a local name nothing reads is guarded, and so is a script's or notebook's
module-level one; a library module's names (its interface) and read names stay findings."""
import json

from conftest import CONTEXT_FIXTURES, run_cli, scan_findings
from trnready import context

FIXTURE = CONTEXT_FIXTURES / "unread_value"


def test_unread_device_values_are_guarded_and_read_or_imported_ones_stay():
    proc = run_cli("scan", FIXTURE, "--format", "json", "--no-cache", "--show-guarded")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("app.py", 3, "TRN243", ""),  # the pick's check (its "cuda:0" listed there)
        ("app.py", 8, "TRN242", ""),  # module level: the module's interface (with `used` on line 11 as an occurrence)
        ("app.py", 10, "TRN241", ""),  # .cuda() moves the model whether or not `model` is read
        ("app.py", 15, "TRN242", "unread-value"),  # local: read nowhere in its function
        ("app.py", 16, "TRN242", ""),
        ("app.py", 17, "TRN241", ""),
        ("app.py", 22, "TRN242", ""),  # read by a nested function
        # a conditional pick between two device strings, bound and never read (DomainBed's IRM.update); the same
        # pick read below stays
        ("app.py", 30, "TRN242", "unread-value"),
        ("app.py", 31, "TRN242", ""),
        ("config.py", 3, "TRN242", ""),  # module level, and train.py imports config
        # a script (a call at its top level): its module-level names are no interface; unread, guarded
        ("example_script.py", 9, "TRN242", "unread-value"),
        ("example_script.py", 11, "TRN242", ""),
        ("example_script.py", 15, "TRN243", "unread-value"),
        ("lone.py", 4, "TRN242", ""),  # module level: the module's interface
    ]


def test_registered_as_a_guard():
    assert context.get("unread-value").effect == "guard"


def test_a_device_pick_bound_again_before_any_read_is_thrown_away(tmp_path):
    # secml-torch's tutorial: the pick, a model, then `device = "cpu"` before the move; the pick never reaches it.
    # A read in between, or a rebinding inside a branch, keeps the finding
    (tmp_path / "lib.py").write_text(
        "import torch\n"
        "def load(get_model):\n"
        "    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "    net = get_model('vit')\n"
        "    device = 'cpu'\n"
        "    return net.to(device)\n"
        "def read_first(net):\n"
        "    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "    net.to(device)\n"
        "    device = 'cpu'\n"
        "    return net, device\n"
        "def branch(net, cpu):\n"
        "    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "    if cpu:\n"
        "        device = 'cpu'\n"
        "    return net.to(device)\n")
    found = sorted((f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN242")
    assert found == [(3, True), (8, False), (13, False)]


def test_the_same_device_value_bound_again_is_a_repeat_not_a_throwaway(tmp_path):
    # ocnn's benchmark: `device = 'cuda'` twice before use; the first stays the finding (the repeat folds into it)
    (tmp_path / "bench.py").write_text("import torch\ndevice = 'cuda'\nn = 3\ndevice = 'cuda'\n"
                                       "x = torch.zeros(n, device=device)\n")
    found = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN242"]
    assert found and found[0] == (2, False)


def test_a_pick_by_if_else_only_printed_in_a_looping_script_is_thrown_away(tmp_path):
    # Reservoir_Pytorch's research scripts (blind80): `if torch.cuda.is_available(): device = torch.device('cuda')` /
    # `else: device = torch.device('cpu')`, beside prints, and the name never read; or `device = 'cuda' if ... else
    # 'cpu'` read only by `print(f"Device: {device}")` in a script whose work is a top-level `for` loop. An arm doing
    # anything else, or a read outside a print, keeps the finding.
    (tmp_path / "sweep.py").write_text(
        "import torch\n"
        "\n"
        "if torch.cuda.is_available():\n"
        "    device = torch.device('cuda')\n"
        "    print('Using GPU')\n"
        "else:\n"
        "    device = torch.device('cpu')\n"
        "shown = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "print(f'Device: {shown}')\n"
        "for seed in range(3):\n"
        "    torch.manual_seed(seed)\n")
    (tmp_path / "run.py").write_text(
        "import torch\n"
        "\n"
        "if torch.cuda.is_available():\n"
        "    device = torch.device('cuda')\n"
        "    torch.backends.cudnn.benchmark = True\n"
        "else:\n"
        "    device = torch.device('cpu')\n"
        "used = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "print(torch.zeros(2, device=used))\n"
        "for seed in range(3):\n"
        "    torch.manual_seed(seed)\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--show-guarded", "--select", "TRN242,TRN243")
    got = [(f["path"], f["line"], f["rule"], f.get("guarded_by", "")) for f in json.loads(proc.stdout)["findings"]]
    assert got == [
        ("run.py", 3, "TRN243", ""),  # its arm also sets a cudnn flag: the pick's "cuda" (line 4) is listed there
        ("run.py", 8, "TRN242", ""),  # read to place a tensor inside the print
        ("sweep.py", 3, "TRN243", "unread-value"),
        ("sweep.py", 4, "TRN242", "neuron-guarded"),
        ("sweep.py", 8, "TRN243", "unread-value"),  # shown by a print only
    ]


def test_a_pick_of_a_named_device_nobody_reads_is_thrown_away(tmp_path):
    # contrastive-gap's prepare_config (fresh84): the last statement picks `config_cuda_device` or the CPU and the
    # function ends; a pick whose arm calls something (`get_device()`) may do more and stays
    (tmp_path / "prepare.py").write_text(
        "import torch\n"
        "def prepare_config(gpu, get_device):\n"
        "    config_cuda_device = 'cuda:' + str(gpu)\n"
        "    torch.manual_seed(0)\n"
        "    device = torch.device(config_cuda_device if torch.cuda.is_available() else 'cpu')\n"
        "def other(gpu, get_device):\n"
        "    device = torch.device(get_device(gpu) if torch.cuda.is_available() else 'cpu')\n")
    found = sorted((f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN243")
    assert found == [(5, True), (7, False)]
