#pragma once
// Ctrl-C during a long call that runs without the GIL (a run, a study): the core's cancel hooks
// poll Python's signal flag now and then, and the caller raises the KeyboardInterrupt once it
// holds the GIL again.

#include <pybind11/pybind11.h>

#include <chrono>

namespace ricochet::python {

namespace py = pybind11;

/// Made with the GIL held; interrupted() is called from the same thread after it released the GIL
/// (py::gil_scoped_release): at most ten times a second it takes the GIL back and runs Python's
/// signal handlers. True when one raised (a KeyboardInterrupt is then pending in this thread, for
/// py::error_already_set). Only Python's main thread ever sees a signal: in any other thread this
/// never takes the GIL and is always false.
class InterruptPoll {
 public:
  InterruptPoll() {
    const py::module_ threading = py::module_::import("threading");
    mainThread_ = threading.attr("current_thread")().is(threading.attr("main_thread")());
  }

  bool interrupted() {
    if (!mainThread_) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(100)) return false;
    last_ = now;
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
  }

 private:
  bool mainThread_ = false;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace ricochet::python
