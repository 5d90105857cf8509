# core/study (many runs of one scenario) and the ricochet-cli study commands.
ricochet_add_test(NAME test_study_core SOURCES test_study_core.cpp LABELS core TIMEOUT 120)
# Drives bin/ricochet-cli: study, study merge, the built-in studies, hostile study files.
ricochet_add_test(NAME test_study_cli SOURCES test_study_cli.cpp LABELS cli TIMEOUT 300)
add_dependencies(test_study_cli ricochet-cli)
# The README's GNU parallel recipe, run with the `parallel` program (Debian package parallel).
ricochet_add_test(NAME test_study_parallel SOURCES test_study_parallel.cpp LABELS cli TIMEOUT 120)
add_dependencies(test_study_parallel ricochet-cli)
