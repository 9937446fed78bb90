"""The settings the indexer reads off asserts and getters (keyword matchers with `defaults = true`)."""
import ast

from trnready.index import _asserted_settings, _getter_settings


def _pairs(src):
    return [(n, v.value) for n, v in _asserted_settings(ast.parse(src).body[0].test)]


def test_an_allow_list_without_neurons_value_requires_each_value():
    assert _pairs('assert backend in ["gloo", "nccl"]') == [("backend", "gloo"), ("backend", "nccl")]
    assert _pairs('assert dist.get_backend(g) in {"nccl"}') == [("backend", "nccl")]
    assert _pairs('assert device_type in ("cuda",)') == [("device_type", "cuda")]


def test_an_allow_list_naming_neuron_or_a_computed_value_accepts_the_port():
    assert _pairs('assert backend in ("gloo", "nccl", "neuron")') == []
    assert _pairs('assert device in ("cuda", "xla")') == []
    assert _pairs('assert backend in ("gloo", OTHER)') == []


def test_a_getter_answers_the_setting_its_name_ends_with():
    wanted = {"backend", "dist_backend", "accelerator"}
    assert _getter_settings("get_nccl_backend", wanted) == ["backend"]
    assert _getter_settings("infer_comm_backend", wanted) == ["backend"]
    assert _getter_settings("_get_dist_backend", wanted) == ["dist_backend", "backend"]
    assert _getter_settings("backend", wanted) == ["backend"]
    assert _getter_settings("describe_link", wanted) == []
    assert _getter_settings("backend_name", wanted) == []
