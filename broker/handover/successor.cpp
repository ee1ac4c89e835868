#include "broker/handover/successor.h"

#include <QElapsedTimer>

namespace Broker::Handover {

Result<Inherited> takeOver(const QString &socketPath, const Request &request, TakeOverTimeouts timeouts)
{
    QElapsedTimer clock;
    clock.start();
    auto connection = Fd::connectTo(socketPath);
    if (!connection)
        return std::unexpected(connection.error());
    const QDeadlineTimer offerDeadline(timeouts.offerMs);
    // A broker that refuses at once (another uid) may have answered and closed before our
    // request went out: its answer is still there to read.
    const auto sent = Fd::send(connection->get(), encode(request), {}, offerDeadline);
    auto received = Fd::receive(connection->get(), sent ? offerDeadline : QDeadlineTimer(200));
    if (!sent && !received)
        return std::unexpected(sent.error());
    if (!received)
        return std::unexpected(received.error());
    auto message = decode(received->bytes);
    if (!message)
        return std::unexpected(message.error());
    if (const auto *refusal = std::get_if<Refusal>(&*message))
        return fail(ErrorKind::HandoverRefused, QStringLiteral("it refused: %1").arg(refusal->reason));
    const auto *offer = std::get_if<Offer>(&*message);
    if (!offer)
        return fail(ErrorKind::BadRequest, QStringLiteral("its answer is not an offer of listening sockets"));
    if (received->fds.size() != size_t(offer->listeners.size()))
        return fail(ErrorKind::BadRequest,
                    QStringLiteral("it named %1 sockets and sent %2")
                        .arg(offer->listeners.size())
                        .arg(received->fds.size()));
    Inherited inherited;
    inherited.fromPid = offer->pid;
    for (qsizetype i = 0; i < offer->listeners.size(); ++i) {
        Fd::Owned &fd = received->fds[size_t(i)];
        const Listener &listener = offer->listeners.at(i);
        const auto port = Fd::listeningPort(fd.get());
        if (!port || *port != listener.port)
            return fail(ErrorKind::BadRequest,
                        QStringLiteral("the socket it sent as %1 is not listening on port %2")
                            .arg(listener.name)
                            .arg(listener.port));
        inherited.sockets.push_back({listener, std::move(fd)});
    }
    inherited.offerMs = clock.elapsed();

    // The sockets are ours (the kernel queues new clients on them); the database is not yet.
    auto done = Fd::receive(connection->get(), QDeadlineTimer(timeouts.doneMs));
    if (!done)
        return fail(done.error().kind == ErrorKind::HandoverTimeout ? ErrorKind::HandoverTimeout
                                                                    : ErrorKind::HandoverRefused,
                    QStringLiteral("it sent its sockets but did not say its database is closed: %1")
                        .arg(done.error().message));
    auto doneMessage = decode(done->bytes);
    if (!doneMessage || !std::holds_alternative<Done>(*doneMessage))
        return fail(ErrorKind::BadRequest, QStringLiteral("its last message is not \"done\""));
    if (const Done &d = std::get<Done>(*doneMessage); !d.ok)
        return fail(ErrorKind::HandoverRefused, QStringLiteral("it could not finish: %1").arg(d.error));
    inherited.doneMs = clock.elapsed();
    return inherited;
}

} // namespace Broker::Handover
