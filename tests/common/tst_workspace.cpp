#include "common/workspace.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace Ws = Broker::Workspace;
using namespace Qt::StringLiterals;

namespace {

bool git(const QString &dir, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(dir);
    p.start(QStringLiteral("git"), args);
    return p.waitForFinished(10000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

void touch(const QString &path, const QByteArray &content = "x\n")
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(content);
}

} // namespace

class tst_Workspace : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Keep git from finding a repository above the temporary directories.
        qputenv("GIT_CEILING_DIRECTORIES", QFile::encodeName(QDir::tempPath()));
        qputenv("GIT_CONFIG_NOSYSTEM", "1");
        qputenv("GIT_CONFIG_GLOBAL", "/dev/null");
    }

    // docs/spec/peers-api.md §12 item 33 (buildSummary), plus edge cases.
    void cliAutoSummary_data()
    {
        QTest::addColumn<QString>("repo");
        QTest::addColumn<QString>("branch");
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<int>("tasks"); // -1 = null
        QTest::addColumn<QString>("expected");
        QTest::newRow("repo+branch+3 tasks") << u"my-project"_s << u"main"_s << u"/home/user/my-project"_s
                                             << 3 << u"[my-project:main] 3 in-progress tasks"_s;
        QTest::newRow("singular") << u"my-project"_s << u"feat/login"_s << u"/home/user/my-project"_s << 1
                                  << u"[my-project:feat/login] 1 in-progress task"_s;
        QTest::newRow("null tasks") << u"claude-peers-mcp"_s << u"main"_s << u"/home/user/claude-peers-mcp"_s
                                    << -1
                                    << u"[claude-peers-mcp:main] Working in /home/user/claude-peers-mcp"_s;
        QTest::newRow("zero tasks") << u"claude-peers-mcp"_s << u"main"_s << u"/home/user/claude-peers-mcp"_s
                                    << 0
                                    << u"[claude-peers-mcp:main] Working in /home/user/claude-peers-mcp"_s;
        QTest::newRow("no git") << u""_s << u""_s << u"/tmp/random-dir"_s << -1
                                << u"Working in /tmp/random-dir"_s;
        QTest::newRow("repo without branch") << u"some-repo"_s << u""_s << u"/home/user/some-repo"_s << 5
                                             << u"Working in /home/user/some-repo"_s;
        QTest::newRow("branch without repo")
            << u""_s << u"main"_s << u"/home/user/some-dir"_s << -1 << u"Working in /home/user/some-dir"_s;
        QTest::newRow("tasks ignored without git")
            << u""_s << u""_s << u"/tmp/taskmaster-dir"_s << 7 << u"Working in /tmp/taskmaster-dir"_s;
        QTest::newRow("negative tasks") << u"r"_s << u"b"_s << u"/r"_s << -5 << u"[r:b] Working in /r"_s;
        QTest::newRow("unicode") << QStringLiteral("projekt-\u00e4") << u"main"_s
                                 << QStringLiteral("/h/projekt-\u00e4") << 2
                                 << QStringLiteral("[projekt-\u00e4:main] 2 in-progress tasks");
    }
    void cliAutoSummary()
    {
        QFETCH(QString, repo);
        QFETCH(QString, branch);
        QFETCH(QString, cwd);
        QFETCH(int, tasks);
        QFETCH(QString, expected);
        const std::optional<int> count = tasks == -1 ? std::nullopt : std::optional<int>(tasks);
        QCOMPARE(Ws::cliAutoSummary(repo, branch, cwd, count), expected);
    }

    // docs/spec/peers-api.md §7.10.
    void mcpAutoSummary_data()
    {
        QTest::addColumn<QString>("cwd");
        QTest::addColumn<QString>("gitRoot");
        QTest::addColumn<QString>("branch");
        QTest::addColumn<QStringList>("files");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("tty");
        QTest::addColumn<QString>("expected");
        QTest::newRow("reference example")
            << u"/h/my-project/src"_s << u"/h/my-project"_s << u"main"_s << QStringList {u"auth.ts"_s}
            << u"AUTH_WORKER"_s << u"pts/44"_s
            << u"[AUTH_WORKER:pts/44] recently touched auth.ts in my-project"_s;
        QTest::newRow("no parts") << u"/h/p"_s << u"/h/p"_s << u"master"_s << QStringList {} << u""_s << u""_s
                                  << u"[p:master] Working in p"_s;
        QTest::newRow("unknown branch in a repo shows main")
            << u"/h/p"_s << u"/h/p"_s << u""_s << QStringList {} << u""_s << u""_s
            << u"[p:main] Working in p"_s;
        // Divergence: the reference says [work:main:pts/0] outside any repository.
        QTest::newRow("no repo: no branch") << u"/h/work"_s << u""_s << u""_s << QStringList {} << u""_s
                                            << u"pts/0"_s << u"[work:pts/0] Working in work"_s;
        QTest::newRow("feature branch + files")
            << u"/h/p"_s << u"/h/p"_s << u"feat/x"_s << QStringList {u"a"_s, u"b"_s, u"c"_s, u"d"_s} << u""_s
            << u"/dev/pts/3"_s << u"[p:feat/x:pts/3] on feat/x, recently touched a, b, c in p"_s;
        QTest::newRow("named, branch only") << u"/h/p"_s << u"/h/p"_s << u"dev"_s << QStringList {} << u"W"_s
                                            << u""_s << u"[W] on dev in p"_s;
        QTest::newRow("cwd project when no repo")
            << u"/srv/work/"_s << u""_s << u""_s << QStringList {} << u""_s << u"ttys001"_s
            << u"[/srv/work/:ttys001] Working in /srv/work/"_s;
    }
    void mcpAutoSummary()
    {
        QFETCH(QString, cwd);
        QFETCH(QString, gitRoot);
        QFETCH(QString, branch);
        QFETCH(QStringList, files);
        QFETCH(QString, name);
        QFETCH(QString, tty);
        QFETCH(QString, expected);
        Ws::SummaryContext c {cwd, gitRoot, branch, files, name, tty};
        QCOMPARE(Ws::mcpAutoSummary(c), expected);
    }

    void fallbackSummary()
    {
        QCOMPARE(Ws::mcpFallbackSummary(QStringLiteral("AUTH"), QStringLiteral("proj")),
                 QStringLiteral("[AUTH] Awaiting tasks in proj"));
    }

    void projectNameAndTtyTag()
    {
        QCOMPARE(Ws::projectName(QStringLiteral("/a/b"), QStringLiteral("/c/d")), QStringLiteral("b"));
        QCOMPARE(Ws::projectName(QString(), QStringLiteral("/c/d")), QStringLiteral("d"));
        QCOMPARE(Ws::projectName(QString(), QStringLiteral("/")), QStringLiteral("/"));
        QCOMPARE(Ws::ttyTag(QString()), QString());
        QCOMPARE(Ws::ttyTag(QStringLiteral("/dev/pts/44")), QStringLiteral(":pts/44"));
        QCOMPARE(Ws::ttyTag(QStringLiteral("ttys001")), QStringLiteral(":ttys001"));
    }

    void mergeRecentFiles_data()
    {
        QTest::addColumn<QStringList>("diff");
        QTest::addColumn<QStringList>("log");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("empty") << QStringList {} << QStringList {} << QStringList {};
        QTest::newRow("dedup, diff first")
            << QStringList {u"a"_s, u"b"_s} << QStringList {u"b"_s, u"c"_s, u"a"_s, u"d"_s}
            << QStringList {u"a"_s, u"b"_s, u"c"_s, u"d"_s};
        QStringList ten;
        for (int i = 0; i < 12; ++i)
            ten << QStringLiteral("f%1").arg(i);
        QTest::newRow("diff fills the limit") << ten << QStringList {u"x"_s} << ten.mid(0, 10);
        QTest::newRow("log tops up to ten")
            << QStringList {u"a"_s} << ten << (QStringList {u"a"_s} + ten.mid(0, 9));
    }
    void mergeRecentFiles()
    {
        QFETCH(QStringList, diff);
        QFETCH(QStringList, log);
        QFETCH(QStringList, expected);
        QCOMPARE(Ws::mergeRecentFiles(diff, log), expected);
    }

    void parseTaskMasterList_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::addColumn<int>("expected"); // -1 = none
        QTest::newRow("empty") << QByteArray("") << -1;
        QTest::newRow("blank") << QByteArray(" \n\n") << -1;
        QTest::newRow("json array") << QByteArray(R"([{"id":1},{"id":2}])") << 2;
        QTest::newRow("empty json array") << QByteArray("[]") << -1;
        QTest::newRow("json object") << QByteArray(R"({"tasks":[1]})") << -1;
        QTest::newRow("table") << QByteArray("ID  Title\n----------\n1   a\n2   b\n==========\n") << 2;
        QTest::newRow("only decoration") << QByteArray("ID\n---\n") << -1;
    }
    void parseTaskMasterList()
    {
        QFETCH(QByteArray, output);
        QFETCH(int, expected);
        const auto n = Ws::parseTaskMasterList(output);
        QCOMPARE(n.value_or(-1), expected);
    }

    // docs/spec/peers-api.md §12 item 34: basename/branch in a repository, nothing outside one.
    void gitHelpersInRepository()
    {
        QTemporaryDir tmp;
        const QString repo = QDir(tmp.path()).filePath(QStringLiteral("my-repo"));
        QVERIFY(QDir().mkpath(repo + QStringLiteral("/sub")));
        QVERIFY(git(
            repo,
            {QStringLiteral("init"), QStringLiteral("-q"), QStringLiteral("-b"), QStringLiteral("trunk")}));
        QVERIFY(git(
            repo,
            {QStringLiteral("config"), QStringLiteral("user.email"), QStringLiteral("t@example.invalid")}));
        QVERIFY(git(repo, {QStringLiteral("config"), QStringLiteral("user.name"), QStringLiteral("T")}));
        touch(repo + QStringLiteral("/committed.txt"));
        touch(repo + QStringLiteral("/sub/also.txt"));
        QVERIFY(git(repo, {QStringLiteral("add"), QStringLiteral(".")}));
        QVERIFY(
            git(repo,
                {QStringLiteral("commit"), QStringLiteral("-q"), QStringLiteral("-m"), QStringLiteral("c")}));
        touch(repo + QStringLiteral("/committed.txt"), "changed\n");

        const QString canonical = QFileInfo(repo).canonicalFilePath();
        QCOMPARE(Ws::gitRoot(repo + QStringLiteral("/sub")), canonical);
        QCOMPARE(QFileInfo(Ws::gitRoot(repo)).fileName(), QStringLiteral("my-repo"));
        QCOMPARE(Ws::gitBranch(repo), QStringLiteral("trunk"));
        const QStringList files = Ws::recentFiles(repo);
        QCOMPARE(files.value(0), QStringLiteral("committed.txt")); // the uncommitted change comes first
        QVERIFY(files.contains(QStringLiteral("sub/also.txt")));
        QCOMPARE(files.size(), 2);

        // The asynchronous probe finds the same and calls back later, never inline.
        QObject context;
        std::optional<Ws::GitInfo> info;
        Ws::probeGit(repo + QStringLiteral("/sub"), &context,
                     [&info](Ws::GitInfo i) { info = std::move(i); });
        QVERIFY(!info);
        QTRY_VERIFY_WITH_TIMEOUT(info.has_value(), TestSupport::scaled(10000));
        QCOMPARE(info->root, canonical);
        QCOMPARE(info->branch, QStringLiteral("trunk"));
        QCOMPARE(info->recentFiles, files);
    }

    void gitHelpersOutsideRepository()
    {
        QTemporaryDir tmp;
        QVERIFY(Ws::gitRoot(tmp.path()).isEmpty());
        QVERIFY(Ws::gitBranch(tmp.path()).isEmpty());
        QVERIFY(Ws::recentFiles(tmp.path()).isEmpty());

        QObject context;
        std::optional<Ws::GitInfo> info;
        Ws::probeGit(tmp.path(), &context, [&info](Ws::GitInfo i) { info = std::move(i); });
        QTRY_VERIFY_WITH_TIMEOUT(info.has_value(), TestSupport::scaled(10000));
        QVERIFY(!info->isRepository());
        QVERIFY(info->branch.isEmpty());
        QVERIFY(info->recentFiles.isEmpty());
    }

    void missingDirectoryIsNotARepository()
    {
        QVERIFY(Ws::gitRoot(QStringLiteral("/nonexistent/dir/for/sure")).isEmpty());
    }

    void runProcessReportsFailureAndTimeout()
    {
        QObject context;
        std::optional<std::optional<QByteArray>> ok, failed, missing, slow;
        Ws::runProcess(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("echo hi")},
                       QDir::tempPath(), 5000, &context, [&](auto out) { ok = out; });
        Ws::runProcess(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("exit 3")},
                       QDir::tempPath(), 5000, &context, [&](auto out) { failed = out; });
        Ws::runProcess(QStringLiteral("/nonexistent-program"), {}, QDir::tempPath(), 5000, &context,
                       [&](auto out) { missing = out; });
        QElapsedTimer t;
        t.start();
        Ws::runProcess(QStringLiteral("/bin/sleep"), {QStringLiteral("30")}, QDir::tempPath(), 200, &context,
                       [&](auto out) { slow = out; });
        QTRY_VERIFY_WITH_TIMEOUT(ok && failed && missing && slow, TestSupport::scaled(10000));
        QCOMPARE(ok->value_or(QByteArray()), QByteArray("hi\n"));
        QVERIFY(!failed->has_value());
        QVERIFY(!missing->has_value());
        QVERIFY(!slow->has_value());
        QVERIFY(t.elapsed() < 10000);
    }

    void runProcessCutsOversizedOutput()
    {
        QObject context;
        std::optional<std::optional<QByteArray>> out;
        // 5 MiB of "y\n": more than the 4 MiB cap.
        Ws::runProcess(QStringLiteral("/bin/sh"),
                       {QStringLiteral("-c"), QStringLiteral("yes | head -c 5242880")}, QDir::tempPath(),
                       10000, &context, [&](auto o) { out = o; });
        QTRY_VERIFY_WITH_TIMEOUT(out.has_value(), TestSupport::scaled(15000));
        QVERIFY(out->has_value());
        QVERIFY((*out)->size() <= Ws::MaxProcessOutputBytes);
        QVERIFY((*out)->endsWith('\n'));
    }

    void callbackDroppedWhenContextDies()
    {
        bool called = false;
        {
            QObject context;
            Ws::runProcess(QStringLiteral("/bin/sleep"), {QStringLiteral("5")}, QDir::tempPath(), 10000,
                           &context, [&](auto) { called = true; });
        }
        // Let deferred deletions and queued events run: nothing may call back.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCoreApplication::processEvents();
        QVERIFY(!called);
    }

    void taskMasterAbsentMeansNull()
    {
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", "/nonexistent");
        QObject context;
        bool done = false;
        std::optional<int> count = 1;
        Ws::taskMasterInProgress(QDir::tempPath(), &context, [&](std::optional<int> n) {
            done = true;
            count = n;
        });
        QVERIFY(!done); // queued, not inline
        QTRY_VERIFY(done);
        QVERIFY(!count);
        qputenv("PATH", path);
    }
};

QTEST_GUILESS_MAIN(tst_Workspace)
#include "tst_workspace.moc"
