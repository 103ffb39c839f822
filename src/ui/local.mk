# ui layer: add this layer's sources here.
