"""ends-on-cpu: a device pick whose function moves the model to the CPU and never uses the device again."""
from conftest import scan_findings

SRC = '''import torch


def convert(model, path):
    device = "cpu"
    if torch.cuda.is_available():
        device = "cuda"
    model.to(device)
    model.half()
    model.cpu()
    torch.save(model.state_dict(), path)


def convert_in_branch(model, path, fast):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to(device)
    if fast:
        model.cpu()
    torch.save(model.state_dict(), path)


def convert_then_check(model, path):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model.to("cpu")
    print(model(torch.zeros(1, device=device)))
'''


def test_a_pick_before_the_model_moves_to_the_cpu_for_good_is_guarded(tmp_path):
    (tmp_path / "convert.py").write_text(SRC)
    found = sorted((f[1], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded")
                   if f[3] in ("TRN242", "TRN243"))
    # 6/7: the model ends on the CPU and the device is not read after; 15: the move is in a branch; 23: the
    # device is read after the move
    assert [(line, guarded) for line, _, guarded in found] == [(6, True), (7, True), (15, False), (23, False)]


BUILT = '''import torch


def pack(sizes, group):
    sizes_cuda = torch.cuda.LongTensor(sizes)
    torch.distributed.broadcast(sizes_cuda, 0, group=group)
    sizes_cpu = sizes_cuda.cpu()
    return sizes_cpu
'''


def test_a_tensor_built_with_a_cuda_constructor_is_no_pick(tmp_path):
    """`x = torch.cuda.LongTensor(...)` then `y = x.cpu()`: a tensor made on the GPU and read back, not a device
    pick of an export script; it stays a finding."""
    (tmp_path / "pack.py").write_text(BUILT)
    found = [(f[1], f[3], f[5]) for f in scan_findings(tmp_path / "pack.py", "--show-guarded")]
    assert (5, "TRN243", False) in found


RESULT = '''import torch


def embed(encoder_factory, waveform, path):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    encoder = encoder_factory(device=device)
    embedding = encoder(waveform.to(device))
    embedding = embedding.squeeze(0).cpu()
    torch.save(embedding, path)


def export(load, path):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = load(path, map_location=device)
    model = model.to("cpu")
    torch.save(model.state_dict(), path)
'''


def test_a_result_read_back_to_the_cpu_is_no_model_moved_there(tmp_path):
    """`embedding = embedding.squeeze(0).cpu()` brings an inference result to the host: the device did the work and
    on Trainium the pick falls back to the CPU, a port item (megatransformer's extract_speaker_embedding.py). A
    model built with the picked device and then moved to the CPU is the export script's shape: guarded."""
    (tmp_path / "embed.py").write_text(RESULT)
    found = sorted((f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN242")
    assert found == [(5, False), (13, True)]
