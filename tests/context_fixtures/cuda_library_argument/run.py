import submitit
import tensorrt_llm
from tensorrt_llm import Mapping as TrtMapping


def runtime_mapping(world_size, rank, tp_size, pp_size, per_node):
    return tensorrt_llm.Mapping(world_size, rank, tp_size=tp_size, pp_size=pp_size, gpus_per_node=per_node)


def runtime_mapping_alias(world_size, rank):
    return TrtMapping(world_size, rank, gpus_per_node=8)


def submit(fn):
    executor = submitit.AutoExecutor(folder="logs")
    executor.update_parameters(gpus_per_node=8, nodes=2)
    return executor.submit(fn)


SLURM = {"gpus_per_node": 8}
