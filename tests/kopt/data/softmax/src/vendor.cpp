// vendor: a library softmax
