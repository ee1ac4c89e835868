// The federation audit trail: bounded, folded, pruned, and every refusal the federation port
// answers (403, 413, 429) recorded with what the caller claimed of itself; other answers not.
#include "attemptlog.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using Federation::Attempt;
using Federation::AttemptLog;
using Federation::AttemptRecordingHandler;
using namespace Qt::StringLiterals;

namespace {

Attempt refused(const QString &address, const QString &reason = u"PSK mismatch"_s)
{
    Attempt a;
    a.kind = u"refused"_s;
    a.address = address;
    a.path = u"/federation/handshake"_s;
    a.status = 403;
    a.reason = reason;
    return a;
}

// Answers every request with a fixed status and body.
class FixedHandler final : public Broker::Http::RequestHandler
{
public:
    int status = 403;
    QByteArray body = R"({"error":"Wrong pairing code"})";
    void handle(const Broker::Http::Request &, const Broker::Http::ResponderPtr &responder) override
    {
        responder->respond(Broker::Http::Response::json(status, body));
    }
};

class CapturingResponder final : public Broker::Http::Responder
{
public:
    int status = 0;
    void respond(const Broker::Http::Response &response) override { status = response.status; }
    bool isOpen() const override { return true; }
    void setOnClosed(std::function<void()>) override { }
};

} // namespace

class tst_AttemptLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void repeatsFoldIntoOneRowWithACount()
    {
        AttemptLog log;
        log.record(refused(u"10.0.0.5"_s), 1000);
        log.record(refused(u"10.0.0.5"_s), 2000);
        log.record(refused(u"10.0.0.6"_s), 3000);
        log.record(refused(u"10.0.0.5"_s), 4000);
        const auto rows = log.entries(5000);
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.first().address, u"10.0.0.5"_s); // newest first
        QCOMPARE(rows.first().count, 3);
        QCOMPARE(rows.first().firstAtMs, 1000);
        QCOMPARE(rows.first().lastAtMs, 4000);
        QCOMPARE(log.refusals(), 4);
        // Outside the fold window the same refusal is a new row.
        log.record(refused(u"10.0.0.5"_s), 4000 + AttemptLog::kFoldWindowMs + 1);
        QCOMPARE(log.entries(4000 + AttemptLog::kFoldWindowMs + 2).size(), 3);
    }

    void aFloodOfSourcesStaysBounded()
    {
        AttemptLog log;
        for (int i = 0; i < AttemptLog::kMaxEntries + 50; ++i)
            log.record(refused(u"10.1.%1.%2"_s.arg(i / 256).arg(i % 256)), 1000 + i);
        const auto rows = log.entries(100000);
        QCOMPARE(rows.size(), AttemptLog::kMaxEntries);
        QCOMPARE(rows.first().address, u"10.1.1.49"_s); // the newest kept, the oldest gone
    }

    void oldRowsArePruned()
    {
        AttemptLog log;
        log.record(refused(u"10.0.0.5"_s), 1000);
        QCOMPARE(log.entries(1000 + AttemptLog::kKeepMs - 1).size(), 1);
        QCOMPARE(log.entries(1000 + AttemptLog::kKeepMs).size(), 0);
    }

    void jsonHasEveryField()
    {
        AttemptLog log;
        log.record(refused(u"10.0.0.5"_s), 1764547200000);
        const QJsonObject row = log.toJson(1764547200000).first().toObject();
        for (const char *key : {"kind", "address", "hostname", "fingerprint", "path", "status", "reason",
                                "first_at", "last_at", "count"})
            QVERIFY2(row.contains(QLatin1String(key)), key);
        QCOMPARE(row.value(u"last_at").toString(), u"2025-12-01T00:00:00.000Z"_s);
    }

    void recordingHandlerRecordsRefusalsWithTheClaimedIdentity_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("recorded");
        QTest::newRow("403") << 403 << true;
        QTest::newRow("413") << 413 << true;
        QTest::newRow("429") << 429 << true;
        QTest::newRow("200") << 200 << false;
        QTest::newRow("401 (expired session)") << 401 << false;
        QTest::newRow("404") << 404 << false;
    }
    void recordingHandlerRecordsRefusalsWithTheClaimedIdentity()
    {
        QFETCH(int, status);
        QFETCH(bool, recorded);
        FixedHandler inner;
        inner.status = status;
        AttemptLog log;
        AttemptRecordingHandler handler(&inner, &log, [] { return qint64(5000); });
        Broker::Http::Request request;
        request.method = "POST";
        request.path = "/federation/pair/request";
        request.peerAddress = QHostAddress(u"::ffff:192.168.1.9"_s);
        request.body =
            QJsonDocument(QJsonObject {{u"hostname"_s, u"mallory"_s}, {u"fingerprint"_s, u"sha256-abc"_s}})
                .toJson(QJsonDocument::Compact);
        auto responder = std::make_shared<CapturingResponder>();
        handler.handle(request, responder);
        QCOMPARE(responder->status, status); // the answer goes through unchanged
        const auto rows = log.entries(5000);
        QCOMPARE(rows.size(), recorded ? 1 : 0);
        if (!recorded)
            return;
        QCOMPARE(rows.first().address, u"192.168.1.9"_s); // mapped IPv4 shown as IPv4
        QCOMPARE(rows.first().hostname, u"mallory"_s);
        QCOMPARE(rows.first().fingerprint, u"sha256-abc"_s);
        QCOMPARE(rows.first().path, u"/federation/pair/request"_s);
        QCOMPARE(rows.first().reason, u"Wrong pairing code"_s);
        QCOMPARE(rows.first().status, status);
    }

    void claimedFieldsAreCutAndHugeBodiesNotParsed()
    {
        FixedHandler inner;
        AttemptLog log;
        AttemptRecordingHandler handler(&inner, &log, [] { return qint64(5000); });
        Broker::Http::Request request;
        request.path = "/federation/challenge";
        request.peerAddress = QHostAddress(u"10.0.0.1"_s);
        request.body = QJsonDocument(QJsonObject {{u"hostname"_s, QString(5000, u'h')}}).toJson();
        handler.handle(request, std::make_shared<CapturingResponder>());
        QCOMPARE(log.entries(5000).first().hostname.size(), 256);
        request.body =
            QJsonDocument(
                QJsonObject {{u"hostname"_s, u"big"_s},
                             {u"pad"_s, QString(AttemptRecordingHandler::kMaxInspectedBodyBytes, u'x')}})
                .toJson();
        request.peerAddress = QHostAddress(u"10.0.0.2"_s);
        handler.handle(request, std::make_shared<CapturingResponder>());
        QCOMPARE(log.entries(5000).first().hostname, QString());
    }
};

QTEST_GUILESS_MAIN(tst_AttemptLog)
#include "tst_attemptlog.moc"
