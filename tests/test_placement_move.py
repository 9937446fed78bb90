"""`if x.is_cuda: zeros = zeros.cuda()` with no else: a value moved beside a tensor by asking where that tensor
lives stays on the host on Neuron, where the tensor is a neuron one; the move is a finding, not a guarded arm
(context/neuron_guarded.py `_placement_move`). An arm with an else, or doing more than moving, stays guarded."""
from conftest import scan_findings, write

CODE = """\
import torch


class Bias(torch.nn.Module):
    def forward(self, x):
        zeros = torch.zeros(x.size())
        if x.is_cuda:
            zeros = zeros.cuda()
        return x + zeros


def factor(a):
    eye = torch.eye(a.size(1))
    if a.device.type == "cuda":
        eye = eye.cuda()
    return a @ eye


def pick(x, y):
    if x.is_cuda:
        y = y.cuda()
    else:
        y = y.float()
    return y


def kernel(x):
    if x.is_cuda:
        x = x.cuda()
        return x.sum()
    return x


def beside(t, x):
    if t.type == x.device.type:
        t = t.cuda()
    return t
"""


def test_a_move_beside_a_tensor_is_a_finding_and_other_arms_stay_guarded(tmp_path):
    write(tmp_path, "policy.py", CODE)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN241"]
    assert got == [(8, 21, "TRN241", False), (15, 15, "TRN241", False), (21, 13, "TRN241", True),
                   (29, 13, "TRN241", True),
                   # the tensor asked about is the `.device.type` side, whichever side of the comparison it is on
                   (36, 13, "TRN241", False)]


FLAGGED = """\
import torch


def evaluate(loader, model):
    model_on_cuda = next(model.parameters()).is_cuda
    with torch.no_grad():
        for images, labels in loader:
            if model_on_cuda:
                images, labels = images.cuda(), labels.cuda()
            out = model(images)
    return out


def rebound(loader, model, on_cuda):
    on_cuda = next(model.parameters()).is_cuda
    if on_cuda:
        on_cuda = False
    for x in loader:
        if on_cuda:
            x = x.cuda()
    return x


def machine(x):
    use_cuda = torch.cuda.is_available()
    if use_cuda:
        x = x.cuda()
    return x
"""


def test_a_flag_holding_the_placement_question_asks_it_too(tmp_path):
    # SimpleAICV's evaluation loops: the inputs follow the model only onto CUDA, so on Neuron they stay on the host
    # beside a neuron model; a flag bound twice is not known, and a flag asking the machine stays a guard
    write(tmp_path, "evaluate.py", FLAGGED)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN241"]
    assert got == [(9, 34, "TRN241", False), (20, 17, "TRN241", True), (27, 13, "TRN241", True)]


BOTH_ARMS = """\
import torch


def metric(prediction, target):
    if not prediction.is_cuda:
        target = target.cpu()
    else:
        target = target.cuda(prediction.get_device())
    return (prediction == target).float().mean()


def iou(x, keep):
    if x.is_cuda:
        keep = torch.LongTensor(keep).cuda(x.get_device())
    else:
        keep = torch.LongTensor(keep)
    return x[keep]


def other_names(x, y, z):
    if x.is_cuda:
        y = y.cuda()
    else:
        z = z.cpu()
    return y, z
"""


def test_an_if_else_putting_the_same_value_on_the_host_keeps_the_cuda_move(tmp_path):
    # on Neuron the host arm runs: `target.cpu()` / a CPU LongTensor meets the device tensor asked about, so the CUDA
    # arm's move is the change (inferno's metrics); arms binding other names stay guarded
    write(tmp_path, "metrics.py", BOTH_ARMS)
    got = [(f[1], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN241"]
    assert got == [(8, False), (14, False), (22, True)]


ALREADY = """\
import torch


class Pendulum:
    def forward(self, x):
        if x.is_cuda and not self.params.is_cuda:
            self.params = self.params.cuda()
        return x * self.params


def other(x, y, flag):
    if x.is_cuda and flag:
        y = y.cuda()
    return y


def device_test(x, y):
    if x.is_cuda and y.device != x.device:
        y = y.cuda()
    return y
"""


def test_a_move_asking_also_whether_the_value_is_already_there_is_a_finding(tmp_path):
    # torch_robotics' envs (blind76): `if x.is_cuda and not self.params.is_cuda: self.params = self.params.cuda()`;
    # an operand about anything else than the moved value (`and flag`) leaves the arm guarded
    write(tmp_path, "envs.py", ALREADY)
    got = [(f[1], f[2], f[3], f[5]) for f in scan_findings(tmp_path, "--show-guarded") if f[3] == "TRN241"]
    assert got == [(7, 27, "TRN241", False), (13, 13, "TRN241", True), (19, 13, "TRN241", False)]
