#include "broker/internal/requestkey.h"

#include "broker/brokerlogging.h"
#include "broker/clock.h"
#include "broker/internal/store.h"

namespace Broker::RequestKey {

namespace {

class RecordingResponder final : public Http::Responder
{
public:
    RecordingResponder(Http::ResponderPtr inner, Store &store, const Clock &clock, QString sender,
                       QString key)
        : m_inner(std::move(inner)),
          m_store(store),
          m_clock(clock),
          m_sender(std::move(sender)),
          m_key(std::move(key))
    {
    }

    void respond(const Http::Response &response) override
    {
        Http::Response echoed = response;
        if (response.status == 200) {
            // Same batch as the message the handler stored just before (or, for a broadcast that
            // waited for its relays, a write of its own): the re-send finds what was committed.
            if (auto kept =
                    m_store.rememberKeyedAnswer(m_sender, m_key, response.body, m_clock.msecsSinceEpoch());
                !kept)
                qCWarning(lcApi).noquote()
                    << "Idempotency-Key not recorded (a re-send would be stored again):"
                    << kept.error().message;
            echoed.extraHeaders.append({echoName.toByteArray(), m_key.toLatin1()});
        }
        m_inner->respond(echoed);
    }
    bool isOpen() const override { return m_inner->isOpen(); }
    void setOnClosed(std::function<void()> callback) override { m_inner->setOnClosed(std::move(callback)); }

private:
    Http::ResponderPtr m_inner;
    Store &m_store;
    const Clock &m_clock;
    QString m_sender;
    QString m_key;
};

} // namespace

bool appliesTo(QByteArrayView path)
{
    return path == "/send-message" || path == "/broadcast";
}

Result<QString> validated(QByteArrayView header)
{
    bool visible = !header.isEmpty() && header.size() <= maxLength;
    for (char c : header)
        visible = visible && c > 0x20 && c < 0x7f;
    if (!visible)
        return std::unexpected(
            Error {ErrorKind::BadRequest,
                   QStringLiteral("Idempotency-Key must be 1 to %1 visible ASCII characters "
                                  "(send a fresh random key per request, or none)")
                       .arg(maxLength),
                   400});
    return QString::fromLatin1(header);
}

Http::Response replay(const QByteArray &answer, const QString &key)
{
    Http::Response response = Http::Response::json(200, answer);
    response.extraHeaders.append({echoName.toByteArray(), key.toLatin1()});
    return response;
}

Http::ResponderPtr recording(Http::ResponderPtr inner, Store &store, const Clock &clock, QString sender,
                             QString key)
{
    return std::make_shared<RecordingResponder>(std::move(inner), store, clock, std::move(sender),
                                                std::move(key));
}

} // namespace Broker::RequestKey
