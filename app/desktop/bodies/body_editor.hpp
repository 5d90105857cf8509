#pragma once
// The Body section of the scenario editor, for a system whose body comes from the scenario
// (SystemInfo::defaultBody: rigid-body). It edits the scenario's BodyScenario and hands every
// accepted edit to its host (ScenarioEditor), which merges it into the candidate Scenario:
//
//  * the shape: an ellipsoid (three semi-axes) or a box (three edge lengths); a mesh, a convex
//    polyhedron or a union from a scenario file is shown as a read-only summary until a primitive
//    replaces it;
//  * the rounding epsilon, written where the body reads it from: the body's own "epsilon" when it
//    gives one, otherwise the parameter `epsilon`;
//  * where the mass comes from: the parameter `m` (its field stays in Parameters) or a density;
//  * Import Mesh... (a file dialog) and drag and drop of an STL, OBJ or PLY file: the file is read
//    in a background thread (io::meshBody), then sent as the new body;
//  * the walls of its world (WallsEditor: a box with or without a ceiling, further planes);
//  * the computed mass, centre of mass, principal moments of inertia and hull vertex count of the
//    body that runs (RunInfo::body, computed by the worker).
//
// A value the worker refuses (a non-positive size or density, a flat mesh, a pose that cuts a
// wall) and a mesh that cannot be read mark the field or the section red with the one-line
// message; the running scenario goes on.

#include "app/desktop/run/run_data.hpp"
#include "core/model/system.hpp"

#include <Eigen/Core>

#include <QGroupBox>
#include <QString>

#include <array>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QMimeData;
class QPushButton;

namespace ricochet::app {

class NumberField;
class WallsEditor;

class BodyEditor : public QGroupBox {
  Q_OBJECT
 public:
  explicit BodyEditor(QWidget* parent = nullptr);

  /// Shows the body of `scenario` as the running one (a scenario without a body empties the
  /// section, and a mesh read still in flight is then dropped).
  void setScenario(const Scenario& scenario);
  /// The worker accepted a request: `scenario` runs. A `source` of this section is cleared.
  void accepted(const Scenario& scenario, QWidget* source);
  /// The worker refused the request from `source` (one of this section's widgets).
  void refused(QWidget* source, const QString& reason);
  /// The running body's computed properties (none: shown as unknown).
  void showFigures(const std::optional<BodyFigures>& figures);

  /// True when `widget` is one of the section's editing widgets (a request source).
  bool owns(const QWidget* widget) const;
  /// The message shown for `widget`'s last refusal (empty when none).
  QString messageFor(const QWidget* widget) const;
  /// True while the section shows a refusal or a failed read.
  bool hasError() const;

  /// Reads the mesh file `path` in a background thread; once read, requests a body made of it
  /// (keeping the world, the density choice and the body's own epsilon). A failed read marks
  /// the section with the reader's message and sends nothing.
  void importMesh(const QString& path);
  /// Opens the Import Mesh file dialog (window-modal, not blocking the event loop).
  void importDialog();
  /// The first local .stl, .obj or .ply file in `mime`; empty when there is none.
  static QString droppedMesh(const QMimeData* mime);

  // For tests: the widgets and what they show.
  QComboBox* shapeCombo() const { return shapeCombo_; }
  NumberField* sizeField(int axis) const { return sizeFields_[std::size_t(axis)]; }
  NumberField* epsilonField() const { return epsilonField_; }
  QComboBox* massCombo() const { return massCombo_; }
  NumberField* densityField() const { return densityField_; }
  QPushButton* importButton() const { return importButton_; }
  QLabel* summaryLabel() const { return summary_; }
  WallsEditor* wallsEditor() const { return walls_; }
  /// "mass", "centre", "inertia", "hull": the computed properties as shown.
  QLabel* figureLabel(const QString& name) const;
  const std::optional<BodyFigures>& figures() const { return figures_; }
  /// Mesh reads started and not yet answered.
  int pendingReads() const { return pendingReads_; }

 signals:
  /// Run with `body` as the scenario's body; `source` is the widget that changed. With
  /// `angularMomentumMap` (a mesh import), the initial angular momentum becomes that matrix
  /// times it, which keeps the initial angular velocity.
  void bodyRequested(std::shared_ptr<const ricochet::BodyScenario> body, QWidget* source,
                     std::optional<Eigen::Matrix3d> angularMomentumMap);
  /// Run with the parameter `epsilon` set to `value` (the body gives no epsilon of its own).
  void epsilonRequested(double value, QWidget* source);
  /// A failed mesh read or a value refused before sending, for the status bar.
  void refusedLocally(const QString& reason);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  struct MeshRead;
  void showBody(const BodyScenario& body, double parameterEpsilon);
  void request(BodyScenario candidate, QWidget* source,
               std::optional<Eigen::Matrix3d> angularMomentumMap = std::nullopt);
  void onShapeChosen(int index);
  void onSizeCommitted(int axis, double value);
  void onEpsilonCommitted(double value);
  void onMassSourceChosen(int index);
  void onDensityCommitted(double value);
  void onMeshRead(const MeshRead& read);
  void setMessage(QWidget* source, const QString& reason);

  std::shared_ptr<const BodyScenario> applied_;  // what runs
  std::shared_ptr<const BodyScenario> desired_;  // applied_ plus the edits not yet answered
  double parameterEpsilon_ = 0.0;                // the running parameter `epsilon`, m
  Eigen::Vector3d start_ =
      Eigen::Vector3d::Zero();  // the running x0, y0, z0 (m): where new walls go
  std::optional<BodyFigures> figures_;
  int readTicket_ = 0;  // the newest mesh read: older ones that finish later are dropped
  int pendingReads_ = 0;
  bool updating_ = false;
  QWidget* errorSource_ = nullptr;  // the widget whose refusal the message shows

  QComboBox* shapeCombo_ = nullptr;
  QLabel* summary_ = nullptr;
  QWidget* sizeHost_ = nullptr;
  std::array<QLabel*, 3> sizeLabels_{};
  std::array<NumberField*, 3> sizeFields_{};
  QLabel* epsilonLabel_ = nullptr;
  NumberField* epsilonField_ = nullptr;
  QComboBox* massCombo_ = nullptr;
  QLabel* densityLabel_ = nullptr;
  NumberField* densityField_ = nullptr;
  QPushButton* importButton_ = nullptr;
  WallsEditor* walls_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* mass_ = nullptr;
  QLabel* centre_ = nullptr;
  QLabel* inertia_ = nullptr;
  QLabel* hull_ = nullptr;
};

}  // namespace ricochet::app
