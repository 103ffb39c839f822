# tests of the diff analyses
