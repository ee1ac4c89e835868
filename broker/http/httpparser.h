#pragma once

#include "broker/http/httptypes.h"

#include <QByteArray>
#include <QByteArrayView>

// Internal to the HTTP server: request-head parsing and response serialization, kept apart
// from the socket handling so both stay small and are tested through the server.
namespace Broker::Http::Internal {

// What a request head says about the message that follows.
struct RequestHead
{
    Request request; // everything but the body
    qint64 contentLength = 0;
    bool http10 = false;
    bool keepAlive = true;
    bool isHead = false;
    bool expectContinue = false;
};

enum class HeadError { None, Malformed, LengthRequired };

// Parses "METHOD target HTTP/1.x" and the header lines; `text` ends at the blank line. Names
// are lower-cased, values trimmed; any Transfer-Encoding is LengthRequired (we take only
// Content-Length bodies); conflicting or non-numeric Content-Length is Malformed.
HeadError parseHead(QByteArrayView text, RequestHead &head);

// Appends the whole answer: status line, Content-Type, Content-Length, extra headers,
// "Connection: close" (or keep-alive for HTTP/1.0), blank line, body unless `isHead`.
void appendResponse(QByteArray &out, const Response &response, bool keepAlive, bool http10, bool isHead);

void appendNumber(QByteArray &out, qint64 n);

} // namespace Broker::Http::Internal
