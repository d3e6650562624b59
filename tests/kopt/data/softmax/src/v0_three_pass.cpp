// v0: three passes (max, sum, normalize)
