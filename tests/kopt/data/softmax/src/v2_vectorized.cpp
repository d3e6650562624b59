// v2: v1 with 128-bit loads (wrong tail handling)
