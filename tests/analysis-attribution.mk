# tests of the attribution analyses
