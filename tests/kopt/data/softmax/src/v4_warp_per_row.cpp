// v4: one warp per row, no block barriers
