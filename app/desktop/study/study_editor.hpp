#pragma once
// The study editor: what to run, as a StudyRequest.
//
// Two tabs. "Base scenario" is the scenario editor itself (the same generated forms as the main
// window's: system picker, parameters, initial conditions, integrator), seeded from the running
// scenario; an edit is checked as the main window checks it (ranges, then the system's own
// admissibility) and refused beside the field otherwise. "Study" picks the preset:
//  * Custom study: the fields to vary, picked from a menu generated from the same forms, each an
//    axis (list, linspace, logspace, or random draws with the study's seed) with a live preview
//    of its values; axes combine as a grid or zipped; every run's length is the scenario's
//    t_end or a number of steps.
//  * Convergence, Sensitivity, Compare: the options of the command line's built-in studies
//    (StudyPresetForms).
// The number of runs is shown as the study changes, and a study that cannot run says why.

#include "app/desktop/study/study_results.hpp"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QMenu;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QVBoxLayout;

namespace ricochet::app {

class ScenarioEditor;
class StudyAxisRow;
class StudyPresetForms;

class StudyEditor : public QWidget {
  Q_OBJECT
 public:
  explicit StudyEditor(QWidget* parent = nullptr);

  /// Makes `scenario` the base (the forms follow it), removes every axis and seeds the presets'
  /// options from it.
  void setBase(const Scenario& scenario);
  const Scenario& base() const { return base_; }
  /// Shows `study` (a study file): its base, axes, combine, seed and length; preset Custom.
  /// False with `error` when an axis does not name a field of the system.
  bool setStudy(const study::Study& study, QString* error);

  void setPreset(StudyPreset preset);
  StudyPreset preset() const;

  /// What the editor shows as a request, or nullopt with `error` (one line naming the value).
  std::optional<StudyRequest> request(QString* error) const;
  /// The custom study (preset Custom) as a file holds it.
  std::optional<study::Study> customStudy(QString* error) const;

  /// Adds an axis varying the form field `name` ("m", "z0", "initial.z0", "h", "tolerance",
  /// "t_end", "integrator"), as the Add menu does; null when the system has no such field or
  /// it is varied already.
  StudyAxisRow* addAxis(const QString& name);
  const std::vector<StudyAxisRow*>& axes() const { return axes_; }

  // The widgets, for tests and the window.
  QComboBox* presetCombo() const { return preset_; }
  QTabWidget* tabs() const { return tabs_; }
  ScenarioEditor* baseEditor() const { return baseEditor_; }
  QPushButton* addAxisButton() const { return addAxis_; }
  QMenu* addAxisMenu() const { return addMenu_; }
  QComboBox* combineCombo() const { return combine_; }
  QSpinBox* seedSpin() const { return seed_; }
  QSpinBox* stepsSpin() const { return steps_; }
  QSpinBox* jobsSpin() const { return jobs_; }
  QLabel* runsLabel() const { return runs_; }
  /// The built-in studies' options (At T, levels, perturbations, integrators, ...).
  StudyPresetForms* presetForms() const { return presets_; }

 signals:
  /// Anything that changes the request changed.
  void changed();

 private:
  QWidget* buildCustomPage();
  void rebuildAddMenu();
  void removeAxis(StudyAxisRow* row);
  void onBaseEdit(const Scenario& candidate, QWidget* source);
  void updateSummary();

  Scenario base_;
  std::vector<StudyAxisRow*> axes_;

  QComboBox* preset_ = nullptr;
  QLabel* presetHelp_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  ScenarioEditor* baseEditor_ = nullptr;
  QLabel* baseSummary_ = nullptr;
  // Custom
  QPushButton* addAxis_ = nullptr;
  QMenu* addMenu_ = nullptr;
  QVBoxLayout* axesLayout_ = nullptr;
  QLabel* noAxis_ = nullptr;
  QComboBox* combine_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QSpinBox* steps_ = nullptr;
  StudyPresetForms* presets_ = nullptr;  // convergence, sensitivity, compare
  // Common
  QSpinBox* jobs_ = nullptr;
  QLabel* runs_ = nullptr;
  bool updating_ = false;
};

}  // namespace ricochet::app
