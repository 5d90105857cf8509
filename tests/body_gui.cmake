# The Body section of the scenario editor (rigid-body): Import Mesh... through the real file
# dialog, drops, computed mass properties against closed forms, refusals. Needs an X display.
if(RICOCHET_BUILD_GUI)
  ricochet_add_test(NAME test_gui_body SOURCES test_gui_body.cpp test_gui_export_support.hpp
    test_gui_support.hpp LABELS gui LIBS ricochet_desktop TIMEOUT 300)
  set_tests_properties(test_gui_body PROPERTIES RUN_SERIAL TRUE)
endif()
