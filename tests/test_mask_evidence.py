"""Classes of data-dependent shapes found by the session-7 blind recall labels: a row of a mask (`x[xc[i]]`), a
mask on one axis of a tuple index (`t[t[:, 0] == i, 1:]`), an attribute the file stores a bool tensor under
(`xk[self.meta.keep]`), rows written through a mask (`h[m] = feats`), torchvision NMS and topk with a k read out
of tensor data. Each hit has look-alikes that must stay unreported: integer positions under an attribute or a
name, scalar fills, values of unknown size, NumPy and host masks, a k from an argument or a literal."""
from pathlib import Path

from conftest import scan_findings

FIXTURES = Path(__file__).parent / "fixtures" / "mask_evidence"
MASK = "Indexing with a boolean mask: the result has one row per True value, a size known only at run time"
WRITE = "Writing rows through a boolean mask: the value must have one row per True value, a size known only at run time"
NMS = "Non-maximum suppression: the number of boxes kept depends on the scores, a size known only at run time"
TOPK = "topk with k read out of tensor data: the number of values kept changes with the data"



def test_mask_evidence_through_parts_tuples_attributes_and_writes(tmp_path):
    import shutil
    shutil.copy(FIXTURES / "hits.py", tmp_path / "hits.py")
    found = [f[1:5] for f in scan_findings(tmp_path, "--show-guarded")]
    assert found == [
        (20, 16, "TRN104", MASK),   # xk[self.meta.keep]: Meta(keep=<dtype=torch.bool tensor>) in build()
        (24, 9, "TRN104", WRITE),   # embeds[ids == image_id, :] = feats, feats = self.proj(images)
        (31, 13, "TRN104", MASK),   # x[xc[i]]: a row of a comparison
        (32, 14, "TRN104", MASK),   # targets[targets[:, 0] == si, 1:]
        (33, 12, "TRN104", NMS),
        (38, 14, "TRN104", TOPK),   # k=ks[0].item()
        (40, 5, "TRN104", WRITE),   # cost[ks > 0] = flat, flat = cost.view(-1, 4)
        (46, 5, "TRN104", MASK),    # l[(u > 0) * (l == u)] -= 1: the product of two masks is their logical and
        (51, 5, "TRN104", WRITE),   # f1[~masks1] = visf1.view(B * Nenc, C): rows and a width (session 44)
        (56, 22, "TRN104", MASK),   # xyzs[valid_mask]; the write of `_rgbs.float()` at 57 is its occurrence
        (62, 12, "TRN104", MASK),   # ids[torch.isin(ids, known)]
    ]
    import json

    from conftest import run_cli

    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache")
    read = [f for f in json.loads(proc.stdout)["findings"] if f["line"] == 56]
    assert [(o["line"], o["column"]) for o in read[0]["occurrences"]] == [(56, 40), (57, 5)]


def test_positions_scalar_fills_unknown_values_host_masks_and_fixed_k_are_not_reported(tmp_path):
    import shutil
    shutil.copy(FIXTURES / "lookalikes.py", tmp_path / "lookalikes.py")
    assert scan_findings(tmp_path, "--show-guarded") == []


def test_a_mask_named_name_set_to_none_first_and_the_negated_row_of_a_mask(tmp_path):
    # ltx-msr-torch (blind80): `grid_mask = None`, then in the keyframe branch `grid_mask = ~torch.any(..., dim=-1)[0]`
    # and `video_patches[:, grid_mask, :]`. A None first is no other kind of value (the name is a mask wherever it
    # indexes); a name only ever None indexes with None, which adds an axis. `~m[0]` negates a row of a mask.
    (tmp_path / "blocks.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def project(patches, denoise, keyframes):\n"
        "    grid_mask = None\n"
        "    if keyframes is not None:\n"
        "        grid_mask = ~torch.any(denoise < 0, dim=-1)[0]\n"
        "        patches = patches[:, grid_mask, :]\n"
        "    return patches\n"
        "\n"
        "\n"
        "def always_none(x):\n"
        "    pad_mask = None\n"
        "    return x[pad_mask]\n"
        "\n"
        "\n"
        "def negated_row(x, y):\n"
        "    keep = ~(y > 0)[0]\n"
        "    return x[keep]\n")
    found = [f[1:5] for f in scan_findings(tmp_path)]
    assert found == [
        (8, 19, "TRN104", "Indexing with `grid_mask`, a mask by its name: a boolean mask keeps one row per True value, "
                          "a size known only at run time"),
        (19, 12, "TRN104", MASK),
    ]


def test_a_write_of_rows_counted_from_the_mask(tmp_path):
    # snake-hrl-torchrl's batched reset (blind79): `n_reset = mask.sum().item()`, `state = torch.zeros(n_reset, d)`,
    # then `self._rod_state[mask] = state`; also through arithmetic and stacks of such values. A scalar fill, a value
    # sized by something else and a whole-tensor reduction (`theta.mean()`) write no rows of their own (and writes
    # through one mask in one function are one rewrite, reported once).
    (tmp_path / "env.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "class Env:\n"
        "    def reset(self, n_envs, mask=None):\n"
        "        if mask is None:\n"
        "            mask = torch.ones(n_envs, dtype=torch.bool)\n"
        "        n_reset = mask.sum().item()\n"
        "        state = torch.zeros(n_reset, 4, device='neuron')\n"
        "        self.rod[mask] = state\n"
        "\n"
        "    def place(self, n_envs, mask):\n"
        "        mask = mask > 0\n"
        "        n_reset = int(mask.sum())\n"
        "        theta = torch.rand(n_reset) * 6.28\n"
        "        com = torch.stack([theta.cos(), torch.sin(theta)], dim=-1)\n"
        "        self.goal[mask] = com + 2.0\n"
        "\n"
        "    def fills(self, n_envs, mask):\n"
        "        mask = mask > 0\n"
        "        n_reset = int(mask.sum())\n"
        "        theta = torch.rand(n_reset) * 6.28\n"
        "        self.time[mask] = 0.0\n"
        "        self.other[mask] = torch.zeros(n_envs, 4)\n"
        "        self.mean[mask] = theta.mean()\n")
    WRITE_AT = [f[1:5] for f in scan_findings(tmp_path)]
    assert WRITE_AT == [(10, 9, "TRN104", WRITE), (17, 9, "TRN104", WRITE)]


def test_a_strided_slice_of_a_mask_named_name_is_a_mask(tmp_path):
    # ltx-msr-torch's timestep projection (blind80): `per_frame[:, grid_mask[::patches_per_frame]]` keeps every n-th
    # entry of the grid mask, still one value per True entry. An index into the name (`grid_mask[0]`) is a row, not
    # read here; a slice of a name that says nothing of a mask (`order[::2]`) is no mask.
    (tmp_path / "timestep.py").write_text(
        "import torch\n"
        "\n"
        "\n"
        "def project(per_frame, grid_mask, order, n):\n"
        "    a = per_frame[:, grid_mask[::n]]\n"
        "    b = per_frame[:, order[::2]]\n"
        "    return a, b\n")
    found = [f[1:5] for f in scan_findings(tmp_path)]
    assert found == [(5, 9, "TRN104", "Indexing with `grid_mask`, a mask by its name: a boolean mask keeps one row "
                                      "per True value, a size known only at run time")]


def test_a_loop_variable_is_the_loop_row_whatever_else_binds_the_name(tmp_path):
    # manifold-contrastive's notebook (fresh84): one cell binds `idx = y == 3` (a mask), a later plotting cell loops
    # `for idx in range(len(means))` and reads `means[idx]`, and a training cell loops over a permutation's rows.
    # The loops hand out positions; the mask is still a mask outside them, and a name assigned inside the loop
    # follows that assignment
    (tmp_path / "train.py").write_text(
        "import torch\n"
        "model = torch.nn.Linear(4, 2).to('cuda')\n"
        "y = torch.randint(0, 5, (100,), device='cuda')\n"
        "z = torch.randn(100, 4, device='cuda')\n"
        "idx = y == 3\n"
        "loss = model(z[idx]).sum()\n"
        "perm = torch.randperm(len(z)).view(-1, 10)\n"
        "for idx in perm:\n"
        "    loss = loss + model(z[idx]).sum()\n"
        "means = [1.0, 2.0, 3.0]\n"
        "for idx in range(len(means)):\n"
        "    print(means[idx])\n"
        "for i in range(3):\n"
        "    idx = y == i\n"
        "    loss = loss + model(z[idx]).sum()\n"
        "loss.backward()\n")
    got = [(f[1], f[2]) for f in scan_findings(tmp_path) if f[4] == MASK]
    assert got == [(6, 14), (15, 25)]
