# Animation export (render/video/animation_export.hpp, `ricochet-cli video`) and the paper presets
# (resources/presets).
# Presets: load, validate, run, canonical, indexed, paper defaults, make_presets.sh (runs the CLI).
ricochet_add_test(NAME test_export_presets SOURCES test_export_presets.cpp LABELS cli TIMEOUT 300)
add_dependencies(test_export_presets ricochet-cli)

if(RICOCHET_BUILD_GUI)
  # The frame clock, output names, option checks: no display needed.
  ricochet_add_test(NAME test_export_timing SOURCES test_export_timing.cpp LABELS core
    LIBS ricochet_export TIMEOUT 60)
  # ricochet-cli video end to end with ffprobe (needs X: ./test.sh runs it under xvfb-run).
  find_package(X11 REQUIRED)
  ricochet_add_test(NAME test_export_video SOURCES test_export_video.cpp LABELS gui
    LIBS Qt6::Gui X11::X11 ricochet_export TIMEOUT 600)
  add_dependencies(test_export_video ricochet-cli)
endif()
