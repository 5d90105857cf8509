# core/io (JSON, scenarios, traces), the no-allocation rule of Simulation::advance, and the
# ricochet-cli process tests.
ricochet_add_test(NAME test_io_json SOURCES test_io_json.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_io_scenario SOURCES test_io_scenario.cpp LABELS core TIMEOUT 120)
ricochet_add_test(NAME test_io_trace SOURCES test_io_trace.cpp LABELS core TIMEOUT 300)
ricochet_add_test(NAME test_no_alloc SOURCES test_no_alloc.cpp LABELS core TIMEOUT 300)

# Drives the real binary (RICOCHET_BINARY_DIR/bin/ricochet-cli) as a separate process.
ricochet_add_test(NAME test_cli SOURCES test_cli.cpp LABELS cli TIMEOUT 300)
add_dependencies(test_cli ricochet-cli)

# Every system and integrator against pinned hashes of its trace and impacts CSVs, and the same
# bytes on several threads at once (the refactor guard).
ricochet_add_test(NAME test_determinism SOURCES test_determinism.cpp LABELS core TIMEOUT 600)

# `ricochet-cli run rigid-body --body FILE` and bad body input, against the real binary.
# With a sample of the mesh reader's fuzz cases (mesh_fuzz_cases.hpp): exit 2 and one line.
ricochet_add_test(NAME test_cli_body SOURCES test_cli_body.cpp mesh_fuzz_cases.hpp LABELS cli
                  TIMEOUT 300)
add_dependencies(test_cli_body ricochet-cli)
