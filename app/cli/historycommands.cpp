// metrics, messages: read-only views that the broker answers (the CLI never opens the database).
#include "app/cli/context.h"
#include "app/cli/formatting.h"
#include "app/cli/handlers.h"

#include <QDateTime>
#include <QJsonArray>

namespace Cli::Handlers {

namespace {

constexpr int MaxHistoryLimit = 1000; // docs/protocol.md: /messages limit max

bool isIsoTime(const QString &text)
{
    if (QDateTime::fromString(text, Qt::ISODateWithMs).isValid() ||
        QDateTime::fromString(text, Qt::ISODate).isValid())
        return true;
    return QDate::fromString(text, Qt::ISODate).isValid();
}

} // namespace

void metrics(Context &ctx, const Invocation &inv)
{
    const bool detailed = inv.flag("detailed");
    const bool json = inv.flag("json");
    ctx.api().metrics(detailed, [&ctx, detailed, json](Broker::Result<Broker::MetricsAnswer> answer) {
        if (!answer) {
            ctx.err(QStringLiteral("Failed to fetch metrics: ") + answer.error().message);
            ctx.finish(ExitFailed);
            return;
        }
        if (json)
            ctx.outRaw(Format::prettyJson(answer->toJson()));
        else
            ctx.out(Format::metrics(*answer, detailed).join(QLatin1Char('\n')));
        ctx.finish(ExitOk);
    });
}

void messages(Context &ctx, const Invocation &inv)
{
    const Command &self = *findCommand(QStringLiteral("messages"));
    Broker::HistoryRequest request;
    request.from = inv.value("from");
    request.to = inv.value("to");
    request.search = inv.value("search");
    if (inv.hasValue("since")) {
        const QString since = inv.value("since");
        if (!isIsoTime(since)) {
            ctx.usageError(
                self,
                QStringLiteral("--since needs an ISO-8601 time such as 2026-03-27T12:00:00Z, got: %1")
                    .arg(since));
            return;
        }
        request.since = since;
    }
    int limit = 20;
    if (inv.hasValue("limit")) {
        bool ok = false;
        limit = inv.value("limit").toInt(&ok);
        if (!ok || limit < 1 || limit > MaxHistoryLimit) {
            ctx.usageError(self,
                           QStringLiteral("--limit needs a whole number from 1 to %1, got: %2")
                               .arg(MaxHistoryLimit)
                               .arg(inv.value("limit")));
            return;
        }
    }
    request.limit = limit;
    for (const auto &[option, field] :
         {std::pair {"before-id", &request.beforeId}, std::pair {"after-id", &request.afterId}}) {
        if (!inv.hasValue(option))
            continue;
        bool ok = false;
        const qint64 id = inv.value(option).toLongLong(&ok);
        if (!ok || id < 0) {
            ctx.usageError(self,
                           QStringLiteral("--%1 needs a message id (a whole number, 0 or more), got: %2")
                               .arg(QLatin1String(option), inv.value(option)));
            return;
        }
        *field = id;
    }
    request.ascending = inv.flag("oldest-first");
    request.peer = inv.value("peer");
    request.with = inv.value("with");
    if (!request.with.isEmpty() && request.peer.isEmpty()) {
        ctx.usageError(self, QStringLiteral("--with needs --peer: it names the other end of a thread"));
        return;
    }
    const bool json = inv.flag("json");
    ctx.api().call(request, [&ctx, json](Broker::Result<Broker::HistoryAnswer> answer) {
        if (!answer) {
            ctx.fail(answer.error());
            return;
        }
        if (json)
            ctx.outRaw(Format::prettyJson(answer->toJson().value(QStringLiteral("messages"))));
        else
            ctx.out(Format::messageList(answer->messages).join(QLatin1Char('\n')));
        ctx.finish(ExitOk);
    });
}

} // namespace Cli::Handlers
