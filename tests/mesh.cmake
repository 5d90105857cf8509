# core/io's mesh reader (STL, OBJ, PLY into doubles; no VTK): the formats, exact digits and
# notes (test_io_mesh_reader), a deterministic fuzz of thousands of malformed files
# (test_io_mesh_fuzz), and rigid bodies made of mesh files (test_mesh_bodies).
ricochet_add_test(NAME test_io_mesh_reader SOURCES test_io_mesh_reader.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_io_mesh_fuzz SOURCES test_io_mesh_fuzz.cpp mesh_fuzz_cases.hpp
                  LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_mesh_bodies SOURCES test_mesh_bodies.cpp LABELS core TIMEOUT 300)
