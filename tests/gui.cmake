# Desktop application area: the plot decimator (core, no display) and the GUI suites (label gui,
# need an X display: ./test.sh runs ctest under xvfb-run).
ricochet_add_test(NAME test_trace_decimator SOURCES test_trace_decimator.cpp LABELS core)
