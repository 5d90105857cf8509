// The rough edges of the window, through the real widgets: exports ask before overwriting a file
// and say how large they are; a status message is never cut (its whole text and the CLI's hint
// are reachable); undo and redo bring back scenarios bit for bit; the Help windows; a run paused
// by an integrator failure plays again after the next edit.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_window

#include "test_gui_export_support.hpp"

#include "app/desktop/export/export_animation.hpp"
#include "app/desktop/export/export_controller.hpp"
#include "app/desktop/export/export_csv.hpp"
#include "app/desktop/scenario/presets_menu.hpp"
#include "app/desktop/scenario/scenario_history.hpp"
#include "app/desktop/widgets/status_message.hpp"
#include "core/io/scenario_io.hpp"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

using namespace exporttest;
using namespace guitest;
using ricochet::app::CsvExportDialog;
using ricochet::app::StatusMessage;

namespace {

// Clicks `button` of the first message box named `name` that comes up within `ms` (from a timer:
// the box runs its own event loop). Its text goes to `text`.
void answerBox(const QString& name, QMessageBox::StandardButton button, QString* text, bool* seen) {
  auto poll = std::make_shared<std::function<void(int)>>();
  *poll = [=](int left) {
    for (QWidget* top : QApplication::topLevelWidgets()) {
      for (QMessageBox* b : top->findChildren<QMessageBox*>(name)) {
        if (!b->isVisible()) continue;
        if (text) *text = b->text();
        if (seen) *seen = true;
        b->button(button)->click();
        return;
      }
    }
    if (left > 0) QTimer::singleShot(20, [poll, left] { (*poll)(left - 1); });
  };
  QTimer::singleShot(20, [poll] { (*poll)(250); });
}

}  // namespace

class TestGuiWindow : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!ricochet::findSystem("particle-floor")) QSKIP("particle-floor missing");
  }
  void init() { QSettings().clear(); }

  // The CSV dialog over an existing file: the replace question first; No keeps the dialog open
  // and the file as it was, Yes exports over it. The dialog shows its size estimate.
  void exportsAskBeforeOverwriting() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.2));
    const QString path = dir.filePath(QStringLiteral("trace.csv"));
    QVERIFY(writeFile(path, "keep me\n"));
    w->fileActions()->csv()->showDialog(true, false);
    CsvExportDialog* d = w->fileActions()->csv()->dialog();
    QVERIFY(d && d->isVisible());
    d->tracePath()->setText(path);
    d->stepsEdit()->setText(QStringLiteral("3000000"));
    d->everySpin()->setValue(1);
    // 3e6 rows of particle-floor's columns: hundreds of megabytes, said before anything is
    // written (and asked about on accepting).
    QVERIFY2(d->findChild<QLabel*>(QStringLiteral("csvInfo"))->text().contains(QStringLiteral(" MB")),
             qPrintable(d->findChild<QLabel*>(QStringLiteral("csvInfo"))->text()));
    QVERIFY(d->estimatedBytes() > ricochet::app::kLargeExportBytes);
    d->stepsEdit()->setText(QStringLiteral("1000"));
    const qint64 estimate = d->estimatedBytes();
    QString question;
    bool seen = false;
    answerBox(QStringLiteral("overwriteQuestion"), QMessageBox::No, &question, &seen);
    d->accept();
    QVERIFY(seen);
    QVERIFY2(question.contains(QDir::toNativeSeparators(path)), qPrintable(question));
    QVERIFY(d->isVisible());
    QCOMPARE(readAll(path), QByteArray("keep me\n"));
    seen = false;
    answerBox(QStringLiteral("overwriteQuestion"), QMessageBox::Yes, nullptr, &seen);
    d->accept();
    QVERIFY(seen);
    QVERIFY(waitFor([&] { return readAll(path).startsWith("step,t,energy") && readAll(path).endsWith('\n') &&
                                 readAll(path).count('\n') == 1002; }, 30000));
    const double ratio = double(estimate) / double(QFileInfo(path).size());
    QVERIFY2(ratio >= 1.0 && ratio < 1.5, qPrintable(QString::number(ratio)));  // on the safe side
    // A large export is confirmed too.
    QVERIFY(ricochet::app::formatBytes(1'500'000'000) == QStringLiteral("1.5 GB"));
  }

  // The animation dialog: a PNG sequence into a folder that does not exist yet gets the folder;
  // the format and duration chosen are offered again next time.
  void animationFolderAndRememberedChoices() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.1));
    auto* exporter = w->fileActions()->animation();
    exporter->showDialog();
    auto* d = exporter->dialog();
    QVERIFY(d && d->isVisible());
    d->setFormat(ricochet::app::AnimationFormat::PngSequence);
    d->durationSpin()->setValue(0.25);
    const QString folder = dir.filePath(QStringLiteral("frames/run1"));
    d->pathEdit()->setText(folder + QStringLiteral("/f_%04d.png"));
    QVERIFY(!QFileInfo::exists(folder));
    d->accept();
    QVERIFY2(QFileInfo(folder).isDir(), qPrintable(d->findChild<QLabel*>(QStringLiteral("animationError"))->text()));
    exporter->cancel();
    QVERIFY(waitFor([&] { return !w->fileActions()->animation()->dialog() || !w->fileActions()->animation()->dialog()->isVisible(); }));
    QTest::qWait(200);
    closeBoxes(*w);
    exporter->showDialog();
    d = exporter->dialog();
    QVERIFY(d);
    QCOMPARE(d->format(), ricochet::app::AnimationFormat::PngSequence);
    QCOMPARE(d->durationSpin()->value(), 0.25);
    d->reject();
  }

  // A particle at rest on the floor fails at once (Zeno): the message area holds the whole
  // failure with the hint about what to do, in its tooltip and its details window too, and it
  // never runs into the run-state field.
  void wholeMessageReachable() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.1));
    for (const char* name : {"vx0", "vy0", "y0"}) {
      typeInto(w->editor()->initialField(QString::fromLatin1(name)), QStringLiteral("0"));
      QTest::qWait(50);
    }
    QVERIFY(waitFor([&] { return w->lastSnapshot() && !w->lastSnapshot()->failure.isEmpty(); }, 10000));
    StatusMessage* m = w->statusMessage();
    QVERIFY(waitFor([&] { return m->text().contains(QStringLiteral("Integrator failed")); }, 5000));
    QVERIFY2(m->text().contains(QStringLiteral("start it off the boundary or reduce h")), qPrintable(m->text()));
    QCOMPARE(m->findChild<QLabel*>(QStringLiteral("statusMessageText"))->toolTip(), m->text());
    // Elided at a word, never overlapping the state field, and the rest behind Details.
    const QRect area = m->geometry();
    const QRect state = w->statusField(QStringLiteral("state"))->geometry();
    QVERIFY(area.right() < state.left());
    if (m->shownText() != m->text()) {
      QVERIFY(m->shownText().endsWith(QChar(0x2026)));
      QVERIFY(m->detailsButton()->isVisible());
      m->detailsButton()->click();
      QMessageBox* box = w->findChild<QMessageBox*>(QStringLiteral("statusMessageBox"));
      QVERIFY(box && box->isVisible());
      QCOMPARE(box->text(), m->text());
      box->close();
    }
    // An edit after the failure plays again, as any other edit does.
    typeInto(w->editor()->initialField(QStringLiteral("y0")), QStringLiteral("1"));
    QVERIFY(waitFor([&] { return w->lastSnapshot() && w->lastSnapshot()->running && w->lastSnapshot()->failure.isEmpty(); }, 10000));
  }

  // Each accepted edit, system change, opened scenario and preset is one undo step; undo runs the
  // previous scenario again exactly (bit for bit), redo the next.
  void undoRedoRestoresScenariosBitwise() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitFor([&] { return w->currentRun() && w->lastSnapshot(); }));
    const ricochet::Scenario original = w->currentRun()->scenario;
    QUndoStack* stack = w->history()->stack();
    QCOMPARE(stack->count(), 0);
    QAction* undo = w->findChild<QAction*>(QStringLiteral("undoAction"));
    QAction* redo = w->findChild<QAction*>(QStringLiteral("redoAction"));
    QVERIFY(undo && redo && !undo->isEnabled());
    QCOMPARE(undo->shortcut(), QKeySequence(QKeySequence::Undo));

    auto generation = w->currentRun()->generation;
    typeInto(w->editor()->parameterField(QStringLiteral("m")), QStringLiteral("1.2345678901234567"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    const ricochet::Scenario edited = w->currentRun()->scenario;
    QVERIFY(!ricochet::io::sameScenario(edited, original));
    QCOMPARE(stack->count(), 1);

    generation = w->currentRun()->generation;
    QVERIFY(pickSystem(*w, QStringLiteral("star-floor")) || !ricochet::findSystem("star-floor"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    const ricochet::Scenario other = w->currentRun()->scenario;
    QCOMPARE(stack->count(), 2);

    generation = w->currentRun()->generation;
    undo->trigger();  // back to particle-floor as edited
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, edited));
    QCOMPARE(w->editor()->parameterField(QStringLiteral("m"))->value(), 1.2345678901234567);
    generation = w->currentRun()->generation;
    undo->trigger();  // back to the paper's defaults
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, original));
    QVERIFY(!undo->isEnabled());
    QCOMPARE(stack->count(), 2);  // undo and redo add no step
    generation = w->currentRun()->generation;
    redo->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, edited));
    generation = w->currentRun()->generation;
    redo->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, other));
    // A reset is no step.
    generation = w->currentRun()->generation;
    w->resetAction()->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(stack->count(), 2);

    // An opened file and a preset are one step each; undo goes back through them exactly.
    QTemporaryDir dir;
    ricochet::Scenario fileScenario = edited;
    QVERIFY(ricochet::io::setScenarioValue(fileScenario, "vx0", 0.1 + 0.2).empty());
    const QString path = dir.filePath(QStringLiteral("opened.json"));
    QVERIFY(ricochet::io::saveScenario(QFile::encodeName(path).toStdString(), fileScenario).empty());
    generation = w->currentRun()->generation;
    QVERIFY(w->openScenarioFile(path, nullptr));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, fileScenario));
    QCOMPARE(stack->count(), 3);
    const ricochet::app::Preset preset = ricochet::app::embeddedPresets().front();
    QAction* presetAction = nullptr;
    for (QAction* a : w->fileActions()->presetsMenu()->findChildren<QAction*>()) {
      if (a->objectName() == QStringLiteral("preset:") + preset.file) presetAction = a;
    }
    for (QMenu* sub : w->fileActions()->presetsMenu()->findChildren<QMenu*>()) {
      for (QAction* a : sub->actions()) {
        if (a->objectName() == QStringLiteral("preset:") + preset.file) presetAction = a;
      }
    }
    QVERIFY2(presetAction, qPrintable(preset.file));
    generation = w->currentRun()->generation;
    presetAction->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(stack->count(), 4);
    generation = w->currentRun()->generation;
    undo->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, fileScenario));
    generation = w->currentRun()->generation;
    undo->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, other));
  }

  // Help: the shortcuts window lists the menus' own shortcuts (so it names Undo and Play with
  // their keys) and the plots' mouse gestures; Getting Started opens.
  void helpWindows() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    w->findChild<QAction*>(QStringLiteral("shortcutsAction"))->trigger();
    auto* keys = w->findChild<QDialog*>(QStringLiteral("keyboardShortcuts"));
    QVERIFY(keys && keys->isVisible());
    const QString text = keys->findChild<QTextBrowser*>()->toPlainText();
    for (QAction* a : {w->playAction(), w->resetAction(), w->followAction(),
                       w->findChild<QAction*>(QStringLiteral("undoAction"))}) {
      QVERIFY2(text.contains(a->shortcut().toString(QKeySequence::NativeText)), qPrintable(a->objectName()));
    }
    QVERIFY(text.contains(QStringLiteral("Undo")));
    QVERIFY(text.contains(QStringLiteral("Wheel")));
    w->findChild<QAction*>(QStringLiteral("gettingStartedAction"))->trigger();
    auto* guide = w->findChild<QDialog*>(QStringLiteral("gettingStarted"));
    QVERIFY(guide && guide->isVisible());
    const QString guideText = guide->findChild<QTextBrowser*>()->toPlainText();
    QVERIFY(guideText.contains(QStringLiteral("Pick a system")));
    // What the app is now: every system counted, your own body and its walls, studies, replay,
    // and Stop at t_end; not the "ten examples" of an earlier window.
    QVERIFY2(guideText.contains(QStringLiteral("%1 systems").arg(ricochet::systems().size())),
             qPrintable(guideText));
    QVERIFY(!guideText.contains(QStringLiteral("ten examples")));
    for (const char* words : {"Your own rigid body among walls", "Walls", "New Study", "Open Run",
                              "Overlay Run", "Stop at t_end", "Escape"}) {
      QVERIFY2(guideText.contains(QLatin1String(words)), words);
    }
    // Every menu path it names ("File \u203a Presets") is one the window has.
    const auto plain = [](QString t) {
      return t.remove(QLatin1Char('&')).remove(QStringLiteral("..."));
    };
    const QRegularExpression path(
        QStringLiteral("([A-Z][a-z]+) \u203a ([A-Z][A-Za-z0-9]*(?: [A-Z0-9][A-Za-z0-9]*)*)"));
    int paths = 0;
    for (auto it = path.globalMatch(guideText); it.hasNext(); ++paths) {
      const auto m = it.next();
      bool found = false;
      for (QAction* top : w->menuBar()->actions()) {
        if (!top->menu() || plain(top->text()) != m.captured(1)) continue;
        for (QAction* a : top->menu()->actions()) {
          found = found || plain(a->text()).startsWith(m.captured(2)) ||
                  (a->menu() && plain(a->menu()->title()).startsWith(m.captured(2)));
        }
      }
      QVERIFY2(found, qPrintable(m.captured(0)));
    }
    QVERIFY(paths >= 8);
  }
};

int main(int argc, char** argv) { return guitest::runSuite<TestGuiWindow>(argc, argv, "test_gui_window"); }

#include "test_gui_window.moc"
