#pragma once
// Helpers of the run-file suites (test_run_h5.cpp, test_run_pvd.cpp): ricochet-cli as a child
// process (to the end through cli_process.hpp, or interrupted with SIGINT once it has started
// writing), CSV files as exact doubles, bitwise comparison, and folder listings.

#include "cli_process.hpp"

#include <QtTest>

#include <QDir>
#include <QProcess>

#include <bit>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <string>
#include <vector>

namespace runfiles {

using Run = Result;

/// Starts ricochet-cli, waits until `started` holds (checked every 20 ms, 30 s at most) and 300 ms
/// more (its SIGINT handler is installed once the outputs are open), sends SIGINT and waits for the
/// end.
template <typename Started>
Run interrupted(const QStringList& args, Started started) {
  QProcess p;
  p.start(cliPath(), args);
  Run r;
  if (!p.waitForStarted(10000)) return r;
  for (int i = 0; i < 1500 && !started() && p.state() == QProcess::Running; ++i) QTest::qWait(20);
  QTest::qWait(300);
  ::kill(static_cast<pid_t>(p.processId()), SIGINT);
  if (!p.waitForFinished(30000)) {
    p.kill();
    p.waitForFinished();
    return r;
  }
  r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

inline bool sameBits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) ||
         (std::isnan(a) && std::isnan(b));
}

/// A CSV number read back exactly (17 significant digits round-trip); NaN for "nan" and junk.
inline double number(const std::string& text) {
  double x = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nan("");
  return x;
}

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Column `name` as doubles (empty when there is none).
  std::vector<double> column(const std::string& name) const {
    std::vector<double> v;
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (header[c] != name) continue;
      for (const auto& r : rows) v.push_back(number(r.at(c)));
    }
    return v;
  }
};

/// A file written by the trace driver (no quoted fields: no name has a comma).
inline Csv readCsv(const QString& path) {
  Csv c;
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return c;
  for (const QByteArray& line : f.readAll().split('\n')) {
    if (line.isEmpty()) continue;
    std::vector<std::string> fields;
    for (const QByteArray& field : line.split(',')) fields.push_back(field.toStdString());
    if (c.header.empty()) {
      c.header = std::move(fields);
    } else {
      c.rows.push_back(std::move(fields));
    }
  }
  return c;
}

/// Every entry of `dir`, hidden ones included, sorted.
inline QStringList entries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

inline QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace runfiles
