"""TRN104 tensor-slice: a slice bound that is a number read out of tensor data is data-dependent; the bound's
assignment and the read are places of the finding."""
import json

from conftest import FIXTURES, run_cli

SLICE = "Slice bounded by a tensor's value: the number of elements kept is known only at run time"


def test_slice_bounded_by_a_number_read_out_of_tensor_data():
    proc = run_cli("scan", FIXTURES / "slice_bounds", "--format", "json", "--no-cache")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["path"], f["line"], f["column"], f["rule"], f["message"],
            sorted(o["line"] for o in f.get("occurrences", [])))
           for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN104"]
    assert got == [
        # sum() over a comprehension of `.tolist()` values (an image-captioning decoder shrinking its batch): the
        # assignment of the bound (line 7) and the read of the data (line 5) are places, and so is the second slice
        # of the same statement (line 8, column 43: one finding per rule per statement)
        ("decoder.py", 8, 24, "TRN104", SLICE, [5, 7, 8]),
        # `.item()` of a tensor
        ("decoder.py", 14, 12, "TRN104", SLICE, [13]),
        # a shape, the length of a Python list and a parameter are known before the data: nothing on 18-20;
        # 27: a Python list sliced by numbers from `.tolist()` makes no tensor; 30: `queue[0:b]` with b from a shape,
        # and `queue[gpu:]` with a device number (a name of torch origin in a one-part slice)
        # 36-38: three slices by one size in one function are one thing to change: one finding, the others places
        ("decoder.py", 36, 9, "TRN104", SLICE, [34, 35, 37, 38]),
    ]


def test_a_number_read_back_from_a_tensor_built_of_python_values_is_no_data(tmp_path):
    # the size of each parameter block is the product of a shape the program holds: `torch.tensor(shape)` copies
    # Python values, so its `.item()` is not data the model computed; a sum of a comparison stays data
    (tmp_path / "unflatten.py").write_text(
        "import torch\n\n\n"
        "def unflatten(vec, shapes):\n"
        "    out, pointer = [], 0\n"
        "    for shape in shapes:\n"
        "        length = torch.prod(torch.tensor(shape)).item()\n"
        "        n = torch.tensor(shape).prod().item()\n"
        "        out.append(vec[pointer:pointer + length].view(shape))\n"
        "        out.append(vec[:n])\n"
        "        pointer += length\n"
        "    return out\n\n\n"
        "def keep(order, scores):\n"
        "    k = (scores > 0).sum().item()\n"
        "    return order[:, :k]\n")
    proc = run_cli("scan", tmp_path, "--format", "json", "--no-cache", "--select", "TRN104")
    assert proc.returncode in (0, 1), proc.stderr
    got = [(f["line"], f["column"], f["message"]) for f in json.loads(proc.stdout)["findings"]]
    assert got == [(17, 12, SLICE)]
