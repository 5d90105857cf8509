# The study window (Tools > New Study), label gui: they need an X display (./test.sh runs ctest
# under xvfb-run) and run bin/ricochet-cli to compare the window's results with the command line's.
# test_gui_study_figure: the data layer. test_gui_study: a study built in the editor, its plotted points, a click loading a run, cancel,
# refusals, figure exports. test_gui_study_presets: the three built-in studies, window against CLI.
# Screenshots of the window land in <build>/screenshots/study-*.png.
if(RICOCHET_BUILD_GUI)
  # The results table, the figure data, log ticks, hit tests and the PNG/SVG encodings, no window.
  ricochet_add_test(NAME test_gui_study_figure SOURCES test_gui_study_figure.cpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 60)
  ricochet_add_test(NAME test_gui_study
    SOURCES test_gui_study.cpp test_gui_study_support.hpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  add_dependencies(test_gui_study ricochet-cli)
  ricochet_add_test(NAME test_gui_study_presets
    SOURCES test_gui_study_presets.cpp test_gui_study_support.hpp test_gui_export_support.hpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  add_dependencies(test_gui_study_presets ricochet-cli)
  # GUI suites measure GUI-thread latency elsewhere; run these alone too (two cores).
  set_tests_properties(test_gui_study test_gui_study_presets PROPERTIES RUN_SERIAL TRUE)
endif()
