def _projections_can_fuse(projections):
    """True when the projections read the same input with the same dtype, device and bias layout."""
    first = projections[0]
    for projection in projections:
        if not isinstance(projection, nn.Linear):
            return False
        if projection.in_features != first.in_features:
            return False
        if projection.weight.dtype != first.weight.dtype or projection.weight.device != first.weight.device:
            return False
        if (projection.bias is None) != (first.bias is None):
            return False
    return True
