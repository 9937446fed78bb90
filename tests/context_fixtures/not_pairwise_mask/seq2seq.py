import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, max_length=64):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.register_buffer("bias", torch.tril(torch.ones(1, 1024, 1024, dtype=torch.uint8)))

    def forward(self, source_ids, target_ids):
        mask = source_ids.ne(1)[:, None, :] * source_ids.ne(1)[:, :, None]
        encoder_output = self.encoder(source_ids, attention_mask=mask, use_cache=True)
        ids = torch.cat((source_ids, target_ids), -1)
        mask = self.bias[:, source_ids.size(-1):ids.size(-1), :ids.size(-1)].bool()
        mask = mask & ids[:, None, :].ne(1)
        return self.decoder(target_ids, attention_mask=mask, past_key_values=encoder_output.past_key_values)

    def encode(self, source_ids):
        # a padding mask of one row per sequence: what a Transformers model expects
        return self.encoder(source_ids, attention_mask=source_ids.ne(1))

    def encode_batch(self, batch):
        return self.encoder(batch["input_ids"], attention_mask=batch["attention_mask"])

    def embed(self, source_ids, attn_mask):
        # built by the dataset: nothing in the function shows its shape
        return self.encoder(source_ids, attention_mask=attn_mask)
