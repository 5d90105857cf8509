// Scenario files in the desktop app: save / open / title and
// modified mark, malformed, truncated and hostile files refused with ONE message naming the key
// while nothing changes (run, editors, title, recent list), drag and drop, the recent files, the
// embedded paper presets, and --scenario's file.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_export_files

#include "test_gui_export_support.hpp"

#include "app/desktop/scenario/presets_menu.hpp"
#include "core/io/scenario_io.hpp"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMenu>
#include <QMimeData>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUrl>

#include <sys/stat.h>

using namespace exporttest;
using namespace guitest;
using ricochet::app::Preset;
using ricochet::app::ScenarioFiles;

namespace {

const char* kParticle = "particle-floor";

ScenarioFiles* files(MainWindow& w) { return w.fileActions()->scenarios(); }

ricochet::Scenario particleScenario() {
  return ricochet::defaultScenario(*ricochet::findSystem(kParticle));
}

QString save(const QString& path, const ricochet::Scenario& s) {
  return QString::fromStdString(ricochet::io::saveScenario(QFile::encodeName(path).toStdString(), s));
}

// Waits until `s` runs in `w` (an accepted file request) with a snapshot on screen.
bool waitForScenario(MainWindow& w, const ricochet::Scenario& s, int ms = 10000) {
  return waitFor([&] {
    return w.currentRun() && ricochet::io::sameScenario(w.currentRun()->scenario, s) &&
           w.lastSnapshot() && w.lastSnapshot()->generation == w.currentRun()->generation;
  }, ms);
}

// Everything a refused file must leave alone.
struct WindowState {
  std::uint64_t generation = 0;
  ricochet::Scenario running, editor;
  QString title, currentFile;
  bool modified = false;
  QStringList recent;
};
WindowState stateOf(MainWindow& w) {
  WindowState s;
  s.generation = w.currentRun()->generation;
  s.running = w.currentRun()->scenario;
  s.editor = w.editor()->applied();
  s.title = w.windowTitle();
  s.modified = w.isWindowModified();
  s.currentFile = files(w)->currentFile();
  s.recent = files(w)->recentFiles();
  return s;
}

QMimeData* urlMime(const QString& path) {
  auto* mime = new QMimeData;
  mime->setUrls({QUrl::fromLocalFile(path)});
  return mime;
}

// Sends a drag enter then (when accepted and `drop`) a drop of `path` onto the window, as Qt
// delivers them to the widget that accepts drops. Returns whether the drag was accepted.
bool dragAndDrop(MainWindow& w, const QString& path, bool drop = true) {
  std::unique_ptr<QMimeData> mime(urlMime(path));
  const QPoint at = w.rect().center();
  QDragEnterEvent enter(at, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&w, &enter);
  if (!enter.isAccepted()) return false;
  if (drop) {
    QDropEvent dropEvent(QPointF(at), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &dropEvent);
    if (!dropEvent.isAccepted()) return false;
  }
  return true;
}

}  // namespace

class TestGuiExportFiles : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!ricochet::findSystem(kParticle)) QSKIP("particle-floor not registered");
  }
  void init() { QSettings().clear(); }

  // Save writes the running scenario (ricochet-cli reads it back identically), names the file in
  // the title, joins the recent files; an edit marks the window modified until the next save.
  void saveNamesTheFileAndTracksEdits() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QString::fromLatin1(kParticle)));
    QVERIFY(waitForTimeBeyond(*w, 0.02));
    QVERIFY(!w->windowTitle().contains(QStringLiteral(".json")));
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QCOMPARE(files(*w)->saveTo(path), QString());
    const auto loaded = ricochet::io::loadScenario(QFile::encodeName(path).toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    QVERIFY(ricochet::io::sameScenario(*loaded.scenario, w->currentRun()->scenario));
    QCOMPARE(files(*w)->currentFile(), QFileInfo(path).absoluteFilePath());
    QVERIFY2(w->windowTitle().contains(QStringLiteral("saved.json")), qPrintable(w->windowTitle()));
    QVERIFY(!w->isWindowModified());
    QCOMPARE(files(*w)->recentFiles(), QStringList{QFileInfo(path).absoluteFilePath()});

    // An accepted edit: the file no longer holds what runs.
    typeInto(w->editor()->parameterField(QStringLiteral("m")), QStringLiteral("2.5"));
    QVERIFY(waitFor([&] { return w->currentRun()->scenario.parameters[0] == 2.5; }));
    QVERIFY(waitFor([&] { return w->isWindowModified(); }));
    QVERIFY(w->windowTitle().contains(QStringLiteral("saved.json")));
    // Save (Ctrl+S) goes to the current file without asking.
    w->fileActions()->scenarios()->saveAction()->trigger();
    QVERIFY(!w->isWindowModified());
    QCOMPARE(ricochet::io::loadScenario(QFile::encodeName(path).toStdString()).scenario->parameters[0], 2.5);

    // Opening another file makes it the current one, first in the recent list.
    ricochet::Scenario other = particleScenario();
    other.integrator.h = 0.005;
    const QString otherPath = dir.filePath(QStringLiteral("other.json"));
    QCOMPARE(save(otherPath, other), QString());
    QVERIFY(files(*w)->open(otherPath));
    QVERIFY(waitForScenario(*w, other));
    QVERIFY(waitFor([&] { return w->windowTitle().contains(QStringLiteral("other.json")); }));
    QVERIFY(!w->isWindowModified());
    QCOMPARE(files(*w)->recentFiles(),
             (QStringList{QFileInfo(otherPath).absoluteFilePath(), QFileInfo(path).absoluteFilePath()}));
    QCOMPARE(w->editor()->settingField(QStringLiteral("h"))->value(), 0.005);
  }

  // The acceptance's hostile files: each shows exactly ONE message naming the key (or the
  // position, for syntax errors), and the running simulation, the editors, the window title and
  // the recent list are as before; the run keeps going.
  void hostileFilesAreRefusedAndChangeNothing() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QString::fromLatin1(kParticle)));
    QVERIFY(waitForTimeBeyond(*w, 0.02));
    const QString goodPath = dir.filePath(QStringLiteral("good.json"));
    QCOMPARE(files(*w)->saveTo(goodPath), QString());
    const QByteArray good = readAll(goodPath);
    QVERIFY(good.size() > 100);
    const QByteArray head = "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"particle-floor\"";

    struct Case {
      const char* name;
      QByteArray content;  // written to NAME.json (ignored for the special cases below)
      const char* expected;
    };
    const std::vector<Case> cases = {
        {"malformed", "{\"format\": ", "line 1, column 12"},
        {"truncated", good.left(good.size() / 2), "line "},
        {"wrong-type", head + ", \"integrator\": {\"h\": \"0.01\"}}", "\"integrator.h\" must be a number"},
        {"nan", head + ", \"integrator\": {\"h\": NaN}}", "integrator.h"},
        {"infinity", head + ", \"t_end\": Infinity}", "t_end"},
        {"huge", head + ", \"parameters\": {\"m\": 1e300}}", "\"parameters.m\" = 1e+300 is too large"},
        {"negative-mass", head + ", \"parameters\": {\"m\": -1}}", "\"parameters.m\" = -1"},
        {"unknown-key", head + ", \"bogus\": 1}", "unknown key \"bogus\""},
        {"unknown-parameter", head + ", \"parameters\": {\"zz\": 1}}", "parameters.zz"},
        {"duplicate-key", head + ", \"t_end\": 1, \"t_end\": 2}", "duplicate key \"t_end\""},
        {"deep-nesting", QByteArray(100000, '['), "nesting deeper than 64"},
        {"deep-in-value", head + ", \"parameters\": {\"m\": " + QByteArray(70, '[') + "}}", "nesting deeper than 64"},
        {"not-an-object", "[1, 2, 3]", "line 1"},
        {"empty", "", "expected a value"},
        {"binary", QByteArray("\xff\xfe\x00\x01garbage", 11), "unexpected"},
        {"version-2", "{\"format\": \"ricochet-scenario\", \"version\": 2, \"system\": \"particle-floor\"}", "\"version\" = 2"},
        {"unknown-system", "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": \"warp-drive\"}", "warp-drive"},
        {"missing-system", "{\"format\": \"ricochet-scenario\", \"version\": 1}", "system"},
        // Parses, but the system refuses the initial state (the worker's check): one message too.
        {"inadmissible", head + ", \"initial\": {\"y0\": -1}}", "y0 = -1"},
    };
    for (const Case& c : cases) {
      const QString path = dir.filePath(QString::fromLatin1(c.name) + QStringLiteral(".json"));
      QVERIFY(writeFile(path, c.content));
    }
    // 100 MB (sparse) file: refused after reading 1 MiB.
    const QString bigPath = dir.filePath(QStringLiteral("big.json"));
    {
      QFile big(bigPath);
      QVERIFY(big.open(QIODevice::WriteOnly));
      QVERIFY(big.resize(100LL * 1024 * 1024));
    }
    std::vector<std::pair<QString, QString>> all;  // path, expected text
    for (const Case& c : cases) {
      all.emplace_back(dir.filePath(QString::fromLatin1(c.name) + QStringLiteral(".json")),
                       QString::fromLatin1(c.expected));
    }
    all.emplace_back(bigPath, QStringLiteral("larger than 1048576 bytes"));
    all.emplace_back(dir.filePath(QStringLiteral("missing.json")), QStringLiteral("no such file"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder.json")));
    all.emplace_back(dir.filePath(QStringLiteral("folder.json")), QStringLiteral("is a directory"));
    // A named pipe with no writer: opening it for reading would block forever.
    const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    all.emplace_back(fifo, QStringLiteral("not a regular file"));

    for (const auto& [path, expected] : all) {
      const WindowState before = stateOf(*w);
      const double t0 = w->lastSnapshot()->t;
      files(*w)->open(path);
      int boxes = 0;
      const QString text = waitForBoxText(*w, &boxes);
      QVERIFY2(boxes == 1, qPrintable(QStringLiteral("%1: %2 message boxes: %3").arg(path).arg(boxes).arg(text)));
      QVERIFY2(text.contains(expected), qPrintable(QFileInfo(path).fileName() + QStringLiteral(": ") + text));
      QVERIFY2(w->statusBar()->currentMessage().contains(expected), qPrintable(w->statusBar()->currentMessage()));
      closeBoxes(*w);
      QTest::qWait(50);
      const WindowState after = stateOf(*w);
      QCOMPARE(after.generation, before.generation);
      QVERIFY(ricochet::io::sameScenario(after.running, before.running));
      QVERIFY(ricochet::io::sameScenario(after.editor, before.editor));
      QCOMPARE(after.title, before.title);
      QCOMPARE(after.modified, before.modified);
      QCOMPARE(after.currentFile, before.currentFile);
      QCOMPARE(after.recent, before.recent);
      QVERIFY2(waitForTimeBeyond(*w, t0), "the run stopped");  // still animating
    }
    // A refused drop behaves the same.
    const WindowState before = stateOf(*w);
    QVERIFY(dragAndDrop(*w, dir.filePath(QStringLiteral("nan.json"))));
    int boxes = 0;
    QVERIFY(waitForBoxText(*w, &boxes).contains(QStringLiteral("integrator.h")));
    QCOMPARE(boxes, 1);
    closeBoxes(*w);
    QCOMPARE(w->currentRun()->generation, before.generation);
    QCOMPARE(w->windowTitle(), before.title);
  }

  // Dropping a .json file opens it; anything else is not accepted as a drop.
  void dragAndDropOpensScenarioFiles() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QString::fromLatin1(kParticle)));
    QVERIFY(waitForTimeBeyond(*w, 0.02));
    ricochet::Scenario s = particleScenario();
    s.initial[0] = 0.5;  // x0
    s.tEnd = 7;
    const QString path = dir.filePath(QStringLiteral("dropped.JSON"));
    QCOMPARE(save(path, s), QString());
    QVERIFY(dragAndDrop(*w, path));
    QVERIFY(waitForScenario(*w, s));
    QVERIFY(waitFor([&] { return w->windowTitle().contains(QStringLiteral("dropped.JSON")); }));
    QCOMPARE(files(*w)->recentFiles().value(0), QFileInfo(path).absoluteFilePath());

    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    QVERIFY(writeFile(text, "hello"));
    const auto generation = w->currentRun()->generation;
    QVERIFY(!dragAndDrop(*w, text));
    QVERIFY(ScenarioFiles::droppedScenario(nullptr).isEmpty());
    QTest::qWait(100);
    QCOMPARE(w->currentRun()->generation, generation);
    QVERIFY(visibleBoxes(*w).isEmpty());
  }

  // Open Recent: at most 8, most recent first, files that vanished are dropped, entries open.
  void recentFilesKeepEightAndForgetMissingOnes() {
    QTemporaryDir dir;
    auto w = openWindow(freshOptions(QString::fromLatin1(kParticle), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    std::vector<QString> paths;
    std::vector<ricochet::Scenario> scenarios;
    for (int i = 0; i < 10; ++i) {
      ricochet::Scenario s = particleScenario();
      s.tEnd = 10 + i;
      paths.push_back(QFileInfo(dir.filePath(QStringLiteral("r%1.json").arg(i))).absoluteFilePath());
      scenarios.push_back(s);
      QCOMPARE(save(paths.back(), s), QString());
      QVERIFY(files(*w)->open(paths.back()));
      QVERIFY(waitForScenario(*w, s));
    }
    QStringList expected;
    for (int i = 9; i >= 2; --i) expected << paths[std::size_t(i)];
    QCOMPARE(files(*w)->recentFiles(), expected);
    QCOMPARE(ScenarioFiles::kMaxRecent, 8);

    // Reopening moves an entry to the front.
    QVERIFY(files(*w)->open(paths[5]));
    QVERIFY(waitForScenario(*w, scenarios[5]));
    QVERIFY(waitFor([&] { return files(*w)->recentFiles().value(0) == paths[5]; }));

    // A deleted file disappears from the list (and from the stored settings).
    QVERIFY(QFile::remove(paths[8]));
    QStringList now = files(*w)->recentFiles();
    QVERIFY(!now.contains(paths[8]));
    QCOMPARE(now.size(), 7);
    QCOMPARE(QSettings().value(QStringLiteral("files/recent")).toStringList(), now);

    // The menu lists them in that order and its entries open the file.
    QMenu* menu = files(*w)->recentMenu();
    QMetaObject::invokeMethod(menu, "aboutToShow");
    QList<QAction*> entries;
    for (QAction* a : menu->actions()) {
      if (a->data().isValid()) entries << a;
    }
    QCOMPARE(entries.size(), 7);
    QCOMPARE(entries[0]->data().toString(), paths[5]);
    QCOMPARE(entries[2]->data().toString(), now[2]);
    entries[2]->trigger();
    const int index = int(std::find(paths.begin(), paths.end(), now[2]) - paths.begin());
    QVERIFY(waitForScenario(*w, scenarios[std::size_t(index)]));
    // A window opened later sees the same list.
    auto w2 = openWindow(freshOptions(QString::fromLatin1(kParticle), false));
    QCOMPARE(files(*w2)->recentFiles().value(0), now[2]);
  }

  // Every preset in resources/presets/ is embedded, listed in the index with a description, and
  // runs (the worker accepts it: valid ranges and an admissible initial state).
  void everyPresetIsEmbeddedDescribedAndRuns() {
    const QDir source(QStringLiteral(RICOCHET_SOURCE_DIR "/resources/presets"));
    const QStringList onDisk = source.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    QVERIFY(onDisk.size() >= 10);
    const std::vector<Preset> presets = ricochet::app::embeddedPresets();
    QStringList listed;
    for (const Preset& p : presets) listed << p.file;
    for (const QString& name : onDisk) {
      QVERIFY2(listed.contains(name), qPrintable(name + QStringLiteral(" is not in the index")));
      QFile embedded(QStringLiteral(":/presets/") + name);
      QVERIFY2(embedded.open(QIODevice::ReadOnly),
               qPrintable(name + QStringLiteral(" is not embedded: add it to resources/presets.qrc")));
      QCOMPARE(embedded.readAll(), readAll(source.filePath(name)));  // the build embeds the current file
    }
    QCOMPARE(int(presets.size()), int(onDisk.size()));
    // Every system has at least one preset.
    for (const auto* system : ricochet::systems()) {
      const QString id = QString::fromStdString(system->info().id);
      QVERIFY2(std::any_of(presets.begin(), presets.end(), [&](const Preset& p) { return p.system == id; }),
               qPrintable(id));
    }

    auto w = openWindow(freshOptions(QString::fromLatin1(kParticle), false));
    QVERIFY(waitFor([&] { return w->lastSnapshot() != nullptr; }));
    QMenu* menu = w->fileActions()->presetsMenu();
    for (const Preset& p : presets) {
      QVERIFY2(!p.description.isEmpty(), qPrintable(p.file));
      QAction* action = menu->findChild<QAction*>(QStringLiteral("preset:") + p.file);
      if (!action) {  // actions live in the per-paper submenus
        for (QMenu* sub : menu->findChildren<QMenu*>()) {
          for (QAction* a : sub->actions()) {
            if (a->objectName() == QStringLiteral("preset:") + p.file) action = a;
          }
        }
      }
      QVERIFY2(action, qPrintable(p.file));
      QVERIFY(action->toolTip().contains(p.description));
      const auto parsed = ricochet::io::loadScenario(QFile::encodeName(source.filePath(p.file)).toStdString());
      QVERIFY2(parsed.ok(), parsed.error.c_str());
      QCOMPARE(QString::fromStdString(parsed.scenario->system), p.system);
      action->trigger();  // through the menu, as a user would
      QVERIFY2(waitForScenario(*w, *parsed.scenario), qPrintable(p.file));
      QVERIFY2(visibleBoxes(*w).isEmpty(), qPrintable(p.file));
      QVERIFY(files(*w)->currentFile().isEmpty());  // a preset is not a file: Save asks for a name
      QCOMPARE(w->currentRun()->scenario.system, parsed.scenario->system);
    }
    QVERIFY(files(*w)->recentFiles().isEmpty());
  }

  // `ricochet --scenario FILE`: the window runs it and names the file (main.cpp passes the path).
  void startupScenarioIsTheCurrentFile() {
    QTemporaryDir dir;
    ricochet::Scenario s = particleScenario();
    s.parameters[1] = 3.7;  // g
    const QString path = dir.filePath(QStringLiteral("startup.json"));
    QCOMPARE(save(path, s), QString());
    MainWindowOptions o = freshOptions();
    o.scenario = s;
    o.scenarioPath = path;
    auto w = openWindow(o);
    QVERIFY(waitForScenario(*w, s));
    QVERIFY(waitFor([&] { return w->windowTitle().contains(QStringLiteral("startup.json")); }));
    QCOMPARE(files(*w)->currentFile(), QFileInfo(path).absoluteFilePath());
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiExportFiles>(argc, argv, "test_gui_export_files");
}

#include "test_gui_export_files.moc"
