# What Ricochet writes and how it ends: the atomic writer (regular files, links, FIFOs, devices).
ricochet_add_test(NAME test_io_atomic_file SOURCES test_io_atomic_file.cpp LABELS core TIMEOUT 120)
