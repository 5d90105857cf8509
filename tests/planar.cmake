# Planar systems and the FMOW variational collision integrator (core/planar).
ricochet_add_test(NAME test_planar_fmow SOURCES test_planar_fmow.cpp LABELS core)
ricochet_add_test(NAME test_planar_particle SOURCES test_planar_particle.cpp LABELS core)
ricochet_add_test(NAME test_planar_star SOURCES test_planar_star.cpp LABELS core)
ricochet_add_test(NAME test_planar_ellipse SOURCES test_planar_ellipse.cpp LABELS core)
ricochet_add_test(NAME test_planar_systems SOURCES test_planar_systems.cpp LABELS core)
ricochet_add_test(NAME test_planar_alloc SOURCES test_planar_alloc.cpp LABELS core)
