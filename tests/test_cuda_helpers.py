"""Report step cuda_helpers: a CUDA file without a __global__ kernel that a reported kernel file includes is
part of that kernel's port (folded into its finding); other CUDA files stay items of their own."""
import json

from conftest import run_cli

KERNEL = '''#include <cuda_runtime.h>
#include "../utils/reduce.cuh"
__global__ void knn_kernel(const float* x, float* out, int n) {
  out[0] = warp_sum(x[0]);
}
'''
REDUCE = '''#pragma once
#include "math.cuh"
__device__ inline float warp_sum(float v) { return sq(v); }
'''
MATH = '''#pragma once
__device__ inline float sq(float x) { return x * x; }
'''
LONE = '''#pragma once
__device__ inline float cube(float x) { return x * x * x; }
'''
LIBRARY = '''#pragma once
__global__ void scale_kernel(float* x, float a) { x[threadIdx.x] *= a; }
'''


def findings(tmp_path):
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    return [(f["path"], f["line"], f["rule"], f["message"]) for f in json.loads(proc.stdout)["findings"]
            if f["rule"] == "TRN601"]


def write(tmp_path, files):
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)


def test_included_helpers_fold_into_the_kernel_file(tmp_path):
    write(tmp_path, {"csrc/knn/knn.cu": KERNEL, "csrc/utils/reduce.cuh": REDUCE, "csrc/utils/math.cuh": MATH,
                     "csrc/utils/lone.cuh": LONE})
    assert findings(tmp_path) == [
        # reduce.cuh directly, math.cuh through reduce.cuh: both ported with the kernel
        ("csrc/knn/knn.cu", 1, "TRN601", "CUDA source file: 1 __global__ kernel to port to NKI (knn_kernel); with "
         "the helper files it includes, which define no kernel: csrc/utils/math.cuh, csrc/utils/reduce.cuh"),
        # look-alike: a helper no scanned kernel includes stays its own item
        ("csrc/utils/lone.cuh", 1, "TRN601", "CUDA source file: no __global__ kernel defined in this file (device "
         "helpers, launchers or template instantiations of kernels defined elsewhere)"),
    ]


def test_include_resolved_against_an_include_directory(tmp_path):
    write(tmp_path, {"csrc/knn/knn.cu": KERNEL.replace('"../utils/reduce.cuh"', '"utils/reduce.cuh"'),
                     "csrc/utils/reduce.cuh": REDUCE.replace('"math.cuh"', '"utils/math.cuh"'),
                     "csrc/utils/math.cuh": MATH})
    got = findings(tmp_path)
    assert [(p, ln) for p, ln, _, _ in got] == [("csrc/knn/knn.cu", 1)]
    assert got[0][3].endswith("define no kernel: csrc/utils/math.cuh, csrc/utils/reduce.cuh")


def test_a_header_only_kernel_library_stays_reported_and_its_launcher_is_a_place_of_it(tmp_path):
    # look-alikes: a header that defines kernels is a port item even when included; a lone helper header with
    # nothing else reported is the only evidence of CUDA code and stays. A launcher including a kernel header
    # defines no kernel: it is a place of the header's finding (report step postprocess_extensions,
    # tests/test_extension_places.py), not an item of its own
    write(tmp_path, {"lib/scale.cuh": LIBRARY, "other/lone.cuh": LONE,
                     "lib/launch.cu": '#include "scale.cuh"\nvoid launch(float* x) { scale_kernel<<<1, 32>>>(x, 2.f); }\n'})
    got = findings(tmp_path)
    assert [(p, ln) for p, ln, _, _ in got] == [("lib/scale.cuh", 1), ("other/lone.cuh", 1)]
    assert not any("helper file" in m for _, _, _, m in got)


TWO_KERNELS = '''#include <cuda_runtime.h>
__global__ void fwd_kernel(float* x);
template <int N>
__global__ void fwd_kernel(float* x) {
  x[0] = N;
}

__global__ void bwd_kernel(float* x, float* g) {
  g[0] = x[0];
}
void launch(float* x) { fwd_kernel<4><<<1, 32>>>(x); }
'''


def test_every_kernel_of_a_file_is_an_occurrence_of_its_one_finding(tmp_path):
    # Hit: the file is one finding at its start (a whole-file item, session 38); each definition is a place of it,
    # and so is the prototype on line 2 (declared ahead of fwd_kernel's definition: the same kernel, session 14).
    # The launch on line 11 (`fwd_kernel<<<...>>>`) is a place too since session 49: the port replaces the launch
    # with the call of the new kernel (blind71 labelled Sat-Sim's launch and its CUDA registration as hits).
    write(tmp_path, {"csrc/ops.cu": TWO_KERNELS})
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN601"]
    assert [(f["line"], f["message"]) for f in got] == [
        (1, "CUDA source file: 2 __global__ kernels to port to NKI (fwd_kernel, bwd_kernel)")]
    assert got[0]["occurrences"] == [{"line": 2, "column": 1, "rule": "TRN601"},
                                     {"line": 4, "column": 1, "rule": "TRN601"},
                                     {"line": 8, "column": 1, "rule": "TRN601"},
                                     {"line": 11, "column": 1, "rule": "TRN601"}]


def test_a_file_with_one_kernel_lists_it_as_the_one_place(tmp_path):
    write(tmp_path, {"csrc/one.cu": KERNEL.replace('#include "../utils/reduce.cuh"\n', "")})
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [f for f in json.loads(proc.stdout)["findings"] if f["rule"] == "TRN601"]
    assert [(f["line"], f.get("occurrences")) for f in got] == [(1, [{"line": 2, "column": 1, "rule": "TRN601"}])]


def test_the_included_helpers_are_places_of_the_kernel_finding(tmp_path):
    # the helpers are part of the port: listed with the kernel file's finding (`elsewhere`), where an editor or a
    # checklist reaches them; a helper no kernel file includes (lone.cuh) stays a finding of its own
    write(tmp_path, {"ops/knn/knn.cu": KERNEL, "ops/utils/reduce.cuh": REDUCE, "ops/utils/math.cuh": MATH,
                     "ops/utils/lone.cuh": LONE})
    proc = run_cli("scan", ".", "--format", "json", "--no-cache", cwd=tmp_path)
    got = [(f["path"], f["line"], f.get("elsewhere")) for f in json.loads(proc.stdout)["findings"]
           if f["rule"] == "TRN601"]
    assert got == [
        ("ops/knn/knn.cu", 1, [{"path": "ops/utils/math.cuh", "line": 1, "column": 1, "rule": "TRN601"},
                               {"path": "ops/utils/reduce.cuh", "line": 1, "column": 1, "rule": "TRN601"}]),
        ("ops/utils/lone.cuh", 1, None),
    ]
