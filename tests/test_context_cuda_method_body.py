"""cuda-method-body: a class's own cuda() method is the CUDA move by definition; its callers are the items."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MOVE = ".cuda() moves a tensor or module to a GPU: `cuda`"


def test_the_body_of_a_cuda_method_is_silent():
    # lines 9, 17 and 18 (the bodies of Meshes.cuda and Preprocessor.cuda) are dropped
    assert scan_findings(CONTEXT_FIXTURES / "cuda_method_body") == [
        ("structures.py", 12, 24, "TRN242", '"cuda" device string: `cuda`', False),  # to_gpu: another name
        ("structures.py", 22, 12, "TRN241", MOVE, False),  # a module-level function named cuda, not a method
        ("structures.py", 25, 8, "TRN241", MOVE, False),  # the call of Meshes.cuda(): what a port changes
    ]


def test_registered_as_a_drop():
    assert context.get("cuda-method-body").effect == "drop"


def test_a_value_followed_into_the_class_own_to_is_silent_in_its_cuda_method():
    # octree.py:6 hands "cuda" to Movable.to (another module), which builds a torch.device: the link step reports
    # it at the call, and in `cuda()` that call is the method's own meaning; to_gpu (line 9) is another name
    assert scan_findings(CONTEXT_FIXTURES / "cuda_method_body_linked") == [
        ("octree/octree.py", 9, 24, "TRN242", '"cuda" device string: `cuda`', False),
    ]
