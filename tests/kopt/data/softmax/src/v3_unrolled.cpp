// v3: v1 with the reduction loop unrolled
