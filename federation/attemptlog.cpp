#include "federation/attemptlog.h"

#include "broker/brokermodule.h"
#include "broker/clock.h"
#include "federation/subnetfilter.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace Federation {

namespace {

constexpr qsizetype kMaxFieldChars = 256; // claimed names and reasons are cut, never trusted

QString clipped(const QString &text)
{
    if (text.isNull())
        return QStringLiteral(""); // never SQL NULL
    return text.size() > kMaxFieldChars ? text.left(kMaxFieldChars) : text;
}

QString isoOf(qint64 ms)
{
    return Broker::Clock::toIso(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC));
}

// Answers through the real responder and records a refusal on the way.
class RecordingResponder final : public Broker::Http::Responder
{
public:
    RecordingResponder(Broker::Http::ResponderPtr inner, const Broker::Http::Request &request,
                       AttemptLog *log)
        : m_inner(std::move(inner)),
          m_body(request.body), // shared, not copied
          m_path(QString::fromLatin1(request.path.left(128))),
          m_address(SubnetFilter::unmapped(request.peerAddress).toString()),
          m_log(log)
    {
    }

    void respond(const Broker::Http::Response &response) override
    {
        if (AttemptRecordingHandler::isRecordedStatus(response.status))
            record(response);
        m_inner->respond(response);
    }
    bool isOpen() const override { return m_inner->isOpen(); }
    void setOnClosed(std::function<void()> callback) override { m_inner->setOnClosed(std::move(callback)); }

private:
    void record(const Broker::Http::Response &response)
    {
        Attempt attempt;
        attempt.kind = QStringLiteral("refused");
        attempt.address = m_address;
        attempt.path = m_path;
        attempt.status = response.status;
        const QJsonObject answer = QJsonDocument::fromJson(response.body).object();
        attempt.reason = clipped(answer.value(u"error").toString());
        if (attempt.reason.isEmpty())
            attempt.reason = clipped(QString::fromUtf8(response.body.left(kMaxFieldChars)));
        if (m_body.size() <= AttemptRecordingHandler::kMaxInspectedBodyBytes) {
            const QJsonObject claimed = QJsonDocument::fromJson(m_body).object();
            for (const char *key : {"hostname", "from_machine"}) {
                if (const QString value = claimed.value(QLatin1String(key)).toString(); !value.isEmpty()) {
                    attempt.hostname = clipped(value);
                    break;
                }
            }
            for (const char *key : {"fingerprint", "client_fingerprint"}) {
                if (const QString value = claimed.value(QLatin1String(key)).toString(); !value.isEmpty()) {
                    attempt.fingerprint = clipped(value);
                    break;
                }
            }
        }
        m_log->record(std::move(attempt));
    }

    Broker::Http::ResponderPtr m_inner;
    QByteArray m_body;
    QString m_path;
    QString m_address;
    AttemptLog *m_log;
};

} // namespace

QList<Broker::ModuleMigration> AttemptLog::migrations()
{
    return {migration(
        4, QStringLiteral("create federation_attempts (the audit trail: refusals and pairing decisions)"),
        {QStringLiteral(
             "CREATE TABLE federation_attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, "
             "address TEXT NOT NULL, hostname TEXT NOT NULL, fingerprint TEXT NOT NULL, path TEXT NOT "
             "NULL, status INTEGER NOT NULL, reason TEXT NOT NULL, first_at_ms INTEGER NOT NULL, "
             "last_at_ms INTEGER NOT NULL, count INTEGER NOT NULL)"),
         QStringLiteral("CREATE INDEX federation_attempts_last ON federation_attempts (last_at_ms)")})};
}

AttemptLog::AttemptLog(Database database, const Broker::Clock &clock)
    : FederationTable(std::move(database), clock)
{
}

void AttemptLog::record(Attempt attempt)
{
    const qint64 nowMs = clock().msecsSinceEpoch();
    if (attempt.kind == QLatin1String("refused"))
        ++m_refusals;
    if (fold(attempt, nowMs))
        return;
    QSqlQuery insert = prepared(QStringLiteral(
        "INSERT INTO federation_attempts (kind, address, hostname, fingerprint, path, status, reason, "
        "first_at_ms, last_at_ms, count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"));
    for (const QString &field :
         {attempt.kind, attempt.address, attempt.hostname, attempt.fingerprint, attempt.path})
        insert.addBindValue(clipped(field));
    insert.addBindValue(attempt.status);
    insert.addBindValue(clipped(attempt.reason));
    insert.addBindValue(nowMs);
    insert.addBindValue(nowMs);
    if (run(insert, "recording a federation attempt"))
        prune(nowMs);
}

// The same refusal (or decision) from the same source within the fold window: one more on its row.
bool AttemptLog::fold(const Attempt &attempt, qint64 nowMs)
{
    QSqlQuery update = prepared(QStringLiteral(
        "UPDATE federation_attempts SET count = count + 1, last_at_ms = ? WHERE id = (SELECT id FROM "
        "federation_attempts WHERE last_at_ms >= ? AND kind = ? AND address = ? AND hostname = ? AND "
        "fingerprint = ? AND path = ? AND status = ? AND reason = ? ORDER BY last_at_ms DESC, id DESC LIMIT "
        "1)"));
    update.addBindValue(nowMs);
    update.addBindValue(nowMs - kFoldWindowMs);
    for (const QString &field :
         {attempt.kind, attempt.address, attempt.hostname, attempt.fingerprint, attempt.path})
        update.addBindValue(clipped(field));
    update.addBindValue(attempt.status);
    update.addBindValue(clipped(attempt.reason));
    return run(update, "folding a federation attempt") && update.numRowsAffected() > 0;
}

void AttemptLog::prune(qint64 nowMs)
{
    QSqlQuery old = prepared(QStringLiteral("DELETE FROM federation_attempts WHERE last_at_ms <= ?"));
    old.addBindValue(nowMs - kKeepMs);
    run(old, "pruning old federation attempts");
    QSqlQuery overflow = prepared(QStringLiteral(
        "DELETE FROM federation_attempts WHERE id NOT IN (SELECT id FROM federation_attempts ORDER BY "
        "last_at_ms DESC, id DESC LIMIT ?)"));
    overflow.addBindValue(kMaxEntries);
    run(overflow, "bounding the federation attempts");
}

QList<Attempt> AttemptLog::entries() const
{
    QList<Attempt> rows;
    QSqlQuery query = prepared(
        QStringLiteral("SELECT kind, address, hostname, fingerprint, path, status, reason, first_at_ms, "
                       "last_at_ms, count FROM "
                       "federation_attempts WHERE last_at_ms > ? ORDER BY last_at_ms DESC, id DESC LIMIT ?"));
    query.addBindValue(clock().msecsSinceEpoch() - kKeepMs);
    query.addBindValue(kMaxEntries);
    if (!run(query, "listing federation attempts"))
        return rows;
    while (query.next()) {
        Attempt a;
        a.kind = query.value(0).toString();
        a.address = query.value(1).toString();
        a.hostname = query.value(2).toString();
        a.fingerprint = query.value(3).toString();
        a.path = query.value(4).toString();
        a.status = query.value(5).toInt();
        a.reason = query.value(6).toString();
        a.firstAtMs = query.value(7).toLongLong();
        a.lastAtMs = query.value(8).toLongLong();
        a.count = query.value(9).toInt();
        rows.append(a);
    }
    return rows;
}

QJsonArray AttemptLog::toJson() const
{
    QJsonArray rows;
    for (const Attempt &a : entries()) {
        rows.append(QJsonObject {{QStringLiteral("kind"), a.kind},
                                 {QStringLiteral("address"), a.address},
                                 {QStringLiteral("hostname"), a.hostname},
                                 {QStringLiteral("fingerprint"), a.fingerprint},
                                 {QStringLiteral("path"), a.path},
                                 {QStringLiteral("status"), a.status},
                                 {QStringLiteral("reason"), a.reason},
                                 {QStringLiteral("first_at"), isoOf(a.firstAtMs)},
                                 {QStringLiteral("last_at"), isoOf(a.lastAtMs)},
                                 {QStringLiteral("count"), a.count}});
    }
    return rows;
}

void AttemptRecordingHandler::handle(const Broker::Http::Request &request,
                                     const Broker::Http::ResponderPtr &responder)
{
    m_inner->handle(request, std::make_shared<RecordingResponder>(responder, request, m_log));
}

} // namespace Federation
