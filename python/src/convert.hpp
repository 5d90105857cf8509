#pragma once
// Conversions between Python objects and what ricochet_core speaks: JSON trees (scenario and study
// documents, describe and summary objects), numbers, and NumPy arrays for trace columns.

#include "core/io/json.hpp"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

namespace ricochet::python {

namespace py = pybind11;

/// A JSON tree as plain Python: dict (member order kept), list, str, bool, None, int for integers
/// and float for every other number.
py::object toPython(const json::Value& value);

/// A Python document (dict, list, tuple, str, int, float, bool, None, NumPy scalars) as a JSON
/// tree, for the core's readers. Throws TypeError naming `where` and the key for anything else
/// (a set, an object, a dict key that is not a str).
json::Value toJson(py::handle object, const std::string& where);

/// A path given as str or os.PathLike, or nullopt for anything else.
std::optional<std::string> pathText(py::handle object);

/// A real number (int, float, NumPy scalar; not bool) or nullopt.
std::optional<double> realNumber(py::handle object);

/// The vector's doubles as a 1-D float64 array, without a copy (the array owns the buffer).
py::array_t<double> toArray(std::vector<double>&& values);

}  // namespace ricochet::python
