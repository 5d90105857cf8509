#pragma once
// One "vary" entry in the study editor: the scenario field it varies and how its values are
// given (a list, linspace, logspace, or random draws: uniform, normal, a perturbation of the base
// value), with the number of values or samples.
//
// The inputs are NumberFields made from the field's own ParameterSpec (the one the scenario
// editor's generated form uses), so a bound is typed, checked and reported exactly as in the
// scenario editor: with the unit, scientific notation, and a refusal that names the value. The
// integrator axis is a checklist of the system's integrators.

#include "core/model/system.hpp"
#include "core/study/study.hpp"

#include <QFrame>
#include <QString>

#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QSpinBox;
class QToolButton;

namespace ricochet::app {

class NumberField;

class StudyAxisRow : public QFrame {
  Q_OBJECT
 public:
  /// A numeric axis: `name` as the study file writes it (a --set name, "h", "tolerance",
  /// "t_end"), `spec` the form field's spec, `kind` what messages call it ("parameter",
  /// "initial condition", "integrator setting"), `base` the base scenario's value.
  StudyAxisRow(QString name, ParameterSpec spec, QString kind, double base, QWidget* parent = nullptr);
  /// The integrator axis, over the system's integrators (all checked).
  explicit StudyAxisRow(const std::vector<IntegratorInfo>& integrators, QWidget* parent = nullptr);

  QString name() const { return name_; }
  bool isIntegrator() const { return integrators_ != nullptr; }

  /// The axis as a study file gives it, or nullopt with `error` naming the value.
  std::optional<study::AxisSpec> axis(QString* error) const;
  /// Shows `axis` (read from a study file); false when it does not fit this row.
  bool setAxis(const study::AxisSpec& axis);
  /// Chooses how values are given (the kind combo, as the user would).
  void setKind(study::AxisKind kind);
  study::AxisKind kind() const;
  /// Shows what the axis expands to ("5 values: 1, 2, ..."), or why it cannot (`error`).
  void setPreview(const QString& text, bool error);
  QString preview() const;

  // The inputs, for tests (they are driven like a user would).
  QComboBox* kindCombo() const { return kind_; }
  QLineEdit* valuesEdit() const { return values_; }
  NumberField* fromField() const { return from_; }  ///< from, low or mean
  NumberField* toField() const { return to_; }      ///< to or high
  NumberField* sdField() const { return sd_; }      ///< normal and perturb
  QSpinBox* countSpin() const { return count_; }    ///< count or samples
  QListWidget* integratorList() const { return integrators_; }
  QToolButton* removeButton() const { return remove_; }

 signals:
  void changed();
  void removeRequested();

 private:
  void buildHeader(const QString& title, const QString& tip);
  void updateInputs();

  QString name_;
  ParameterSpec spec_;
  double base_ = 0.0;
  QComboBox* kind_ = nullptr;
  QLineEdit* values_ = nullptr;
  NumberField* from_ = nullptr;
  NumberField* to_ = nullptr;
  NumberField* sd_ = nullptr;
  QSpinBox* count_ = nullptr;
  QLabel* fromLabel_ = nullptr;
  QLabel* toLabel_ = nullptr;
  QLabel* sdLabel_ = nullptr;
  QLabel* countLabel_ = nullptr;
  QLabel* hint_ = nullptr;
  QListWidget* integrators_ = nullptr;
  QToolButton* remove_ = nullptr;
  QGridLayout* grid_ = nullptr;
};

}  // namespace ricochet::app
