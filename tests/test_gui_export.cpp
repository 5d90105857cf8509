// Exports from the desktop app (CSV, animation and plots): a scenario saved from the GUI
// and run by `ricochet-cli run FILE --csv` gives byte for byte the GUI's own CSV export; the CSV
// files' contents (contract header, row count, the last row is the live run's current state);
// cancel leaves no file; a failed run is exported up to its failure, as the CLI does.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_export

#include "test_gui_export_support.hpp"

#include "app/desktop/export/export_animation.hpp"
#include "app/desktop/export/export_csv.hpp"
#include "core/io/scenario_io.hpp"
#include "core/io/trace.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QStandardItemModel>
#include <QDir>
#include <QLineEdit>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace exporttest;
using namespace guitest;
using ricochet::app::AnimationExporter;
using ricochet::app::AnimationExportTask;
using ricochet::app::AnimationFormat;
using ricochet::app::AnimationRequest;
using ricochet::app::CsvExporter;
using ricochet::app::CsvExportRequest;
using ricochet::io::RunOutcome;

namespace {

CsvExporter* csv(MainWindow& w) { return w.fileActions()->csv(); }
AnimationExporter* animation(MainWindow& w) { return w.fileActions()->animation(); }

// ffprobe's view of a video: stream and format entries as key -> value.
QMap<QString, QString> probe(const QString& file) {
  QProcess p;
  p.start(QStringLiteral("/usr/bin/ffprobe"),
          {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-count_frames"),
           QStringLiteral("-show_entries"), QStringLiteral("stream=codec_name,nb_read_frames,width,height,r_frame_rate"),
           QStringLiteral("-show_entries"), QStringLiteral("format=duration"), file});
  QMap<QString, QString> r;
  if (!p.waitForFinished(30000) || p.exitCode() != 0) return r;
  for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
    const qsizetype eq = line.indexOf('=');
    if (eq > 0) r.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
  }
  return r;
}

// Fills the animation dialog for a small, short export.
void fillAnimationDialog(ricochet::app::AnimationExportDialog& d, AnimationFormat format, const QString& path,
                         int width, int height, int fps, double duration) {
  d.setFormat(format);
  d.pathEdit()->setText(path);
  d.sizeCombo()->setCurrentIndex(d.sizeCombo()->count() - 1);  // Custom
  d.widthSpin()->setValue(width);
  d.heightSpin()->setValue(height);
  d.fpsSpin()->setValue(fps);
  d.durationSpin()->setValue(duration);
  d.speedSpin()->setValue(1.0);
}

// Pauses the live run and waits until the pause is on screen.
bool pause(MainWindow& w) {
  if (w.lastSnapshot() && w.lastSnapshot()->running) w.playAction()->trigger();
  return waitFor([&] { return w.lastSnapshot() && !w.lastSnapshot()->running; });
}

// Runs `request` through the window's exporter and waits for its end.
ricochet::io::RunSummary exportNow(MainWindow& w, const CsvExportRequest& request, int ms = 60000) {
  QSignalSpy done(csv(w), &CsvExporter::finished);
  const QString error = csv(w)->start(request);
  if (!error.isEmpty()) {
    ricochet::io::RunSummary s;
    s.outcome = RunOutcome::InvalidOptions;
    s.message = error.toStdString();
    return s;
  }
  waitFor([&] { return done.count() > 0; }, ms);
  return csv(w)->task()->summary();
}

struct Csv {
  QStringList header;
  std::vector<QStringList> rows;
};
Csv parseCsv(const QByteArray& bytes) {
  Csv c;
  const QList<QByteArray> lines = bytes.split('\n');
  for (qsizetype i = 0; i < lines.size(); ++i) {
    if (lines[i].isEmpty()) continue;
    const QStringList fields = QString::fromUtf8(lines[i]).split(QLatin1Char(','));
    if (c.header.isEmpty()) {
      c.header = fields;
    } else {
      c.rows.push_back(fields);
    }
  }
  return c;
}

QStringList expectedHeader(const ricochet::Scenario& s) {
  QStringList h;
  for (const char* c : ricochet::io::kTraceRequiredColumns) h << QString::fromLatin1(c);
  auto sim = ricochet::createSimulation(s).simulation;
  for (const std::string& c : sim->columns()) h << QString::fromStdString(c);
  return h;
}

QStringList fileNames(const QString& dir) {
  return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestGuiExport : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (ricochet::systems().empty()) QSKIP("no system registered");
    QVERIFY2(QFileInfo::exists(cliPath()), qPrintable(cliPath()));
  }
  void init() { QSettings().clear(); }

  // For every system, a scenario saved from the GUI and run with
  // `ricochet-cli run FILE --steps N --csv --impacts-csv` gives byte-identical files to the GUI's
  // export of the same N steps, and the export's last row is the live run's state at step N
  // (same t and energy bit for bit: the export re-runs the deterministic scenario).
  void savedScenarioRunByTheCliEqualsTheGuiExport() {
    QTemporaryDir dir;
    for (const auto* system : ricochet::systems()) {
      const QString id = QString::fromStdString(system->info().id);
      auto w = openWindow(freshOptions(id));
      // 10x until two impacts happened, so the impacts files have rows too.
      w->speedCombo()->setCurrentIndex(w->speedCombo()->findText(QStringLiteral("10\u00d7")));
      QCOMPARE(w->speedCombo()->currentText(), QStringLiteral("10\u00d7"));
      QVERIFY2(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->impacts >= 2; }, 30000),
               qPrintable(id));
      QVERIFY(pause(*w));
      const auto snap = w->lastSnapshot();
      const std::int64_t n = snap->step;
      const QString base = dir.filePath(id);
      QCOMPARE(w->fileActions()->scenarios()->saveTo(base + QStringLiteral(".json")), QString());

      CsvExportRequest r;
      r.scenario = w->currentRun()->scenario;
      r.steps = n;
      r.traceCsv = base + QStringLiteral("-gui.csv");
      r.impactsCsv = base + QStringLiteral("-gui-impacts.csv");
      const auto summary = exportNow(*w, r);
      QVERIFY2(summary.ok(), summary.message.c_str());
      QCOMPARE(summary.steps, n);

      const Result fromCli = cli({QStringLiteral("run"), base + QStringLiteral(".json"), QStringLiteral("--steps"),
                              QString::number(n), QStringLiteral("--csv"), base + QStringLiteral("-cli.csv"),
                              QStringLiteral("--impacts-csv"), base + QStringLiteral("-cli-impacts.csv")});
      QVERIFY2(fromCli.exitCode == 0, qPrintable(fromCli.err));
      const QByteArray gui = readAll(r.traceCsv);
      QVERIFY2(gui == readAll(base + QStringLiteral("-cli.csv")), qPrintable(id));
      QVERIFY2(readAll(r.impactsCsv) == readAll(base + QStringLiteral("-cli-impacts.csv")), qPrintable(id));

      // Contents: the contract header, one row per step plus the initial state, the last row
      // being what the paused window shows.
      const Csv c = parseCsv(gui);
      QCOMPARE(c.header, expectedHeader(r.scenario));
      QCOMPARE(std::int64_t(c.rows.size()), n + 1);
      QCOMPARE(c.rows.front().value(0), QStringLiteral("0"));
      const QStringList& last = c.rows.back();
      QCOMPARE(last.value(0).toLongLong(), n);
      QCOMPARE(last.value(1).toDouble(), snap->t);
      QCOMPARE(last.value(2).toDouble(), snap->energy.total());
      QCOMPARE(last.value(6).toLongLong(), snap->impacts);
      const Csv impacts = parseCsv(readAll(r.impactsCsv));
      QCOMPARE(impacts.header.join(QLatin1Char(',')),
               QStringLiteral("step,t,alpha,constraint,energy_before,energy_after,impulse,reflected") +
                   (id == QStringLiteral("bodies") ? QStringLiteral(",body_a,body_b") : QString()));
      QCOMPARE(std::int64_t(impacts.rows.size()), snap->impacts);
      qInfo("%s: %lld steps, %lld impacts, trace %lld bytes: GUI export == ricochet-cli run",
            qPrintable(id), (long long)n, (long long)snap->impacts, (long long)gui.size());
    }
  }

  // The dialog (File > Export Trace CSV...) defaults to the current step; "every K" thins the
  // trace (the final state always recorded); the live run keeps going during the export.
  void dialogExportsUpToTheCurrentStep() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->step >= 50; }));
    QVERIFY(pause(*w));
    const auto snap = w->lastSnapshot();
    w->fileActions()->exportTraceAction()->trigger();
    auto* dialog = csv(*w)->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->stepsEdit()->text(), QString::number(snap->step));
    QVERIFY(dialog->traceBox()->isChecked());
    dialog->tracePath()->setText(dir.filePath(QStringLiteral("t.csv")));
    dialog->impactsBox()->setChecked(false);
    dialog->everySpin()->setValue(7);
    w->playAction()->trigger();  // the live run goes on meanwhile
    QSignalSpy done(csv(*w), &CsvExporter::finished);
    dialog->accept();
    QVERIFY(waitFor([&] { return done.count() == 1; }, 30000));
    QCOMPARE(csv(*w)->task()->summary().outcome, RunOutcome::Completed);
    QCOMPARE(fileNames(dir.path()), QStringList{QStringLiteral("t.csv")});  // no impacts file
    const Csv c = parseCsv(readAll(dir.filePath(QStringLiteral("t.csv"))));
    const std::int64_t n = snap->step;
    QCOMPARE(std::int64_t(c.rows.size()), 1 + n / 7 + (n % 7 ? 1 : 0));
    QCOMPARE(c.rows.back().value(0).toLongLong(), n);
    QCOMPARE(c.rows.back().value(1).toDouble(), snap->t);
    QCOMPARE(c.rows[1].value(0), QStringLiteral("7"));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("t.csv")));
    QVERIFY(waitForTimeBeyond(*w, snap->t + 0.05));

    // An impossible request is refused in the dialog, with the reason beside the fields.
    w->fileActions()->exportImpactsAction()->trigger();
    dialog = csv(*w)->dialog();
    QVERIFY(dialog && !dialog->traceBox()->isChecked() && dialog->impactsBox()->isChecked());
    dialog->impactsPath()->setText(dir.filePath(QStringLiteral("no/such/folder/i.csv")));
    dialog->accept();
    QVERIFY(dialog->isVisible());
    QVERIFY(dialog->findChild<QLabel*>(QStringLiteral("csvError"))->text().contains(QStringLiteral("does not exist")));
    dialog->reject();
  }

  // Cancel: the export stops, no file (not even a temporary one) is left, and an existing file
  // of that name is untouched. The live run is not disturbed.
  void cancelLeavesNoFile() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    const QString trace = dir.filePath(QStringLiteral("trace.csv"));
    QVERIFY(writeFile(trace, "previous content\n"));
    CsvExportRequest r;
    r.scenario = w->currentRun()->scenario;
    r.steps = 200'000'000;  // minutes of work: it must be cancelled to end
    r.traceCsv = trace;
    r.impactsCsv = dir.filePath(QStringLiteral("impacts.csv"));
    QSignalSpy done(csv(*w), &CsvExporter::finished);
    const double t0 = w->lastSnapshot()->t;
    QCOMPARE(csv(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return csv(*w)->task()->stepsDone() > 100000; }));
    QVERIFY(waitFor([&] { return csv(*w)->progressDialog()->isVisible(); }));
    QVERIFY(csv(*w)->progressDialog()->value() >= 0);
    // Temporary files exist while it runs (".trace.csv.tmp-..."), next to the targets.
    QVERIFY(fileNames(dir.path()).size() == 3);
    QVERIFY(waitForTimeBeyond(*w, t0 + 0.05));  // the live view keeps running
    QPushButton* cancel = csv(*w)->progressDialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);  // the dialog's Cancel button
    QVERIFY(waitFor([&] { return done.count() == 1; }, 10000));
    QCOMPARE(csv(*w)->task()->summary().outcome, RunOutcome::Cancelled);
    QCOMPARE(fileNames(dir.path()), QStringList{QStringLiteral("trace.csv")});
    QCOMPARE(readAll(trace), QByteArray("previous content\n"));
    QVERIFY(!csv(*w)->progressDialog()->isVisible());
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("cancelled")));
  }

  // A run that failed (a Newton solve below the round-off floor fails on step 1) is exported up
  // to the failure, exactly as `ricochet-cli run` writes it (exit code 3).
  void failedRunIsExportedUpToTheFailureAsTheCliDoes() {
    const QString id = QStringLiteral("ellipsoid-plane");
    if (!ricochet::findSystem(id.toStdString())) QSKIP("ellipsoid-plane not registered");
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(id));
    QVERIFY(waitForTimeBeyond(*w, 0.02));
    typeInto(w->editor()->settingField(QStringLiteral("tolerance")), QStringLiteral("1e-300"));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && !w->lastSnapshot()->failure.isEmpty(); }));
    QCOMPARE(w->lastSnapshot()->step, std::int64_t(0));
    const QString scenario = dir.filePath(QStringLiteral("failing.json"));
    QCOMPARE(w->fileActions()->scenarios()->saveTo(scenario), QString());

    w->fileActions()->exportTraceAction()->trigger();
    auto* dialog = csv(*w)->dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->stepsEdit()->text(), QStringLiteral("1"));  // up to and including the failing step
    dialog->tracePath()->setText(dir.filePath(QStringLiteral("gui.csv")));
    dialog->impactsPath()->setText(dir.filePath(QStringLiteral("gui-impacts.csv")));
    QSignalSpy done(csv(*w), &CsvExporter::finished);
    dialog->accept();
    QVERIFY(waitFor([&] { return done.count() == 1; }));
    const auto summary = csv(*w)->task()->summary();
    QCOMPARE(summary.outcome, RunOutcome::IntegratorFailed);
    QVERIFY2(QString::fromStdString(summary.message).contains(QStringLiteral("step 1")), summary.message.c_str());
    int boxes = 0;
    QVERIFY(waitForBoxText(*w, &boxes).contains(QStringLiteral("step 1")));
    QCOMPARE(boxes, 1);
    closeBoxes(*w);

    const Result fromCli = cli({QStringLiteral("run"), scenario, QStringLiteral("--csv"), dir.filePath(QStringLiteral("cli.csv")),
                            QStringLiteral("--impacts-csv"), dir.filePath(QStringLiteral("cli-impacts.csv"))});
    QCOMPARE(fromCli.exitCode, 3);
    QCOMPARE(readAll(dir.filePath(QStringLiteral("gui.csv"))), readAll(dir.filePath(QStringLiteral("cli.csv"))));
    QCOMPARE(readAll(dir.filePath(QStringLiteral("gui-impacts.csv"))),
             readAll(dir.filePath(QStringLiteral("cli-impacts.csv"))));
    QCOMPARE(parseCsv(readAll(dir.filePath(QStringLiteral("gui.csv")))).rows.size(), std::size_t(1));
  }

  // Animation export: a 1 s GIF at 10 frames/s and 160 x 120 through the dialog,
  // checked with ffprobe (frames, size, rate, duration: frames rendered on the simulation clock);
  // the live view keeps running meanwhile.
  void animationGifIsWhatWasAskedFor() {
    if (!ricochet::app::ffmpegAvailable()) QSKIP("ffmpeg is not installed");
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.02));
    w->fileActions()->exportAnimationAction()->trigger();
    auto* dialog = animation(*w)->dialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->format(), AnimationFormat::Mp4);  // ffmpeg is there: MP4 by default
    QCOMPARE(dialog->widthSpin()->value(), 1280);      // 1280 x 720 by default
    QCOMPARE(dialog->heightSpin()->value(), 720);
    const QString gif = dir.filePath(QStringLiteral("bounce.gif"));
    fillAnimationDialog(*dialog, AnimationFormat::Gif, gif, 160, 120, 10, 1.0);
    QSignalSpy done(animation(*w), &AnimationExporter::finished);
    const double t0 = w->lastSnapshot()->t;
    dialog->accept();
    QVERIFY(animation(*w)->task()->isRunning());
    QVERIFY(waitFor([&] { return done.count() == 1; }, 60000));
    QCOMPARE(animation(*w)->task()->outcome(), AnimationExportTask::Outcome::Completed);
    QCOMPARE(animation(*w)->task()->framesTotal(), std::int64_t(10));
    QVERIFY(waitForTimeBeyond(*w, t0 + 0.05));  // the live run was not disturbed
    const auto p = probe(gif);
    QCOMPARE(p.value(QStringLiteral("codec_name")), QStringLiteral("gif"));
    QCOMPARE(p.value(QStringLiteral("nb_read_frames")), QStringLiteral("10"));
    QCOMPARE(p.value(QStringLiteral("width")), QStringLiteral("160"));
    QCOMPARE(p.value(QStringLiteral("height")), QStringLiteral("120"));
    QCOMPARE(p.value(QStringLiteral("r_frame_rate")), QStringLiteral("10/1"));
    QCOMPARE(p.value(QStringLiteral("duration")).toDouble(), 1.0);
    QCOMPARE(fileNames(dir.path()), QStringList{QStringLiteral("bounce.gif")});
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("bounce.gif")));
  }

  // MP4 (H.264) and a PNG frame sequence, started directly (the same path the dialog takes).
  void animationMp4AndPngSequence() {
    if (!ricochet::app::ffmpegAvailable()) QSKIP("ffmpeg is not installed");
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("ellipse-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    AnimationRequest r;
    r.scenario = w->currentRun()->scenario;
    r.output = dir.filePath(QStringLiteral("ellipse.mp4"));
    r.width = 320;
    r.height = 240;
    r.fps = 20;
    r.duration = 1.0;
    r.speed = 2.0;  // 2 simulated seconds per video second: 10 frames, 0.5 s of video
    QSignalSpy done(animation(*w), &AnimationExporter::finished);
    QCOMPARE(animation(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return done.count() == 1; }, 60000));
    QCOMPARE(animation(*w)->task()->outcome(), AnimationExportTask::Outcome::Completed);
    auto p = probe(r.output);
    QCOMPARE(p.value(QStringLiteral("codec_name")), QStringLiteral("h264"));
    QCOMPARE(p.value(QStringLiteral("nb_read_frames")), QStringLiteral("10"));
    QCOMPARE(p.value(QStringLiteral("width")), QStringLiteral("320"));
    QCOMPARE(p.value(QStringLiteral("r_frame_rate")), QStringLiteral("20/1"));
    QVERIFY(std::fabs(p.value(QStringLiteral("duration")).toDouble() - 0.5) < 0.01);

    r.output = dir.filePath(QStringLiteral("frames/f_%03d.png"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("frames")));
    r.duration = 0.5;  // 5 frames
    QCOMPARE(animation(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return done.count() == 2; }, 60000));
    QCOMPARE(animation(*w)->task()->outcome(), AnimationExportTask::Outcome::Completed);
    QCOMPARE(fileNames(dir.filePath(QStringLiteral("frames"))),
             (QStringList{"f_000.png", "f_001.png", "f_002.png", "f_003.png", "f_004.png"}));
    const QImage frame(dir.filePath(QStringLiteral("frames/f_004.png")));
    QCOMPARE(frame.size(), QSize(320, 240));
    QVERIFY(greyVariance(frame) > 10.0);  // a picture, not a blank frame
  }

  // Cancel terminates the command: no file (not even a temporary one) is left.
  void animationCancelLeavesNoFile() {
    if (!ricochet::app::ffmpegAvailable()) QSKIP("ffmpeg is not installed");
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    AnimationRequest r;
    r.scenario = w->currentRun()->scenario;
    r.output = dir.filePath(QStringLiteral("long.mp4"));
    r.width = 320;
    r.height = 240;
    r.duration = 600;  // 18000 frames: minutes of work
    QSignalSpy done(animation(*w), &AnimationExporter::finished);
    QCOMPARE(animation(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return animation(*w)->task()->framesDone() >= 3; }, 30000));
    QCOMPARE(animation(*w)->task()->framesTotal(), std::int64_t(18000));
    QVERIFY(animation(*w)->progressDialog()->isVisible());
    QCOMPARE(animation(*w)->progressDialog()->maximum(), 18000);
    QVERIFY(!fileNames(dir.path()).isEmpty());  // its temporary file is being written
    QPushButton* cancel = animation(*w)->progressDialog()->findChild<QPushButton*>();
    QVERIFY(cancel);
    QTest::mouseClick(cancel, Qt::LeftButton);
    QVERIFY(waitFor([&] { return done.count() == 1; }, 15000));
    QCOMPARE(animation(*w)->task()->outcome(), AnimationExportTask::Outcome::Cancelled);
    QCOMPARE(fileNames(dir.path()), QStringList());
    QVERIFY(!animation(*w)->progressDialog()->isVisible());
  }

  // Without ffmpeg on PATH the dialog offers Ogg/Theora (MP4 and GIF disabled, a note says why),
  // and the .ogv export works.
  void withoutFfmpegTheDialogOffersOgv() {
    QTemporaryDir dir, emptyPath;
    const QByteArray path = qgetenv("PATH");
    qputenv("PATH", QFile::encodeName(emptyPath.path()));
    auto restore = qScopeGuard([&] { qputenv("PATH", path); });
    QVERIFY(!ricochet::app::ffmpegAvailable());
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    w->fileActions()->exportAnimationAction()->trigger();
    auto* dialog = animation(*w)->dialog();
    QVERIFY(dialog);
    QCOMPARE(dialog->format(), AnimationFormat::Ogv);
    QVERIFY(dialog->pathEdit()->text().endsWith(QStringLiteral(".ogv")));
    QVERIFY(dialog->noteLabel()->text().contains(QStringLiteral("ffmpeg")));
    auto* model = qobject_cast<QStandardItemModel*>(dialog->formatCombo()->model());
    QVERIFY(model && !model->item(0)->isEnabled() && !model->item(1)->isEnabled());
    QVERIFY(model->item(2)->isEnabled() && model->item(3)->isEnabled());
    const QString ogv = dir.filePath(QStringLiteral("bounce.ogv"));
    fillAnimationDialog(*dialog, AnimationFormat::Ogv, ogv, 160, 120, 10, 1.0);
    QSignalSpy done(animation(*w), &AnimationExporter::finished);
    dialog->accept();
    QVERIFY(waitFor([&] { return done.count() == 1; }, 60000));
    QVERIFY2(animation(*w)->task()->outcome() == AnimationExportTask::Outcome::Completed,
             qPrintable(animation(*w)->task()->errorText()));
    const auto p = probe(ogv);
    QCOMPARE(p.value(QStringLiteral("codec_name")), QStringLiteral("theora"));
    QCOMPARE(p.value(QStringLiteral("nb_read_frames")), QStringLiteral("10"));
    QCOMPARE(p.value(QStringLiteral("width")), QStringLiteral("160"));
  }

  // A request the command refuses: its message is shown verbatim, nothing is written.
  void animationErrorsAreShownVerbatim() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    AnimationRequest r;
    r.scenario = w->currentRun()->scenario;
    r.output = dir.filePath(QStringLiteral("odd.ogv"));
    r.width = 161;  // Ogg/Theora needs even sizes: the dialog refuses it, the command too
    r.height = 120;
    r.duration = 1;
    QSignalSpy done(animation(*w), &AnimationExporter::finished);
    QCOMPARE(animation(*w)->start(r), QString());
    QVERIFY(waitFor([&] { return done.count() == 1; }, 30000));
    QCOMPARE(animation(*w)->task()->outcome(), AnimationExportTask::Outcome::Failed);
    QCOMPARE(animation(*w)->task()->exitCode(), 2);
    const QString error = animation(*w)->task()->errorText();
    QVERIFY2(error.startsWith(QStringLiteral("ricochet-cli: ")) && error.contains(QStringLiteral("161")),
             qPrintable(error));
    int boxes = 0;
    QVERIFY(waitForBoxText(*w, &boxes).contains(error));
    QCOMPARE(boxes, 1);
    closeBoxes(*w);
    QVERIFY(fileNames(dir.path()).isEmpty());
  }

  // An unwritable target: one message, no file.
  void unwritableTargetIsReported() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor"), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    CsvExportRequest r;
    r.scenario = w->currentRun()->scenario;
    r.steps = 10;
    r.traceCsv = dir.filePath(QStringLiteral("missing-folder/trace.csv"));
    const auto summary = exportNow(*w, r);
    QCOMPARE(summary.outcome, RunOutcome::OutputError);
    int boxes = 0;
    QVERIFY(waitForBoxText(*w, &boxes).contains(QStringLiteral("missing-folder")));
    QCOMPARE(boxes, 1);
    closeBoxes(*w);
    QVERIFY(fileNames(dir.path()).isEmpty());
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiExport>(argc, argv, "test_gui_export");
}

#include "test_gui_export.moc"
