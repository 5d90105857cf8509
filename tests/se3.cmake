# core/se3: the Lie group variational collision integrator on SE(3) (spec lgvci-se3).
ricochet_add_test(NAME test_se3_lie SOURCES test_se3_lie.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_shapes SOURCES test_se3_shapes.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_impacts SOURCES test_se3_impacts.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_se3_longrun SOURCES test_se3_longrun.cpp LABELS core TIMEOUT 300)
# The rigid-body system: bodies from shapes (core only), and from mesh files through VTK's
# readers (mesh/, built with the GUI).
ricochet_add_test(NAME test_se3_bodies SOURCES test_se3_bodies.cpp LABELS core TIMEOUT 300)
if(TARGET ricochet_mesh)
  ricochet_add_test(NAME test_mesh_bodies SOURCES test_mesh_bodies.cpp LABELS core
                    LIBS ricochet_mesh TIMEOUT 300)
endif()
