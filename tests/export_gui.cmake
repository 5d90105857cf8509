# File menu of the desktop app: scenario files, presets, drag and drop, recent
# files (test_gui_export_files); CSV and animation exports (test_gui_export); plot exports
# (test_gui_export_plots). Label gui:
# they need an X display (./test.sh runs ctest under xvfb-run); they also run bin/ricochet-cli.
if(RICOCHET_BUILD_GUI)
  ricochet_add_test(NAME test_gui_export_files
    SOURCES test_gui_export_files.cpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  add_dependencies(test_gui_export_files ricochet-cli)
  ricochet_add_test(NAME test_gui_export
    SOURCES test_gui_export.cpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  add_dependencies(test_gui_export ricochet-cli)
  # Xfixes: the plot export test watches the cursor the X server shows while it renders.
  find_package(X11 REQUIRED COMPONENTS Xfixes)
  ricochet_add_test(NAME test_gui_export_plots
    SOURCES test_gui_export_plots.cpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop X11::X11 X11::Xfixes TIMEOUT 300)
  # GUI suites measure GUI-thread latency elsewhere; run these alone too (two cores).
  set_tests_properties(test_gui_export_files test_gui_export test_gui_export_plots PROPERTIES RUN_SERIAL TRUE)
endif()
