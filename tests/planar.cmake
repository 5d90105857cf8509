# Planar systems and the FMOW variational collision integrator (core/planar).
ricochet_add_test(NAME test_planar_fmow SOURCES test_planar_fmow.cpp LABELS core)
