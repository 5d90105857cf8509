#pragma once
// The editors panel, generated from the system description: system picker (title and source
// paper), parameter and initial-condition forms (NumberFields with units, ranges, tooltips) and
// the integrator settings (integrator, h, tolerance, t_end).
//
// Every accepted edit becomes a whole candidate Scenario sent out with requestRun(); the panel
// only shows it as running once the worker has accepted it (accepted()). A refusal - local
// (does not parse, out of range) or from the worker (e.g. initial condition outside the
// admissible set) - marks the field and shows the reason beside it; nothing is sent, and the
// running simulation is not disturbed.
//
// A system whose body comes from the scenario (rigid-body) also gets the Body section
// (BodyEditor), whose edits are merged into the same candidate.

#include "app/desktop/run/run_data.hpp"
#include "app/desktop/run/run_request.hpp"
#include "core/model/system.hpp"

#include <Eigen/Core>

#include <QString>
#include <QWidget>

#include <cstdint>
#include <limits>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QPushButton;

namespace ricochet::app {

class BodyEditor;
class NumberField;

class ScenarioEditor : public QWidget {
  Q_OBJECT
 public:
  explicit ScenarioEditor(QWidget* parent = nullptr);

  /// Shows `scenario` as the running one, rebuilding the forms when the system changes.
  void setScenario(const Scenario& scenario);
  /// The scenario shown as running.
  const Scenario& applied() const { return applied_; }

  /// The worker accepted a request: `scenario` now runs. `source` (may be null) is the field
  /// that triggered it; its error mark is cleared.
  void accepted(const Scenario& scenario, QWidget* source);
  /// The worker refused a request: `source` shows `reason`; the candidate value is dropped.
  void refused(QWidget* source, const QString& reason);
  /// A run started (after accepted() or setScenario()): shows what the worker computed for it.
  void runStarted(const RunInfo& info);
  /// The worker accepted `request`: `info` runs now. An edit or a reset is accepted() (a reset
  /// runs what the editor shows: fields still marked as refused keep their text); anything else
  /// is shown with setScenario(). Then runStarted().
  void runAccepted(const RunInfo& info, const RunRequest& request);
  /// The worker refused `request` with `message`; `current` is the run that goes on (may be null).
  /// An edit marks its field (refused()); a refused undo or redo, or the paper's defaults refused
  /// for a system, shows the running scenario again.
  void runRefused(const RunRequest& request, const QString& message, const RunInfo* current);

  // For tests and the main window: the generated widgets.
  QComboBox* systemCombo() const { return systemCombo_; }
  QComboBox* integratorCombo() const { return integratorCombo_; }
  NumberField* parameterField(const QString& name) const;
  NumberField* initialField(const QString& name) const;
  NumberField* settingField(const QString& name) const;  ///< "h", "tolerance", "t_end"
  /// The Body section (shown only for a system with SystemInfo::defaultBody).
  BodyEditor* bodyEditor() const { return bodyEditor_; }
  /// A world of several bodies (`bodies`): what its bodies are, in place of the one-body section.
  QLabel* bodiesLabel() const { return bodiesLabel_; }
  /// The reason shown beside `field` (empty when none).
  QString messageFor(const QWidget* field) const;

 signals:
  /// The user picked another system.
  void systemRequested(const QString& id);
  /// Run `candidate`; `source` is the editor widget that changed (for accepted()/refused()).
  void requestRun(const ricochet::Scenario& candidate, QWidget* source);
  /// A local refusal (also shown beside the field); for the status bar.
  void refusedLocally(const QString& reason);

 private:
  struct Row {
    NumberField* field = nullptr;
    QLabel* message = nullptr;
    enum Target { Parameter, Initial, H, Tolerance, TEnd } target = Parameter;
    std::size_t index = 0;
    /// The value the worker last refused for this field (NaN: none). Committing the same text
    /// again (leaving the field) does not ask again, so later edits do not carry it along.
    double refused = std::numeric_limits<double>::quiet_NaN();
  };
  void rebuildForms(const SystemInfo& info);
  void addRow(QFormLayout* form, NumberField* field, Row::Target target, std::size_t index);
  void showValues(const Scenario& s);
  void onCommitted(Row& row, double value);
  void setRowMessage(const QWidget* source, const QString& reason);
  static double& slot(Scenario& s, const Row& row);
  void restoreDefaults();
  void requestEpsilon(double value, QWidget* source);
  /// Asks again for the first value still marked as refused, once a new run has started (its
  /// cause may be fixed by the edit that started it).
  void retryRefused(const Scenario& running);
  /// A new body: the initial angular momentum becomes `angularMomentumMap` (J_new J_old^-1)
  /// times it, so the body starts with the angular velocity it had.
  void keepAngularVelocity(const Eigen::Matrix3d& angularMomentumMap);
  void showMassSource();  // the parameter m is unused (disabled) while the body gives a density

  Scenario applied_;  // what runs
  Scenario desired_;  // applied_ plus the edits sent but not yet answered
  std::string formsFor_;
  std::vector<Row> rows_;

  QComboBox* systemCombo_ = nullptr;
  QLabel* sourceLabel_ = nullptr;
  QLabel* summaryLabel_ = nullptr;
  QGroupBox* parameterBox_ = nullptr;
  QGroupBox* initialBox_ = nullptr;
  BodyEditor* bodyEditor_ = nullptr;
  QLabel* bodiesLabel_ = nullptr;
  void showBodies(const Scenario& scenario);
  QWidget* parameterHost_ = nullptr;
  QWidget* initialHost_ = nullptr;
  QWidget* settingsHost_ = nullptr;
  QComboBox* integratorCombo_ = nullptr;
  QLabel* integratorHelp_ = nullptr;
  QPushButton* defaultsButton_ = nullptr;
  bool updating_ = false;
};

}  // namespace ricochet::app
