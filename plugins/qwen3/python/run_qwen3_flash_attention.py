def run_qwen3_flash_attention(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kwargs):
    """Qwen3 attention on the fused NPU kernel, in BSND layout."""
    heads = query.shape[2]
    output = torch_npu.npu_fusion_attention(
        query, key, value, heads, input_layout="BSND", scale=scaling, keep_prob=1.0 - dropout, sparse_mode=2
    )[0]
    return output, None
