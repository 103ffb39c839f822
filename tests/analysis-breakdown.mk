# tests of the breakdown analyses
