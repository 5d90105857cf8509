#pragma once
// The options of the built-in studies in the study editor, one page each, as the command line
// takes them:
//  * convergence: At T (--at), h0 (--h0; 0: the largest T/2^k not above the scenario's h),
//    levels (--levels), reference halvings (--ref-levels);
//  * sensitivity: NAME=DELTA lines (--perturb), collisions (--collisions);
//  * compare: the integrators (--integrators), the time steps (--h H,H...), impact times
//    (--impact-times).
// Every run of these lasts the base scenario's t_end (--t-end), edited in the base form.

#include "app/desktop/study/study_results.hpp"

#include <QObject>
#include <QString>

class QFormLayout;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;
class QWidget;

namespace ricochet::app {

class NumberField;

class StudyPresetForms : public QObject {
  Q_OBJECT
 public:
  explicit StudyPresetForms(QObject* parent = nullptr);

  /// The page of `preset` (not Custom), owned by whoever shows it.
  QWidget* page(StudyPreset preset) const;
  /// The options a new base seeds: T = t_end / 10, h0 auto, paper 003's perturbations for an
  /// SE(3) body (else the first initial condition + 1e-8), every integrator, the base's h.
  void seed(const Scenario& base);
  /// Says how long every run lasts (the base scenario's t_end, s).
  void showLength(double tEnd);
  /// Fills the spec of `r.preset` with `base` and the forms; false with `error` naming the value.
  bool fill(StudyRequest& r, const Scenario& base, QString* error) const;
  /// What `r` (a built-in study) runs, in one line ("7 runs: h = 0.05 down to ..."), or why it
  /// cannot (`bad` set).
  static QString summary(const StudyRequest& r, bool* bad);

  NumberField* atField() const { return at_; }
  NumberField* h0Field() const { return h0_; }
  QSpinBox* levelsSpin() const { return levels_; }
  QSpinBox* refLevelsSpin() const { return refLevels_; }
  QPlainTextEdit* perturbationsEdit() const { return perturbations_; }
  QSpinBox* collisionsSpin() const { return collisions_; }
  QListWidget* compareIntegrators() const { return integrators_; }
  QLineEdit* compareHs() const { return hs_; }
  QSpinBox* impactTimesSpin() const { return impactTimes_; }

 signals:
  void changed();

 private:
  QWidget* convergence_ = nullptr;
  QWidget* sensitivity_ = nullptr;
  QWidget* compare_ = nullptr;
  NumberField* at_ = nullptr;
  NumberField* h0_ = nullptr;
  QSpinBox* levels_ = nullptr;
  QSpinBox* refLevels_ = nullptr;
  QPlainTextEdit* perturbations_ = nullptr;
  QSpinBox* collisions_ = nullptr;
  QListWidget* integrators_ = nullptr;
  QLineEdit* hs_ = nullptr;
  QSpinBox* impactTimes_ = nullptr;
  QLabel* sensitivityLength_ = nullptr;
  QLabel* compareLength_ = nullptr;
};

/// A finite number, the whole of `text`; else nullopt.
std::optional<double> parseStudyNumber(const QString& text);
/// A form layout on `host` whose fields take the width.
QFormLayout* studyForm(QWidget* host);
/// A note under a form: grey, wrapped.
QLabel* studyNote(const QString& text);
/// A spin box named `name` over [lo, hi] showing `value`.
QSpinBox* studySpin(const char* name, int lo, int hi, int value, const QString& tip);

}  // namespace ricochet::app
