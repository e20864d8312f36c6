def run_qwen3_moe_flash_attention(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    """Qwen3-MoE attention on the fused NPU kernel.

    query, key and value are [batch, heads, seq, head_dim]; the kernel groups the key/value heads
    itself. Returns the output as [batch, seq, heads, head_dim] and no attention weights.
    """
    num_heads = query.shape[1]
    if scaling is None:
        scaling = query.shape[-1] ** -0.5
    if module.is_causal and query.shape[2] > 1:
        # Causal mode takes one compressed mask, whatever the sequence length.
        atten_mask = _get_compressed_causal_mask(query.device)
        sparse_mode = 2
    elif attention_mask is None:
        atten_mask = None
        sparse_mode = 0
    else:
        # The kernel masks where the mask is True; HF masks are "keep" booleans or additive floats.
        if attention_mask.dtype == torch.bool:
            atten_mask = attention_mask.logical_not()
        else:
            atten_mask = attention_mask < 0
        sparse_mode = 0
    output = torch_npu.npu_fusion_attention(
        query,
        key,
        value,
        num_heads,
        input_layout="BNSD",
        atten_mask=atten_mask,
        scale=scaling,
        keep_prob=1.0 - dropout,
        sparse_mode=sparse_mode,
    )[0]
    return output.transpose(1, 2).contiguous(), None
