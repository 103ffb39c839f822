# model layer: add this layer's sources here.
