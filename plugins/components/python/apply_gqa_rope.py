def _apply_gqa_rope(query, key, position_embeddings, rotary_interleaved, head_dim):
    """Applies rotary position embeddings to query and key laid out as [batch, seq, heads, head_dim]."""
    cos, sin = position_embeddings
    cos = cos[..., :head_dim].unsqueeze(2)
    sin = sin[..., :head_dim].unsqueeze(2)
    if not rotary_interleaved:
        return query * cos + rotate_half(query) * sin, key * cos + rotate_half(key) * sin

    # Interleaved layout: the pairs (x0, x1), (x2, x3), ... rotate together.
    def rotate_pairs(x):
        pairs = x.unflatten(-1, (-1, 2))
        return torch.stack((-pairs[..., 1], pairs[..., 0]), dim=-1).flatten(-2)

    cos = cos[..., : head_dim // 2].repeat_interleave(2, dim=-1)
    sin = sin[..., : head_dim // 2].repeat_interleave(2, dim=-1)
    return query * cos + rotate_pairs(query) * sin, key * cos + rotate_pairs(key) * sin
