"""Device vocabularies written as an Enum, and assert allow-lists of enum members (branch rec28p)."""
import ast

from trnready.index import _asserted_settings, _device_enum_members, _enum_members_read


def _cls(src):
    return ast.parse(src).body[0]


def test_device_enum_without_neuron_is_a_vocabulary():
    members = _device_enum_members(_cls('class TorchDevice(str, Enum):\n    CUDA = "cuda"\n    CPU = "cpu"\n'))
    assert {k: v.value for k, v in members.items()} == {"CUDA": "cuda", "CPU": "cpu"}


def test_enum_naming_neuron_or_no_device_or_other_values_is_not():
    assert not _device_enum_members(_cls('class Dev(Enum):\n    CUDA = "cuda"\n    NEURON = "neuron"\n'))
    assert not _device_enum_members(_cls('class Colour(Enum):\n    CUDA = "cuda"\n    CPU = "cpu"\n'))
    assert not _device_enum_members(_cls('class DeviceKind(Enum):\n    CUDA = "cuda"\n    FAST = "fast"\n'))
    assert not _device_enum_members(_cls('class DeviceKind:\n    CUDA = "cuda"\n'))


def test_allow_list_of_members_reads_as_strings():
    members = _device_enum_members(_cls('class TorchDevice(str, Enum):\n    CUDA = "cuda"\n    CPU = "cpu"\n'))
    members = {f"TorchDevice.{k}": v for k, v in members.items()}
    test = ast.parse("device in [TorchDevice.CPU, TorchDevice.CUDA]", mode="eval").body
    assert [v.value for _, v in _asserted_settings(_enum_members_read(test, members))] == ["cpu", "cuda"]
    imported = ast.parse("device in (Kind.CPU, Kind.CUDA, Kind.MPS)", mode="eval").body
    assert [v.value for _, v in _asserted_settings(_enum_members_read(imported, {}))] == ["cpu", "cuda", "mps"]
    ported = ast.parse("device in (Kind.CPU, Kind.CUDA, Kind.NEURON)", mode="eval").body
    assert _asserted_settings(_enum_members_read(ported, {})) == []
    modes = ast.parse("mode in (Mode.TRAIN, Mode.EVAL)", mode="eval").body
    assert _enum_members_read(modes, {}) is modes
