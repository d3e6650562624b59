// v1: online softmax, one pass for max and sum
