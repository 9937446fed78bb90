import torch
import torch.nn.functional as F


class MaskedProcessor:
    """Installed on every attention layer of a UNet; the library hands it the mask the UNet was called with."""

    def __call__(self, attn, hidden_states, encoder_hidden_states=None, attention_mask=None, temb=None):
        b, n, _ = hidden_states.shape
        if attention_mask is not None:
            attention_mask = attn.prepare_attention_mask(attention_mask, n, b)
            attention_mask = attention_mask.view(b, attn.heads, -1, attention_mask.shape[-1])
        ctx = hidden_states if encoder_hidden_states is None else encoder_hidden_states
        q, k, v = attn.to_q(hidden_states), attn.to_k(ctx), attn.to_v(ctx)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask, dropout_p=0.0)


class ModuleProcessor(torch.nn.Module):
    def forward(self, attn, hidden_states, encoder_hidden_states=None, attention_mask=None):
        q = attn.to_q(hidden_states)
        return F.scaled_dot_product_attention(q, q, q, attention_mask)


class BuildsItsOwnMask:
    # the mask is made here, whatever the UNet was given: stays a finding
    def __call__(self, attn, hidden_states, encoder_hidden_states=None, attention_mask=None):
        attention_mask = torch.rand(4, 4) > 0.5
        q = attn.to_q(hidden_states)
        return F.scaled_dot_product_attention(q, q, q, attn_mask=attention_mask)
