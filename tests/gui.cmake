# Desktop application area: the plot decimator (core, no display) and the GUI suites (label gui,
# need an X display: ./test.sh runs ctest under xvfb-run).
ricochet_add_test(NAME test_trace_decimator SOURCES test_trace_decimator.cpp LABELS core)

if(RICOCHET_BUILD_GUI)
  # The rooms of app/desktop and the directions in which they include each other (reads the
  # sources; no display needed).
  ricochet_add_test(NAME test_desktop_layering SOURCES test_desktop_layering.cpp LABELS gui TIMEOUT 60)
  # The frame pacing policy alone (fake clock, frames reported by hand): no display needed.
  ricochet_add_test(NAME test_gui_frame_pacer SOURCES test_gui_frame_pacer.cpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 60)
  # The plot data, its tick rule (checked against vtkAxis) and its SVG drawing, without a window.
  ricochet_add_test(NAME test_gui_plot_figure SOURCES test_gui_plot_figure.cpp
    LABELS gui LIBS ricochet_desktop VTK::ChartsCore VTK::RenderingContext2D TIMEOUT 60)
  # Drives the real MainWindow: systems, edits, refusals, pause/step/resume, GUI latency, settings;
  # and launches bin/ricochet itself, reading its windows back from the X server (xcb).
  find_package(X11 REQUIRED COMPONENTS xcb)
  ricochet_add_test(NAME test_gui_mainwindow SOURCES test_gui_mainwindow.cpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop VTK::RenderingCore X11::xcb TIMEOUT 300)
  add_dependencies(test_gui_mainwindow ricochet)
  # PNGs of the window per system land in <build>/screenshots/ (look at them after a change).
  ricochet_add_test(NAME test_gui_screenshots SOURCES test_gui_screenshots.cpp test_gui_support.hpp
    LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  # The latency test measures how promptly the GUI thread answers while the worker runs flat out
  # and Mesa renders in software: with another test competing for the two cores it would measure
  # the machine's load instead. Run the GUI suites alone.
  # The plots explored through the real window: axis spans and labels, aligned plot areas (screen
  # and PNG), legends off the data, zoom/pan/hover/impact read-out, columns, phase portraits and
  # impact maps against the core's trace, axes right after a reset.
  ricochet_add_test(NAME test_gui_plots SOURCES test_gui_plots.cpp test_gui_export_support.hpp
    test_gui_support.hpp LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  # The rough edges of the window: exports that ask before overwriting, the whole status message,
  # undo/redo of scenarios, the Help windows, edits after an integrator failure.
  ricochet_add_test(NAME test_gui_window SOURCES test_gui_window.cpp test_gui_export_support.hpp
    test_gui_support.hpp LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  set_tests_properties(test_gui_mainwindow test_gui_screenshots test_gui_plots test_gui_window
    PROPERTIES RUN_SERIAL TRUE)
endif()
