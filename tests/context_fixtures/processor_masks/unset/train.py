from adapter.processors import MaskedProcessor


def step(unet, text_encoder, ids, pad, latents, t):
    unet.set_attn_processor(MaskedProcessor())
    # the text encoder's padding mask never reaches the UNet's processors
    emb = text_encoder(ids, attention_mask=pad)[0]
    return unet(latents, t, encoder_hidden_states=emb).sample
