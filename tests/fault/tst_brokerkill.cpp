// kill -9 under load: a stream of thousands of messages between two real helpers while the
// broker is killed with SIGKILL again and again and restarted by the helpers themselves. Every
// message whose send_message answered ok must reach the receiving session's stdout exactly
// once. Prints sent / received / lost / duplicates.
#include "tests/fault/faultsupport.h"
#include "tests/mcp_stdio/helperenv.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QTest>

#include <csignal>

using namespace TestSupport;
using namespace FaultSupport;

namespace {

const QString TtyA = QStringLiteral("pts/201");
const QString TtyB = QStringLiteral("pts/202");

bool processExists(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}

} // namespace

class tst_BrokerKill : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(QFileInfo::exists(brokerExe()));
        QVERIFY(QFileInfo::exists(mcpExe()));
    }

    void sigkillUnderLoadLosesNoAcknowledgedMessage()
    {
        constexpr int Messages = 3000; // acknowledged sends wanted
        constexpr int Kills = 6;
        constexpr int Window = 8; // send_message calls in flight at once
        TestHome home;
        HelperBrokerGuard guard {home};
        // Both helpers may start a broker (it is on their PATH) and do so after every kill.
        auto a = startHelper(home, TtyA, true);
        auto b = startHelper(home, TtyB, true);
        QVERIFY(a && b);
        const QString to = idOf(TtyB);

        QSet<QString> acknowledged;
        int refused = 0;
        QHash<QString, int> refusals; // first words of each refusal kind, for the report
        QHash<int, QString> inFlight; // JSON-RPC id → message text
        qint64 lastKilled = 0;
        QList<qint64> killed;
        int seq = 0;
        qsizetype readA = 0;
        QElapsedTimer clock;
        clock.start();
        const qint64 deadline = scaled(150000);
        while (acknowledged.size() < Messages && clock.elapsed() < deadline) {
            while (inFlight.size() < Window && acknowledged.size() + inFlight.size() < Messages) {
                const QString text = QStringLiteral("m%1").arg(seq++);
                const int id = a->request(
                    QStringLiteral("tools/call"),
                    QJsonObject {{QStringLiteral("name"), QStringLiteral("send_message")},
                                 {QStringLiteral("arguments"),
                                  args({{QStringLiteral("to_id"), to}, {QStringLiteral("message"), text}})}});
                inFlight.insert(id, text);
            }
            QTest::qWait(1);
            bool failedNow = false;
            const QList<QJsonObject> lines = a->allLines();
            for (; readA < lines.size(); ++readA) {
                const QJsonObject &line = lines.at(readA);
                if (line.contains(QLatin1String("method")))
                    continue;
                const int id = line.value(QLatin1String("id")).toInt();
                if (!inFlight.contains(id))
                    continue;
                const QString text = inFlight.take(id);
                const QJsonObject result = line.value(QLatin1String("result")).toObject();
                const QString answer = McpClient::text(result);
                if (!McpClient::isError(result) && answer.startsWith(QLatin1String("Message sent"))) {
                    acknowledged.insert(text);
                } else {
                    ++refused;
                    ++refusals[answer.section(QLatin1Char(' '), 0, 5)];
                    failedNow = true;
                }
            }
            if (failedNow)
                QTest::qWait(20); // the helpers are reconnecting: do not spin on refusals

            // Kill the broker that serves now, once per share of the stream.
            if (int(killed.size()) < Kills &&
                acknowledged.size() >= (killed.size() + 1) * Messages / (Kills + 1)) {
                const qint64 pid = brokerPidFromFile(home);
                if (pid != lastKilled && processExists(pid)) {
                    ::kill(pid_t(pid), SIGKILL);
                    lastKilled = pid;
                    killed << pid;
                }
            }
        }
        const qint64 sendMs = clock.elapsed();
        QVERIFY2(acknowledged.size() >= Messages,
                 qPrintable(QStringLiteral("only %1 acknowledged sends").arg(acknowledged.size())));
        QCOMPARE(int(killed.size()), Kills);

        // Everything acknowledged reaches B's stdout; then a moment for a duplicate to show.
        QHash<QString, int> received;
        qsizetype readB = 0;
        const auto collect = [&] {
            collectReceived(*b, idOf(TtyA), readB, received);
            for (const QString &text : std::as_const(acknowledged)) {
                if (!received.contains(text))
                    return false;
            }
            return true;
        };
        McpClient::waitUntil(collect, scaled(60000));
        QTest::qWait(1000);
        collect();

        int lost = 0;
        for (const QString &text : std::as_const(acknowledged))
            lost += received.contains(text) ? 0 : 1;
        int duplicates = 0;
        int unacknowledgedButDelivered = 0;
        for (auto it = received.cbegin(); it != received.cend(); ++it) {
            duplicates += it.value() - 1;
            if (!acknowledged.contains(it.key()))
                ++unacknowledgedButDelivered;
        }
        qInfo().noquote() << QStringLiteral(
                                 "kill -9 under load: %1 SIGKILLs, sent %2 (acknowledged), received %3, "
                                 "lost %4, duplicates %5; %6 sends refused while the broker was down, %7 "
                                 "of them delivered all the same; %8 ms for the stream (%9 msgs/s)")
                                 .arg(killed.size())
                                 .arg(acknowledged.size())
                                 .arg(received.size())
                                 .arg(lost)
                                 .arg(duplicates)
                                 .arg(refused)
                                 .arg(unacknowledgedButDelivered)
                                 .arg(sendMs)
                                 .arg(qint64(acknowledged.size()) * 1000 / qMax<qint64>(1, sendMs));
        for (auto it = refusals.cbegin(); it != refusals.cend(); ++it)
            qInfo().noquote() << "  refused" << it.value() << "x:" << it.key();
        QCOMPARE(lost, 0);
        QCOMPARE(duplicates, 0);
        QVERIFY(a->nonJsonLines().isEmpty());
        QVERIFY(b->nonJsonLines().isEmpty());
        // The helpers really restarted the broker after each kill.
        const qint64 last = brokerPidFromFile(home);
        QVERIFY(processExists(last));
        QVERIFY(!killed.contains(last));
    }
};

QTEST_GUILESS_MAIN(tst_BrokerKill)
#include "tst_brokerkill.moc"
