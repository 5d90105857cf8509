// Animation export without a display (render/video/animation_export.hpp): the frame clock (N,
// t_k, the step each frame shows), output names and formats, option checks, PATH lookup. The
// rendering and encoding themselves are in test_export_video (needs X).

#include "render/video/animation_export.hpp"

#include <QtTest>

#include <cmath>
#include <cstdlib>
#include <random>

using namespace ricochet;
using namespace ricochet::render;

class TestExportTiming : public QObject {
  Q_OBJECT
 private slots:
  void frameCountIsRoundOfDurationTimesFpsOverSpeed() {
    QCOMPARE(videoFrameCount(2.0, 30.0, 1.0), std::int64_t(60));   // the acceptance run
    QCOMPARE(videoFrameCount(10.0, 30.0, 1.0), std::int64_t(300));  // the benchmark run
    QCOMPARE(videoFrameCount(25.0, 30.0, 1.0), std::int64_t(750));
    QCOMPARE(videoFrameCount(2.0, 30.0, 0.5), std::int64_t(120));  // slow motion: twice the frames
    QCOMPARE(videoFrameCount(100.0, 30.0, 10.0), std::int64_t(300));
    QCOMPARE(videoFrameCount(1.0, 7.0, 3.0), std::int64_t(2));   // 2.33 rounds down
    QCOMPARE(videoFrameCount(1.0, 10.0, 4.0), std::int64_t(3));  // 2.5 rounds up
    QCOMPARE(videoFrameCount(0.01, 30.0, 1.0), std::int64_t(0));
    QCOMPARE(videoFrameCount(1e9, 30.0, 1.0), std::int64_t(-1));
    QCOMPARE(videoFrameCount(NAN, 30.0, 1.0), std::int64_t(-1));
  }

  void frameKShowsTheStepNearestKSpeedOverFps() {
    // h = 0.01, 30 fps: t_1 = 0.0333 -> step 3, t_2 = 0.0667 -> 7, t_3 = 0.1 -> 10.
    QCOMPARE(videoFrameStep(0, 30.0, 1.0, 0.01), std::int64_t(0));
    QCOMPARE(videoFrameStep(1, 30.0, 1.0, 0.01), std::int64_t(3));
    QCOMPARE(videoFrameStep(2, 30.0, 1.0, 0.01), std::int64_t(7));
    QCOMPARE(videoFrameStep(3, 30.0, 1.0, 0.01), std::int64_t(10));
    QCOMPARE(videoFrameStep(59, 30.0, 1.0, 0.01), std::int64_t(197));  // the last of 2 s: t = 1.9667
    QCOMPARE(videoFrameStep(1, 20.0, 1.0, 0.1), std::int64_t(1));       // t = 0.05 = h/2: ties upward
    QCOMPARE(videoFrameStep(5, 10.0, 0.1, 0.005), std::int64_t(10));    // slow motion, 0.05 s
    QCOMPARE(videoFrameTime(45, 30.0, 1.0), 1.5);
    // Property: never farther than h/2 from t_k, never backwards, for random clocks.
    std::mt19937_64 rng(6);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int trial = 0; trial < 200; ++trial) {
      const double fps = 1.0 + 239.0 * u(rng);
      const double speed = std::pow(10.0, -2.0 + 4.0 * u(rng));
      const double h = std::pow(10.0, -4.0 + 3.0 * u(rng));
      std::int64_t previous = 0;
      for (std::int64_t k = 0; k < 500; ++k) {
        const std::int64_t j = videoFrameStep(k, fps, speed, h);
        const double tk = videoFrameTime(k, fps, speed);
        QVERIFY(std::fabs(static_cast<double>(j) * h - tk) <= 0.5 * h * (1.0 + 1e-9) + 1e-12 * tk);
        QVERIFY(j >= previous);
        previous = j;
      }
    }
  }

  void formatsFromTheOutputName() {
    std::string e;
    QCOMPARE(*videoFormatFor("x.mp4", &e), VideoFormat::Mp4);
    QCOMPARE(*videoFormatFor("dir/Talk.MP4", &e), VideoFormat::Mp4);
    QCOMPARE(*videoFormatFor("x.gif", &e), VideoFormat::Gif);
    QCOMPARE(*videoFormatFor("x.ogv", &e), VideoFormat::Ogv);
    QCOMPARE(*videoFormatFor("x.ogg", &e), VideoFormat::Ogv);
    QCOMPARE(*videoFormatFor("frames/f_%05d.png", &e), VideoFormat::PngSequence);
    QCOMPARE(*videoFormatFor("%d.png", &e), VideoFormat::PngSequence);
    QCOMPARE(*videoFormatFor("100%%_%03d.png", &e), VideoFormat::PngSequence);
    for (const char* bad : {"x.avi", "x", "x.png", "f_%5d.png", "f_%d_%d.png", "f_%s.png", "f_%05d.mp4", "f_%0d.png",
                            "f_%010d.png", ""}) {
      e.clear();
      QVERIFY2(!videoFormatFor(bad, &e), bad);
      QVERIFY2(!e.empty(), bad);
    }
    videoFormatFor("talk.avi", &e);
    QVERIFY2(e.find("'.avi'") != std::string::npos && e.find(".mp4") != std::string::npos, e.c_str());
    videoFormatFor("f.png", &e);
    QVERIFY2(e.find("%05d") != std::string::npos, e.c_str());
  }

  void pngFrameNames() {
    QCOMPARE(QString::fromStdString(pngFrameName("frames/f_%05d.png", 7).string()), QStringLiteral("frames/f_00007.png"));
    QCOMPARE(QString::fromStdString(pngFrameName("%d.png", 12).string()), QStringLiteral("12.png"));
    QCOMPARE(QString::fromStdString(pngFrameName("a%%b_%03d.png", 7).string()), QStringLiteral("a%b_007.png"));
    QCOMPARE(QString::fromStdString(pngFrameName("f_%02d.png", 123).string()), QStringLiteral("f_123.png"));
  }

  void optionChecksNameTheValue() {
    const auto check = [](VideoOptions o, double h = 0.01) { return QString::fromStdString(checkVideoOptions(o, h)); };
    VideoOptions ok;
    ok.duration = 2.0;
    QCOMPARE(check(ok), QString());
    VideoOptions o = ok;
    o.width = 1281;
    QVERIFY(check(o).contains("width = 1281 is invalid") && check(o).contains("even"));
    o.format = VideoFormat::Gif;  // GIF and PNG take odd sizes
    QCOMPARE(check(o), QString());
    o = ok;
    o.height = 8;
    QVERIFY(check(o).contains("height = 8 is invalid: must be in [16, 8192]"));
    o = ok;
    o.fps = 0.0;
    QVERIFY(check(o).contains("fps = 0 is invalid: must be in [1, 240]"));
    o.fps = NAN;
    QVERIFY(check(o).contains("fps = nan is invalid"));
    o = ok;
    o.format = VideoFormat::Ogv;
    o.fps = 29.97;
    QVERIFY(check(o).contains("fps = 29.97 is invalid for .ogv"));
    o.format = VideoFormat::Mp4;
    QCOMPARE(check(o), QString());
    o = ok;
    o.speed = -1.0;
    QVERIFY(check(o).contains("speed = -1 is invalid"));
    o = ok;
    o.duration = 0.01;
    QVERIFY(check(o).contains("t_end = 0.01 s is shorter than one frame"));
    o.duration = 1e8;
    QVERIFY(check(o).contains("needs more than 1000000 frames"));
    o = ok;
    QVERIFY(check(o, 0.0).contains("time step h = 0 is invalid"));
    o.duration = 1e9;  // 1000 frames of 1e6 s each, at h = 1e-6 s: 1e15 steps
    o.speed = 1e6;
    o.fps = 1.0;
    QVERIFY2(check(o, 1e-6).contains("needs more than 1000000000000 steps"), qPrintable(check(o, 1e-6)));
    QCOMPARE(check(o, 0.01), QString());
  }

  void programsAreFoundOnPath() {
    QVERIFY(findProgram("sh").has_value());
    QVERIFY(!findProgram("ricochet-no-such-program").has_value());
    QVERIFY(findProgram("/bin/sh").has_value());
    QVERIFY(!findProgram("/no/such/dir/sh").has_value());
    QVERIFY(!findProgram("").has_value());
    const QByteArray saved = qgetenv("PATH");
    qputenv("PATH", "/nonexistent-dir");
    const bool hidden = !findProgram("sh").has_value();
    qputenv("PATH", saved);
    QVERIFY(hidden);
  }
};

QTEST_APPLESS_MAIN(TestExportTiming)
#include "test_export_timing.moc"
