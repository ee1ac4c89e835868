// The federation audit trail in SQLite: bounded by count and age, folded, and every refusal the
// federation port answers (403, 413, 429) recorded with what the caller claimed of itself; other
// answers not. The ignored machines' list beside it. (That both survive a broker restart:
// tst_federationmodule.)
#include "broker/brokermodule.h"
#include "broker/clock.h"
#include "federation/attemptlog.h"
#include "federation/ignoredmachines.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
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

// A fresh in-memory SQLite file with the two tables, and a clock that moves when told to.
struct Store
{
    Store()
    {
        static int counter = 0;
        name = u"attempts-%1"_s.arg(++counter);
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
        db.setDatabaseName(u":memory:"_s);
        if (!db.open())
            qFatal("no SQLite");
        for (const auto &step : AttemptLog::migrations() + Federation::IgnoredMachines::migrations()) {
            if (!step.apply(db))
                qFatal("migration %d failed", step.version);
        }
    }
    ~Store()
    {
        log.reset();
        ignored.reset();
        QSqlDatabase::removeDatabase(name);
    }
    QSqlDatabase database() const { return QSqlDatabase::database(name); }
    void at(qint64 ms) { clock.advance(ms - (clock.msecsSinceEpoch())); }

    QString name;
    Broker::ManualClock clock {QDateTime::fromMSecsSinceEpoch(1000, Qt::UTC)};
    std::unique_ptr<AttemptLog> log = std::make_unique<AttemptLog>([this] { return database(); }, clock);
    std::unique_ptr<Federation::IgnoredMachines> ignored =
        std::make_unique<Federation::IgnoredMachines>([this] { return database(); }, clock);
};

} // namespace

class tst_AttemptLog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void repeatsFoldIntoOneRowWithACount()
    {
        Store store;
        AttemptLog &log = *store.log;
        store.at(1000);
        log.record(refused(u"10.0.0.5"_s));
        store.at(2000);
        log.record(refused(u"10.0.0.5"_s));
        store.at(3000);
        log.record(refused(u"10.0.0.6"_s));
        store.at(4000);
        log.record(refused(u"10.0.0.5"_s));
        store.at(5000);
        const auto rows = log.entries();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows.first().address, u"10.0.0.5"_s); // newest first
        QCOMPARE(rows.first().count, 3);
        QCOMPARE(rows.first().firstAtMs, 1000);
        QCOMPARE(rows.first().lastAtMs, 4000);
        QCOMPARE(log.refusals(), 4);
        // Outside the fold window the same refusal is a new row.
        store.at(4000 + AttemptLog::kFoldWindowMs + 1);
        log.record(refused(u"10.0.0.5"_s));
        QCOMPARE(log.entries().size(), 3);
        // A decision never folds into a refusal.
        Attempt decision = refused(u"10.0.0.5"_s);
        decision.kind = u"rejected"_s;
        log.record(decision);
        QCOMPARE(log.entries().size(), 4);
        QCOMPARE(log.entries().first().kind, u"rejected"_s);
    }

    void aFloodOfSourcesStaysBounded()
    {
        Store store;
        const int total = AttemptLog::kMaxEntries + 50;
        for (int i = 0; i < total; ++i) {
            store.at(1000 + i);
            store.log->record(refused(u"10.1.%1.%2"_s.arg(i / 256).arg(i % 256)));
        }
        const auto rows = store.log->entries();
        QCOMPARE(rows.size(), AttemptLog::kMaxEntries);
        const int newest = total - 1;
        const int oldestKept = total - AttemptLog::kMaxEntries;
        QCOMPARE(rows.first().address, u"10.1.%1.%2"_s.arg(newest / 256).arg(newest % 256));
        QCOMPARE(rows.last().address, u"10.1.%1.%2"_s.arg(oldestKept / 256).arg(oldestKept % 256));
        // The table itself holds no more than the bound (not only what is listed).
        QSqlQuery count(store.database());
        QVERIFY(count.exec(u"SELECT count(*) FROM federation_attempts"_s) && count.next());
        QCOMPARE(count.value(0).toInt(), AttemptLog::kMaxEntries);
    }

    void oldRowsArePruned()
    {
        Store store;
        store.log->record(refused(u"10.0.0.5"_s));
        store.at(1000 + AttemptLog::kKeepMs - 1);
        QCOMPARE(store.log->entries().size(), 1);
        store.at(1000 + AttemptLog::kKeepMs);
        QCOMPARE(store.log->entries().size(), 0); // not listed once too old…
        store.log->record(refused(u"10.0.0.6"_s));
        QSqlQuery count(store.database());
        QVERIFY(count.exec(u"SELECT count(*) FROM federation_attempts"_s) && count.next());
        QCOMPARE(count.value(0).toInt(), 1); // …and deleted by the next write
    }

    void jsonHasEveryField()
    {
        Store store;
        store.at(1764547200000);
        store.log->record(refused(u"10.0.0.5"_s));
        const QJsonObject row = store.log->toJson().first().toObject();
        for (const char *key : {"kind", "address", "hostname", "fingerprint", "path", "status", "reason",
                                "first_at", "last_at", "count"})
            QVERIFY2(row.contains(QLatin1String(key)), key);
        QCOMPARE(row.value(u"last_at").toString(), u"2025-12-01T00:00:00.000Z"_s);
    }

    void aFailedWriteIsLostNotFatal()
    {
        Store store;
        QSqlQuery drop(store.database());
        QVERIFY(drop.exec(u"DROP TABLE federation_attempts"_s));
        store.log->record(refused(u"10.0.0.5"_s)); // logged, nothing thrown
        QCOMPARE(store.log->entries().size(), 0);
        QCOMPARE(store.log->refusals(), 1);
    }

    void ignoredMachinesAreKeptByPinAndBounded()
    {
        Store store;
        Federation::IgnoredMachines &ignored = *store.ignored;
        ignored.add(QString(), u"legacy"_s, u"10.0.0.9:7900"_s); // no pin: nothing to recognise it by
        QCOMPARE(ignored.toJson().size(), 0);
        ignored.add(u"sha256-aaa"_s, u"mallory"_s, u"10.0.0.5:7900"_s);
        QVERIFY(ignored.isIgnored(u"sha256-aaa"_s));
        QVERIFY(!ignored.isIgnored(u"sha256-bbb"_s));
        QVERIFY(!ignored.isIgnored(QString()));
        const QJsonObject row = ignored.toJson().first().toObject();
        QCOMPARE(row.value(u"fingerprint"_s).toString(), u"sha256-aaa"_s);
        QCOMPARE(row.value(u"hostname"_s).toString(), u"mallory"_s);
        QCOMPARE(row.value(u"address"_s).toString(), u"10.0.0.5:7900"_s);
        QVERIFY(!row.value(u"ignored_at"_s).toString().isEmpty());
        QVERIFY(ignored.remove(u"sha256-aaa"_s));
        QVERIFY(!ignored.remove(u"sha256-aaa"_s)); // not ignored any more
        QVERIFY(!ignored.isIgnored(u"sha256-aaa"_s));
        for (int i = 0; i < Federation::IgnoredMachines::kMaxEntries + 5; ++i) {
            store.clock.advance(1);
            ignored.add(u"sha256-%1"_s.arg(i), u"h"_s, u"a"_s);
        }
        QCOMPARE(ignored.toJson().size(), Federation::IgnoredMachines::kMaxEntries);
        QVERIFY(!ignored.isIgnored(u"sha256-0"_s)); // the oldest went
        QVERIFY(ignored.isIgnored(u"sha256-%1"_s.arg(Federation::IgnoredMachines::kMaxEntries + 4)));
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
        Store store;
        AttemptLog &log = *store.log;
        AttemptRecordingHandler handler(&inner, &log);
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
        const auto rows = log.entries();
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
        Store store;
        AttemptLog &log = *store.log;
        AttemptRecordingHandler handler(&inner, &log);
        Broker::Http::Request request;
        request.path = "/federation/challenge";
        request.peerAddress = QHostAddress(u"10.0.0.1"_s);
        request.body = QJsonDocument(QJsonObject {{u"hostname"_s, QString(5000, u'h')}}).toJson();
        handler.handle(request, std::make_shared<CapturingResponder>());
        QCOMPARE(log.entries().first().hostname.size(), 256);
        request.body =
            QJsonDocument(
                QJsonObject {{u"hostname"_s, u"big"_s},
                             {u"pad"_s, QString(AttemptRecordingHandler::kMaxInspectedBodyBytes, u'x')}})
                .toJson();
        request.peerAddress = QHostAddress(u"10.0.0.2"_s);
        handler.handle(request, std::make_shared<CapturingResponder>());
        QCOMPARE(log.entries().first().hostname, QString());
    }
};

QTEST_GUILESS_MAIN(tst_AttemptLog)
#include "tst_attemptlog.moc"
