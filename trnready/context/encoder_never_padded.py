"""encoder-never-padded: a TransformerEncoder whose every call in its file passes no key padding mask."""
from __future__ import annotations

import ast

from .base import enclosing_function, parent_of, predicate
from ..astwalk import walk

# TransformerEncoder.forward(src, mask=None, src_key_padding_mask=None, is_causal=None)
_MASK_AT, _PADDING_AT = 1, 2


@predicate("encoder-never-padded", kinds=("call",))
def encoder_never_padded(ctx, hit) -> bool:
    """`self.enc = nn.TransformerEncoder(...)` (or `enc = ...` in a function) whose calls in the file
    (`self.enc(x)`, `enc(x, mask=causal)`) never pass a `src_key_padding_mask`, or pass it only together with
    a `mask`. torch takes the nested-tensor fast path only for a call with a key padding mask and no attention
    mask (in eval mode): `TransformerEncoder.forward` names "src_key_padding_mask was None" and "src_key_padding_mask
    and mask were both supplied" among its reasons not to. Without such a call no NestedTensor is built, whatever
    `enable_nested_tensor` says; seven audited findings of this shape were false (encoders called as
    `self.encoder(enc_in)`). An encoder whose instance leaves the file's view (returned, handed to a call, stored
    anywhere else, a call passing `*args` / `**kwargs`) may get a padding mask elsewhere and stays reported; so does
    one built without being assigned to a name or attribute."""
    call = hit.node
    if type(call) is not ast.Call:
        return False
    up = parent_of(ctx, call)
    if type(up) is not ast.Assign or len(up.targets) != 1:
        return False
    target = up.targets[0]
    if type(target) is ast.Attribute and type(target.value) is ast.Name and target.value.id == "self":
        attr, scope = target.attr, ctx.tree
    elif type(target) is ast.Name:
        attr, scope = None, enclosing_function(ctx, up)
        if scope is None:
            return False
    else:
        return False
    name = target.id if isinstance(target, ast.Name) else None

    def refers(node) -> bool:
        if attr is not None:
            return type(node) is ast.Attribute and node.attr == attr and type(node.value) is ast.Name and \
                node.value.id == "self"
        return type(node) is ast.Name and node.id == name

    for node in walk(scope):
        if node is target or not refers(node):
            continue
        holder = parent_of(ctx, node)
        if type(holder) is ast.Call and holder.func is node:
            if _may_pad(holder):
                return False
        elif type(holder) is ast.Attribute and holder.value is node:
            continue  # `self.enc.layers`, `self.enc.train()`: a part of it, not the encoder handed on
        elif type(holder) is ast.Assign and node in holder.targets:
            if attr is None and node is not target:
                return False  # a second binding of the local name: another object
        else:
            return False  # returned, passed on, kept in a container: its calls are out of view
    return True


def _may_pad(call: ast.Call) -> bool:
    """The call may pass a key padding mask without an attention mask (an unknown spread counts as may)."""
    if any(type(a) is ast.Starred for a in call.args) or any(k.arg is None for k in call.keywords):
        return True
    padding = next((k.value for k in call.keywords if k.arg == "src_key_padding_mask"), None)
    if padding is None and len(call.args) > _PADDING_AT:
        padding = call.args[_PADDING_AT]
    if padding is None or (type(padding) is ast.Constant and padding.value is None):
        return False
    mask = next((k.value for k in call.keywords if k.arg == "mask"), None)
    if mask is None and len(call.args) > _MASK_AT:
        mask = call.args[_MASK_AT]
    return mask is None or (type(mask) is ast.Constant and mask.value is None)
