#pragma once
// The walls of the body's world, in the Body section (rigid-body): the scenario's
// "world": {"box": ..., "walls": [...]} (core/io/body_io.hpp), edited as a user thinks of it:
//
//  * a box of vertical walls around the body: its floor size Lx x Ly and centre (cx, cy), with
//    or without a ceiling at a height;
//  * any number of further planes, each a normal (nx, ny, nz) pointing to the side the body
//    keeps to and an offset d: the plane n.x = d (n made unit), the body where n.x >= d.
//
// Every edit builds the whole world, writes it as the scenario file's "world" object and reads
// it back through io::readBody, so the world that runs is one a file can hold and a value the
// file would refuse is refused with the file's message, naming the key ("world.walls[0].normal"),
// before anything is sent. The Body section sends the accepted world as a body edit (one undo
// step), and shows the worker's refusals (a wall that cuts the body at its start) as its own.

#include "core/model/body_description.hpp"

#include <QString>
#include <QWidget>

#include <Eigen/Core>

#include <optional>
#include <vector>

class QCheckBox;
class QFormLayout;
class QPushButton;
class QToolButton;
class QVBoxLayout;

namespace ricochet::app {

class NumberField;

class WallsEditor : public QWidget {
  Q_OBJECT
 public:
  explicit WallsEditor(QWidget* parent = nullptr);

  /// Shows `world` as the running one; `start` (x0, y0, z0, m) is where the body starts: a new
  /// box is centred on it (its ceiling, when ticked, twice as high), a new plane stands 5 m from
  /// it.
  void showWorld(const WorldSpec& world, const Eigen::Vector3d& start);
  /// The worker refused the world asked for from `source`: its field is marked (the Body section
  /// shows the message).
  void refused(QWidget* source, const QString& reason);
  /// True when `widget` is one of the editor's widgets (a request source).
  bool owns(const QWidget* widget) const;

  /// The world as the scenario file reads it back ("world" object through io::readBody): the
  /// checked world, or the file's one-line message about it in `error`.
  static std::optional<WorldSpec> checked(const WorldSpec& world, QString* error);

  // For tests: the widgets.
  QCheckBox* boxCheck() const { return boxCheck_; }
  /// "Lx", "Ly", "cx", "cy", "height".
  NumberField* boxField(const QString& name) const;
  QCheckBox* ceilingCheck() const { return ceilingCheck_; }
  QPushButton* addPlaneButton() const { return addPlane_; }
  int planeCount() const { return int(planes_.size()); }
  /// Plane `i`'s field: "nx", "ny", "nz" or "offset".
  NumberField* planeField(int i, const QString& name) const;
  QToolButton* removePlaneButton(int i) const;

 signals:
  /// Run with `world`, checked; `source` is the widget that changed.
  void worldRequested(const ricochet::WorldSpec& world, QWidget* source);
  /// A world the file format refuses (the message names its key); nothing was sent.
  void refusedLocally(QWidget* source, const QString& reason);

 private:
  struct PlaneRow {
    QWidget* row = nullptr;
    NumberField* n[3] = {nullptr, nullptr, nullptr};
    NumberField* offset = nullptr;
    QToolButton* remove = nullptr;
  };
  void rebuildPlanes(std::size_t count);
  void send(WorldSpec world, QWidget* source);
  void onBoxToggled(bool on);
  void onBoxField(const QString& name, double value, QWidget* source);
  void onCeilingToggled(bool on);
  void onPlaneField(std::size_t i, int component, double value, QWidget* source);
  void addPlane();
  void removePlane(std::size_t i);

  WorldSpec applied_;  // the world that runs
  WorldSpec shown_;    // applied_ plus the edits sent, not yet answered
  Eigen::Vector3d start_ = Eigen::Vector3d::Zero();
  bool updating_ = false;

  QCheckBox* boxCheck_ = nullptr;
  QWidget* boxHost_ = nullptr;
  NumberField* lx_ = nullptr;
  NumberField* ly_ = nullptr;
  NumberField* cx_ = nullptr;
  NumberField* cy_ = nullptr;
  QCheckBox* ceilingCheck_ = nullptr;
  NumberField* height_ = nullptr;
  QVBoxLayout* planesLayout_ = nullptr;
  std::vector<PlaneRow> planes_;
  QPushButton* addPlane_ = nullptr;
};

}  // namespace ricochet::app
