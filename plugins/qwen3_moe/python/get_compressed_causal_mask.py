def _get_compressed_causal_mask(device):
    """The upper-triangular mask the kernel expects in compressed causal mode, built once per device."""
    mask = _COMPRESSED_CAUSAL_MASKS.get(device)
    if mask is None:
        size = _COMPRESSED_CAUSAL_MASK_SIZE
        mask = torch.triu(torch.ones(size, size, dtype=torch.bool, device=device), diagonal=1)
        _COMPRESSED_CAUSAL_MASKS[device] = mask
    return mask
