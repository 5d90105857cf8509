// The README's GNU parallel recipe, run as written with the `parallel` program: four shards of a
// study, then `study merge`. The merged file must be the single-process file byte for byte.

#include <QtTest>

#include <QProcess>

class TestStudyParallel : public QObject {
  Q_OBJECT
 private slots:
  void gnuParallelShardsMergeToTheSingleProcessFile() {
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString parallel = QStandardPaths::findExecutable("parallel");
    QVERIFY2(!parallel.isEmpty(), "GNU parallel is missing: install the Debian package 'parallel' (./run.sh does)");
    QFile study(tmp.filePath("study.json"));
    QVERIFY(study.open(QIODevice::WriteOnly));
    study.write(R"({"format": "ricochet-study", "version": 1, "scenario": {"system": "ellipsoid-plane"},
      "vary": [{"name": "h", "values": [0.02, 0.01, 0.005]}, {"name": "rx0", "uniform": [0, 0.5], "samples": 5}],
      "seed": 11, "t_end": 4})");
    study.close();
    // The recipe: one single-threaded shard per job slot, then the merge.
    const QString recipe =
        "parallel ricochet-cli study study.json --jobs 1 --shard {}/4 --out shard-{}.csv --quiet ::: 1 2 3 4 && "
        "ricochet-cli study merge --study study.json --out results.csv shard-*.csv && "
        "ricochet-cli study study.json --out single.csv --quiet";
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PATH", QStringLiteral(RICOCHET_BINARY_DIR "/bin:") + env.value("PATH"));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(tmp.path());
    p.start("bash", {"-c", recipe});
    QVERIFY(p.waitForFinished(100000));
    const QByteArray out = p.readAllStandardOutput() + p.readAllStandardError();
    QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, out.constData());
    for (int k = 1; k <= 4; ++k) {
      QVERIFY2(out.contains(QStringLiteral("(shard %1/4)").arg(k).toUtf8()), out.constData());
    }
    QFile merged(tmp.filePath("results.csv")), single(tmp.filePath("single.csv"));
    QVERIFY(merged.open(QIODevice::ReadOnly) && single.open(QIODevice::ReadOnly));
    const QByteArray bytes = single.readAll();
    QCOMPARE(bytes.count('\n'), 16);  // header and 15 runs
    QCOMPARE(merged.readAll(), bytes);
  }
};

QTEST_GUILESS_MAIN(TestStudyParallel)
#include "test_study_parallel.moc"
