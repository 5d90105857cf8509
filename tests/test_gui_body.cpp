// The Body section of the scenario editor (rigid-body), through the real widgets: Import Mesh...
// drives the real file dialog, drops of mesh files onto the section and onto the window, the
// computed mass, centre of mass and principal inertia against closed forms, bad meshes and a
// negative size refused with the CLI's message while the previous run goes on, the density
// switch, a primitive replacing a mesh, undo, and a saved mesh scenario that opens again.
// It also writes <build>/screenshots/body-section.png (the window at its default size) and
// body-section-refused.png (the section showing a failed read).
//
// Run by hand: xvfb-run -a -s "-screen 0 1280x1024x24" build/bin/test_gui_body

#include "test_gui_export_support.hpp"

#include "app/desktop/bodies/body_editor.hpp"
#include "app/desktop/bodies/walls_editor.hpp"
#include "app/desktop/file_actions.hpp"
#include "app/desktop/scenario/scenario_files.hpp"
#include "core/io/body_io.hpp"
#include "core/se3/rigid_body.hpp"
#include "core/se3/rigid_body_system.hpp"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFileDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QUrl>

#include <Eigen/Core>
#include <Eigen/LU>

#include <array>
#include <fstream>
#include <sstream>
#include <vector>

using namespace exporttest;
using namespace guitest;
using ricochet::BodyNode;
using ricochet::app::BodyEditor;
using ricochet::app::WallsEditor;

namespace {

using Vec3 = Eigen::Vector3d;
using Triangle = std::array<int, 3>;

void writeText(const QString& path, const std::string& text) {
  std::ofstream out(QFile::encodeName(path).toStdString(), std::ios::binary);
  out << text;
}

std::string number(double x) {
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

void writeAsciiStl(const QString& path, const std::vector<Vec3>& points,
                   const std::vector<Triangle>& triangles) {
  std::string s = "solid test\n";
  for (const Triangle& t : triangles) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (int k : t) {
      const Vec3& p = points[std::size_t(k)];
      s += "   vertex " + number(p.x()) + " " + number(p.y()) + " " + number(p.z()) + "\n";
    }
    s += "  endloop\n endfacet\n";
  }
  writeText(path, s + "endsolid test\n");
}

// A box of edges (1, 2, 3) with its low corner at (0.5, 0.25, 1). Centre (1, 1.25, 2.5); with mass
// m its principal moments are m (b^2 + c^2)/12 ... in ascending order: 5/12, 10/12, 13/12 for m
// = 1. Without its +x face (`open`), the surface has a hole bordered by 4 edges; the body, its
// hull, is the same box.
void writeBox(const QString& path, bool open = false) {
  std::vector<Vec3> p;
  for (int i = 0; i < 8; ++i) {
    p.emplace_back(0.5 + (i & 1 ? 1.0 : 0.0), 0.25 + (i & 2 ? 2.0 : 0.0),
                   1.0 + (i & 4 ? 3.0 : 0.0));
  }
  std::vector<Triangle> t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                             {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  if (open) t.resize(10);
  writeAsciiStl(path, p, t);
}

// The right tetrahedron 0, L e1, L e2, L e3 (L = 3) moved by (2, -1, 0.5): centroid offset +
// L/4. For L = 1, about the centroid, J = rho (I/96 + ones/480) with rho = 6 m: eigenvalues m/16
// (twice) and m/10; they scale with L^2.
const Vec3 kTetraOffset(2.0, -1.0, 0.5);
constexpr double kTetraEdge = 3.0;
void writeTetrahedron(const QString& path, double L = kTetraEdge) {
  const std::vector<Vec3> p = {kTetraOffset, kTetraOffset + L * Vec3::UnitX(),
                               kTetraOffset + L * Vec3::UnitY(), kTetraOffset + L * Vec3::UnitZ()};
  writeAsciiStl(path, p, {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}});
}

// The numbers in `text`, in order ("(1, 1.25, 2.5) m" -> 1, 1.25, 2.5).
std::vector<double> numbersIn(const QString& text) {
  static const QRegularExpression re(
      QStringLiteral("[-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?"));
  std::vector<double> out;
  for (auto it = re.globalMatch(text); it.hasNext();)
    out.push_back(it.next().captured(0).toDouble());
  return out;
}

bool near(double a, double b, double rel) {
  return std::abs(a - b) <= rel * std::max(std::abs(b), 1e-300);
}

// The figures the section shows: full precision from the tooltips, six digits from the text.
// Each must match `expected` (mass, then centre, then principal moments).
void checkShown(BodyEditor* body, double mass, const Vec3& centre, const Vec3& moments) {
  const auto full = [&](const char* name) {
    return numbersIn(body->figureLabel(QLatin1String(name))->toolTip());
  };
  const auto shown = [&](const char* name) {
    return numbersIn(body->figureLabel(QLatin1String(name))->text());
  };
  const std::vector<double> m = full("mass"), c = full("centre"), I = full("inertia");
  QVERIFY2(m.size() >= 1 && c.size() >= 3 && I.size() >= 3,
           qPrintable(body->figureLabel(QStringLiteral("mass"))->toolTip()));
  QVERIFY2(near(m[0], mass, 1e-9),
           qPrintable(
               QStringLiteral("mass %1, expected %2").arg(m[0], 0, 'g', 17).arg(mass, 0, 'g', 17)));
  for (int k = 0; k < 3; ++k) {
    // A zero coordinate of the centre comes out as round-off of the sizes.
    QVERIFY2(std::abs(c[std::size_t(k)] - centre[k]) <= 1e-9 * std::max(1.0, centre.norm()),
             qPrintable(QStringLiteral("centre[%1] = %2, expected %3")
                            .arg(k)
                            .arg(c[std::size_t(k)], 0, 'g', 17)
                            .arg(centre[k])));
    QVERIFY2(near(I[std::size_t(k)], moments[k], 1e-9),
             qPrintable(QStringLiteral("I[%1] = %2, expected %3")
                            .arg(k)
                            .arg(I[std::size_t(k)], 0, 'g', 17)
                            .arg(moments[k], 0, 'g', 17)));
  }
  // The text: six significant digits, with units.
  QVERIFY(body->figureLabel(QStringLiteral("mass"))->text().endsWith(QStringLiteral(" kg")));
  QVERIFY(body->figureLabel(QStringLiteral("centre"))->text().endsWith(QStringLiteral(") m")));
  QVERIFY(
      body->figureLabel(QStringLiteral("inertia"))->text().endsWith(QStringLiteral("kg m\u00b2")));
  QVERIFY(near(shown("mass")[0], mass, 5e-6));
  for (int k = 0; k < 3; ++k) {
    QVERIFY(std::abs(shown("centre")[std::size_t(k)] - centre[k]) <=
            5e-6 * std::max(1.0, centre.norm()));
    QVERIFY(near(shown("inertia")[std::size_t(k)], moments[k], 5e-6));
  }
}

}  // namespace

class TestGuiBody : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    if (!ricochet::findSystem("rigid-body")) QSKIP("rigid-body missing");
    // Qt's own dialog, whatever the desktop: the test types into it.
    QCoreApplication::setAttribute(Qt::AA_DontUseNativeDialogs, true);
    QVERIFY(dir_.isValid());
    writeBox(dir_.filePath(QStringLiteral("box.stl")));
    writeBox(dir_.filePath(QStringLiteral("open-box.stl")), true);
    writeTetrahedron(dir_.filePath(QStringLiteral("tetra.stl")));
    writeTetrahedron(dir_.filePath(QStringLiteral("small-tetra.stl")), 0.25);
  }
  void init() { QSettings().clear(); }

  // The section is there for rigid-body only.
  void shownForRigidBodyOnly() {
    auto w = openWindow(freshOptions(QStringLiteral("particle-floor")));
    QVERIFY(waitForTimeBeyond(*w, 0.05));
    BodyEditor* body = w->editor()->bodyEditor();
    QVERIFY(body->isHidden());
    QVERIFY(pickSystem(*w, QStringLiteral("rigid-body")));
    QVERIFY(waitFor([&] { return body->isVisible() && body->figures().has_value(); }));
    // The default body, cube-plane's cube of side 2 sqrt(3) with mass m = 1: J = 2 m.
    QCOMPARE(body->shapeCombo()->currentText(), QStringLiteral("Box"));
    checkShown(body, 1.0, Vec3::Zero(), Vec3::Constant(2.0));
    QVERIFY(pickSystem(*w, QStringLiteral("particle-floor")));
    QVERIFY(body->isHidden());
    // A world of several bodies lists its bodies instead (the default: the stack drop).
    QVERIFY(pickSystem(*w, QStringLiteral("bodies")));
    QVERIFY(waitFor([&] { return w->editor()->bodiesLabel()->isVisible(); }));
    QVERIFY(body->isHidden());
    const QString list = w->editor()->bodiesLabel()->text();
    QVERIFY2(list.contains(QStringLiteral("Bodies (2)")) && list.contains(QStringLiteral("lower: sphere, 1 kg")) &&
                 list.contains(QStringLiteral("upper: sphere, 0.1 kg")),
             qPrintable(list));
    QVERIFY(pickSystem(*w, QStringLiteral("rigid-body")));
    QVERIFY(waitFor([&] { return body->isVisible(); }));
    QVERIFY(!w->editor()->bodiesLabel()->isVisible());
  }

  // Import Mesh... opens the file dialog; the path typed there is read in the background and
  // becomes the body; the section shows its exact mass properties.
  void importThroughTheDialog() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    QPointer<QFileDialog> dialog;
    QTest::mouseClick(body->importButton(), Qt::LeftButton);
    QVERIFY(waitFor([&] {
      for (QWidget* top : QApplication::topLevelWidgets()) {
        auto* d = qobject_cast<QFileDialog*>(top);
        if (d && d->isVisible() && d->objectName() == QStringLiteral("importMeshDialog"))
          dialog = d;
      }
      return dialog != nullptr;
    }));
    QVERIFY(dialog->nameFilters().join(QString()).contains(QStringLiteral("*.stl *.obj *.ply")));
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QVERIFY(name);
    // Into the folder, then the file's name typed and Return, as a user would.
    dialog->setDirectory(dir_.path());
    name->setFocus();
    QTest::keyClicks(name, QStringLiteral("box.stl"));
    QTest::keyClick(name, Qt::Key_Return);
    QVERIFY(waitForMeshRun(*w, QStringLiteral("box.stl")));
    QVERIFY(!dialog || !dialog->isVisible());
    checkShown(body, 1.0, Vec3(1.0, 1.25, 2.5), Vec3(5.0 / 12.0, 10.0 / 12.0, 13.0 / 12.0));
    QCOMPARE(body->shapeCombo()->currentText(), QStringLiteral("Mesh"));
    QVERIFY2(body->summaryLabel()->text().contains(QStringLiteral("box.stl")),
             qPrintable(body->summaryLabel()->text()));
    QVERIFY(
        body->figureLabel(QStringLiteral("hull"))->text().startsWith(QStringLiteral("8 vertices")));
    QVERIFY(!body->sizeField(0)->isVisible());
    QVERIFY(!body->hasError());

    // The window at its default size, with the section scrolled into view: look at it.
    w->resize(1280, 800);
    if (auto* scroll = qobject_cast<QScrollArea*>(w->editor()->parentWidget()->parentWidget())) {
      scroll->ensureWidgetVisible(body->importButton(), 0, 200);
    }
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.5));
    QTest::qWait(100);
    QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots"));
    QVERIFY(w->grab().toImage().save(
        QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/body-section.png")));
  }

  // A small mesh imported over the default cube keeps the cube's initial angular *velocity*:
  // its angular momentum becomes J_new J_old^-1 Pi (the cube's Pi on a 0.25 m tetrahedron would
  // spin it at hundreds of rad/s, too fast to start), and the run goes.
  void importKeepsTheInitialAngularVelocity() {
    auto w = openRigidBody();
    QVERIFY(w);
    const ricochet::Scenario before = w->currentRun()->scenario;
    const auto& names = ricochet::findSystem("rigid-body")->info().initial;
    std::array<std::size_t, 3> at{};
    for (std::size_t i = 0; i < names.size(); ++i) {
      for (std::size_t k = 0; k < 3; ++k) {
        if (names[i].name == "Pi" + std::to_string(k + 1) + "_0") at[k] = i;
      }
    }
    const auto pi = [&](const ricochet::Scenario& s) {
      return Vec3(s.initial[at[0]], s.initial[at[1]], s.initial[at[2]]);
    };
    // J of a scenario's body (with mass 1: the same factor for both, so omega compares).
    const auto inertia = [&](const ricochet::Scenario& s) {
      const auto& params = ricochet::findSystem("rigid-body")->info().parameters;
      double eps = 0.0;
      for (std::size_t i = 0; i < params.size(); ++i) {
        if (params[i].name == "epsilon") eps = s.parameters[i];
      }
      return ricochet::se3::buildBody(*s.body, eps, 1.0).J;
    };
    const Vec3 omegaBefore = inertia(before).inverse() * pi(before);
    QVERIFY(omegaBefore.norm() > 1.0);
    BodyEditor* body = w->editor()->bodyEditor();
    body->importMesh(dir_.filePath(QStringLiteral("small-tetra.stl")));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("small-tetra.stl")));
    const auto run = w->currentRun();
    const Vec3 omegaAfter = inertia(run->scenario).inverse() * pi(run->scenario);
    QVERIFY2((omegaAfter - omegaBefore).norm() <= 1e-12 * omegaBefore.norm(),
             qPrintable(QStringLiteral("%1 %2 %3").arg(omegaAfter.x()).arg(omegaAfter.y()).arg(omegaAfter.z())));
    QVERIFY(pi(run->scenario).norm() < 1e-2 * pi(before).norm());  // a far smaller inertia
    QVERIFY(!body->hasError());
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.2));
  }

  // A mesh dropped onto the section becomes the body; so does one dropped onto the window.
  void dropOntoTheSectionAndTheWindow() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("tetra.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("tetra.stl")));
    const double L2 = kTetraEdge * kTetraEdge;
    checkShown(body, 1.0, kTetraOffset + Vec3::Constant(kTetraEdge / 4.0),
               Vec3(L2 / 16.0, L2 / 16.0, L2 / 10.0));
    QVERIFY(
        body->figureLabel(QStringLiteral("hull"))->text().startsWith(QStringLiteral("4 vertices")));
    // Onto the main window (its drop handling sends meshes to the section).
    QVERIFY(drop(w.get(), dir_.filePath(QStringLiteral("box.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("box.stl")));
    checkShown(body, 1.0, Vec3(1.0, 1.25, 2.5), Vec3(5.0 / 12.0, 10.0 / 12.0, 13.0 / 12.0));
    QCOMPARE(body->summaryLabel()->text(), QStringLiteral("mesh 'box.stl', 8 vertices"));
    // An open surface is accepted as its hull (the same box), and the summary says it is open.
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("open-box.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("open-box.stl")));
    checkShown(body, 1.0, Vec3(1.0, 1.25, 2.5), Vec3(5.0 / 12.0, 10.0 / 12.0, 13.0 / 12.0));
    QCOMPARE(
        body->summaryLabel()->text(),
        QStringLiteral("mesh 'open-box.stl', 8 vertices; open (4 edges belong to one face only)"));
    QVERIFY(!body->hasError());
    // A file that is not a mesh is not taken.
    writeText(dir_.filePath(QStringLiteral("notes.txt")), "hello");
    QVERIFY(!drop(body, dir_.filePath(QStringLiteral("notes.txt"))));
  }

  // A mesh that cannot be read (a NaN coordinate) and one that is no solid (three points) mark
  // the section red with the reader's or the body's message, the CLI's words; the run goes on.
  void badMeshesKeepTheRun() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    const QString nan = dir_.filePath(QStringLiteral("nan.ply"));
    writeText(nan,
              "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
              "property float z\nend_header\n0 0 0\n1 0 0\n0 1 0\nnan 0 1\n");
    BodyNode unused;
    const QString readError = QString::fromStdString(
        ricochet::io::meshBody(QFile::encodeName(nan).toStdString(), unused));
    QVERIFY(readError.contains(QStringLiteral("non-finite")));
    const std::uint64_t generation = w->currentRun()->generation;
    const auto scenarioBefore = w->currentRun()->scenario;
    body->importMesh(nan);
    QVERIFY(waitFor([&] { return body->pendingReads() == 0 && body->hasError(); }));
    QVERIFY2(w->editor()->messageFor(body->importButton()).contains(readError),
             qPrintable(w->editor()->messageFor(body->importButton())));
    QVERIFY(body->findChild<QLabel*>(QStringLiteral("bodyMessage"))->isVisible());
    QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots"));
    QVERIFY(body->grab().toImage().save(
        QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/body-section-refused.png")));
    QCOMPARE(w->currentRun()->generation, generation);
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    QCOMPARE(w->lastSnapshot()->generation, generation);
    QVERIFY(ricochet::io::sameScenario(w->currentRun()->scenario, scenarioBefore));

    // Three points: read, but the worker refuses the body, with the message ricochet-cli prints.
    const QString tri = dir_.filePath(QStringLiteral("tri.stl"));
    writeAsciiStl(tri, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}, {{0, 1, 2}});
    ricochet::Scenario expected = scenarioBefore;
    auto candidate = std::make_shared<ricochet::BodyScenario>(*expected.body);
    QVERIFY(ricochet::io::meshBody(QFile::encodeName(tri).toStdString(), candidate->body).empty());
    expected.body = candidate;
    const QString bodyError =
        QString::fromStdString(ricochet::se3::makeRigidBodySetup(expected).error);
    QVERIFY2(bodyError.contains(QStringLiteral("a solid needs four")), qPrintable(bodyError));
    QVERIFY(drop(body, tri));
    QVERIFY(waitFor([&] {
      return body->pendingReads() == 0 && body->hasError() &&
             w->editor()->messageFor(body->importButton()).contains(bodyError);
    }));
    QCOMPARE(w->currentRun()->generation, generation);
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    QCOMPARE(w->lastSnapshot()->generation, generation);
    checkShown(body, 1.0, Vec3::Zero(), Vec3::Constant(2.0));  // still the cube's figures

    // A good mesh afterwards clears the mark.
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("tetra.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("tetra.stl")));
    QVERIFY(!body->hasError());
  }

  // A negative size goes to the worker, which refuses it with buildBody's message (what the CLI
  // prints for the same body); the field turns red and the cube goes on.
  void negativeSizeIsRefused() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    const std::uint64_t generation = w->currentRun()->generation;
    QVERIFY(body->sizeField(0)->isVisible());
    typeInto(body->sizeField(0), QStringLiteral("-1"));
    const QString expected = QStringLiteral("body: box size x = -1 m must be > 0");
    QVERIFY(waitFor([&] { return body->sizeField(0)->hasError(); }));
    QCOMPARE(body->sizeField(0)->error(), expected);
    QVERIFY2(w->editor()->messageFor(body->sizeField(0)).startsWith(expected),
             qPrintable(w->editor()->messageFor(body->sizeField(0))));
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    QCOMPARE(w->lastSnapshot()->generation, generation);
    QCOMPARE(w->currentRun()->scenario.body->body.size.x(), 2.0 * std::sqrt(3.0));
    // The user corrects it: an edge of 1 along x runs, J = m (b^2 + c^2)/12 ... = (2, 13/12,
    // 13/12).
    typeInto(body->sizeField(0), QStringLiteral("1"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation && body->figures(); }));
    QVERIFY(!body->sizeField(0)->hasError());
    QVERIFY(!body->hasError());
    checkShown(body, 1.0, Vec3::Zero(), Vec3(13.0 / 12.0, 13.0 / 12.0, 2.0));

    // A box 30 m tall around a centre 10 m up cuts the ground: refused with the gap's message.
    const std::uint64_t running = w->currentRun()->generation;
    ricochet::Scenario tall = w->currentRun()->scenario;
    auto tallBody = std::make_shared<ricochet::BodyScenario>(*tall.body);
    tallBody->body.size.z() = 30.0;
    tall.body = tallBody;
    const QString gapError = QString::fromStdString(ricochet::se3::makeRigidBodySetup(tall).error);
    QVERIFY2(
        gapError.contains(QStringLiteral("'plane'")) && gapError.contains(QStringLiteral("<= 0")),
        qPrintable(gapError));
    typeInto(body->sizeField(2), QStringLiteral("30"));
    QVERIFY(waitFor([&] { return body->sizeField(2)->hasError(); }));
    QCOMPARE(body->sizeField(2)->error(), gapError);
    QVERIFY(w->editor()->messageFor(body->sizeField(2)).startsWith(gapError));
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    QCOMPARE(w->lastSnapshot()->generation, running);
    QCOMPARE(w->currentRun()->scenario.body->body.size.z(), 2.0 * std::sqrt(3.0));
  }

  // A start height refused because the body cuts the ground does not ride along with the next
  // edits, and it is asked for again once its cause is fixed: after the body is made small
  // enough, z0 = 1.5 runs and its mark clears by itself.
  void refusalClearsOnceItsCauseIsFixed() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    ricochet::app::NumberField* z0 = w->editor()->initialField(QStringLiteral("z0"));
    QVERIFY(z0);
    typeInto(z0, QStringLiteral("1.5"));  // the default cube (half-diagonal 3 m) cuts the ground
    QVERIFY(waitFor([&] { return z0->hasError(); }));
    QVERIFY2(z0->error().contains(QStringLiteral("'plane'")), qPrintable(z0->error()));
    for (int axis = 0; axis < 3; ++axis) {
      const std::uint64_t before = w->currentRun()->generation;
      typeInto(body->sizeField(axis), QStringLiteral("1"));
      QVERIFY2(waitFor([&] { return w->currentRun()->generation != before; }),
               qPrintable(body->sizeField(axis)->error()));
      QVERIFY(!body->sizeField(axis)->hasError());
    }
    // A unit cube (half-diagonal 0.87 m) fits at 1.5 m: the refused value now runs.
    QVERIFY(waitFor([&] { return !z0->hasError(); }, 5000));
    QVERIFY(w->editor()->messageFor(z0).isEmpty());
    const auto& names = ricochet::findSystem("rigid-body")->info().initial;
    std::size_t iz = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i].name == "z0") iz = i;
    }
    QVERIFY(waitFor([&] { return w->currentRun()->scenario.initial[iz] == 1.5; }));
    QCOMPARE(w->currentRun()->scenario.body->body.size, Vec3::Ones());
  }

  // Mass from a density: the switch keeps the mass (to six digits), then 2700 kg/m^3 gives
  // density x volume; the parameter m is disabled meanwhile. A primitive replaces a mesh, and
  // Undo brings the mesh back.
  void densityShapeAndUndo() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    ricochet::app::NumberField* m = w->editor()->parameterField(QStringLiteral("m"));
    QVERIFY(m && m->isEnabled());
    const double volume = std::pow(2.0 * std::sqrt(3.0), 3.0);  // the cube, rounding 1e-13 aside
    std::uint64_t generation = w->currentRun()->generation;
    body->massCombo()->setFocus();
    QTest::keyClick(body->massCombo(), Qt::Key_End);  // "density"
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation; }));
    QVERIFY(w->currentRun()->scenario.body->density.has_value());
    QVERIFY(body->densityField()->isVisible());
    QVERIFY(!m->isEnabled());
    QVERIFY(near(body->figures()->mass, 1.0, 5e-6));
    QCOMPARE(body->densityField()->value(), *w->currentRun()->scenario.body->density);
    generation = w->currentRun()->generation;
    typeInto(body->densityField(), QStringLiteral("2700"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation; }));
    checkShown(body, 2700.0 * volume, Vec3::Zero(), Vec3::Constant(2.0 * 2700.0 * volume));
    // A negative density: refused with the body's message.
    generation = w->currentRun()->generation;
    typeInto(body->densityField(), QStringLiteral("-5"));
    QVERIFY(waitFor([&] { return body->densityField()->hasError(); }));
    QVERIFY2(body->densityField()->error().startsWith(QStringLiteral("body: density -5 kg/m^3")),
             qPrintable(body->densityField()->error()));
    QCOMPARE(w->currentRun()->generation, generation);
    // Back to the parameter m.
    body->massCombo()->setFocus();
    QTest::keyClick(body->massCombo(), Qt::Key_Home);
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation; }));
    QVERIFY(!w->currentRun()->scenario.body->density);
    QVERIFY(m->isEnabled());
    checkShown(body, 1.0, Vec3::Zero(), Vec3::Constant(2.0));

    // A mesh, then the ellipsoid inscribed in the cube's default size replaces it.
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("box.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("box.stl")));
    generation = w->currentRun()->generation;
    body->shapeCombo()->setFocus();
    QTest::keyClick(body->shapeCombo(), Qt::Key_Home);  // "Ellipsoid"
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation; }));
    QCOMPARE(w->currentRun()->scenario.body->body.shape, BodyNode::Shape::Ellipsoid);
    QCOMPARE(body->shapeCombo()->count(), 2);  // no "Mesh" entry any more
    QVERIFY(body->sizeField(0)->isVisible());
    QVERIFY(!body->epsilonField()->isVisible());
    checkShown(body, 1.0, Vec3::Zero(), Vec3::Constant(0.4 * 3.0));  // 2/5 m r^2, r = sqrt(3)
    generation = w->currentRun()->generation;
    w->findChild<QAction*>(QStringLiteral("undoAction"))->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation && body->figures(); }));
    QCOMPARE(w->currentRun()->scenario.body->body.shape, BodyNode::Shape::Mesh);
    QCOMPARE(body->shapeCombo()->currentText(), QStringLiteral("Mesh"));
    checkShown(body, 1.0, Vec3(1.0, 1.25, 2.5), Vec3(5.0 / 12.0, 10.0 / 12.0, 13.0 / 12.0));
  }

  // The epsilon field edits the parameter epsilon while the body gives none of its own.
  void epsilonGoesWhereTheBodyReadsIt() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    QVERIFY(body->epsilonField()->isVisible());
    const std::uint64_t generation = w->currentRun()->generation;
    typeInto(body->epsilonField(), QStringLiteral("0.01"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation != generation; }));
    const ricochet::Scenario& s = w->currentRun()->scenario;
    QVERIFY(!s.body->body.epsilon);
    QCOMPARE(w->editor()->parameterField(QStringLiteral("epsilon"))->value(), 0.01);
    QCOMPARE(body->epsilonField()->value(), 0.01);
    // The cube rounded by 0.01 has a larger volume; its mass is still the parameter m.
    QVERIFY(near(body->figures()->mass, 1.0, 1e-15));
    QVERIFY(body->figures()->volume > std::pow(2.0 * std::sqrt(3.0), 3.0));
  }

  // Save writes the mesh path relative to the scenario file, with its MD5; the file opens again
  // and runs the same body.
  void savedMeshScenarioOpensAgain() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("box.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("box.stl")));
    QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("saved")));
    const QString file = dir_.filePath(QStringLiteral("saved/die.json"));
    ricochet::app::ScenarioFiles* files = w->fileActions()->scenarios();
    QCOMPARE(files->saveTo(file), QString());
    const QJsonObject saved = QJsonDocument::fromJson(readAll(file)).object();
    const QJsonObject b = saved.value(QStringLiteral("body")).toObject();
    QCOMPARE(b.value(QStringLiteral("shape")).toString(), QStringLiteral("mesh"));
    QCOMPARE(b.value(QStringLiteral("file")).toString(), QStringLiteral("../box.stl"));
    QCOMPARE(b.value(QStringLiteral("md5")).toString().size(), 32);

    // Another body, then the file again.
    QVERIFY(drop(body, dir_.filePath(QStringLiteral("tetra.stl"))));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("tetra.stl")));
    QVERIFY(files->open(file));
    QVERIFY(waitForMeshRun(*w, QStringLiteral("box.stl")));
    QCOMPARE(files->currentFile(), QFileInfo(file).absoluteFilePath());
    checkShown(body, 1.0, Vec3(1.0, 1.25, 2.5), Vec3(5.0 / 12.0, 10.0 / 12.0, 13.0 / 12.0));
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
  }

  // The walls of the body's world, edited in the Body section: a box around the body (centred
  // where it starts), a ceiling, a size the worker refuses (the box cuts the body) shown as the
  // section shows refusals, undo, a plane added, a zero normal refused with the scenario file's
  // own message before anything runs, the plane removed; saved, the file's "world" holds it.
  void wallsEditorWritesTheWorld() {
    auto w = openRigidBody();
    QVERIFY(w);
    BodyEditor* body = w->editor()->bodyEditor();
    WallsEditor* walls = body->wallsEditor();
    QVERIFY(walls && walls->isVisibleTo(w.get()));
    QVERIFY(!walls->boxCheck()->isChecked());
    QCOMPARE(walls->planeCount(), 0);
    const auto world = [&] { return w->currentRun()->scenario.body->world; };
    QVERIFY(world().empty());
    const std::size_t obstacles = w->currentRun()->scene.obstacles.size();

    std::uint64_t generation = w->currentRun()->generation;
    QTest::mouseClick(walls->boxCheck(), Qt::LeftButton, {}, onIndicator(walls->boxCheck()));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(world().box);
    QCOMPARE(world().box->size, Eigen::Vector2d(10.0, 10.0));
    QCOMPARE(world().box->center, Eigen::Vector2d(0.0, 0.0));  // the cube starts at x0 = y0 = 0
    QCOMPARE(world().box->height, 0.0);
    QCOMPARE(w->currentRun()->scene.obstacles.size(), obstacles + 4);  // four walls drawn
    QVERIFY(walls->boxField(QStringLiteral("Lx"))->isVisible());

    generation = w->currentRun()->generation;
    QVERIFY(walls->ceilingCheck()->isVisible());
    QTest::mouseClick(walls->ceilingCheck(), Qt::LeftButton, {},
                      onIndicator(walls->ceilingCheck()));
    QVERIFY2(waitFor([&] { return w->currentRun()->generation > generation; }),
             qPrintable(body->findChild<QLabel*>(QStringLiteral("bodyMessage"))->text()));
    QCOMPARE(world().box->height, 20.0);  // twice the start's height (z0 = 10 m)
    QCOMPARE(w->currentRun()->scene.obstacles.size(), obstacles + 5);

    // A box 2 m wide cuts the 3.46 m cube at its start: refused, as any body edit is.
    generation = w->currentRun()->generation;
    typeInto(walls->boxField(QStringLiteral("Lx")), QStringLiteral("2"));
    QVERIFY(waitFor([&] { return walls->boxField(QStringLiteral("Lx"))->hasError(); }));
    const QString refusal = walls->boxField(QStringLiteral("Lx"))->error();
    QVERIFY2(refusal.contains(QStringLiteral("wall")), qPrintable(refusal));
    QVERIFY(body->hasError());
    QVERIFY(w->editor()->messageFor(walls->boxField(QStringLiteral("Lx"))).startsWith(refusal));
    QVERIFY(waitForTimeBeyond(*w, w->lastSnapshot()->t + 0.1));
    QCOMPARE(w->currentRun()->generation, generation);
    QCOMPARE(world().box->size.x(), 10.0);
    typeInto(walls->boxField(QStringLiteral("Lx")), QStringLiteral("12"));
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(world().box->size.x(), 12.0);
    QVERIFY(!body->hasError());
    // Undo: one step per edit.
    generation = w->currentRun()->generation;
    w->findChild<QAction*>(QStringLiteral("undoAction"))->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(world().box->size.x(), 10.0);
    QCOMPARE(walls->boxField(QStringLiteral("Lx"))->value(), 10.0);
    generation = w->currentRun()->generation;
    w->findChild<QAction*>(QStringLiteral("redoAction"))->trigger();
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(world().box->size.x(), 12.0);

    // A plane: 5 m beyond the start along x, the body on its -x side.
    generation = w->currentRun()->generation;
    QTest::mouseClick(walls->addPlaneButton(), Qt::LeftButton);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QCOMPARE(world().walls.size(), std::size_t(1));
    QCOMPARE(world().walls[0].normal, Eigen::Vector3d(-1.0, 0.0, 0.0));
    QCOMPARE(walls->planeCount(), 1);
    QCOMPARE(walls->planeField(0, QStringLiteral("offset"))->value(), -5.0);
    // A zero normal: the file's own message, nothing sent.
    generation = w->currentRun()->generation;
    typeInto(walls->planeField(0, QStringLiteral("nx")), QStringLiteral("0"));
    QVERIFY(waitFor([&] { return walls->planeField(0, QStringLiteral("nx"))->hasError(); }));
    QCOMPARE(
        walls->planeField(0, QStringLiteral("nx"))->error(),
        QStringLiteral("\"world.walls[0].normal\" has length 0: a wall needs a non-zero normal"));
    QVERIFY(body->hasError());
    QTest::qWait(200);
    QCOMPARE(w->currentRun()->generation, generation);
    // Tilted a little and moved out: the plane n.x = d with n made unit.
    typeInto(walls->planeField(0, QStringLiteral("nx")), QStringLiteral("-1"));
    QVERIFY(waitFor([&] { return !walls->planeField(0, QStringLiteral("nx"))->hasError(); }));
    generation = w->currentRun()->generation;
    typeInto(walls->planeField(0, QStringLiteral("offset")), QStringLiteral("-4"));
    QVERIFY(waitFor(
        [&] { return w->currentRun()->generation > generation && world().walls.size() == 1; }));
    QCOMPARE(world().walls[0].point, Eigen::Vector3d(4.0, 0.0, 0.0));

    // Saved: the file's "world" is what the editor shows.
    const QString file = dir_.filePath(QStringLiteral("walls.json"));
    QCOMPARE(w->fileActions()->scenarios()->saveTo(file), QString());
    const QJsonObject saved =
        QJsonDocument::fromJson(readAll(file)).object().value(QStringLiteral("world")).toObject();
    const QJsonArray size =
        saved.value(QStringLiteral("box")).toObject().value(QStringLiteral("size")).toArray();
    QCOMPARE(size.size(), 3);
    QCOMPARE(size[0].toDouble(), 12.0);
    QCOMPARE(size[2].toDouble(), 20.0);
    QCOMPARE(saved.value(QStringLiteral("walls")).toArray().size(), 1);
    QVERIFY(QDir().mkpath(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots")));
    auto* scroll = w->findChild<QScrollArea*>();
    QVERIFY(scroll);
    scroll->ensureWidgetVisible(walls->addPlaneButton());
    QTest::qWait(100);
    w->grab().save(QStringLiteral(RICOCHET_BINARY_DIR "/screenshots/body-walls.png"));

    // Removed.
    generation = w->currentRun()->generation;
    QTest::mouseClick(walls->removePlaneButton(0), Qt::LeftButton);
    QVERIFY(waitFor([&] { return w->currentRun()->generation > generation; }));
    QVERIFY(world().walls.empty());
    QCOMPARE(walls->planeCount(), 0);
  }

 private:
  // A window on rigid-body (its default body, the cube) once its first run is shown; null when
  // that does not happen.
  static std::unique_ptr<MainWindow> openRigidBody() {
    auto w = openWindow(freshOptions(QStringLiteral("rigid-body")));
    const bool shown = waitFor([&] {
      return w->currentRun() && w->lastSnapshot() &&
             w->editor()->bodyEditor()->figures().has_value();
    });
    return shown ? std::move(w) : nullptr;
  }

  // Waits for a run whose body is the mesh `name` (a file of dir_), with its figures shown.
  static bool waitForMeshRun(const MainWindow& w, const QString& name, int ms = 20000) {
    const bool ran = waitFor(
        [&] {
          const auto run = w.currentRun();
          if (!run || !run->scenario.body || !run->body || !w.lastSnapshot()) return false;
          const BodyNode& n = run->scenario.body->body;
          return n.shape == BodyNode::Shape::Mesh &&
                 QFileInfo(QString::fromStdString(n.file)).fileName() == name &&
                 w.editor()->bodyEditor()->figures().has_value() &&
                 w.editor()->bodyEditor()->figures()->mass == run->body->mass;
        },
        ms);
    const BodyEditor* body = w.editor()->bodyEditor();
    if (!ran && body->hasError()) {
      qWarning("%s", qPrintable(body->findChild<QLabel*>(QStringLiteral("bodyMessage"))->text()));
    }
    return ran;
  }

  // Where a user clicks a check box: on its box, at the left.
  static QPoint onIndicator(const QWidget* check) { return QPoint(8, check->height() / 2); }

  // Drags `path` over `target` and drops it there, as a file manager would; true when accepted.
  static bool drop(QWidget* target, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = target->rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    if (!enter.isAccepted()) return false;
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropped);
    return dropped.isAccepted();
  }

  QTemporaryDir dir_;
};

int main(int argc, char** argv) {
  return guitest::runSuite<TestGuiBody>(argc, argv, "test_gui_body");
}

#include "test_gui_body.moc"
