"""neuron-guarded: an option object's flag the file sets from a CUDA check (`args.cuda = not args.no_cuda and
torch.cuda.is_available()`) guards what runs under it, in every function the object is handed to."""
from conftest import CONTEXT_FIXTURES, scan_findings

MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_an_option_flag_set_from_a_cuda_check_guards_its_branches():
    # 14 (main) and 23 (train, given args) sit under `if args.cuda:`; `args.gpu` is a plain command-line switch the
    # file never derives from a check, so the move under it (16) stays; the check itself (11) picks the device
    assert scan_findings(CONTEXT_FIXTURES / "option_flags", "--show-guarded") == [
        ("train.py", 11, 38, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         False),
        ("train.py", 14, 15, "TRN241", MOVE, True),
        ("train.py", 16, 15, "TRN241", MOVE, False),
        ("train.py", 23, 20, "TRN241", MOVE, True),
        # example(): `args.use_cuda = args.use_cuda and torch.cuda.is_available()` reads the command-line switch on
        # its right (not the flag it makes): the check (31) stays, the move under the flag (34) is guarded
        ("train.py", 31, 39, "TRN243", "torch.cuda device, memory, stream or RNG API: `torch.cuda.is_available`",
         False),
        ("train.py", 34, 17, "TRN241", MOVE, True),
    ]
