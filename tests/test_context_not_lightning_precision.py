"""not-lightning-precision: a stored "fp16" precision is Lightning's autocast switch only where a Trainer reads it."""
from conftest import CONTEXT_FIXTURES, scan_findings
from trnready import context

MESSAGE = ("Float16 precision stored as `precision` for a Lightning Trainer: float16 mixed precision with a "
           "CUDA-style GradScaler")


def test_stored_precision_reaches_a_lightning_trainer():
    # lightning_train.py passes precision=args.precision to pytorch_lightning.Trainer, argparse_trainer.py hands
    # every flag over with Trainer.from_argparse_args: both report the argparse default.
    # trt_build.py gives its "fp16" to a TensorRT builder, export_config.py stores "fp16" in an export table
    # while its Trainer takes a literal: silent.
    assert scan_findings(CONTEXT_FIXTURES / "not_lightning_precision") == [
        ("argparse_trainer.py", 6, 44, "TRN254", MESSAGE, False),
        ("lightning_train.py", 7, 44, "TRN254", MESSAGE, False),
    ]


def test_registered_for_keyword_matchers():
    p = context.get("not-lightning-precision")
    assert p.kinds == ("keyword",) and p.effect == "drop" and "Lightning" in p.doc
