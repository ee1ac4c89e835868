#include "broker/http/httptypes.h"

namespace Broker::Http {

QByteArray Request::header(QByteArrayView lowerCaseName) const
{
    for (const auto &[name, value] : headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

QByteArray Request::queryItem(QByteArrayView name) const
{
    // application/x-www-form-urlencoded: '&'-separated, '+' is a space, %XX escapes.
    const auto decode = [](QByteArrayView raw) {
        QByteArray bytes = raw.toByteArray();
        bytes.replace('+', ' ');
        return QByteArray::fromPercentEncoding(bytes);
    };
    qsizetype start = 0;
    const QByteArrayView all(query);
    while (start <= all.size()) {
        qsizetype end = all.indexOf('&', start);
        if (end < 0)
            end = all.size();
        const QByteArrayView item = all.sliced(start, end - start);
        const qsizetype eq = item.indexOf('=');
        const QByteArrayView key = eq < 0 ? item : item.first(eq);
        if (!item.isEmpty() && decode(key) == name)
            return eq < 0 ? QByteArray("") : decode(item.sliced(eq + 1));
        start = end + 1;
    }
    return {};
}

Response Response::json(int status, const QByteArray &compactJson)
{
    Response response;
    response.status = status;
    response.body = compactJson;
    return response;
}

Response Response::text(int status, const QByteArray &text)
{
    Response response;
    response.status = status;
    response.contentType = "text/plain; charset=utf-8";
    response.body = text;
    return response;
}

} // namespace Broker::Http
