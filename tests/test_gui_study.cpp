// Tools > New Study with a study of one's own, driven through the real widgets of a real main
// window: fields picked from the Add menu, ranges typed into the axis rows, the study run in the
// background, the plotted points read back and checked against `ricochet-cli study` on the
// saved study file (whose results CSV the window's export must equal byte for byte), a colour
// map for two axes and a scatter for random draws, a click on a row and on a point loading that
// run into the main window, cancel, refusals, the figure exports and screenshots.

#include "test_gui_study_support.hpp"

#include "app/desktop/study/study_painter.hpp"
#include "app/desktop/study/study_results.hpp"
#include "core/io/scenario_io.hpp"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QProgressBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include <cmath>

using namespace studytest;
using ricochet::Scenario;
using ricochet::app::FigureExportRequest;
using ricochet::app::FigureFormat;
using ricochet::app::FigureGeometry;
using ricochet::app::FigureKind;
using ricochet::app::StudyFigure;
using ricochet::study::AxisKind;

namespace {

double onAxis(double v, bool log) { return log ? std::log10(v) : v; }

/// The value a figure holds for a CSV cell: exact on a linear axis, log10 (to 1e-12) on a log one.
bool sameValue(double shown, const QString& cell, bool log) {
  const double v = cell.toDouble();
  if (!log) return shown == v;
  return std::fabs(shown - std::log10(v)) <= 1e-12 * std::max(1.0, std::fabs(shown));
}

}  // namespace

class TestGuiStudy : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  std::unique_ptr<MainWindow> main_;
  QString file(const QString& name) const { return tmp_.filePath(name); }

  /// A fresh study window on the paused star: base t_end typed to `tEnd` in the base form.
  StudyWindow* freshStudy(double tEnd) {
    for (StudyWindow* s : main_->findChildren<StudyWindow*>()) delete s;
    StudyWindow* sw = openStudy(*main_);
    if (!sw) return nullptr;
    guitest::typeInto(sw->editor()->baseEditor()->settingField(QStringLiteral("t_end")), QString::number(tEnd));
    waitFor([&] { return sw->editor()->base().tEnd == tEnd; });
    return sw;
  }

  /// h as a list and y0 as a linspace: the 3 x 3 grid of the first test.
  void buildGrid(StudyEditor& ed) {
    StudyAxisRow* h = addFieldFromMenu(ed, QStringLiteral("Integrator"), QStringLiteral("h"));
    QVERIFY(h);
    QCOMPARE(h->kind(), AxisKind::Logspace);  // a time step is halved by default
    chooseData(h->kindCombo(), int(AxisKind::Values));
    QCOMPARE(h->kind(), AxisKind::Values);
    typeLine(h->valuesEdit(), QStringLiteral("0.01, 0.005 0.0025"));
    StudyAxisRow* y0 = addFieldFromMenu(ed, QStringLiteral("Initial conditions"), QStringLiteral("y0"));
    QVERIFY(y0);
    QCOMPARE(y0->kind(), AxisKind::Linspace);
    guitest::typeInto(y0->fromField(), QStringLiteral("2.5"));
    guitest::typeInto(y0->toField(), QStringLiteral("4.5 m"));
    typeSpin(y0->countSpin(), 3);
    QCOMPARE(h->preview(), QStringLiteral("3 values: 0.01, 0.005, 0.0025"));
    QCOMPARE(y0->preview(), QStringLiteral("3 values: 2.5, 3.5, 4.5"));
    QVERIFY2(ed.runsLabel()->text().startsWith(QStringLiteral("9 runs")), qPrintable(ed.runsLabel()->text()));
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    main_ = exporttest::openWindow(exporttest::freshOptions(QStringLiteral("star-floor"), false));
    QVERIFY(waitFor([&] { return main_->currentRun() != nullptr; }));
  }

  void cleanupTestCase() {
    for (StudyWindow* s : main_->findChildren<StudyWindow*>()) delete s;
    main_.reset();
  }

  void toolsMenuSeedsTheEditorFromTheRunningScenario() {
    StudyWindow* sw = openStudy(*main_);
    QVERIFY(sw);
    QVERIFY(sw->isVisible());
    const Scenario& running = main_->currentRun()->scenario;
    QCOMPARE(sw->editor()->base().system, running.system);
    QVERIFY(sw->editor()->base().initial == running.initial);
    QCOMPARE(sw->editor()->base().integrator.h, running.integrator.h);
    // The base scenario's form is the main window's generated form for the same system.
    QVERIFY(sw->editor()->baseEditor()->initialField(QStringLiteral("omega0")));
    QCOMPARE(sw->editor()->runsLabel()->text(), QStringLiteral("1 run"));
    // A field cannot be varied twice: its menu entry is disabled once it is.
    QVERIFY(addFieldFromMenu(*sw->editor(), QStringLiteral("Parameters"), QStringLiteral("m")));
    QVERIFY(!addFieldFromMenu(*sw->editor(), QStringLiteral("Parameters"), QStringLiteral("m")));
    QCOMPARE(sw->editor()->axes().size(), std::size_t(1));
    QTest::mouseClick(sw->editor()->axes().front()->removeButton(), Qt::LeftButton);
    QVERIFY(waitFor([&] { return sw->editor()->axes().empty(); }));
  }

  void buildRunAndReadThePlottedPoints() {
    StudyWindow* sw = freshStudy(3.0);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    buildGrid(ed);
    QVERIFY(runToEnd(*sw));
    const auto& results = sw->job()->results();
    QVERIFY2(results.complete, qPrintable(sw->progressLabel()->text()));
    QCOMPARE(results.table.rowCount(), std::size_t(9));
    QCOMPARE(sw->table()->model()->rowCount(), 9);

    // The same study from the command line: the window's CSV is its file, byte for byte.
    QCOMPARE(sw->saveStudy(file("grid.json")), QString());
    const Result run = cli({QStringLiteral("study"), file("grid.json"), QStringLiteral("--out"), file("grid-cli.csv"),
                             QStringLiteral("--quiet")});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    QCOMPARE(sw->exportResultsCsv(file("grid-window.csv")), QString());
    const QByteArray cliBytes = exporttest::readAll(file("grid-cli.csv"));
    QVERIFY(cliBytes.size() > 200);
    QCOMPARE(exporttest::readAll(file("grid-window.csv")), cliBytes);
    // The same through File > Export Results CSV... and its save dialog, and the study file
    // through Save Study...: the dialog's file gets the bytes.
    sw->exportCsvAction()->trigger();
    auto* csvDialog = sw->findChild<QFileDialog*>(QStringLiteral("studyCsvDialog"));
    QVERIFY(csvDialog && csvDialog->isVisible());
    QCOMPARE(csvDialog->acceptMode(), QFileDialog::AcceptSave);
    csvDialog->selectFile(file("grid-dialog.csv"));
    static_cast<QDialog*>(csvDialog)->accept();  // the Save button
    QVERIFY(waitFor([&] { return QFileInfo::exists(file("grid-dialog.csv")); }));
    QCOMPARE(exporttest::readAll(file("grid-dialog.csv")), cliBytes);
    sw->saveStudyAction()->trigger();
    auto* saveDialog = sw->findChild<QFileDialog*>(QStringLiteral("studySaveDialog"));
    QVERIFY(saveDialog && saveDialog->isVisible());
    saveDialog->selectFile(file("grid-dialog.json"));
    static_cast<QDialog*>(saveDialog)->accept();
    QVERIFY(waitFor([&] { return QFileInfo::exists(file("grid-dialog.json")); }));
    QCOMPARE(exporttest::readAll(file("grid-dialog.json")), exporttest::readAll(file("grid.json")));
    const Csv csv = parseCsv(cliBytes);
    QCOMPARE(int(csv.rows.size()), 9);

    // First figure: both axes at once, a colour map of the energy error (h varies).
    QCOMPARE(sw->metricCombo()->currentText(), QStringLiteral("max_abs_energy_rel_error"));
    QCOMPARE(sw->xCombo()->currentText(), QStringLiteral("h \u00d7 y0"));
    {
      const StudyFigure& f = sw->plot()->figure();
      QCOMPARE(f.kind, FigureKind::Map);
      QCOMPARE(f.cells.size(), std::size_t(9));
      QVERIFY(f.hasColourScale());
      const int metric = csv.column(QStringLiteral("max_abs_energy_rel_error"));
      for (const auto& cell : f.cells) {
        QVERIFY(sameValue(cell.value, csv.rows[cell.row][metric], f.logColour));
        // The cell lies at its run's (h, y0).
        const double h = csv.rows[cell.row][csv.column("h")].toDouble();
        const double y0 = csv.rows[cell.row][csv.column("y0")].toDouble();
        QVERIFY(cell.x0 < onAxis(h, f.logX) && onAxis(h, f.logX) < cell.x1);
        QVERIFY(cell.y0 < y0 && y0 < cell.y1);
      }
    }

    // A click on a cell loads its run: the run of that (h, y0) into the main window.
    {
      const StudyFigure& f = sw->plot()->figure();
      const std::size_t cell = 4;
      const std::size_t row = f.cells[cell].row;
      QTest::mouseClick(sw->plot(), Qt::LeftButton, {}, sw->plot()->cellPosition(cell).toPoint());
      Scenario expected;
      QVERIFY(ricochet::study::runScenario(*results.plan, std::int64_t(row), expected).empty());
      QVERIFY(waitFor([&] { return ricochet::io::sameScenario(main_->currentRun()->scenario, expected); }));
      QCOMPARE(sw->plot()->highlightedRow(), std::optional<std::size_t>(row));
    }

    // The metric against h: one line per y0, points at the CLI's numbers.
    chooseIndex(sw->xCombo(), 0);
    QCOMPARE(sw->xCombo()->currentText(), QStringLiteral("h"));
    chooseIndex(sw->metricCombo(), sw->metricCombo()->findText(QStringLiteral("first_impact_t")));
    QCOMPARE(sw->metricCombo()->currentText(), QStringLiteral("first_impact_t"));
    {
      const StudyFigure& f = sw->plot()->figure();
      QCOMPARE(f.kind, FigureKind::Lines);
      QCOMPARE(f.series.size(), std::size_t(3));
      QCOMPARE(f.pointCount(), std::size_t(9));
      QCOMPARE(f.hidden, std::size_t(0));
      QCOMPARE(f.series[0].name, QStringLiteral("y0 = 2.5"));
      QCOMPARE(f.series[2].name, QStringLiteral("y0 = 4.5"));
      const int metric = csv.column(QStringLiteral("first_impact_t"));
      for (const auto& series : f.series) {
        QVERIFY(series.joined);
        for (std::size_t i = 0; i < series.points.size(); ++i) {
          const auto& p = series.points[i];
          const QStringList& row = csv.rows[p.row];
          QVERIFY(sameValue(p.x, row[csv.column("h")], f.logX));
          QVERIFY(sameValue(p.y, row[metric], f.logY));
          QCOMPARE(row[csv.column("y0")].toDouble(), series.name.mid(5).toDouble());
          if (i > 0) QVERIFY(series.points[i - 1].x < p.x);  // joined in x order
        }
      }
      // Higher drops take longer to land: the series of y0 = 4.5 lies above that of 2.5.
      QVERIFY(f.series[2].points[0].y > f.series[0].points[0].y);
    }
    // Log y on: the same points in log10.
    QTest::mouseClick(sw->logYCheck(), Qt::LeftButton);
    QVERIFY(sw->logYCheck()->isChecked());
    {
      const StudyFigure& f = sw->plot()->figure();
      QVERIFY(f.logY);
      const auto& p = f.series[1].points[1];
      QVERIFY(sameValue(p.y, csv.rows[p.row][csv.column("first_impact_t")], true));
    }
    saveScreenshot(*sw, QStringLiteral("study-grid-lines"));
    chooseIndex(sw->xCombo(), 2);
    chooseIndex(sw->metricCombo(), sw->metricCombo()->findText(QStringLiteral("max_abs_energy_rel_error")));
    saveScreenshot(*sw, QStringLiteral("study-grid-map"));

    // The saved file reads back into the editor as the same study.
    QCOMPARE(sw->openStudy(file("grid.json")), QString());
    QString error;
    const auto reread = sw->editor()->customStudy(&error);
    QVERIFY2(reread, qPrintable(error));
    QCOMPARE(reread->vary.size(), std::size_t(2));
    QCOMPARE(reread->vary[0].numbers, (std::vector<double>{0.01, 0.005, 0.0025}));
    QCOMPARE(reread->vary[1].kind, AxisKind::Linspace);
    QCOMPARE(reread->base.tEnd, 3.0);
  }

  void randomDrawsAreAScatter() {
    StudyWindow* sw = freshStudy(2.0);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    StudyAxisRow* y0 = addFieldFromMenu(ed, QStringLiteral("Initial conditions"), QStringLiteral("y0"));
    QVERIFY(y0);
    chooseData(y0->kindCombo(), int(AxisKind::Perturb));
    guitest::typeInto(y0->sdField(), QStringLiteral("0.25"));
    typeSpin(y0->countSpin(), 12);
    typeSpin(ed.seedSpin(), 7);
    QVERIFY2(y0->preview().startsWith(QStringLiteral("12 draws: ")), qPrintable(y0->preview()));
    QVERIFY(runToEnd(*sw));
    QVERIFY(sw->job()->results().complete);
    const StudyFigure& f = sw->plot()->figure();
    QCOMPARE(f.kind, FigureKind::Scatter);
    QCOMPARE(f.pointCount(), std::size_t(12));
    QVERIFY(!f.series.front().joined);
    QCOMPARE(f.subtitle, QStringLiteral("12 runs, y0 (12 draws), seed 7"));
    // Impacts are counts: the ticks of the vertical axis are whole numbers.
    QVERIFY(f.yWhole);
    const FigureGeometry g(f, QSizeF(sw->plot()->size()), 1.0);
    for (const auto& t : g.yTicks()) QCOMPARE(t.value, std::round(t.value));
    // Seeded draws: the command line draws the same twelve, and writes the same file.
    QCOMPARE(sw->saveStudy(file("draws.json")), QString());
    QVERIFY(cli({QStringLiteral("study"), file("draws.json"), QStringLiteral("--out"), file("draws-cli.csv"),
                    QStringLiteral("--quiet"), QStringLiteral("--jobs"), QStringLiteral("1")})
                .exitCode == 0);
    QCOMPARE(sw->exportResultsCsv(file("draws-window.csv")), QString());
    QCOMPARE(exporttest::readAll(file("draws-window.csv")), exporttest::readAll(file("draws-cli.csv")));
    const Csv csv = parseCsv(exporttest::readAll(file("draws-cli.csv")));
    for (const auto& p : f.series.front().points) {
      QCOMPARE(p.x, csv.rows[p.row][csv.column("y0")].toDouble());
    }
    saveScreenshot(*sw, QStringLiteral("study-draws-scatter"));
  }

  void clickingARowOrAPointLoadsThatRun() {
    StudyWindow* sw = freshStudy(2.0);
    QVERIFY(sw);
    StudyAxisRow* h = addFieldFromMenu(*sw->editor(), QStringLiteral("Integrator"), QStringLiteral("h"));
    QVERIFY(h);
    chooseData(h->kindCombo(), int(AxisKind::Values));
    typeLine(h->valuesEdit(), QStringLiteral("0.01, 0.004, 0.002"));
    StudyAxisRow* w0 = addFieldFromMenu(*sw->editor(), QStringLiteral("Initial conditions"), QStringLiteral("omega0"));
    QVERIFY(w0);
    chooseData(w0->kindCombo(), int(AxisKind::Values));
    typeLine(w0->valuesEdit(), QStringLiteral("1, 3"));
    QVERIFY(runToEnd(*sw));
    const auto& results = sw->job()->results();
    QVERIFY(results.complete);

    // Row 3 of the table (run 3: h = 0.004, omega0 = 3).
    QTableView* table = sw->table();
    const QRect rect = table->visualRect(table->model()->index(3, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
    QVERIFY(waitFor([&] { return main_->currentRun() && main_->currentRun()->scenario.integrator.h == 0.004; }));
    Scenario expected;
    QVERIFY(ricochet::study::runScenario(*results.plan, 3, expected).empty());
    const Scenario& loaded = main_->currentRun()->scenario;
    QVERIFY(ricochet::io::sameScenario(loaded, expected));
    QCOMPARE(loaded.tEnd, 2.0);
    QCOMPARE(main_->editor()->initialField(QStringLiteral("omega0"))->value(), 3.0);
    QCOMPARE(sw->plot()->highlightedRow(), std::optional<std::size_t>(3));

    // A point of the plot: the metric against h, the series of omega0 = 1, its finest h.
    chooseIndex(sw->xCombo(), 0);
    const StudyFigure& f = sw->plot()->figure();
    QCOMPARE(f.series.size(), std::size_t(2));
    const auto& point = f.series[0].points.front();  // sorted by h: 0.002
    const QPointF at = sw->plot()->pointPosition(0, 0);
    QTest::mouseClick(sw->plot(), Qt::LeftButton, {}, at.toPoint());
    QVERIFY(waitFor([&] { return main_->currentRun() && main_->currentRun()->scenario.integrator.h == 0.002; }));
    QVERIFY(ricochet::study::runScenario(*results.plan, std::int64_t(point.row), expected).empty());
    QVERIFY(ricochet::io::sameScenario(main_->currentRun()->scenario, expected));
    // The table follows the click.
    QCOMPARE(sw->table()->selectionModel()->selectedRows().size(), 1);
    QCOMPARE(sw->plot()->highlightedRow(), std::optional<std::size_t>(point.row));
  }

  void cancelStopsTheRunsAndExportsNothing() {
    StudyWindow* sw = freshStudy(400.0);
    QVERIFY(sw);
    StudyAxisRow* y0 = addFieldFromMenu(*sw->editor(), QStringLiteral("Initial conditions"), QStringLiteral("y0"));
    QVERIFY(y0);
    typeSpin(y0->countSpin(), 400);
    StudyAxisRow* h = addFieldFromMenu(*sw->editor(), QStringLiteral("Integrator"), QStringLiteral("h"));
    QVERIFY(h);
    chooseData(h->kindCombo(), int(AxisKind::Values));
    typeLine(h->valuesEdit(), QStringLiteral("0.001"));
    QTest::mouseClick(sw->runButton(), Qt::LeftButton);
    QVERIFY(sw->job()->isRunning());
    QVERIFY(!sw->runButton()->isEnabled());
    QVERIFY(waitFor([&] { return sw->job()->results().table.rowCount() >= 1; }, 60000));
    QVERIFY(sw->progressBar()->maximum() == 400);
    bool ended = false;
    connect(sw, &StudyWindow::studyFinished, this, [&] { ended = true; });
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(sw->cancelButton(), Qt::LeftButton);
    QVERIFY(waitFor([&] { return ended; }, 20000));
    qInfo("cancelled within %lld ms", static_cast<long long>(clock.elapsed()));
    const auto& r = sw->job()->results();
    QVERIFY(r.cancelled);
    QVERIFY(!r.complete);
    QVERIFY(r.table.rowCount() < 400);
    QVERIFY(sw->progressLabel()->text().startsWith(QStringLiteral("Cancelled after")));
    QVERIFY(!sw->exportCsvAction()->isEnabled());
    QVERIFY(sw->runButton()->isEnabled());
    QVERIFY(!sw->exportResultsCsv(file("cancelled.csv")).isEmpty());
    QVERIFY(!QFile::exists(file("cancelled.csv")));
    exporttest::closeBoxes(*sw);
  }

  void refusalsNameTheValue() {
    StudyWindow* sw = freshStudy(2.0);
    QVERIFY(sw);
    StudyEditor& ed = *sw->editor();
    // A bound out of the field's range is refused in the row, as in the scenario editor.
    StudyAxisRow* m = addFieldFromMenu(ed, QStringLiteral("Parameters"), QStringLiteral("m"));
    QVERIFY(m);
    guitest::typeInto(m->fromField(), QStringLiteral("-1"));
    QVERIFY(m->fromField()->hasError());
    QVERIFY2(ed.runsLabel()->text().contains(QStringLiteral("'m' = -1")), qPrintable(ed.runsLabel()->text()));
    QTest::mouseClick(sw->runButton(), Qt::LeftButton);
    QVERIFY(!sw->job()->isRunning());
    QVERIFY(sw->progressLabel()->text().contains(QStringLiteral("'m' = -1")));
    QTest::mouseClick(m->removeButton(), Qt::LeftButton);
    QVERIFY(waitFor([&] { return ed.axes().empty(); }));
    // An inadmissible run is named with its run once every run is checked.
    StudyAxisRow* y0 = addFieldFromMenu(ed, QStringLiteral("Initial conditions"), QStringLiteral("y0"));
    QVERIFY(y0);
    chooseData(y0->kindCombo(), int(AxisKind::Values));
    typeLine(y0->valuesEdit(), QStringLiteral("3.5 -5"));
    QVERIFY(ed.runsLabel()->text().startsWith(QStringLiteral("2 runs")));
    QVERIFY(runToEnd(*sw));
    const QString shown = sw->progressLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("run 1")) && shown.contains(QStringLiteral("y0 = -5")), qPrintable(shown));
    QVERIFY(!sw->job()->results().error.isEmpty());
    QCOMPARE(sw->job()->results().table.rowCount(), std::size_t(0));
    QVERIFY(!sw->exportCsvAction()->isEnabled());
    // The base form refuses an inadmissible base state and keeps the base it has.
    QTabBar* tabs = ed.tabs()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    QCOMPARE(ed.tabs()->currentIndex(), 1);
    guitest::typeInto(ed.baseEditor()->initialField(QStringLiteral("y0")), QStringLiteral("-3"));
    QVERIFY(!ed.baseEditor()->messageFor(ed.baseEditor()->initialField(QStringLiteral("y0"))).isEmpty());
    QCOMPARE(ed.base().initial[1], 3.5);
  }

  void figureExportsAndScreenshots() {
    StudyWindow* sw = freshStudy(3.0);
    QVERIFY(sw);
    buildGrid(*sw->editor());
    QVERIFY(runToEnd(*sw));
    QVERIFY(sw->exportFigureAction()->isEnabled());
    FigureExportRequest png{FigureFormat::Png, file("grid.png"), QSize(1200, 800)};
    QCOMPARE(sw->exportFigure(png), QString());
    const QImage image(file("grid.png"));
    QCOMPARE(image.size(), QSize(1200, 800));
    QVERIFY(guitest::greyVariance(image) > 50.0);
    FigureExportRequest svg{FigureFormat::Svg, file("grid.svg"), QSize(1000, 700)};
    QCOMPARE(sw->exportFigure(svg), QString());
    const QByteArray text = exporttest::readAll(file("grid.svg"));
    QVERIFY(text.contains("<svg"));
    QVERIFY(text.contains("max_abs_energy_rel_error"));
    QVERIFY(text.contains("width=\"1000\""));
    // A refused export names the file and writes nothing.
    FigureExportRequest bad{FigureFormat::Png, file("missing/dir/grid.png"), QSize(800, 500)};
    QVERIFY(sw->exportFigure(bad).contains(QStringLiteral("grid.png")));
    exporttest::closeBoxes(*sw);
    const QString shot = saveScreenshot(*sw, QStringLiteral("study-window"));
    QVERIFY(guitest::greyVariance(QImage(shot)) > 50.0);
  }
};

int main(int argc, char** argv) { return guitest::runSuite<TestGuiStudy>(argc, argv, "test_gui_study"); }

#include "test_gui_study.moc"
