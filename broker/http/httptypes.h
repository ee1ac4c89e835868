#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>

#include <functional>
#include <memory>

namespace Broker::Http {

struct Request
{
    QByteArray method; // as sent, e.g. "POST"
    QByteArray path; // without the query, e.g. "/send-message"
    QByteArray query; // after '?', undecoded, may be empty
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, values trimmed
    QByteArray body;
    QHostAddress peerAddress;

    QByteArray header(QByteArrayView lowerCaseName) const;
    QByteArray queryItem(QByteArrayView name) const;
};

struct Response
{
    int status = 200;
    QByteArray contentType = "application/json";
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> extraHeaders;

    static Response json(int status, const QByteArray &compactJson);
    static Response text(int status, const QByteArray &text);
};

// One pending answer. The handler may answer at once or keep the responder and answer later
// (long-poll). A responder answers at most once; answering after the client went away is a
// no-op. isOpen() turns false when the connection closes; onClosed runs then (once).
class Responder
{
public:
    virtual ~Responder() = default;
    virtual void respond(const Response &response) = 0;
    virtual bool isOpen() const = 0;
    virtual void setOnClosed(std::function<void()> callback) = 0;
};
using ResponderPtr = std::shared_ptr<Responder>;

// The one-method boundary between the HTTP server and what it serves (qBittorrent's pattern).
class RequestHandler
{
public:
    virtual ~RequestHandler() = default;
    virtual void handle(const Request &request, const ResponderPtr &responder) = 0;
};

} // namespace Broker::Http
