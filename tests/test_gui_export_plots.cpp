// Plot export from the desktop app, as a user does it:
// through the real File > Export Plots dialog, a PNG of the requested size that shows the
// curves in their colours, and an SVG that parses as XML and holds the curves as vector
// polylines/paths and the axis titles and series names as text; a single chart; an unwritable
// target gives one message naming the path and leaves no file.
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_export_plots

#include "test_gui_export_support.hpp"

#include "app/desktop/export/plot_export.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>
#include <QPointF>
#include <QXmlStreamReader>

#include <atomic>
#include <chrono>
#include <thread>

// The cursor the X server shows (XFixes), as a hash of its image (0: unknown), from a display
// connection of the caller's own. Defined at the end of the file: Xlib's macros (CursorShape,
// None, Bool...) must come after every Qt name.
namespace xcursor {
void* openDisplay();
void closeDisplay(void* display);
quint64 shownCursor(void* display);
}  // namespace xcursor

using namespace exporttest;
using namespace guitest;
using ricochet::app::PlotExportDialog;
using ricochet::app::PlotExporter;
using ricochet::app::PlotExportRequest;
using ricochet::app::PlotFormat;
using ricochet::app::PlotPanel;
using ricochet::app::PlotSelection;

namespace {

PlotExporter* exporter(MainWindow& w) { return w.fileActions()->plotExporter(); }

// Pixels of `image` within `tol` (per channel) of `rgb`.
int pixelsNear(const QImage& image, QRgb rgb, int tol) {
  const QImage img = image.convertToFormat(QImage::Format_RGB32);
  int n = 0;
  for (int y = 0; y < img.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
    for (int x = 0; x < img.width(); ++x) {
      const QRgb p = line[x];
      if (std::abs(qRed(p) - qRed(rgb)) <= tol && std::abs(qGreen(p) - qGreen(rgb)) <= tol &&
          std::abs(qBlue(p) - qBlue(rgb)) <= tol) {
        ++n;
      }
    }
  }
  return n;
}

struct Svg {
  QString error;               // the XML parser's, empty when well formed
  bool rootIsSvg = false;
  int curves = 0;              // <polyline>/<path>/<polygon> elements with >= 50 points
  int maxPoints = 0;           // points of the longest one
  QStringList texts;           // the character data of <text> elements (trimmed)
  QList<std::pair<QPointF, QString>> middleTexts;  // centred ones (time tick labels, titles)
  QMap<QString, QList<QPointF>> series;  // <polyline data-series="NAME">'s points, by name
  QSizeF size;                 // the root's width and height
};

// Points in a polyline's "points" or a path's "d" attribute: the number pairs.
int pointCount(QStringView data) {
  int numbers = 0;
  bool inNumber = false;
  for (QChar c : data) {
    const bool part = c.isDigit() || c == u'.' || c == u'-' || c == u'e' || c == u'+';
    if (part && !inNumber) ++numbers;
    inNumber = part;
  }
  return numbers / 2;
}

Svg parseSvg(const QByteArray& bytes) {
  Svg s;
  QXmlStreamReader xml(bytes);
  bool first = true;
  QStringList anchors{QString()};  // text-anchor of the enclosing groups
  while (!xml.atEnd()) {
    const QXmlStreamReader::TokenType token = xml.readNext();
    if (token == QXmlStreamReader::EndElement && xml.name() == u"g") anchors.removeLast();
    if (token != QXmlStreamReader::StartElement) continue;
    const QStringView name = xml.name();
    if (name == u"g") {
      const QXmlStreamAttributes a = xml.attributes();
      anchors << (a.hasAttribute(QStringLiteral("text-anchor")) ? a.value(QStringLiteral("text-anchor")).toString()
                                                                  : anchors.last());
    }
    if (first) {
      s.rootIsSvg = name == u"svg";
      s.size = QSizeF(xml.attributes().value(QStringLiteral("width")).toDouble(),
                      xml.attributes().value(QStringLiteral("height")).toDouble());
      first = false;
    }
    if (name == u"polyline" && xml.attributes().hasAttribute(QStringLiteral("data-series"))) {
      QList<QPointF>& pts = s.series[xml.attributes().value(QStringLiteral("data-series")).toString()];
      const QStringList pairs = xml.attributes().value(QStringLiteral("points")).toString().split(
          QLatin1Char(' '), Qt::SkipEmptyParts);
      for (const QString& pair : pairs) {
        const QStringList xy = pair.split(QLatin1Char(','));
        if (xy.size() == 2) pts << QPointF(xy[0].toDouble(), xy[1].toDouble());
      }
    }
    if (name == u"polyline" || name == u"path" || name == u"polygon") {
      const QXmlStreamAttributes a = xml.attributes();
      const int n = pointCount(a.hasAttribute(QStringLiteral("points")) ? a.value(QStringLiteral("points"))
                                                                         : a.value(QStringLiteral("d")));
      s.maxPoints = std::max(s.maxPoints, n);
      if (n >= 50) ++s.curves;
    } else if (name == u"text") {
      const QXmlStreamAttributes a = xml.attributes();
      const QString anchor = a.hasAttribute(QStringLiteral("text-anchor")) ? a.value(QStringLiteral("text-anchor")).toString()
                                                                           : anchors.last();
      const QPointF at(a.value(QStringLiteral("x")).toDouble(), a.value(QStringLiteral("y")).toDouble());
      s.texts << xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed();
      if (anchor == QStringLiteral("middle")) s.middleTexts << std::pair{at, s.texts.back()};
    }
  }
  if (xml.hasError()) s.error = xml.errorString();
  return s;
}

// RICOCHET_KEEP_EXPORTS=1 keeps the exported files for a look (their folder is printed).
void keepIfAsked(QTemporaryDir& dir) {
  if (qEnvironmentVariableIsEmpty("RICOCHET_KEEP_EXPORTS")) return;
  dir.setAutoRemove(false);
  qInfo("exports kept in %s", qPrintable(dir.path()));
}

QStringList fileNames(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

// A running window with a few hundred plotted points, then paused (so the plots stay put).
std::unique_ptr<MainWindow> runningWindow(const QString& system, double t) {
  auto w = openWindow(freshOptions(system));
  if (!waitForTimeBeyond(*w, t, 30000)) return nullptr;
  w->playAction()->trigger();
  if (!waitFor([&] { return w->lastSnapshot() && !w->lastSnapshot()->running; })) return nullptr;
  return w;
}

}  // namespace

class TestGuiExportPlots : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (ricochet::systems().empty()) QSKIP("no system registered");
  }
  void init() { QSettings().clear(); }

  // The real dialog, found as the active modal widget once it is up: PNG at a custom 900 x 700,
  // then SVG, each through the Export button.
  void pngAndSvgThroughTheDialog() {
    QTemporaryDir dir;
    keepIfAsked(dir);
    auto w = runningWindow(QStringLiteral("particle-floor"), 1.0);
    QVERIFY(w);
    const PlotPanel* plots = w->plots();
    QVERIFY(plots->plottedTimes(PlotPanel::Energy).size() >= 50);
    const QStringList energySeries = plots->seriesNames(PlotPanel::Energy);
    QVERIFY(energySeries.size() >= 2);

    // On the File toolbar, shown within the 1280 px wide window.
    QWidget* button = w->fileActions()->toolBar()->widgetForAction(w->fileActions()->exportPlotsAction());
    QVERIFY(button && button->isVisible());
    QVERIFY(button->mapTo(w.get(), QPoint(button->width(), 0)).x() <= w->width());

    const QString png = dir.filePath(QStringLiteral("bounce.png"));
    bool sawDialog = false;
    QSize defaultSize;
    PlotFormat defaultFormat = PlotFormat::Svg;
    QTimer::singleShot(0, this, [&] {
      auto* d = qobject_cast<PlotExportDialog*>(QApplication::activeModalWidget());
      if (!d) return;
      sawDialog = true;
      defaultSize = QSize(d->widthSpin()->value(), d->heightSpin()->value());
      defaultFormat = d->format();
      d->sizeCombo()->setCurrentIndex(d->sizeCombo()->count() - 1);  // Custom
      d->widthSpin()->setValue(900);
      d->heightSpin()->setValue(700);
      d->pathEdit()->setText(png);
      auto* box = d->findChild<QDialogButtonBox*>();
      QTest::mouseClick(box->button(QDialogButtonBox::Ok), Qt::LeftButton);
    });
    w->fileActions()->exportPlotsAction()->trigger();
    QVERIFY(waitFor([&] { return QFileInfo::exists(png); }, 30000));
    QVERIFY(sawDialog);
    QCOMPARE(defaultSize, QSize(1600, 1000));
    QCOMPARE(defaultFormat, PlotFormat::Png);

    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(900, 700));
    QVERIFY2(greyVariance(image) > 50.0, qPrintable(QString::number(greyVariance(image))));
    // The curves in PlotPanel's palette (Okabe-Ito): total energy near-black #222222, kinetic
    // vermillion #D55E00, potential blue #0072B2, e.discrete green #009E73 (dashed); the momentum
    // chart's first series is blue as well. Each is a line of ~1.7 px across most of the width.
    QVERIFY2(pixelsNear(image, qRgb(0x00, 0x72, 0xB2), 40) > 400,
             qPrintable(QString::number(pixelsNear(image, qRgb(0x00, 0x72, 0xB2), 40))));
    QVERIFY2(pixelsNear(image, qRgb(0x00, 0x9E, 0x73), 40) > 400,
             qPrintable(QString::number(pixelsNear(image, qRgb(0x00, 0x9E, 0x73), 40))));
    QVERIFY(w->statusBar()->currentMessage().contains(QStringLiteral("bounce.png")));

    // SVG through the dialog again.
    const QString svg = dir.filePath(QStringLiteral("bounce.svg"));
    sawDialog = false;
    QTimer::singleShot(0, this, [&] {
      auto* d = qobject_cast<PlotExportDialog*>(QApplication::activeModalWidget());
      if (!d) return;
      sawDialog = true;
      d->setFormat(PlotFormat::Svg);
      QVERIFY(d->pathEdit()->text().endsWith(QStringLiteral(".svg")));  // follows the format
      d->pathEdit()->setText(svg);
      d->accept();
    });
    w->fileActions()->exportPlotsAction()->trigger();
    QVERIFY(waitFor([&] { return QFileInfo::exists(svg); }, 30000));
    QVERIFY(sawDialog);
    const Svg s = parseSvg(readAll(svg));
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QVERIFY(s.rootIsSvg);
    // Every plotted series is a vector curve with (about) as many points as on screen.
    const int plotted = int(plots->plottedTimes(PlotPanel::Energy).size());
    int series = 0;
    for (PlotPanel::Chart c : {PlotPanel::Energy, PlotPanel::Error, PlotPanel::Momentum}) {
      if (plots->chartVisible(c)) series += int(plots->seriesNames(c).size());
    }
    QVERIFY2(s.curves >= series, qPrintable(QStringLiteral("%1 curves, %2 series").arg(s.curves).arg(series)));
    QVERIFY2(s.maxPoints >= plotted / 2, qPrintable(QStringLiteral("%1 of %2").arg(s.maxPoints).arg(plotted)));
    QCOMPARE(s.size, QSizeF(1600, 1000));  // the dialog's default size
    // The curves are the plotted data, mapped to the page by one affine map per axis to within
    // the file's 0.01 px rounding: x from t, y from the value, y growing downwards.
    const std::vector<double> t = plots->plottedTimes(PlotPanel::Energy);
    for (const QString& name : energySeries) {
      const std::vector<double> v = plots->plottedValues(PlotPanel::Energy, name);
      const QList<QPointF> pts = s.series.value(name);
      QCOMPARE(std::size_t(pts.size()), t.size());
      std::size_t far = 0;  // the point farthest in value from the first: the y map's anchor
      for (std::size_t k = 0; k < v.size(); ++k) {
        if (std::fabs(v[k] - v[0]) > std::fabs(v[far] - v[0])) far = k;
      }
      const double bx = (pts.back().x() - pts.front().x()) / (t.back() - t.front());
      const double ax = pts.front().x() - bx * t.front();
      QVERIFY(bx > 0.0);
      const bool flat = std::fabs(v[far] - v[0]) < 1e-9 * (1.0 + std::fabs(v[0]));
      const double by = flat ? 0.0 : (pts[qsizetype(far)].y() - pts[0].y()) / (v[far] - v[0]);
      const double ay = pts[0].y() - by * v[0];
      QVERIFY2(flat || by < 0.0, qPrintable(name));
      double worst = 0.0;
      for (std::size_t k = 0; k < t.size(); ++k) {
        const QPointF p = pts[qsizetype(k)];
        worst = std::max({worst, std::fabs(ax + bx * t[k] - p.x()), std::fabs(ay + by * v[k] - p.y())});
        QVERIFY(p.x() >= 0 && p.x() <= 1600 && p.y() >= 0 && p.y() <= 1000);
      }
      QVERIFY2(worst < 0.03, qPrintable(QStringLiteral("%1: %2 px off").arg(name).arg(worst)));
      // The time axis's tick labels (numbers, centred under the lowest chart) sit at their values
      // on the curves' map, written as the panel writes them.
      int ticks = 0;
      for (const auto& [at, text] : s.middleTexts) {
        bool ok = false;
        const double v = text.toDouble(&ok);
        if (!ok) continue;
        QVERIFY2(std::fabs(ax + bx * v - at.x()) < 0.03, qPrintable(QStringLiteral("%1: %2").arg(name, text)));
        QVERIFY(at.y() > 0.9 * 1000);  // under the lowest chart
        ++ticks;
      }
      QVERIFY2(ticks >= 5, qPrintable(QString::number(ticks)));
    }
    // Axis titles and the legend's series names as text.
    QVERIFY2(s.texts.contains(QStringLiteral("t [s]")), qPrintable(s.texts.join(QStringLiteral(" | "))));
    QVERIFY(s.texts.contains(QStringLiteral("energy [J]")));
    // (Series drawn as one share an entry: "total = e.discrete".)
    for (const QString& name : energySeries) {
      QVERIFY2(std::any_of(s.texts.begin(), s.texts.end(),
                           [&](const QString& t) { return t.split(QStringLiteral(" = ")).contains(name); }),
               qPrintable(name));
    }
    QCOMPARE(fileNames(dir.path()), (QStringList{QStringLiteral("bounce.png"), QStringLiteral("bounce.svg")}));
  }

  // One chart alone, at the paper-print preset: the energy error chart fills the picture and
  // carries the time axis itself.
  void singleChartAtAPreset() {
    QTemporaryDir dir;
    keepIfAsked(dir);
    auto w = runningWindow(QStringLiteral("ellipse-floor"), 0.5);
    QVERIFY(w);
    PlotExportRequest r;
    r.format = PlotFormat::Svg;
    r.output = dir.filePath(QStringLiteral("error.svg"));
    r.size = QSize(3200, 2000);
    r.charts = PlotSelection::Error;
    QCOMPARE(exporter(*w)->start(r), QString());
    const Svg s = parseSvg(readAll(r.output));
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QVERIFY(s.texts.contains(QStringLiteral("t [s]")));
    QVERIFY(!s.texts.contains(QStringLiteral("energy [J]")));  // only the error chart
    QVERIFY(s.curves >= 1);

    r.format = PlotFormat::Png;
    r.output = dir.filePath(QStringLiteral("error.png"));
    // The render holds the GUI thread (a few hundred ms at this size): meanwhile the X server
    // shows the busy cursor over the window (watched from another thread), and after it the
    // usual one.
    void* display = xcursor::openDisplay();
    QVERIFY(display);
    QCursor::setPos(w->editor()->mapToGlobal(w->editor()->rect().center()));
    const auto shown = [&] {
      QCoreApplication::processEvents();
      QTest::qWait(100);
      return xcursor::shownCursor(display);
    };
    const quint64 normal = shown();
    QGuiApplication::setOverrideCursor(Qt::WaitCursor);
    const quint64 busy = shown();
    QGuiApplication::restoreOverrideCursor();
    QCOMPARE(shown(), normal);
    QVERIFY(busy != 0 && busy != normal);
    std::atomic<bool> exporting{true}, sawBusy{false};
    std::thread watcher([&] {
      void* own = xcursor::openDisplay();
      while (own && exporting.load()) {
        if (xcursor::shownCursor(own) == busy) sawBusy = true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      xcursor::closeDisplay(own);
    });
    QElapsedTimer clock;
    clock.start();
    const QString error = exporter(*w)->start(r);
    const qint64 busyMs = clock.elapsed();
    exporting = false;
    watcher.join();
    QCOMPARE(error, QString());
    qInfo("3200x2000 PNG: the GUI thread was busy %lld ms", (long long)busyMs);
    QVERIFY(sawBusy.load());
    QVERIFY(!QGuiApplication::overrideCursor());
    QCOMPARE(shown(), normal);
    xcursor::closeDisplay(display);
    const QImage image(r.output);
    QCOMPARE(image.size(), QSize(3200, 2000));
    QVERIFY(greyVariance(image) > 20.0);
    QCOMPARE(ricochet::app::plotExportScale(r.size), 4.0);
    QCOMPARE(ricochet::app::plotExportScale(QSize(1600, 1000)), 2.0);
    QCOMPARE(ricochet::app::plotExportScale(QSize(400, 300)), 1.0);
  }

  // Every system: a PNG and an SVG of its plots (whatever series and charts it has: SE(3) bodies
  // have momenta, some systems none), each series a curve in the SVG.
  void everySystemExports() {
    QTemporaryDir dir;
    keepIfAsked(dir);
    for (const auto* system : ricochet::systems()) {
      const QString id = QString::fromStdString(system->info().id);
      auto w = runningWindow(id, 0.2);
      QVERIFY2(w, qPrintable(id));
      PlotExportRequest r;
      r.size = QSize(800, 600);
      r.output = dir.filePath(id + QStringLiteral(".png"));
      QCOMPARE(exporter(*w)->start(r), QString());
      const QImage image(r.output);
      QCOMPARE(image.size(), QSize(800, 600));
      QVERIFY2(greyVariance(image) > 20.0, qPrintable(id));
      r.format = PlotFormat::Svg;
      r.output = dir.filePath(id + QStringLiteral(".svg"));
      QCOMPARE(exporter(*w)->start(r), QString());
      const Svg s = parseSvg(readAll(r.output));
      QVERIFY2(s.error.isEmpty(), qPrintable(id + QStringLiteral(": ") + s.error));
      for (PlotPanel::Chart c : {PlotPanel::Energy, PlotPanel::Error, PlotPanel::Momentum}) {
        if (!w->plots()->chartVisible(c)) continue;
        for (const QString& name : w->plots()->seriesNames(c)) {
          QVERIFY2(s.series.value(name).size() >= 2, qPrintable(id + QStringLiteral(": ") + name));
        }
      }
    }
  }

  // Targets that cannot be written: one message naming the path, no file (not even a temporary
  // one) anywhere; the dialog refuses a missing folder before exporting.
  void unwritableTargetIsReported() {
    QTemporaryDir dir;
    auto w = runningWindow(QStringLiteral("particle-floor"), 0.3);
    QVERIFY(w);
    QVERIFY(writeFile(dir.filePath(QStringLiteral("notes.txt")), "not a folder\n"));
    for (const QString& bad : {dir.filePath(QStringLiteral("notes.txt/plots.png")),
                               dir.filePath(QStringLiteral("missing-folder/plots.svg"))}) {
      PlotExportRequest r;
      r.format = bad.endsWith(QStringLiteral(".svg")) ? PlotFormat::Svg : PlotFormat::Png;
      r.output = bad;
      const QString error = exporter(*w)->start(r);
      QVERIFY2(error.contains(QDir::toNativeSeparators(bad)), qPrintable(error));
      int boxes = 0;
      QVERIFY(waitForBoxText(*w, &boxes).contains(QDir::toNativeSeparators(bad)));
      QCOMPARE(boxes, 1);
      closeBoxes(*w);
    }
    QCOMPARE(fileNames(dir.path()), QStringList{QStringLiteral("notes.txt")});

    // The dialog itself refuses a folder that does not exist and stays open.
    w->fileActions()->exportPlotsAction()->trigger();
    auto* d = exporter(*w)->dialog();
    QVERIFY(d && d->isVisible());
    d->pathEdit()->setText(dir.filePath(QStringLiteral("missing-folder/plots.png")));
    d->accept();
    QVERIFY(d->isVisible());
    QVERIFY(d->errorLabel()->text().contains(QStringLiteral("missing-folder")));
    d->reject();
    QCOMPARE(fileNames(dir.path()), QStringList{QStringLiteral("notes.txt")});
  }
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiExportPlots>(argc, argv, "test_gui_export_plots");
}

#include "test_gui_export_plots.moc"

#include <X11/Xlib.h>
#include <X11/extensions/Xfixes.h>

namespace xcursor {
void* openDisplay() { return XOpenDisplay(nullptr); }
void closeDisplay(void* display) {
  if (display) XCloseDisplay(static_cast<Display*>(display));
}
quint64 shownCursor(void* display) {
  XFixesCursorImage* image = XFixesGetCursorImage(static_cast<Display*>(display));
  if (!image) return 0;
  quint64 h = 1469598103934665603ull;  // FNV-1a over the size and the ARGB pixels
  auto mix = [&h](quint64 v) { h = (h ^ v) * 1099511628211ull; };
  mix(image->width);
  mix(image->height);
  for (int i = 0; i < image->width * image->height; ++i) mix(quint64(image->pixels[i]));
  XFree(image);
  return h;
}
}  // namespace xcursor
