class GQAAttention(nn.Module):
    """Grouped-query attention with q/k/v packed into one fused projection.

    It wraps a model's own attention module: q_proj, k_proj and v_proj become the single linear_qkv
    (the checkpoint layout is converted by InterleaveQKV), o_proj and the q/k norms are taken over,
    and the kernel is the attention_interface the model family hands over.
    """

    def __init__(self, *, module, module_fqn="", context=None, attention_interface=npu_fusion_attention_forward):
        super().__init__()
        config = module.config
        self.module_fqn = module_fqn
        self.context = context
        self.attention_interface = attention_interface
        self.config = config
        self.layer_idx = getattr(module, "layer_idx", None)
        self.num_heads = config.num_attention_heads
        self.num_key_value_heads = config.num_key_value_heads
        self.head_dim = getattr(module, "head_dim", config.hidden_size // config.num_attention_heads)
        self.scaling = getattr(module, "scaling", self.head_dim**-0.5)
        self.attention_dropout = getattr(config, "attention_dropout", 0.0)
        self.rotary_interleaved = getattr(config, "rotary_interleaved", False)
        self.is_causal = True

        projections = (module.q_proj, module.k_proj, module.v_proj)
        if not _projections_can_fuse(projections):
            raise ValueError(f"{module_fqn or type(module).__name__}: q_proj/k_proj/v_proj cannot be fused")
        self.qkv_split_sizes = [projection.out_features for projection in projections]
        weight = module.q_proj.weight
        self.linear_qkv = nn.Linear(
            module.q_proj.in_features,
            sum(self.qkv_split_sizes),
            bias=module.q_proj.bias is not None,
            device=weight.device,
            dtype=weight.dtype,
        )
        with torch.no_grad():
            self.linear_qkv.weight.copy_(torch.cat([projection.weight for projection in projections], dim=0))
            if self.linear_qkv.bias is not None:
                self.linear_qkv.bias.copy_(torch.cat([projection.bias for projection in projections], dim=0))
        self.o_proj = module.o_proj
        self.q_norm = getattr(module, "q_norm", None)
        self.k_norm = getattr(module, "k_norm", None)

    def make_transforms(self, prefix=""):
        """Checkpoint conversion: the source q_proj/k_proj/v_proj weights load into linear_qkv."""
        return [
            InterleaveQKV(
                sources=[f"{prefix}{name}.weight" for name in ("q_proj", "k_proj", "v_proj")],
                target=f"{prefix}linear_qkv.weight",
                split_sizes=tuple(self.qkv_split_sizes),
                head_dim=self.head_dim,
            )
        ]

    def forward(self, hidden_states, position_embeddings, attention_mask=None, **kwargs):
        input_shape = hidden_states.shape[:-1]
        query, key, value = torch.split(self.linear_qkv(hidden_states), self.qkv_split_sizes, dim=-1)
        query = query.view(*input_shape, -1, self.head_dim)
        key = key.view(*input_shape, -1, self.head_dim)
        value = value.view(*input_shape, -1, self.head_dim)
        if self.q_norm is not None:
            query = self.q_norm(query)
        if self.k_norm is not None:
            key = self.k_norm(key)
        query, key = _apply_gqa_rope(query, key, position_embeddings, self.rotary_interleaved, self.head_dim)

        attn_output, attn_weights = self.attention_interface(
            self,
            query.transpose(1, 2),
            key.transpose(1, 2),
            value.transpose(1, 2),
            attention_mask,
            dropout=self.attention_dropout if self.training else 0.0,
            scaling=self.scaling,
            **kwargs,
        )
        attn_output = attn_output.reshape(*input_shape, -1).contiguous()
        return self.o_proj(attn_output), attn_weights
