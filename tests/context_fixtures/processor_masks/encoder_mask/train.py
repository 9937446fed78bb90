def step(unet, emb, pad, latents, t):
    return unet(latents, t, emb, encoder_attention_mask=pad).sample
