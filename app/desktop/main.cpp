// ricochet: the desktop application. With no arguments it opens the last system used (the
// default system on a first launch) and starts animating.
//
//   ricochet [--system ID] [--scenario FILE.json] [--paused]

#include "app/desktop/main_window.hpp"
#include "app/desktop/scenario/scenario_files.hpp"
#include "core/model/registry.hpp"
#include "render/qt/vtk_widget.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QSurfaceFormat>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {
bool wantsHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const QByteArray a(argv[i]);
    if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version") {
      return true;
    }
  }
  return false;
}
}  // namespace

int main(int argc, char** argv) {
  // VTK 9.1's OpenGL loader does not work on native Wayland: go through XWayland unless the user
  // chose a platform. The surface format must be the default before QApplication exists.
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "xcb");
  QSurfaceFormat::setDefaultFormat(ricochet::render::VtkWidget::defaultFormat());

  // --help and --version work without a display; anything else needs one.
  std::unique_ptr<QCoreApplication> app;
  if (wantsHelpOrVersion(argc, argv)) {
    app = std::make_unique<QCoreApplication>(argc, argv);
  } else {
    if (qgetenv("QT_QPA_PLATFORM") == "xcb" && qEnvironmentVariableIsEmpty("DISPLAY")) {
      std::fprintf(stderr,
                   "ricochet: no X display (DISPLAY is not set). Run it in a desktop session, or "
                   "headless under xvfb-run (./run.sh does that); ricochet-cli needs no "
                   "display.\n");
      return 1;
    }
    app = std::make_unique<QApplication>(argc, argv);
  }
  QCoreApplication::setOrganizationName(QStringLiteral("Ricochet"));
  QCoreApplication::setApplicationName(QStringLiteral("ricochet"));
  QCoreApplication::setApplicationVersion(QStringLiteral(RICOCHET_VERSION));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Ricochet: mechanical systems with impacts, integrated by variational "
                     "collision integrators."));
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption systemOption(QStringLiteral("system"),
                                  QStringLiteral("Open system ID (see ricochet-cli list)."),
                                  QStringLiteral("ID"));
  QCommandLineOption scenarioOption(QStringLiteral("scenario"),
                                    QStringLiteral("Open a saved scenario (JSON)."),
                                    QStringLiteral("FILE"));
  QCommandLineOption pausedOption(QStringLiteral("paused"),
                                  QStringLiteral("Open paused instead of animating."));
  parser.addOption(systemOption);
  parser.addOption(scenarioOption);
  parser.addOption(pausedOption);
  parser.process(*app);  // exits after printing --help or --version
  QApplication::setApplicationDisplayName(QStringLiteral("Ricochet"));

  ricochet::app::MainWindowOptions options;
  options.play = !parser.isSet(pausedOption);
  QString startupError;
  if (parser.isSet(systemOption)) {
    options.systemId = parser.value(systemOption);
    if (!ricochet::findSystem(options.systemId.toStdString())) {
      startupError = QStringLiteral("unknown system '%1'; opening %2 instead")
                         .arg(options.systemId, ricochet::app::MainWindow::defaultSystemId());
      options.systemId.clear();
    }
  }
  if (parser.isSet(scenarioOption)) {
    const QString path = parser.value(scenarioOption);
    const ricochet::io::ScenarioResult loaded = ricochet::app::loadScenarioFile(path);
    if (loaded.ok()) {
      options.scenario = *loaded.scenario;
      options.scenarioPath = path;
    } else {
      startupError = QString::fromStdString(loaded.error);
    }
  }
  if (!startupError.isEmpty()) std::fprintf(stderr, "ricochet: %s\n", qPrintable(startupError));

  ricochet::app::MainWindow window(options);
  window.show();
  if (!startupError.isEmpty()) {
    QTimer::singleShot(0, &window, [&window, startupError] {
      auto* box = new QMessageBox(QMessageBox::Warning, QStringLiteral("Ricochet"),
                                  startupError, QMessageBox::Ok, &window);
      box->setAttribute(Qt::WA_DeleteOnClose);
      box->open();
    });
  }
  return app->exec();
}
