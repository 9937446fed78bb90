from adapter.processors import MaskedProcessor


def step(unet, emb, pad, latents, t):
    unet.set_attn_processor(MaskedProcessor())
    return unet(latents, t, encoder_hidden_states=emb, attention_mask=pad).sample
