#include "attemptlog.h"

#include "clock.h"
#include "subnetfilter.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace Federation {

namespace {

constexpr qsizetype kMaxFieldChars = 256; // claimed names and reasons are cut, never trusted

QString clipped(const QString &text)
{
    return text.size() > kMaxFieldChars ? text.left(kMaxFieldChars) : text;
}

bool sameSource(const Attempt &a, const Attempt &b)
{
    return a.kind == b.kind && a.address == b.address && a.path == b.path && a.status == b.status &&
        a.reason == b.reason && a.hostname == b.hostname && a.fingerprint == b.fingerprint;
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
                       AttemptLog *log, std::function<qint64()> nowMs)
        : m_inner(std::move(inner)),
          m_body(request.body), // shared, not copied
          m_path(QString::fromLatin1(request.path.left(128))),
          m_address(SubnetFilter::unmapped(request.peerAddress).toString()),
          m_log(log),
          m_nowMs(std::move(nowMs))
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
        m_log->record(std::move(attempt), m_nowMs());
    }

    Broker::Http::ResponderPtr m_inner;
    QByteArray m_body;
    QString m_path;
    QString m_address;
    AttemptLog *m_log;
    std::function<qint64()> m_nowMs;
};

} // namespace

void AttemptLog::record(Attempt attempt, qint64 nowMs)
{
    prune(nowMs);
    if (attempt.kind == QLatin1String("refused"))
        ++m_refusals;
    attempt.firstAtMs = nowMs;
    attempt.lastAtMs = nowMs;
    for (auto it = m_entries.rbegin(); it != m_entries.rend(); ++it) {
        if (it->lastAtMs + kFoldWindowMs < nowMs)
            break;
        if (sameSource(*it, attempt)) {
            Attempt folded = *it;
            folded.lastAtMs = nowMs;
            ++folded.count;
            m_entries.erase(std::next(it).base());
            m_entries.append(folded); // stays newest
            return;
        }
    }
    while (m_entries.size() >= kMaxEntries)
        m_entries.removeFirst();
    m_entries.append(std::move(attempt));
}

QList<Attempt> AttemptLog::entries(qint64 nowMs)
{
    prune(nowMs);
    QList<Attempt> newestFirst(m_entries.crbegin(), m_entries.crend());
    return newestFirst;
}

QJsonArray AttemptLog::toJson(qint64 nowMs)
{
    QJsonArray rows;
    for (const Attempt &a : entries(nowMs)) {
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

void AttemptLog::prune(qint64 nowMs)
{
    m_entries.removeIf([nowMs](const Attempt &a) { return a.lastAtMs + kKeepMs <= nowMs; });
}

void AttemptRecordingHandler::handle(const Broker::Http::Request &request,
                                     const Broker::Http::ResponderPtr &responder)
{
    m_inner->handle(request, std::make_shared<RecordingResponder>(responder, request, m_log, m_nowMs));
}

} // namespace Federation
