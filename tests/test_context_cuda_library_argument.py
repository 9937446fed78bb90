"""cuda-library-argument: a GPU-count keyword of a CUDA-only library's own API is that library's layout."""
from conftest import CONTEXT_FIXTURES, scan_findings

REQUEST = "GPU resource request in a job, container or cluster definition: `gpus_per_node`"


def test_keywords_of_a_cuda_only_library_are_silent_launcher_keywords_and_stored_values_are_reported():
    assert scan_findings(CONTEXT_FIXTURES / "cuda_library_argument", "--no-config") == [
        ("run.py", 2, 1, "TRN290", "TensorRT / Torch-TensorRT: `tensorrt_llm`", False),
        # lines 7 and 11: tensorrt_llm.Mapping(..., gpus_per_node=...), by module and by imported alias
        ("run.py", 16, 46, "TRN610", REQUEST, False),  # a submitit executor's parameters: a job request
        ("run.py", 20, 27, "TRN610", REQUEST, False),  # a value stored under the name
    ]
