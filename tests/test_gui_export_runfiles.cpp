// The window's HDF5 and ParaView exports (File > Export HDF5 Run..., File > Export ParaView
// Series...), driven through the real File menu and its dialog: the file and the series are byte
// for byte what `ricochet-cli run SAVED.json --steps N --h5 / --pvd` writes for the scenario the
// window saved; the HDF5 file's last row is the paused window's state; cancel leaves no series and
// no temporary folder; a folder of other files is refused with a message naming the file.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_export_runfiles

#include "test_gui_export_support.hpp"

#include "app/desktop/export/export_csv.hpp"
#include "io/hdf5/run_file_reader.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace exporttest;
using namespace guitest;
using ricochet::app::CsvExporter;
using ricochet::app::CsvExportRequest;
using ricochet::io::RunOutcome;

namespace {

CsvExporter* exporter(MainWindow& w) {
  return w.fileActions()->csv();
}

// The entry of the window's File menu with this object name (nullptr when it is not there).
QAction* fileMenuEntry(MainWindow& w, const QString& name) {
  for (QAction* menu : w.menuBar()->actions()) {
    if (!menu->menu() || menu->text().remove(QLatin1Char('&')) != QStringLiteral("File")) continue;
    for (QAction* a : menu->menu()->actions()) {
      if (a->objectName() == name) return a;
    }
  }
  return nullptr;
}

// Runs the live simulation at 10x until `impacts` impacts happened, then pauses it.
bool runUntilImpacts(MainWindow& w, long long impacts) {
  w.speedCombo()->setCurrentIndex(w.speedCombo()->findText(QStringLiteral("10\u00d7")));
  if (!waitFor([&] { return w.lastSnapshot() && w.lastSnapshot()->impacts >= impacts; }, 30000))
    return false;
  if (w.lastSnapshot()->running) w.playAction()->trigger();
  return waitFor([&] { return w.lastSnapshot() && !w.lastSnapshot()->running; });
}

// Every file of `a` equals the file of that name in `b`, and they hold the same names.
bool sameFolders(const QString& a, const QString& b, QString& why) {
  const QStringList files = QDir(a).entryList(QDir::Files | QDir::Hidden, QDir::Name);
  if (files != QDir(b).entryList(QDir::Files | QDir::Hidden, QDir::Name) || files.isEmpty()) {
    why = QStringLiteral("different file names");
    return false;
  }
  for (const QString& f : files) {
    if (readAll(a + QLatin1Char('/') + f) != readAll(b + QLatin1Char('/') + f)) {
      why = f + QStringLiteral(" differs");
      return false;
    }
  }
  return true;
}

}  // namespace

class TestGuiExportRunFiles : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QVERIFY2(QFileInfo::exists(cliPath()), qPrintable(cliPath())); }
  void init() { QSettings().clear(); }

  // File > Export HDF5 Run...: the dialog opens with only the HDF5 file ticked, up to the current
  // step; its file is the CLI's, byte for byte, and its last row the paused window's state.
  void hdf5ExportIsTheCliFile() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("cube-plane")));
    QVERIFY(runUntilImpacts(*w, 2));
    const auto snap = w->lastSnapshot();
    const QString scenario = dir.filePath(QStringLiteral("cube.json"));
    QCOMPARE(w->fileActions()->scenarios()->saveTo(scenario), QString());

    QAction* entry = fileMenuEntry(*w, QStringLiteral("exportHdf5Action"));
    QVERIFY(entry && entry == w->fileActions()->exportHdf5Action() && entry->isEnabled());
    entry->trigger();
    auto* dialog = exporter(*w)->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(dialog->hdf5Box()->isChecked() && dialog->hdf5Path()->isEnabled());
    QVERIFY(!dialog->traceBox()->isChecked() && !dialog->impactsBox()->isChecked() &&
            !dialog->paraviewBox()->isChecked());
    QCOMPARE(dialog->stepsEdit()->text(), QString::number(snap->step));
    const QString gui = dir.filePath(QStringLiteral("gui.h5"));
    dialog->hdf5Path()->setText(gui);
    QSignalSpy done(exporter(*w), &CsvExporter::finished);
    dialog->accept();
    QVERIFY(waitFor([&] { return done.count() == 1; }, 60000));
    QCOMPARE(exporter(*w)->task()->summary().outcome, RunOutcome::Completed);
    QVERIFY2(w->statusBar()->currentMessage().contains(QStringLiteral("gui.h5")),
             qPrintable(w->statusBar()->currentMessage()));

    const Result fromCli = cli({QStringLiteral("run"), scenario, QStringLiteral("--steps"),
                            QString::number(snap->step), QStringLiteral("--h5"),
                            dir.filePath(QStringLiteral("cli.h5"))});
    QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
    const QByteArray bytes = readAll(gui);
    QVERIFY(bytes.size() > 1000);
    QVERIFY(bytes == readAll(dir.filePath(QStringLiteral("cli.h5"))));

    const auto read = ricochet::hdf5::readRunFile(gui.toStdString());
    QVERIFY2(read.ok(), read.error.c_str());
    QCOMPARE(std::int64_t(read.run->trace.rows()), snap->step + 1);
    QCOMPARE(read.run->trace.column("t")->back(), snap->t);
    QCOMPARE(read.run->trace.column("energy")->back(), snap->energy.total());
    QCOMPARE(std::int64_t(read.run->impacts.rows()), std::int64_t(snap->impacts));
    QVERIFY(ricochet::io::sameScenario(read.run->scenario, w->currentRun()->scenario));
  }

  // File > Export ParaView Series... with every 5th step: the series is the CLI's, file by file.
  void paraviewExportIsTheCliSeries() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(runUntilImpacts(*w, 2));
    const auto snap = w->lastSnapshot();
    const QString scenario = dir.filePath(QStringLiteral("particle.json"));
    QCOMPARE(w->fileActions()->scenarios()->saveTo(scenario), QString());

    QAction* entry = fileMenuEntry(*w, QStringLiteral("exportParaViewAction"));
    QVERIFY(entry && entry == w->fileActions()->exportParaViewAction());
    entry->trigger();
    auto* dialog = exporter(*w)->dialog();
    QVERIFY(dialog && dialog->paraviewBox()->isChecked() && !dialog->hdf5Box()->isChecked());
    QVERIFY(!dialog->traceBox()->isChecked() && !dialog->impactsBox()->isChecked());
    const QString gui = dir.filePath(QStringLiteral("gui-series"));
    dialog->paraviewPath()->setText(gui);
    dialog->everySpin()->setValue(5);
    QSignalSpy done(exporter(*w), &CsvExporter::finished);
    dialog->accept();
    QVERIFY(waitFor([&] { return done.count() == 1; }, 60000));
    QCOMPARE(exporter(*w)->task()->summary().outcome, RunOutcome::Completed);

    const QString cliSeries = dir.filePath(QStringLiteral("cli-series"));
    const Result fromCli = cli({QStringLiteral("run"), scenario, QStringLiteral("--steps"),
                            QString::number(snap->step), QStringLiteral("--every"),
                            QStringLiteral("5"), QStringLiteral("--pvd"), cliSeries});
    QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
    QString why;
    QVERIFY2(sameFolders(gui, cliSeries, why), qPrintable(why));
    const std::int64_t n = snap->step;
    QCOMPARE(std::int64_t(QDir(gui).entryList(QDir::Files).size()),
             1 + 1 + n / 5 + (n % 5 ? 1 : 0));
    // Nothing else beside the two series and the scenario (no temporary folder left).
    QCOMPARE(QDir(dir.path())
                 .entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name),
             (QStringList{QStringLiteral("cli-series"), QStringLiteral("gui-series"),
                          QStringLiteral("particle.json")}));
  }

  // Cancel through the progress window: no series and no temporary folder; the live view runs on.
  void cancelLeavesNoSeries() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->t > 0.05; }));
    CsvExportRequest r;
    r.scenario = w->currentRun()->scenario;
    r.steps = 200'000'000;  // it must be cancelled to end
    r.every = 100'000;
    r.paraview = dir.filePath(QStringLiteral("series"));
    r.hdf5 = dir.filePath(QStringLiteral("run.h5"));
    QSignalSpy done(exporter(*w), &CsvExporter::finished);
    QCOMPARE(exporter(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return exporter(*w)->task()->stepsDone() > 100000; }));
    QCOMPARE(
        QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot).size(),
        2);  // temporaries
    QVERIFY(waitFor([&] { return exporter(*w)->progressDialog()->isVisible(); }));
    QPushButton* cancel = exporter(*w)->progressDialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(waitFor([&] { return done.count() == 1; }, 10000));
    QCOMPARE(exporter(*w)->task()->summary().outcome, RunOutcome::Cancelled);
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList());
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
  }

  // A folder holding other files is refused before anything runs: one message naming the file,
  // the folder untouched.
  void folderOfOtherFilesIsRefused() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->step > 10; }));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("mine")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("mine/notes.txt")), "keep me\n"));
    w->fileActions()->exportParaViewAction()->trigger();
    auto* dialog = exporter(*w)->dialog();
    QVERIFY(dialog);
    dialog->paraviewPath()->setText(dir.filePath(QStringLiteral("mine")));
    dialog->accept();
    int boxes = 0;
    const QString text = waitForBoxText(*w, &boxes);
    QCOMPARE(boxes, 1);
    QVERIFY2(text.contains(QStringLiteral("'notes.txt'")) &&
                 text.contains(dir.filePath(QStringLiteral("mine"))),
             qPrintable(text));
    closeBoxes(*w);
    QVERIFY(!exporter(*w)->task()->isRunning());
    QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("mine")});
    QCOMPARE(readAll(dir.filePath(QStringLiteral("mine/notes.txt"))), QByteArray("keep me\n"));
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiExportRunFiles>(argc, argv, "test_gui_export_runfiles");
}

#include "test_gui_export_runfiles.moc"
