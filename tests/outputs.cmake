# What Ricochet writes and how it ends: the atomic writer (regular files, links, FIFOs, devices),
# the energy warning's bounds, and ricochet-cli's outputs to stdout, FIFOs and links, its signals
# and full disks, against the real binary.
ricochet_add_test(NAME test_io_atomic_file SOURCES test_io_atomic_file.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_io_energy_check SOURCES test_io_energy_check.cpp LABELS core TIMEOUT 300)
ricochet_add_test(NAME test_cli_outputs SOURCES test_cli_outputs.cpp LABELS cli TIMEOUT 300)
add_dependencies(test_cli_outputs ricochet-cli)
# The window's run status with an energy warning (label gui: needs an X display).
if(RICOCHET_BUILD_GUI)
  ricochet_add_test(NAME test_gui_energy_warning SOURCES test_gui_energy_warning.cpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 120)
endif()
