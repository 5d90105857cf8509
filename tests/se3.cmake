# core/se3: the Lie group variational collision integrator on SE(3) (spec lgvci-se3).
ricochet_add_test(NAME test_se3_lie SOURCES test_se3_lie.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_shapes SOURCES test_se3_shapes.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_impacts SOURCES test_se3_impacts.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_longrun SOURCES test_se3_longrun.cpp LABELS core TIMEOUT 300)
# The rigid-body system with bodies from shapes (mesh files: tests/mesh.cmake).
ricochet_add_test(NAME test_se3_bodies SOURCES test_se3_bodies.cpp LABELS core TIMEOUT 300)
