#include "convert.hpp"

#include <cstdint>
#include <limits>

namespace ricochet::python {

py::object toPython(const json::Value& v) {
  switch (v.type()) {
    case json::Type::Null: return py::none();
    case json::Type::Bool: return py::bool_(v.asBool());
    case json::Type::Number:
      if (v.isInteger()) return py::int_(v.asInteger());
      return py::float_(v.asNumber());
    case json::Type::String: return py::str(v.asString());
    case json::Type::Array: {
      py::list out;
      for (const json::Value& item : v.asArray()) out.append(toPython(item));
      return out;
    }
    case json::Type::Object: {
      py::dict out;
      for (const json::Member& m : v.asObject()) out[py::str(m.first)] = toPython(m.second);
      return out;
    }
  }
  return py::none();
}

namespace {

bool isInstance(py::handle object, const char* module, const char* name) {
  return py::isinstance(object, py::module_::import(module).attr(name));
}

}  // namespace

std::optional<double> realNumber(py::handle object) {
  if (py::isinstance<py::bool_>(object)) return std::nullopt;
  if (PyFloat_Check(object.ptr()) || PyLong_Check(object.ptr()) || isInstance(object, "numbers", "Real")) {
    // float() of a huge int raises OverflowError: such a number is out of every range anyway.
    try {
      return py::float_(py::reinterpret_borrow<py::object>(object)).cast<double>();
    } catch (const py::error_already_set&) {
      return std::numeric_limits<double>::infinity();
    }
  }
  return std::nullopt;
}

std::optional<std::string> pathText(py::handle object) {
  if (py::isinstance<py::str>(object)) return object.cast<std::string>();
  if (isInstance(object, "os", "PathLike")) {
    py::object path = py::module_::import("os").attr("fspath")(object);
    if (py::isinstance<py::str>(path)) return path.cast<std::string>();
  }
  return std::nullopt;
}

json::Value toJson(py::handle o, const std::string& where) {
  if (o.is_none()) return json::Value::null();
  if (py::isinstance<py::bool_>(o)) return json::Value::boolean(o.cast<bool>());
  if (py::isinstance<py::str>(o)) return json::Value::string(o.cast<std::string>());
  if (PyLong_Check(o.ptr()) || isInstance(o, "numbers", "Integral")) {
    const py::int_ n = py::reinterpret_borrow<py::object>(o);
    // An integer beyond 64 bits becomes the nearest double, as a JSON reader would read it.
    int overflow = 0;
    const long long exact = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    if (overflow == 0 && !PyErr_Occurred()) return json::Value::integer(static_cast<std::int64_t>(exact));
    PyErr_Clear();
    return json::Value::number(*realNumber(o));
  }
  if (const auto x = realNumber(o)) return json::Value::number(*x);
  if (py::isinstance<py::dict>(o) || isInstance(o, "collections.abc", "Mapping")) {
    json::Value out = json::Value::object();
    for (const py::handle key : py::reinterpret_borrow<py::object>(o)) {
      if (!py::isinstance<py::str>(key)) {
        throw py::type_error(where + ": key " + py::repr(key).cast<std::string>() + " is not a str");
      }
      const std::string name = key.cast<std::string>();
      out.add(name, toJson(o[key], where.empty() ? name : where + "." + name));
    }
    return out;
  }
  if (py::isinstance<py::list>(o) || py::isinstance<py::tuple>(o)) {
    json::Value out = json::Value::array();
    std::size_t i = 0;
    for (const py::handle item : o) out.push(toJson(item, where + "[" + std::to_string(i++) + "]"));
    return out;
  }
  throw py::type_error(where + ": a " + py::str(py::type::of(o).attr("__name__")).cast<std::string>() +
                       " is not a JSON value (use dict, list, str, int, float, bool or None)");
}

py::array_t<double> toArray(std::vector<double>&& values) {
  auto* owned = new std::vector<double>(std::move(values));
  py::capsule free(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(double))},
                             owned->data(), free);
}

}  // namespace ricochet::python
