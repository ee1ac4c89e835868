#include "broker/routes.h"

#include <QJsonDocument>

namespace Broker::RouteAnswer {

void json(const Http::ResponderPtr &responder, const QJsonObject &object, int status)
{
    responder->respond(Http::Response::json(status, QJsonDocument(object).toJson(QJsonDocument::Compact)));
}

void error(const Http::ResponderPtr &responder, int status, const QString &message)
{
    json(responder, {{QStringLiteral("error"), message}}, status);
}

} // namespace Broker::RouteAnswer
