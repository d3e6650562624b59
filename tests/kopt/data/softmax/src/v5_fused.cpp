// v5: v4 with the normalization fused into the store
