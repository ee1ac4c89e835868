#include "broker/handover/handoverwire.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace Broker::Handover {

namespace {

template<class... Ts> struct Overloaded : Ts...
{
    using Ts::operator()...;
};
// clang 15 does not deduce aggregate template arguments (C++20 CTAD for aggregates) yet.
template<class... Ts> Overloaded(Ts...) -> Overloaded<Ts...>;

Error bad(const QString &why)
{
    return {ErrorKind::BadRequest, QStringLiteral("Bad hand-over message: %1").arg(why)};
}

// A pid as JSON carries it: an integer in 1..2^31-1.
std::optional<qint64> pidOf(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double d = value.toDouble();
    if (!(d >= 1 && d <= 2147483647.0) || d != double(qint64(d)))
        return std::nullopt;
    return qint64(d);
}

constexpr int kMaxText = 1024;

} // namespace

QByteArray encode(const Message &message)
{
    const QJsonObject object =
        std::visit(Overloaded {
                       [](const Request &r) {
                           return QJsonObject {{QStringLiteral("handover"), kProtocolVersion},
                                               {QStringLiteral("pid"), r.pid},
                                               {QStringLiteral("database"), r.databasePath}};
                       },
                       [](const Offer &o) {
                           QJsonArray listeners;
                           for (const Listener &l : o.listeners)
                               listeners.append(QJsonObject {{QStringLiteral("name"), l.name},
                                                             {QStringLiteral("port"), l.port}});
                           return QJsonObject {{QStringLiteral("offer"), kProtocolVersion},
                                               {QStringLiteral("pid"), o.pid},
                                               {QStringLiteral("listeners"), listeners}};
                       },
                       [](const Refusal &r) {
                           return QJsonObject {{QStringLiteral("refused"), r.reason}};
                       },
                       [](const Done &d) {
                           QJsonObject o {{QStringLiteral("done"), d.ok}};
                           if (!d.ok)
                               o.insert(QStringLiteral("error"), d.error);
                           return o;
                       },
                   },
                   message);
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

Result<Message> decode(QByteArrayView bytes)
{
    if (bytes.size() > kMaxMessageBytes)
        return std::unexpected(bad(QStringLiteral("longer than %1 bytes").arg(kMaxMessageBytes)));
    QJsonParseError error {};
    const QJsonDocument document = QJsonDocument::fromJson(bytes.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return std::unexpected(bad(QStringLiteral("not a JSON object")));
    const QJsonObject o = document.object();
    const auto version = [&](const char *key) -> Result<void> {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isDouble() || v.toDouble() != kProtocolVersion)
            return std::unexpected(bad(QStringLiteral("\"%1\" must be protocol version %2")
                                           .arg(QLatin1String(key))
                                           .arg(kProtocolVersion)));
        return {};
    };
    const auto text = [&](const char *key) -> Result<QString> {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isString() || v.toString().size() > kMaxText)
            return std::unexpected(bad(QStringLiteral("\"%1\" must be a string of at most %2 characters")
                                           .arg(QLatin1String(key))
                                           .arg(kMaxText)));
        return v.toString();
    };
    if (o.contains(QLatin1String("handover"))) {
        if (auto v = version("handover"); !v)
            return std::unexpected(v.error());
        const auto pid = pidOf(o.value(QLatin1String("pid")));
        if (!pid)
            return std::unexpected(bad(QStringLiteral("\"pid\" must be a positive integer")));
        auto database = text("database");
        if (!database)
            return std::unexpected(database.error());
        if (database->isEmpty())
            return std::unexpected(bad(QStringLiteral("\"database\" is empty")));
        return Request {*pid, *database};
    }
    if (o.contains(QLatin1String("offer"))) {
        if (auto v = version("offer"); !v)
            return std::unexpected(v.error());
        const auto pid = pidOf(o.value(QLatin1String("pid")));
        if (!pid)
            return std::unexpected(bad(QStringLiteral("\"pid\" must be a positive integer")));
        const QJsonValue list = o.value(QLatin1String("listeners"));
        if (!list.isArray() || list.toArray().isEmpty() || list.toArray().size() > kMaxListeners)
            return std::unexpected(bad(
                QStringLiteral("\"listeners\" must be an array of 1 to %1 listeners").arg(kMaxListeners)));
        Offer offer {*pid, {}};
        for (const QJsonValue &entry : list.toArray()) {
            const QJsonObject l = entry.toObject();
            const QJsonValue name = l.value(QLatin1String("name"));
            const QJsonValue port = l.value(QLatin1String("port"));
            if (!name.isString() || name.toString().isEmpty() || name.toString().size() > 64 ||
                !port.isDouble() || port.toDouble() < 1 || port.toDouble() > 65535 ||
                port.toDouble() != double(int(port.toDouble())))
                return std::unexpected(bad(QStringLiteral("a listener needs a name and a port 1-65535")));
            offer.listeners.append(Listener {name.toString(), quint16(port.toInt())});
        }
        return offer;
    }
    if (o.contains(QLatin1String("refused"))) {
        auto reason = text("refused");
        if (!reason)
            return std::unexpected(reason.error());
        return Refusal {*reason};
    }
    if (o.contains(QLatin1String("done"))) {
        const QJsonValue done = o.value(QLatin1String("done"));
        if (!done.isBool())
            return std::unexpected(bad(QStringLiteral("\"done\" must be true or false")));
        if (done.toBool())
            return Done {};
        auto why = text("error");
        if (!why)
            return std::unexpected(why.error());
        return Done {false, *why};
    }
    return std::unexpected(bad(QStringLiteral("not a request, offer, refusal or done")));
}

QString socketPath(quint16 port)
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation))
        .filePath(QStringLiteral("claude-peers-broker-%1.handover").arg(port));
}

} // namespace Broker::Handover
