# Trace files for other tools: HDF5 runs (io/hdf5) and ParaView series (render/paraview), written by
# `ricochet-cli run --h5 / --pvd` (label cli: they run the binary; no display needed).
find_package(HDF5 1.10 REQUIRED COMPONENTS C)  # the suite checks the layout with the C API too
ricochet_add_test(NAME test_run_h5 SOURCES test_run_h5.cpp test_run_files_support.hpp LABELS cli
  LIBS ricochet_hdf5 hdf5::hdf5 TIMEOUT 300)
add_dependencies(test_run_h5 ricochet-cli)
if(TARGET ricochet_paraview)
  target_compile_definitions(test_run_h5 PRIVATE RICOCHET_HAS_PARAVIEW)
endif()

# h5py and h5dump read what the CLI writes, bit for bit (Debian python3-h5py, python3-pytest and
# hdf5-tools, through Debian's own python3: the module must not come from another interpreter).
find_program(RICOCHET_SYSTEM_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(RICOCHET_SYSTEM_PYTHON)
  add_test(NAME test_run_h5py
    COMMAND ${RICOCHET_SYSTEM_PYTHON} -m pytest -q -p no:cacheprovider
            ${CMAKE_CURRENT_SOURCE_DIR}/python/test_run_h5py.py)
  set_tests_properties(test_run_h5py PROPERTIES LABELS cli TIMEOUT 300
    ENVIRONMENT "RICOCHET_CLI=${PROJECT_BINARY_DIR}/bin/ricochet-cli")
endif()

if(TARGET ricochet_paraview)
  ricochet_add_test(NAME test_run_pvd SOURCES test_run_pvd.cpp test_run_files_support.hpp LABELS cli
    LIBS VTK::CommonCore VTK::CommonDataModel VTK::IOXML TIMEOUT 300)
  vtk_module_autoinit(TARGETS test_run_pvd MODULES VTK::CommonCore VTK::CommonDataModel VTK::IOXML)
  add_dependencies(test_run_pvd ricochet-cli)
endif()

# The window's exports of both (File > Export HDF5 Run..., Export ParaView Series...) against the
# CLI's files, through the real menu and dialog. Label gui: needs an X display.
if(RICOCHET_BUILD_GUI)
  ricochet_add_test(NAME test_gui_export_runfiles
    SOURCES test_gui_export_runfiles.cpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop ricochet_hdf5 TIMEOUT 300)
  add_dependencies(test_gui_export_runfiles ricochet-cli)
  set_tests_properties(test_gui_export_runfiles PROPERTIES RUN_SERIAL TRUE)
  # File > Open Run... and Overlay Run... with two CLI runs: the replay equals the file's rows,
  # the slider seeks, the ghost and the dashed curves are the second file's, bad files refused.
  ricochet_add_test(NAME test_gui_replay
    SOURCES test_gui_replay.cpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop ricochet_hdf5 hdf5::hdf5 TIMEOUT 300)
  add_dependencies(test_gui_replay ricochet-cli)
  set_tests_properties(test_gui_replay PROPERTIES RUN_SERIAL TRUE)
endif()
