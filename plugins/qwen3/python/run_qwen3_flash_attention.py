def run_qwen3_flash_attention(
    module: nn.Module,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    attention_mask: torch.Tensor | None,
    dropout: float = 0.0,
    scaling: float | None = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, None]:
    """Grouped-query attention in BNSD layout; returns [batch, seq, heads, head_dim] and no weights."""
    # Imported here: hosts without an NPU still import this module.
    import torch_npu  # pylint: disable=C0415

    del kwargs

    if attention_mask is None:
        attention_mask = _get_compressed_causal_mask(query.device)
        sparse_mode = 2
    else:
        if attention_mask.ndim == 4:
            attention_mask = attention_mask[:, :, :, : key.shape[-2]]
        # The kernel masks where the mask is True; HF masks say which positions to keep.
        if attention_mask.dtype == torch.bool:
            attention_mask = torch.logical_not(attention_mask).to(query.device)
        else:
            attention_mask = attention_mask.bool().to(query.device)
        sparse_mode = 0

    sparse_kwargs = {}
    if sparse_mode == 0 and getattr(module, "is_causal", True) and query.shape[-2] == key.shape[-2]:
        sparse_kwargs["next_tockens"] = 0

    output = torch_npu.npu_fusion_attention(
        query,
        key,
        value,
        head_num=query.shape[1],
        input_layout="BNSD",
        atten_mask=attention_mask,
        keep_prob=1 - dropout,
        scale=scaling,
        sparse_mode=sparse_mode,
        **sparse_kwargs,
    )[0]
    return output.transpose(1, 2).contiguous(), None
