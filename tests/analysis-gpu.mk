# tests of the gpu analyses
