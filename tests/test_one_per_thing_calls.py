"""One finding per thing, three more folds: the same torch.cuda API repeated in one function, one call reported by
two rules of a category over the lines of one statement, and masked selections with one mask. Each fold keeps the
other places as occurrences; its look-alike (another API or function, another category, another mask) stays apart."""
import json

from conftest import run_cli


def scan(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["line"], f["column"], f["rule"], f["message"],
             [(o["line"], o["column"], o["rule"]) for o in f.get("occurrences", ())])
            for f in json.loads(proc.stdout)["findings"]]


SYNC = "torch.cuda device, memory, stream or RNG API: `torch.cuda.synchronize`"
STATS = "torch.cuda device, memory, stream or RNG API: `torch.cuda.memory_stats`"

TIMING = '''import torch


def measure(model, x, steps):
    torch.cuda.synchronize()
    for _ in range(steps):
        torch.cuda.synchronize()
        y = model(x)
        z = y * 2
        w = z + 1
        torch.cuda.synchronize()
    model.reset()
    model.eval()
    model.train()
    before = torch.cuda.memory_stats()
    if steps:
        log(before, torch.cuda.memory_stats())
    return w


def other(model):
    torch.cuda.synchronize()
    return model
'''


def test_same_cuda_api_in_one_function_is_one_finding(tmp_path):
    assert scan(tmp_path, "timing.py", TIMING) == [
        (5, 5, "TRN243", SYNC, [(7, 9, "TRN243"), (11, 9, "TRN243")]),
        # another API of the same rule in the function: its own finding, with its own repeat
        (15, 14, "TRN243", STATS, [(17, 21, "TRN243")]),
        # the same API in another function: another edit
        (22, 5, "TRN243", SYNC, []),
    ]


PICKS = '''import torch


def pick(a, b):
    if torch.cuda.is_available():
        a = a.to("cuda")
    a.reset()
    a.eval()
    a.train()
    b.close()
    if torch.cuda.is_available():
        b = b.to("cuda")
    n = torch.cuda.device_count()
    a.reset()
    a.eval()
    a.train()
    b.close()
    world = torch.cuda.device_count()
    a.reset()
    a.eval()
    a.train()
    ids = torch.tensor(a.ids, device=torch.cuda.current_device())
    b.close()
    b.eval()
    b.train()
    pos = torch.tensor(b.pos, device=torch.cuda.current_device())
    return a, b, n, world, ids, pos
'''


def test_device_pick_queries_stay_one_per_pick(tmp_path):
    text = PICKS
    assert [(line, column, rule, msg.split(": ")[1], occ) for line, column, rule, msg, occ in
            scan(tmp_path, "pick.py", text)] == [
        (5, 8, "TRN243", "`torch.cuda.is_available`", []),  # the "cuda" string below folds into its check
        (11, 8, "TRN243", "`torch.cuda.is_available`", []),
        (13, 9, "TRN243", "`torch.cuda.device_count`", []),
        (18, 13, "TRN243", "`torch.cuda.device_count`", []),
        (22, 38, "TRN243", "`torch.cuda.current_device`", []),
        (26, 38, "TRN243", "`torch.cuda.current_device`", []),
    ]


AUTOCAST = '''import torch


def do_autocast(fn):
    def wrap(*args, **kwargs):
        with torch.cuda.amp.autocast(enabled=True,
                                     dtype=torch.get_autocast_gpu_dtype(),
                                     cache_enabled=torch.is_autocast_cache_enabled()):
            return fn(*args, **kwargs)
    return wrap
'''


def test_one_category_per_statement_over_its_lines(tmp_path):
    assert scan(tmp_path, "util.py", AUTOCAST) == [
        (6, 14, "TRN251", "torch.cuda.amp (autocast, GradScaler, custom_fwd / custom_bwd): `torch.cuda.amp`", [(7, 44, "TRN255")]),
    ]


def test_two_statements_of_one_category_stay_two(tmp_path):
    text = AUTOCAST.replace("""        with torch.cuda.amp.autocast(enabled=True,
                                     dtype=torch.get_autocast_gpu_dtype(),
                                     cache_enabled=torch.is_autocast_cache_enabled()):
""", """        dtype = torch.get_autocast_gpu_dtype()

        with torch.cuda.amp.autocast(enabled=True, dtype=dtype):
""")
    assert [(line, rule, occ) for line, _, rule, _, occ in scan(tmp_path, "util.py", text)] == [
        (6, "TRN255", []),
        (8, "TRN251", []),
    ]


MASKED = '''import torch


def loss(mel_out, mel_target, pitch_out, pitch_target, mel_mask, src_mask):
    mel_pred = mel_out.masked_select(mel_mask[:, None])
    mel_true = mel_target.masked_select(mel_mask[:, None])
    pitch_pred = pitch_out.masked_select(src_mask.unsqueeze(-1))
    pitch_true = torch.masked_select(pitch_target, src_mask)
    return mel_pred, mel_true, pitch_pred, pitch_true


def other(x, mel_mask):
    return x.masked_select(mel_mask)
'''


def test_masked_selections_with_one_mask_are_one_finding(tmp_path):
    assert [(line, column, rule, occ) for line, column, rule, _, occ in scan(tmp_path, "loss.py", MASKED)] == [
        (5, 16, "TRN104", [(6, 16, "TRN104")]),
        # another mask (a view of it, or passed to torch.masked_select) is another rewrite
        (7, 18, "TRN104", [(8, 18, "TRN104")]),
        # the same mask name in another function: its own item
        (13, 12, "TRN104", []),
    ]


ARMS = '''import torch


def next_batch(rank, it):
    if rank == 0:
        try:
            data = next(it)
            has_data = torch.tensor([1], dtype=torch.uint8, device="cuda")
        except StopIteration:
            has_data = torch.tensor([0], dtype=torch.uint8, device="cuda")
            data = None
    else:
        has_data = torch.empty(1, dtype=torch.uint8, device="cuda")
        data = None
    return data, has_data


def two_tensors(rank):
    if rank == 0:
        flags = torch.ones(1, device="cuda")
    else:
        sizes = torch.zeros(1, device="cuda")
    return flags, sizes
'''

CUDA_STRING = '"cuda" device string: `cuda`'


def test_one_variable_in_the_arms_of_one_branch_is_one_finding(tmp_path):
    assert scan(tmp_path, "train.py", ARMS) == [
        (8, 68, "TRN242", CUDA_STRING, [(10, 68, "TRN242"), (13, 61, "TRN242")]),
        # two variables in the arms of a branch are two tensors to place
        (20, 38, "TRN242", CUDA_STRING, []),
        (22, 39, "TRN242", CUDA_STRING, []),
    ]


def test_one_variable_twice_in_one_arm_stays_two(tmp_path):
    text = '''import torch


def build(rank, a, b, c):
    if rank == 0:
        buf = torch.ones(1, device="cuda")
        a.reset()
        b.reset()
        c.reset()
        buf = torch.zeros(2, device="cuda")
    return buf
'''
    assert [(line, rule, occ) for line, _, rule, _, occ in scan(tmp_path, "build.py", text)] == [
        (6, "TRN242", []),
        (10, "TRN242", []),
    ]


GRAPHS = '''import torch


class Runner:
    def record(self, model, static_in):
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.static_out = model(static_in)

    def replay_twice(self, model, static_in):
        g = torch.cuda.CUDAGraph()
        return g
'''


def test_a_cuda_graph_created_and_captured_in_one_function_is_one_finding(tmp_path):
    got = [(ln, col, rule, occ) for ln, col, rule, _msg, occ in scan(tmp_path, "graphs.py", GRAPHS)]
    assert got == [
        (6, 22, "TRN262", [(7, 14, "TRN262")]),  # the capture of the same function is a place of the graph
        (11, 13, "TRN262", []),  # another function: another graph to remove
    ]


SUBMITIT = '''import argparse

import submitit


def parse_args():
    parser = argparse.ArgumentParser("submitit launcher")
    parser.add_argument("--ngpus", default=8, type=int, help="GPUs per node")
    parser.add_argument("--nodes", default=2, type=int)
    return parser.parse_args()


def eval_args():
    parser = argparse.ArgumentParser("eval launcher")
    parser.add_argument("--num_gpus", default=4, type=int, help="GPUs of the eval job")
    return parser.parse_args()


def main():
    args = parse_args()
    num_gpus_per_node = args.ngpus
    executor = submitit.AutoExecutor(folder="logs")
    executor.update_parameters(
        mem_gb=40 * num_gpus_per_node,
        gpus_per_node=num_gpus_per_node,
        tasks_per_node=num_gpus_per_node,
        nodes=args.nodes,
    )
    executor.submit(print)


def evaluate():
    evaluator = submitit.AutoExecutor(folder="eval")
    evaluator.update_parameters(gpus_per_node=1)
    evaluator.submit(print)


main()
evaluate()
eval_args()
'''


def test_an_option_default_handed_on_to_a_request_of_its_rule_is_a_place_of_it(tmp_path):
    # `--ngpus default=8` read into `gpus_per_node=`: one GPU request, reported where submitit is asked; the
    # `--num_gpus` default nobody reads into a request, and the literal request of the eval job, stay apart
    got = [(ln, rule, occ) for ln, _, rule, _, occ in scan(tmp_path, "launch.py", SUBMITIT)]
    assert got == [(15, "TRN610", []), (25, "TRN610", [(8, 44, "TRN610")]), (34, "TRN610", [])]


VISIBLE_FROM_OPTION = '''import argparse
import os

parser = argparse.ArgumentParser()
parser.add_argument("--gpu_id", default="1", type=str,
                    help="ids for CUDA_VISIBLE_DEVICES")
parser.add_argument("--gpus", default=None, type=str)
parser.add_argument("--order", default="PCI_BUS_ID")
args = parser.parse_args()
ids = args.gpu_id
os.environ["CUDA_VISIBLE_DEVICES"] = ids
if args.gpus:
    os.environ["CUDA_VISIBLE_DEVICES"] = args.gpus
os.environ["CUDA_VISIBLE_DEVICES"] = "0"
'''


def test_a_device_list_written_from_an_option_has_its_literal_default_as_a_place(tmp_path):
    got = [(ln, col, rule, occ) for ln, col, rule, _, occ in scan(tmp_path, "train.py", VISIBLE_FROM_OPTION)]
    assert got == [
        # read through a name bound once from the option: the default "1" is where the device list enters (the
        # module's other unconditional write of the variable is the same setting, folded before this step)
        (11, 12, "TRN245", [(5, 41, "TRN245"), (14, 12, "TRN245")]),
        # an option without a literal default (None) brings no place
        (13, 16, "TRN245", []),
    ]


SPCONV = '''try:
    import spconv.pytorch as spconv
except ImportError:
    import spconv


def block(c):
    return spconv.SubMConv3d(c, c, 3)
'''


def test_an_optional_import_and_its_required_fallback_are_one_item_reported_where_it_blocks(tmp_path):
    # CenterPoint's scn.py: the try arm is optional (a change), the handler imports the same library again without a
    # way out (a blocker): one library to replace, reported at the blocker with the other places
    got = [(ln, rule, occ) for ln, _, rule, _, occ in scan(tmp_path, "scn.py", SPCONV)]
    assert got == [(4, "TRN296", [(2, 5, "TRN296"), (8, 12, "TRN296")])]
