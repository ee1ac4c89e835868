#include "app/tray/pages/controlcalls.h"

#include "common/brokerapi.h"
#include "common/brokerclient.h"

#include <QTimer>

#include <memory>

namespace App {

ControlCalls::ControlCalls(Broker::BrokerClient *client, QObject *parent) : QObject(parent), m_client(client)
{
}

ControlCalls::~ControlCalls()
{
    for (const quint64 id : std::as_const(m_running))
        if (m_client)
            m_client->abort(id);
}

quint64 ControlCalls::run(const QString &action, const QJsonObject &input, Done done)
{
    if (!m_client) {
        QTimer::singleShot(0, this, [action, done = std::move(done)] {
            Broker::ControlFailure failure;
            failure.status = 0;
            failure.message = tr("No broker client: the control service cannot be reached.");
            done(std::unexpected(failure));
        });
        return 0;
    }
    QPointer<ControlCalls> self(this);
    auto id = std::make_shared<quint64>(0);
    // The answer never arrives inside callAlone(): *id is set by then.
    *id = Broker::BrokerApi(*m_client).callAlone(
        Broker::ControlRequest {action, input, {}},
        [self, id, action, done = std::move(done)](Broker::Result<Broker::ControlAnswer> answer) {
            if (!self || !self->m_running.remove(*id))
                return;
            if (!answer)
                done(std::unexpected(Broker::ControlFailure::fromError(answer.error(), action)));
            else
                done(std::move(answer->result));
        },
        timeoutFor(input));
    m_running.insert(*id);
    return *id;
}

void ControlCalls::cancel(quint64 id)
{
    if (m_running.remove(id) && m_client)
        m_client->abort(id);
}

int ControlCalls::timeoutFor(const QJsonObject &input)
{
    if (input.value(QLatin1String("wait")).toBool())
        return input.value(QLatin1String("timeout")).toInt(DefaultWaitSeconds) * 1000 + WaitMarginMs;
    return DefaultTimeoutMs;
}

QString ControlCalls::describe(const Broker::ControlFailure &failure)
{
    QString text = failure.message;
    const QString action = failure.partial.value(QLatin1String("partialAction")).toString();
    const QString session = failure.partial.value(QLatin1String("sessionId")).toString();
    const QString directory = failure.partial.value(QLatin1String("directory")).toString();
    if (action == QLatin1String("fork-created"))
        text +=
            QLatin1Char(' ') + tr("The forked session %1 remains available in %2.").arg(session, directory);
    else if (!failure.partial.isEmpty() && !session.isEmpty())
        text += QLatin1Char(' ') + tr("Session %1 in %2 was left as it is.").arg(session, directory);
    return text;
}

} // namespace App
