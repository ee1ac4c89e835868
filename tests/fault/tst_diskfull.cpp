// The database on a full disk: a 4 MiB tmpfs mounted in a private mount namespace (unshare -m,
// kept alive by a holder process; brokers join it with nsenter), filled up by the test through
// /proc/<holder>/root. Sends must fail with a clear error and never answer ok for a message that
// was not saved; the broker must not crash; a message refused must not reach the receiver;
// everything acknowledged survives; sends work again once space returns, and after a SIGKILL
// and restart every acknowledged message is still there.
#include "tests/fault/faultsupport.h"
#include "tests/mcp_stdio/helperenv.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QSet>
#include <QTest>
#include <QThread>

#include <unistd.h>

using namespace TestSupport;
using namespace FaultSupport;

namespace {

const QString TtyA = QStringLiteral("pts/400");
const QString TtyB = QStringLiteral("pts/401");

// A broker inside the holder's mount namespace (nsenter execs it: the process is the broker).
bool startBroker(QProcess &process, qint64 holderPid, const QProcessEnvironment &env, quint16 port)
{
    process.setProcessEnvironment(env);
    process.setProcessChannelMode(QProcess::SeparateChannels);
    process.start(QStringLiteral("nsenter"),
                  {QStringLiteral("-t"), QString::number(holderPid), QStringLiteral("-m"),
                   QStringLiteral("--"), brokerExe()});
    if (!process.waitForStarted(scaled(5000)))
        return false;
    return McpClient::waitUntil(
        [&] {
            return process.state() == QProcess::Running &&
                httpGet(port, QStringLiteral("/health"), 500).status == 200;
        },
        scaled(10000));
}

void stop(QProcess &process)
{
    if (process.state() == QProcess::NotRunning)
        return;
    process.kill();
    process.waitForFinished(5000);
}

} // namespace

class tst_DiskFull : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(mcpExe()));
    }

    void fullDiskRefusesSendsClearlyAndLosesNothing()
    {
        if (::geteuid() != 0)
            QSKIP("needs root to mount a small tmpfs in a private mount namespace (unshare -m); "
                  "CI runs the suite as root");
        TestHome home;
        const QString dir = home.path() + QStringLiteral("/small");
        QVERIFY(QDir().mkpath(dir));
        QProcess holder;
        holder.start(
            QStringLiteral("unshare"),
            {QStringLiteral("-m"), QStringLiteral("--propagation"), QStringLiteral("private"),
             QStringLiteral("sh"), QStringLiteral("-c"),
             QStringLiteral("mount -t tmpfs -o size=4m,mode=0700 tmpfs \"$1\" && echo mounted && exec "
                            "sleep 600"),
             QStringLiteral("sh"), dir});
        QVERIFY(holder.waitForStarted(scaled(5000)));
        const auto endHolder = qScopeGuard([&] { stop(holder); });
        QVERIFY2(
            McpClient::waitUntil([&] { return holder.canReadLine() || holder.state() != QProcess::Running; },
                                 scaled(5000)) &&
                holder.readLine().trimmed() == "mounted",
            holder.readAllStandardError().constData());
        const QString inside = QStringLiteral("/proc/%1/root%2").arg(holder.processId()).arg(dir);

        QProcessEnvironment env = home.environment();
        env.insert(QStringLiteral("CLAUDE_PEERS_DB"), dir + QStringLiteral("/peers.db"));
        env.insert(QStringLiteral("CLAUDE_PEERS_RATE_LIMIT"), QStringLiteral("0"));
        QProcess broker;
        const auto endBroker = qScopeGuard([&] { stop(broker); });
        QVERIFY(startBroker(broker, holder.processId(), env, home.port()));
        QVERIFY(QFileInfo::exists(inside + QStringLiteral("/peers.db")));
        auto a = startHelper(home, TtyA, false);
        auto b = startHelper(home, TtyB, false);
        QVERIFY(a && b);
        const QByteArray token = home.token();

        const QString padding(1500, QLatin1Char('x'));
        int seq = 0;
        QList<qint64> acknowledged;
        QSet<QString> acknowledgedTexts, refusedTexts;
        QMap<QString, int> refusals; // status + error → count
        const auto send = [&]() -> bool {
            const QString text = QStringLiteral("m%1 ").arg(seq++) + padding;
            const HttpResult r = httpPostJson(home.port(), QStringLiteral("/send-message"),
                                              {{QStringLiteral("from_id"), QStringLiteral("cli")},
                                               {QStringLiteral("to_id"), idOf(TtyB)},
                                               {QStringLiteral("text"), text}},
                                              token, scaled(10000));
            if (r.status == 200 && r.object().value(QStringLiteral("ok")).toBool()) {
                acknowledged << r.object().value(QStringLiteral("message_id")).toInteger();
                acknowledgedTexts.insert(text);
                return true;
            }
            refusedTexts.insert(text);
            ++refusals[QStringLiteral("%1 %2").arg(r.status).arg(QString::fromUtf8(r.body.left(160)))];
            return false;
        };

        for (int i = 0; i < 20; ++i)
            QVERIFY(send());
        const int before = int(acknowledged.size());

        // Fill the disk to the last byte.
        QFile filler(inside + QStringLiteral("/filler"));
        QVERIFY(filler.open(QIODevice::WriteOnly | QIODevice::Unbuffered));
        const QByteArray chunk(16 * 1024, 'f');
        while (filler.write(chunk) == chunk.size()) { }
        const QByteArray small(512, 'f');
        while (filler.write(small) == small.size()) { }
        filler.close();

        int okWhileFull = 0, refusedWhileFull = 0;
        for (int i = 0; i < 400 && refusedWhileFull < 30; ++i)
            (send() ? okWhileFull : refusedWhileFull) += 1;
        QVERIFY2(refusedWhileFull > 0, "the full disk refused nothing: did the filler fill it?");
        // What a session sees: a tool error that says why.
        const QJsonObject toolResult =
            a->callTool(QStringLiteral("send_message"),
                        args({{QStringLiteral("to_id"), idOf(TtyB)},
                              {QStringLiteral("message"), QStringLiteral("full?")}}));
        const QString toolText = McpClient::text(toolResult);
        refusedTexts.insert(QStringLiteral("full?"));
        QCOMPARE(broker.state(), QProcess::Running);
        const QString firstRefusal = refusals.firstKey();

        // Space returns: sends work again without a restart.
        QVERIFY(QFile::remove(inside + QStringLiteral("/filler")));
        QElapsedTimer recovering;
        recovering.start();
        QVERIFY(McpClient::waitUntil([&] { return send(); }, scaled(10000)));
        const qint64 recoveryMs = recovering.elapsed();
        for (int i = 0; i < 20; ++i)
            QVERIFY(send());

        // Every acknowledged message reaches the receiver, no refused one does.
        QHash<QString, int> received;
        const auto collect = [&] {
            received.clear();
            for (const QJsonObject &p : b->channelMessages())
                ++received[p.value(QLatin1String("content")).toString()];
            for (const QString &text : std::as_const(acknowledgedTexts)) {
                if (!received.contains(text))
                    return false;
            }
            return true;
        };
        McpClient::waitUntil(collect, scaled(20000));
        QTest::qWait(500);
        collect();
        int lost = 0, phantoms = 0, duplicates = 0;
        for (const QString &text : std::as_const(acknowledgedTexts))
            lost += received.contains(text) ? 0 : 1;
        for (auto it = received.cbegin(); it != received.cend(); ++it) {
            duplicates += it.value() - 1;
            phantoms += refusedTexts.contains(it.key()) ? 1 : 0;
        }

        // And all of them are in the database after a SIGKILL and a restart.
        stop(broker);
        QProcess again;
        const auto endAgain = qScopeGuard([&] { stop(again); });
        QVERIFY(startBroker(again, holder.processId(), env, home.port()));
        int missingAfterRestart = 0;
        for (qint64 id : std::as_const(acknowledged)) {
            if (httpPostJson(home.port(), QStringLiteral("/message-status"),
                             {{QStringLiteral("message_id"), id}}, token)
                    .status != 200)
                ++missingAfterRestart;
        }

        qInfo().noquote() << QStringLiteral(
                                 "disk full (4 MiB tmpfs): %1 acknowledged before, %2 acknowledged and %3 "
                                 "refused while full, sends ok again %4 ms after space returned; %5 "
                                 "acknowledged in all: %6 lost at the receiver, %7 duplicates, %8 refused "
                                 "but delivered, %9 missing after SIGKILL + restart")
                                 .arg(before)
                                 .arg(okWhileFull)
                                 .arg(refusedWhileFull)
                                 .arg(recoveryMs)
                                 .arg(acknowledged.size())
                                 .arg(lost)
                                 .arg(duplicates)
                                 .arg(phantoms)
                                 .arg(missingAfterRestart);
        for (auto it = refusals.cbegin(); it != refusals.cend(); ++it)
            qInfo().noquote() << "  refused" << it.value() << "x:" << it.key();
        qInfo().noquote() << "  send_message tool result:" << toolText;
        QVERIFY(McpClient::isError(toolResult));
        QVERIFY2(toolText.contains(QLatin1String("disk holding the database is full")), qPrintable(toolText));
        QVERIFY2(firstRefusal.startsWith(QLatin1String("500 ")) &&
                     firstRefusal.contains(QLatin1String("full")),
                 qPrintable(firstRefusal));
        QCOMPARE(lost, 0);
        QCOMPARE(duplicates, 0);
        QCOMPARE(phantoms, 0);
        QCOMPARE(missingAfterRestart, 0);
        QVERIFY(a->nonJsonLines().isEmpty());
        QVERIFY(b->nonJsonLines().isEmpty());
    }
};

QTEST_GUILESS_MAIN(tst_DiskFull)
#include "tst_diskfull.moc"
