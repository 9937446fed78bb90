import tensorflow as tf


def create_hparams():
    return tf.contrib.training.HParams(
        epochs=10,
        dist_backend="nccl",
    )
