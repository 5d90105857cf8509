#pragma once
// The parts of the extension module ricochet._ricochet, each defined in its own file.

#include <pybind11/pybind11.h>

#include <cstdint>

namespace ricochet::python {

namespace py = pybind11;

void bindModel(py::module_& m);  ///< systems, describe, scenario (module.cpp)
void bindRun(py::module_& m);    ///< Run, run, Simulation (run_binding.cpp)
void bindStudy(py::module_& m);  ///< StudyPlan, load_study (study_binding.cpp)

/// A count argument (`steps`, `every`, `jobs`): a Python int (not bool) >= `min`, else ValueError
/// "NAME = VALUE is invalid: must be an integer >= MIN".
std::int64_t countArgument(const char* name, py::handle value, std::int64_t min);

}  // namespace ricochet::python
