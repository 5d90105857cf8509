// `ricochet-cli video` end to end, as the GUI and scripts run it (a separate process), checked with
// ffprobe: the documented duration and frame count of MP4 and GIF, the frame clock,
// Ogg/Theora without ffmpeg, PNG sequences, cancel by SIGTERM/SIGINT, bad input, no display, an
// integrator failure mid-video, a dying ffmpeg and hostile scenarios.
//
// Needs an X display (label gui; ./test.sh runs ctest under xvfb-run) and ffmpeg/ffprobe (run.sh
// installs them). The test holds its own X connection for its whole run: otherwise Xvfb resets
// whenever its last client (one ricochet-cli) exits, and the next one can race that reset.

#include "core/io/scenario_io.hpp"
#include "core/model/registry.hpp"
#include "render/video/animation_export.hpp"
#include "cli_process.hpp"

#include <QtTest>

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <X11/Xlib.h>

#include <cmath>
#include <csignal>
#include <fstream>
#include <set>

#include <sys/types.h>
#include <signal.h>

using namespace ricochet;

namespace {

/// Video runs take longer than the runner's default two minutes under a loaded machine.
Result runVideo(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
  CliOptions options;
  options.timeoutMs = 240000;
  options.env = env;
  return cli(args, options);
}

struct Probe {
  int frames = -1;
  int width = -1;
  int height = -1;
  QString rate;
  double duration = -1.0;
  QString error;
};

/// ffprobe with exactly the documented query (frames are counted by decoding).
Probe ffprobe(const QString& file) {
  QProcess p;
  p.start(QStringLiteral("ffprobe"),
          {"-v", "error", "-count_frames", "-show_entries", "stream=nb_read_frames,width,height,r_frame_rate",
           "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1", file});
  Probe probe;
  if (!p.waitForFinished(60000) || p.exitCode() != 0) {
    probe.error = "ffprobe failed: " + QString::fromUtf8(p.readAllStandardError());
    return probe;
  }
  for (const QString& line : QString::fromUtf8(p.readAllStandardOutput()).split('\n')) {
    const QString key = line.section('=', 0, 0), value = line.section('=', 1);
    if (key == "nb_read_frames") probe.frames = value.toInt();
    if (key == "width") probe.width = value.toInt();
    if (key == "height") probe.height = value.toInt();
    if (key == "r_frame_rate") probe.rate = value;
    if (key == "duration") probe.duration = value.toDouble();
  }
  return probe;
}

/// The `progress DONE TOTAL T` lines of a run, in order.
struct Progress {
  qint64 done, total;
  double t;
};
std::vector<Progress> progressLines(const QString& out) {
  std::vector<Progress> v;
  static const QRegularExpression re(QStringLiteral("^progress (\\d+) (\\d+) (\\S+)$"));
  for (const QString& line : out.split('\n')) {
    const auto m = re.match(line);
    if (m.hasMatch()) v.push_back({m.captured(1).toLongLong(), m.captured(2).toLongLong(), m.captured(3).toDouble()});
  }
  return v;
}

QStringList entries(const QString& dir) {
  return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

}  // namespace

class TestExportVideo : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir tmp_;
  Display* display_ = nullptr;
  int dirs_ = 0;

  /// A fresh empty directory for one export, so leftovers (temporary files) are visible.
  QString freshDir() {
    const QString d = tmp_.filePath(QStringLiteral("d%1").arg(dirs_++));
    QDir().mkpath(d);
    return d;
  }

  /// An environment whose PATH holds only `dir` (no ffmpeg unless put there).
  static QProcessEnvironment withPath(const QString& dir) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("PATH"), dir);
    return env;
  }

  void expectBadInput(const QStringList& args, const QString& needle,
                      const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    const Result r = runVideo(args, env);
    const QString what = args.join(' ') + " -> " + describeResult(r);
    QVERIFY2(r.exitCode == 2, qPrintable(what));
    QVERIFY2(r.out.isEmpty(), qPrintable(what));
    QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, qPrintable(what));
    QVERIFY2(r.err.contains(needle), qPrintable(what + "\n[wanted: " + needle + "]"));
  }

 private slots:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    QVERIFY2(QFileInfo::exists(cliPath()), "build the ricochet-cli target first");
    QVERIFY2(!qgetenv("DISPLAY").isEmpty(), "needs an X display: run under xvfb-run -a (./test.sh does)");
    display_ = XOpenDisplay(nullptr);
    QVERIFY2(display_, "cannot open the X display");
    QVERIFY2(!QStandardPaths::findExecutable("ffmpeg").isEmpty(), "ffmpeg is not installed (run.sh installs it)");
    QVERIFY2(!QStandardPaths::findExecutable("ffprobe").isEmpty(), "ffprobe is not installed (package ffmpeg)");
  }

  void cleanupTestCase() {
    if (display_) XCloseDisplay(display_);
  }

  void mp4AcceptanceDurationAndFrameCount() {
    // `ricochet-cli video ellipse-floor --out x.mp4 --t-end 2 --fps 30` -> ffprobe agrees.
    const QString dir = freshDir(), out = dir + "/x.mp4";
    const Result r = runVideo({"video", "ellipse-floor", "--out", out, "--t-end", "2", "--fps", "30"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QVERIFY2(r.err.isEmpty(), qPrintable(r.err));
    const Probe p = ffprobe(out);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.frames, 60);  // N = round(2 * 30 / 1)
    QCOMPARE(p.width, 1280);
    QCOMPARE(p.height, 720);
    QCOMPARE(p.rate, QStringLiteral("30/1"));
    QVERIFY2(std::fabs(p.duration - 2.0) <= 1e-3, qPrintable(QString::number(p.duration)));  // N / fps
    QCOMPARE(entries(dir), QStringList{"x.mp4"});  // no temporary file left
    // Progress: machine-readable, increasing, ending with the last frame; then one summary line.
    const auto progress = progressLines(r.out);
    QVERIFY(!progress.empty());
    for (std::size_t i = 0; i < progress.size(); ++i) {
      QCOMPARE(progress[i].total, qint64(60));
      if (i) QVERIFY(progress[i].done > progress[i - 1].done);
    }
    QCOMPARE(progress.back().done, qint64(60));
    QVERIFY2(std::fabs(progress.back().t - 1.97) < 1e-9, "frame 59 shows step round(59/30/0.01) = 197");
    const QStringList lines = r.out.trimmed().split('\n');
    QVERIFY2(lines.back().startsWith("ellipse-floor: wrote " + out + ": 60 frames, 1280x720, 30 fps, 2 s of video"),
             qPrintable(lines.back()));
  }

  void gifAcceptanceDurationAndFrameCount() {
    const QString dir = freshDir(), out = dir + "/x.gif";
    const Result r = runVideo({"video", "ellipse-floor", "--out", out, "--t-end", "2", "--fps", "30", "--quiet"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QVERIFY2(progressLines(r.out).empty(), "--quiet prints no progress");
    const Probe p = ffprobe(out);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.frames, 60);
    QCOMPARE(p.width, 1280);
    QCOMPARE(p.height, 720);
    QCOMPARE(p.rate, QStringLiteral("30/1"));
    // GIF delays are whole centiseconds: 1/30 s alternates 3 and 4 cs, so the total is within
    // 0.01 s of N / fps (exact when fps divides 100).
    QVERIFY2(std::fabs(p.duration - 2.0) <= 0.0101, qPrintable(QString::number(p.duration)));
    QCOMPARE(entries(dir), QStringList{"x.gif"});
    const QString exact = dir + "/exact.gif";  // 25 fps: 4 cs per frame, exact
    QVERIFY(runVideo({"video", "particle-floor", "--out", exact, "--t-end", "1", "--fps", "25", "--width", "160",
                 "--height", "91"}).exitCode == 0);  // odd sizes are fine for GIF
    const Probe q = ffprobe(exact);
    QCOMPARE(q.frames, 25);
    QCOMPARE(q.height, 91);
    QVERIFY2(std::fabs(q.duration - 1.0) <= 1e-6, qPrintable(QString::number(q.duration)));
  }

  void framesFollowTheSimulationClock() {
    // N = round(T fps / speed) = round(2 * 7 / 0.5) = 28 frames lasting 28 / 7 = 4 s; frame k shows
    // the step nearest k * speed / fps, at h = 0.01 s.
    const QString dir = freshDir(), out = dir + "/slow.mp4";
    const Result r = runVideo({"video", "particle-floor", "--out", out, "--t-end", "2", "--fps", "7", "--speed", "0.5",
                          "--width", "160", "--height", "90"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    const Probe p = ffprobe(out);
    QCOMPARE(p.frames, 28);
    QCOMPARE(p.rate, QStringLiteral("7/1"));
    QVERIFY2(std::fabs(p.duration - 4.0) <= 1e-3, qPrintable(QString::number(p.duration)));
    const auto progress = progressLines(r.out);
    QVERIFY(!progress.empty());
    for (const Progress& line : progress) {
      const double tk = (line.done - 1) * 0.5 / 7.0;  // the frame just encoded
      const double shown = std::floor(tk / 0.01 + 0.5) * 0.01;
      QVERIFY2(std::fabs(line.t - shown) < 1e-9, qPrintable(QStringLiteral("frame %1: t = %2, expected %3")
                                                                 .arg(line.done - 1)
                                                                 .arg(line.t)
                                                                 .arg(shown)));
    }
    QCOMPARE(progress.back().done, qint64(28));
    QVERIFY2(r.out.contains("t = 0 .. 1.93 s"), qPrintable(r.out.right(300)));  // round(27/14/0.01) = 193
  }

  // The progress callback's time is that of the last frame encoded, between frames too: the
  // CLI prints whichever call its 10-per-second throttle lets through as 'progress DONE TOTAL T',
  // and the test above once caught an in-between call's time there (flaky under load). Every
  // call is checked here, at a speed-up that makes each frame span 40 steps (in 8 pieces).
  void progressCarriesTheLastFrameTimeBetweenFrames() {
    const Scenario scenario = defaultScenario(*findSystem("particle-floor"));
    CreateResult created = createSimulation(scenario);
    QVERIFY(created.simulation);
    const QString dir = freshDir();
    render::VideoOptions o;
    o.output = (dir + "/f_%03d.png").toStdString();
    o.format = render::VideoFormat::PngSequence;
    o.width = 64;
    o.height = 48;
    o.fps = 10.0;
    o.speed = 4.0;
    o.duration = 2.0;
    int calls = 0, between = 0;
    std::int64_t previousDone = -1;
    QString wrong;
    o.progress = [&](std::int64_t done, std::int64_t total, double t) {
      ++calls;
      if (done == previousDone) ++between;
      previousDone = done;
      const double expected =
          done == 0 ? 0.0 : double(render::videoFrameStep(done - 1, o.fps, o.speed, 0.01)) * 0.01;
      if (wrong.isEmpty() && (total != 5 || std::fabs(t - expected) > 1e-12)) {
        wrong = QStringLiteral("done %1 of %2: t = %3, expected %4").arg(done).arg(total).arg(t).arg(expected);
      }
      return true;
    };
    const render::VideoResult r = render::exportVideo(*created.simulation, scenario, o);
    QVERIFY2(r.ok(), r.message.c_str());
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    QCOMPARE(r.framesWritten, std::int64_t(5));
    QVERIFY2(between >= 20, qPrintable(QStringLiteral("%1 calls, %2 between frames").arg(calls).arg(between)));
  }

  void ogvWithoutFfmpegAndMp4GifRefused() {
    // ffmpeg hidden from PATH: Ogg/Theora still works (VTK's writer), MP4/GIF are refused with advice.
    const QString empty = freshDir();
    const QProcessEnvironment noFfmpeg = withPath(empty);
    const QString dir = freshDir(), out = dir + "/x.ogv";
    const Result r = runVideo({"video", "star-floor", "--out", out, "--t-end", "1", "--fps", "24", "--width", "320",
                          "--height", "180"},
                         noFfmpeg);
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    const Probe p = ffprobe(out);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
    QCOMPARE(p.frames, 24);
    QCOMPARE(p.width, 320);
    QCOMPARE(p.height, 180);
    QCOMPARE(p.rate, QStringLiteral("24/1"));
    QVERIFY2(std::fabs(p.duration - 1.0) <= 1e-3, qPrintable(QString::number(p.duration)));
    QCOMPARE(entries(dir), QStringList{"x.ogv"});
    for (const char* ext : {"mp4", "gif"}) {
      const QString target = dir + "/x." + ext;
      expectBadInput({"video", "star-floor", "--out", target, "--t-end", "1"}, "'ffmpeg' was not found on PATH",
                     noFfmpeg);
      expectBadInput({"video", "star-floor", "--out", target, "--t-end", "1"}, "--out FILE.ogv", noFfmpeg);
    }
    QCOMPARE(entries(dir), QStringList{"x.ogv"});
  }

  void pngSequenceCountAndContent() {
    const QString dir = freshDir();
    const Result r = runVideo({"video", "ellipse-floor", "--out", dir + "/f_%05d.png", "--t-end", "1", "--fps", "10",
                          "--width", "320", "--height", "180"});
    QVERIFY2(r.exitCode == 0, qPrintable(describeResult(r)));
    QStringList expected;
    for (int k = 0; k < 10; ++k) expected << QStringLiteral("f_%1.png").arg(k, 5, 10, QChar('0'));
    QCOMPARE(entries(dir), expected);  // exactly N frames numbered from 0, no temporary directory
    QImage first(dir + "/f_00000.png"), last(dir + "/f_00009.png");
    QCOMPARE(first.size(), QSize(320, 180));
    QCOMPARE(last.size(), QSize(320, 180));
    // Not blank: many colours, and the ellipse's warm orange (red well above blue; the backdrop
    // and floor are greys and pale blues) covers a few hundred pixels.
    for (const QImage& image : {first, last}) {
      std::set<QRgb> colours;
      int warm = 0;
      for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
          const QColor c = image.pixelColor(x, y);
          colours.insert(c.rgb());
          warm += c.red() - c.blue() > 60 && c.red() >= c.green();
        }
      }
      QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
      QVERIFY2(warm > 200, qPrintable(QString::number(warm)));
    }
    QVERIFY2(first != last, "the body moved between t = 0 and t = 0.9 s");
    // The overlay writes into the top-left corner; --no-overlay leaves the background there.
    const QString plain = freshDir();
    QCOMPARE(runVideo({"video", "ellipse-floor", "--out", plain + "/f_%05d.png", "--t-end", "0.1", "--fps", "10",
                  "--width", "320", "--height", "180", "--no-overlay"})
                 .exitCode,
             0);
    const QImage bare(plain + "/f_00000.png");
    const QRect corner(0, 0, 120, 30);
    QVERIFY2(first.copy(corner) != bare.copy(corner), "overlay text in the corner");
  }

  void cancelBySigtermOrSigintLeavesNoFile() {
    for (const auto& [ext, signal] : {std::pair{"mp4", SIGTERM}, std::pair{"gif", SIGINT}, std::pair{"png", SIGTERM}}) {
      const QString dir = freshDir();
      const QString out = dir + (QString(ext) == "png" ? "/f_%04d.png" : QStringLiteral("/x.") + ext);
      QProcess p;
      p.start(cliPath(), {"video", "cube-plane", "--out", out, "--t-end", "600", "--width", "320", "--height", "180"});
      QVERIFY(p.waitForStarted());
      QByteArray seen;
      while (!seen.contains("progress") && p.state() == QProcess::Running) {
        p.waitForReadyRead(20000);
        seen += p.readAllStandardOutput();
      }
      QVERIFY2(seen.contains("progress"), seen.constData());
      ::kill(static_cast<pid_t>(p.processId()), signal);  // what QProcess::terminate() sends is SIGTERM
      QVERIFY(p.waitForFinished(30000));
      QCOMPARE(p.exitStatus(), QProcess::NormalExit);
      QCOMPARE(p.exitCode(), 128 + signal);
      const QString err = QString::fromUtf8(p.readAllStandardError());
      QVERIFY2(err.contains(signal == SIGTERM ? "interrupted (SIGTERM)" : "interrupted (SIGINT)") &&
                   err.contains("no file written"),
               qPrintable(err));
      QVERIFY2(entries(dir).isEmpty(), qPrintable(ext + QStringLiteral(": left ") + entries(dir).join(' ')));
    }
  }

  void badInputExitsTwoAndNamesTheValue() {
    const QString dir = freshDir(), out = dir + "/x.mp4";
    expectBadInput({"video", "ellipse-floor"}, "'video' needs --out");
    expectBadInput({"video", "--out", out}, "'video' needs a SYSTEM id or a SCENARIO.json");
    expectBadInput({"video", "no-such-system", "--out", out}, "unknown system 'no-such-system'");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x.avi"}, "unknown video format '.avi'");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x"}, "unknown video format 'x'");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/f.png"}, "exactly one frame-number field");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--fps", "0"}, "fps = 0 is invalid: must be in [1, 240]");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--fps", "1000"}, "fps = 1000 is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--fps", "abc"}, "--fps 'abc' is not a number");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--fps", "nan"}, "fps = nan is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x.ogv", "--fps", "29.97"}, "fps = 29.97 is invalid for .ogv");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--width", "641"}, "width = 641 is invalid: mp4 needs an even");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--height", "8"}, "--height '8' is invalid: must be an integer in [16, 8192]");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--width", "1e3"}, "--width '1e3' is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--speed", "-1"}, "speed = -1 is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--speed", "0"}, "speed = 0 is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--t-end", "0.01"}, "t_end = 0.01 s is shorter than one frame");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--t-end", "-1"}, "t_end = -1 is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--antialias", "ssao"}, "--antialias 'ssao' is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--set", "m=-1"}, "parameter 'm' = -1 is out of range");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--set", "y0=-5"}, "outside the admissible set");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--h", "0"}, "time step h = 0 is invalid");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--integrator", "magic"}, "unknown integrator 'magic'");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/no-dir/x.mp4"}, "does not exist");
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/no-dir/f_%03d.png"}, "does not exist");
    expectBadInput({"video", "ellipse-floor", "--out", out, "--frobnicate"}, "unknown option '--frobnicate'");
    QVERIFY2(entries(dir).isEmpty(), qPrintable(entries(dir).join(' ')));
  }

  void malformedOrHostileScenarioFilesAreRefused() {
    const QString dir = freshDir(), out = dir + "/x.mp4";
    const auto write = [&](const QString& name, const std::string& text) {
      std::ofstream(dir.toStdString() + "/" + name.toStdString(), std::ios::binary) << text;
      return dir + "/" + name;
    };
    expectBadInput({"video", write("truncated.json", "{\"format\": \"ricochet-scenario\", \"version\": 1, \"sys"),
                    "--out", out},
                   "unterminated string");
    expectBadInput({"video", write("deep.json", std::string(100000, '[')), "--out", out}, "nesting deeper than 64");
    expectBadInput({"video",
                    write("type.json", "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": "
                                       "\"ellipse-floor\", \"t_end\": \"ten\"}"),
                    "--out", out},
                   "\"t_end\" must be a number");
    expectBadInput({"video",
                    write("nan.json", "{\"format\": \"ricochet-scenario\", \"version\": 1, \"system\": "
                                      "\"ellipse-floor\", \"parameters\": {\"m\": NaN}}"),
                    "--out", out},
                   "nan.json: line 1");
    std::string garbage(4096, '\0');
    for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = static_cast<char>((i * 2654435761u) >> 13);
    expectBadInput({"video", write("garbage.json", garbage), "--out", out}, "garbage.json");
    expectBadInput({"video", dir + "/missing.json", "--out", out}, "missing.json: no such file");
    QCOMPARE(entries(dir).filter(".mp4"), QStringList());
  }

  void extremeButValidScenariosNeverCrash() {
    // Values the scenario format accepts, far from the papers: each export must end with a
    // clean exit code (0, 2 or 3), never a crash or a hang.
    struct Case {
      const char* system;
      QStringList sets;
    };
    const Case cases[] = {
        {"ellipsoid-plane", {"a=1e6", "b=1e-6", "c=1e-6", "z0=1e7"}},
        {"ellipsoid-plane", {"a=1e-9", "b=1e-9", "c=1e-9", "z0=1e-8"}},
        {"particle-floor", {"y0=1e14", "vx0=1e14"}},
        {"star-floor", {"L=1e-12", "y0=1e-12"}},
        {"cube-plane", {"s=1e-9", "z0=1e9", "vz0=-1e9"}},
        {"disk-table", {"a=1e-6", "R=1e-7"}},
        {"pendulum-cylinder", {"l=1e9", "R=1e9"}},
    };
    for (const Case& c : cases) {
      const QString dir = freshDir();
      QStringList args = {"video", c.system, "--out", dir + "/f_%02d.png", "--t-end", "0.5", "--fps", "10",
                          "--width", "64", "--height", "48"};
      for (const QString& s : c.sets) args << "--set" << s;
      const Result r = runVideo(args);
      QVERIFY2(r.exitCode == 0 || r.exitCode == 2 || r.exitCode == 3, qPrintable(args.join(' ') + " -> " + describeResult(r)));
      if (r.exitCode == 0) QCOMPARE(entries(dir).size(), 5);
      if (r.exitCode == 2) QVERIFY(entries(dir).isEmpty());
    }
  }

  void noDisplayIsBadInputAndOtherCommandsStillWork() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    const QString dir = freshDir();
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x.mp4", "--t-end", "1"}, "no X display (DISPLAY is not set)", env);
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x.mp4", "--t-end", "1"}, "xvfb-run", env);
    env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":987"));  // no such server
    expectBadInput({"video", "ellipse-floor", "--out", dir + "/x.mp4", "--t-end", "1"}, "cannot open X display ':987'", env);
    QVERIFY(entries(dir).isEmpty());
    env.remove(QStringLiteral("DISPLAY"));
    for (const QStringList& args : {QStringList{"list"}, QStringList{"describe", "cube-plane"},
                                    QStringList{"run", "cube-plane", "--steps", "10"}, QStringList{"--help"}}) {
      const Result r = runVideo(args, env);
      QVERIFY2(r.exitCode == 0, qPrintable(args.join(' ') + " -> " + describeResult(r)));
    }
  }

  void integratorFailureMidVideoKeepsAFinalisedFile() {
    // disk-table with h = 1 s: the first rim impact (t = 2.05 s) is bracketed in the step from
    // t = 2 to 3 s, whose rebound root does not exist at this step length, so step 3 fails
    // deterministically (the same run gives exit 3 in `run`). At 10 fps frame k shows step
    // round(k / 10): frames 0..24 show steps 0..2, frame 25 would need step 3.
    const QString dir = freshDir(), out = dir + "/fail.mp4";
    const Result f = runVideo({"video", "disk-table", "--h", "1", "--t-end", "6", "--fps", "10", "--width", "320",
                          "--height", "180", "--out", out});
    QVERIFY2(f.exitCode == 3, qPrintable(describeResult(f)));
    QVERIFY2(f.err.startsWith("ricochet-cli: integrator failed at step 3 (t = 2 s)") && f.err.count('\n') == 1,
             qPrintable(f.err));
    QVERIFY2(f.err.contains("holds the 25 frames before it (t < 2.5 s)"), qPrintable(f.err));
    QVERIFY2(f.out.contains("25 frames") && f.out.contains("(stopped early)"), qPrintable(f.out));
    const Probe p = ffprobe(out);
    QVERIFY2(p.error.isEmpty(), qPrintable(p.error));  // finalised: playable
    QCOMPARE(p.frames, 25);
    QVERIFY2(std::fabs(p.duration - 2.5) <= 1e-3, qPrintable(QString::number(p.duration)));
    QCOMPARE(entries(dir), QStringList{"fail.mp4"});
  }

  void dyingFfmpegExitsFourAndLeavesNothing() {
    // Stand-ins for ffmpeg that fail in the three ways a real one can: dies while frames are still
    // coming (EPIPE), stops reading but exits 0, reads everything but writes nothing. Each time the
    // export must say so, exit 4 and remove its temporary file.
    struct Fake {
      const char* script;
      const char* expected;
    };
    const Fake fakes[] = {
        {"head -c 300000 > /dev/null\necho 'fake ffmpeg: disk on fire' >&2\nexit 1\n",
         "export failed: ffmpeg exited with code 1: fake ffmpeg: disk on fire (after "},
        {"exit 0\n", "export failed: ffmpeg stopped reading frames (after "},
        {"cat > /dev/null\n", "export failed: ffmpeg exited without writing anything (after 60 frames)"},
    };
    for (const Fake& fake : fakes) {
      const QString bin = freshDir();
      std::ofstream(bin.toStdString() + "/ffmpeg") << "#!/bin/sh\n" << fake.script;
      QFile::setPermissions(bin + "/ffmpeg", QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
      const QProcessEnvironment env = withPath(bin + ":" + qEnvironmentVariable("PATH"));
      const QString dir = freshDir();
      const Result r = runVideo({"video", "ellipse-floor", "--out", dir + "/x.mp4", "--t-end", "2", "--width", "320",
                            "--height", "180", "--quiet"},
                           env);
      QVERIFY2(r.exitCode == 4, qPrintable(describeResult(r)));
      QVERIFY2(r.err.startsWith(QStringLiteral("ricochet-cli: ") + fake.expected) && r.err.contains("no file written") &&
                   r.err.count('\n') == 1,
               qPrintable(r.err));
      QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
      QVERIFY2(entries(dir).isEmpty(), qPrintable(entries(dir).join(' ')));
    }
  }
};

QTEST_APPLESS_MAIN(TestExportVideo)
#include "test_export_video.moc"
