#pragma once
// A request for a run, as the answer finds it again (RunSession routes the worker's answers by
// it). The kinds:
//
//   Edit     a field of the editor changed (its widget is the request's source)
//   System   the user picked another system (its remembered scenario, else the paper's defaults)
//   Startup  the system opened at start-up (the same, without an undo step)
//   File     a scenario opened as a file, a preset, a study's run, or "Run Live" after a replay
//   Reset    a run the worker restarted by itself (R, or Play after stopping at t_end), with
//            RunInfo::requestId 0; it runs the same scenario again
//   History  a scenario run again by Undo or Redo (no new undo step)
//   Replay   a run file played back (RunSession::replayRecording)

#include <QMetaType>
#include <QPointer>
#include <QString>
#include <QWidget>

namespace ricochet::app {

enum class RequestKind { Edit, System, Startup, File, Reset, History, Replay };

/// One request for a run, as the answer finds it again.
struct RunRequest {
  RequestKind kind = RequestKind::Edit;
  QPointer<QWidget> source;  ///< the editor widget behind an Edit (may be null)
  QString label;             ///< the file's name (File, Replay), the system id (System, Startup)
  QString path = QString();  ///< the file's path for File (may be empty)
  bool defaults = false;     ///< the paper's defaults (a refusal is then not retried)
};

}  // namespace ricochet::app

Q_DECLARE_METATYPE(ricochet::app::RunRequest)
