// reference: f64 softmax
