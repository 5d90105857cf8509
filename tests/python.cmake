# The Python package (python/): its pytest suites and the examples/ scripts, run with the
# interpreter the module was built for, PYTHONPATH on build/python and the build's ricochet-cli to
# compare against. Label python; the examples write their figures into build/examples/.
if(TARGET _ricochet)
  set(RICOCHET_PYTHON_TEST_ENV
    "PYTHONPATH=${CMAKE_BINARY_DIR}/python"
    "RICOCHET_CLI=$<TARGET_FILE:ricochet-cli>"
    "RICOCHET_SOURCE_DIR=${PROJECT_SOURCE_DIR}"
    "MPLBACKEND=Agg"
    "PYTHONDONTWRITEBYTECODE=1")
  # run: traces bitwise against the CLI; study: rows and results files; distributed: a Dask
  # LocalCluster of 2 worker processes; threads: the GIL is released, Ctrl-C stops long calls.
  foreach(suite run study distributed threads)
    add_test(NAME python_${suite}
      COMMAND ${RICOCHET_PYTHON_EXECUTABLE} -m pytest -q -p no:cacheprovider
              ${PROJECT_SOURCE_DIR}/python/tests/test_${suite}.py)
    set_tests_properties(python_${suite} PROPERTIES LABELS python TIMEOUT 300
      ENVIRONMENT "${RICOCHET_PYTHON_TEST_ENV}")
  endforeach()

  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/examples)
  foreach(example bounce_energy convergence cube_impacts)
    add_test(NAME example_${example}
      COMMAND ${RICOCHET_PYTHON_EXECUTABLE} ${PROJECT_SOURCE_DIR}/examples/${example}.py
              --out ${CMAKE_BINARY_DIR}/examples/${example}.png)
    set_tests_properties(example_${example} PROPERTIES LABELS python TIMEOUT 300
      ENVIRONMENT "${RICOCHET_PYTHON_TEST_ENV}")
  endforeach()
endif()
