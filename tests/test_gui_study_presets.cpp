// The paper studies from the study window (the Study combo's presets), each against the same
// command of ricochet-cli: convergence and sensitivity give the CLI's CSV byte for byte and its
// printed report line for line; compare gives the same table but for its two timing columns.
// The figures are read back: the log-log error with the CLI's fitted order as its slope, the
// cube's twelve distances (paper 003's experiment), an error line per integrator. A click on a
// point loads that run (a level's h, a perturbed attitude) into the main window.

#include "test_gui_study_support.hpp"

#include "app/desktop/study/study_preset_forms.hpp"
#include "app/desktop/study/study_results.hpp"

#include <QHeaderView>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>

#include <cmath>
#include <numbers>

using namespace studytest;
using ricochet::app::FigureKind;
using ricochet::app::StudyFigure;
using ricochet::app::StudyPreset;

namespace {

/// The number after `label` in `text`.
double numberAfter(const QString& text, const QString& label) {
  const qsizetype at = text.indexOf(label);
  if (at < 0) return std::nan("");
  const QString rest = text.mid(at + label.size()).trimmed();
  qsizetype end = 0;
  while (end < rest.size() && (rest[end].isDigit() || rest[end] == '.' || rest[end] == '-')) ++end;
  while (end > 0 && rest[end - 1] == '.') --end;  // the full stop ending a sentence
  bool ok = false;
  const double x = rest.left(end).toDouble(&ok);
  return ok ? x : std::nan("");
}

/// `csv` without the named columns.
Csv without(Csv csv, const QStringList& names) {
  for (const QString& n : names) {
    const int c = csv.column(n);
    if (c < 0) continue;
    csv.header.removeAt(c);
    for (QStringList& row : csv.rows) row.removeAt(c);
  }
  return csv;
}

}  // namespace

class TestGuiStudyPresets : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  QString file(const QString& name) const { return tmp_.filePath(name); }

  /// A main window on `system` (paused), and Tools > New Study with preset `preset`.
  StudyWindow* open(std::unique_ptr<MainWindow>& main, const QString& system, StudyPreset preset) {
    main = exporttest::openWindow(exporttest::freshOptions(system, false));
    if (!waitFor([&] { return main->currentRun() != nullptr; })) return nullptr;
    StudyWindow* sw = openStudy(*main);
    if (!sw) return nullptr;
    chooseData(sw->editor()->presetCombo(), int(preset));
    return sw->editor()->preset() == preset ? sw : nullptr;
  }

 private slots:
  void initTestCase() { QVERIFY(tmp_.isValid()); }

  void convergenceIsTheCommandLines() {
    std::unique_ptr<MainWindow> main;
    StudyWindow* sw = open(main, QStringLiteral("star-floor"), StudyPreset::Convergence);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    guitest::typeInto(ed.presetForms()->atField(), QStringLiteral("1.6"));
    guitest::typeInto(ed.presetForms()->h0Field(), QStringLiteral("0.05"));
    typeSpin(ed.presetForms()->levelsSpin(), 6);
    QVERIFY2(ed.runsLabel()->text().startsWith(QStringLiteral("7 runs: h = 0.05 down to 0.0015625 s")),
             qPrintable(ed.runsLabel()->text()));
    QVERIFY(runToEnd(*sw));
    QVERIFY2(sw->job()->results().complete, qPrintable(sw->progressLabel()->text()));
    QCOMPARE(sw->exportResultsCsv(file("conv-window.csv")), QString());

    const Result fromCli = cli({QStringLiteral("convergence"), QStringLiteral("star-floor"), QStringLiteral("--at"),
                             QStringLiteral("1.6"), QStringLiteral("--h0"), QStringLiteral("0.05"), QStringLiteral("--levels"),
                             QStringLiteral("6"), QStringLiteral("--out"), file("conv-cli.csv"), QStringLiteral("--quiet")});
    QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
    const QByteArray cliCsv = exporttest::readAll(file("conv-cli.csv"));
    QCOMPARE(exporttest::readAll(file("conv-window.csv")), cliCsv);
    QCOMPARE(sw->reportView()->toPlainText(), fromCli.out);

    // Log-log error against h, the six levels (not the reference), slope = the fitted order; the
    // star's flight is exact, so error/|2 alpha - 1| too, whose slope is the corrected order.
    const StudyFigure& f = sw->plot()->figure();
    QCOMPARE(f.kind, FigureKind::Lines);
    QVERIFY(f.logX && f.logY);
    QCOMPARE(f.series.size(), std::size_t(2));
    QCOMPARE(f.series[0].points.size(), std::size_t(6));
    const Csv csv = parseCsv(cliCsv);
    for (const auto& p : f.series[0].points) {
      QCOMPARE(p.x, std::log10(csv.rows[p.row][csv.column("h")].toDouble()));
      QCOMPARE(p.y, std::log10(csv.rows[p.row][csv.column("error")].toDouble()));
      QVERIFY(csv.rows[p.row][0] != QStringLiteral("reference"));
    }
    const double printed = numberAfter(fromCli.out, QStringLiteral("against log h):"));
    QVERIFY(std::isfinite(printed));
    QVERIFY2(std::fabs(f.series[0].slope - printed) <= 5e-4,
             qPrintable(QStringLiteral("%1 vs %2").arg(f.series[0].slope).arg(printed)));
    QVERIFY(f.subtitle.contains(QStringLiteral("fitted order %1").arg(printed, 0, 'f', 3)));
    const double corrected = numberAfter(fromCli.out, QStringLiteral("slope of error/|2 alpha - 1| is"));
    QVERIFY(std::fabs(corrected - 2.0) < 0.2);
    QVERIFY2(std::fabs(f.series[1].slope - corrected) <= 5e-4,
             qPrintable(QStringLiteral("%1 vs %2").arg(f.series[1].slope).arg(corrected)));
    for (const auto& p : f.series[1].points) {
      const QStringList& row = csv.rows[p.row];
      QVERIFY(std::fabs(p.y - std::log10(row[csv.column("error")].toDouble() / row[csv.column("impact_factor")].toDouble())) < 1e-12);
    }
    saveScreenshot(*sw, QStringLiteral("study-convergence"));

    // A level's point loads that level's run: its h, to T.
    const std::size_t index = 2;
    const auto& point = f.series[0].points[index];
    const double h = csv.rows[point.row][csv.column("h")].toDouble();
    QTest::mouseClick(sw->plot(), Qt::LeftButton, {}, sw->plot()->pointPosition(0, index).toPoint());
    QVERIFY(waitFor([&] { return main->currentRun()->scenario.integrator.h == h; }));
    QCOMPARE(main->currentRun()->scenario.tEnd, 1.6);
  }

  void sensitivityIsTheCommandLines() {
    std::unique_ptr<MainWindow> main;
    StudyWindow* sw = open(main, QStringLiteral("cube-plane"), StudyPreset::Sensitivity);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    // Paper 003's perturbations are the defaults for an SE(3) body.
    QCOMPARE(ed.presetForms()->perturbationsEdit()->toPlainText(), QStringLiteral("z0=1e-08\nry0=3.141592653589793e-08"));
    QCOMPARE(ed.presetForms()->collisionsSpin()->value(), 12);
    QVERIFY(runToEnd(*sw));
    QVERIFY2(sw->job()->results().complete, qPrintable(sw->progressLabel()->text()));
    QCOMPARE(sw->exportResultsCsv(file("sens-window.csv")), QString());
    const Result fromCli = cli({QStringLiteral("sensitivity"), QStringLiteral("cube-plane"), QStringLiteral("--out"),
                             file("sens-cli.csv"), QStringLiteral("--quiet")});
    QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
    QCOMPARE(exporttest::readAll(file("sens-window.csv")), exporttest::readAll(file("sens-cli.csv")));
    QCOMPARE(sw->reportView()->toPlainText(), fromCli.out);

    // The position run's distances after collisions 1..12: the experiment's twelve numbers.
    const StudyFigure& f = sw->plot()->figure();
    QVERIFY(f.logY);
    QCOMPARE(f.series.size(), std::size_t(2));
    QCOMPARE(f.series[0].name, QStringLiteral("z0+1e-08"));
    const char* const expected[] = {"8.0e-09", "4.2e-08", "1.4e-06", "1.4e-06", "2.0e-05", "5.9e-05",
                                    "7.4e-04", "7.5e-04", "1.9e-02", "2.9e-02", "2.6e-01", "7.3e+00"};
    QCOMPARE(f.series[0].points.size(), std::size_t(13));
    for (int c = 1; c <= 12; ++c) {
      const auto& p = f.series[0].points[std::size_t(c)];
      QCOMPARE(p.x, double(c));
      QCOMPARE(QString::asprintf("%.1e", std::pow(10.0, p.y)), QString::fromLatin1(expected[c - 1]));
    }
    saveScreenshot(*sw, QStringLiteral("study-sensitivity"));

    // A point of the attitude series loads the perturbed run: ry0 moved by pi 1e-8.
    QTest::mouseClick(sw->plot(), Qt::LeftButton, {}, sw->plot()->pointPosition(1, 4).toPoint());
    const auto& info = ricochet::findSystem("cube-plane")->info();
    const std::size_t ry0 = *ricochet::indexOf(info.initial, "ry0");
    QVERIFY(waitFor([&] { return main->currentRun()->scenario.initial[ry0] == std::numbers::pi * 1e-8; }));
  }

  // The cube's sensitivity table, its results set aside by another study kind and back with
  // theirs, said once. Long column names ("ry0+3.141592653589793e-08.distance") come on two
  // lines, each line whole in its column; the summary of a finished study is under the progress
  // bar only (not again in the status bar).
  void resultsFollowTheirKindAndReadWhole() {
    std::unique_ptr<MainWindow> main;
    StudyWindow* sw = open(main, QStringLiteral("cube-plane"), StudyPreset::Sensitivity);
    QVERIFY(sw);
    typeSpin(sw->editor()->presetForms()->collisionsSpin(), 4);
    QVERIFY(runToEnd(*sw));
    QVERIFY2(sw->job()->results().complete, qPrintable(sw->progressLabel()->text()));
    const QString summary = sw->progressLabel()->text();
    QVERIFY(summary.contains(QStringLiteral(" runs in ")));
    QVERIFY2(!sw->statusBar()->currentMessage().contains(summary),
             qPrintable(sw->statusBar()->currentMessage()));
    QTest::qWait(100);
    // Every header line fits its column.
    QHeaderView* header = sw->table()->horizontalHeader();
    const QFontMetrics fm(header->font());
    int twoLines = 0;
    for (int c = 0; c < header->count(); ++c) {
      const QString text = sw->table()->model()->headerData(c, Qt::Horizontal).toString();
      const QString full =
          sw->table()->model()->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
      QCOMPARE(QString(text).remove(QLatin1Char('\n')), full);  // the same name, broken
      if (text.contains(QLatin1Char('\n'))) ++twoLines;
      for (const QString& line : text.split(QLatin1Char('\n'))) {
        QVERIFY2(fm.horizontalAdvance(line) < header->sectionSize(c),
                 qPrintable(QString("%1: %2 px in a %3 px column")
                                .arg(line)
                                .arg(fm.horizontalAdvance(line))
                                .arg(header->sectionSize(c))));
      }
    }
    QVERIFY(twoLines >= 2);
    saveScreenshot(*sw, QStringLiteral("study-sensitivity-table"));
    const std::size_t points = sw->plot()->figure().pointCount();
    QVERIFY(points > 0);
    // Another kind: the sensitivity plot and table step aside, nothing to export.
    chooseData(sw->editor()->presetCombo(), int(StudyPreset::Convergence));
    QCOMPARE(sw->plot()->figure().pointCount(), std::size_t(0));
    QCOMPARE(sw->table()->model()->rowCount(), 0);
    QVERIFY(!sw->exportCsvAction()->isEnabled());
    QVERIFY(!sw->exportFigureAction()->isEnabled());
    saveScreenshot(*sw, QStringLiteral("study-kind-switched"));
    // Back to Sensitivity: its results come back.
    chooseData(sw->editor()->presetCombo(), int(StudyPreset::Sensitivity));
    QCOMPARE(sw->plot()->figure().pointCount(), points);
    QVERIFY(sw->table()->model()->rowCount() > 0);
    QVERIFY(sw->exportCsvAction()->isEnabled());
    QCOMPARE(sw->progressLabel()->text(), summary);
  }

  void compareIsTheCommandLinesButForTimings() {
    std::unique_ptr<MainWindow> main;
    StudyWindow* sw = open(main, QStringLiteral("star-floor"), StudyPreset::Compare);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    QCOMPARE(ed.jobsSpin()->value(), 1);  // one run at a time, as the command line
    guitest::typeInto(ed.baseEditor()->settingField(QStringLiteral("t_end")), QStringLiteral("5"));
    QVERIFY(waitFor([&] { return ed.base().tEnd == 5.0; }));
    typeLine(ed.presetForms()->compareHs(), QStringLiteral("0.01, 0.005"));
    QVERIFY2(ed.runsLabel()->text().startsWith(QStringLiteral("4 runs: 2 integrators \u00d7 2 time steps")),
             qPrintable(ed.runsLabel()->text()));
    QVERIFY(runToEnd(*sw));
    QVERIFY2(sw->job()->results().complete, qPrintable(sw->progressLabel()->text()));
    QCOMPARE(sw->exportResultsCsv(file("cmp-window.csv")), QString());
    const Result fromCli = cli({QStringLiteral("compare"), QStringLiteral("star-floor"), QStringLiteral("--h"),
                             QStringLiteral("0.01,0.005"), QStringLiteral("--t-end"), QStringLiteral("5"),
                             QStringLiteral("--out"), file("cmp-cli.csv"), QStringLiteral("--quiet")});
    QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
    const QStringList timings{QStringLiteral("wall_seconds"), QStringLiteral("us_per_step")};
    const Csv window = without(parseCsv(exporttest::readAll(file("cmp-window.csv"))), timings);
    const Csv command = without(parseCsv(exporttest::readAll(file("cmp-cli.csv"))), timings);
    QCOMPARE(window.header, command.header);
    QCOMPARE(window.rows.size(), std::size_t(4));
    QVERIFY(window.rows == command.rows);
    QVERIFY(sw->reportView()->toPlainText().startsWith(QStringLiteral("compare star-floor: 4 runs to t_end = 5 s")));

    // The energy error against h, one line per integrator.
    const StudyFigure& f = sw->plot()->figure();
    QCOMPARE(f.kind, FigureKind::Lines);
    QCOMPARE(f.series.size(), std::size_t(2));
    QCOMPARE(f.series[0].name, QStringLiteral("integrator = variational"));
    QCOMPARE(f.series[1].name, QStringLiteral("integrator = rk4-event"));
    QCOMPARE(f.series[0].points.size(), std::size_t(2));
    const int metric = command.column(QStringLiteral("max_abs_energy_rel_error"));
    for (const auto& p : f.series[0].points) {
      const double v = command.rows[p.row][metric].toDouble();
      QCOMPARE(p.y, f.logY ? std::log10(v) : v);
    }
    saveScreenshot(*sw, QStringLiteral("study-compare"));
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiStudyPresets>(argc, argv, "test_gui_study_presets");
}

#include "test_gui_study_presets.moc"
