#include "broker/http/httpparser.h"

#include <charconv>
#include <cstring>

namespace Broker::Http::Internal {

namespace {

const QByteArray kGet = QByteArrayLiteral("GET");
const QByteArray kPost = QByteArrayLiteral("POST");
const QByteArray kHead = QByteArrayLiteral("HEAD");

// Header names every client sends: shared constants instead of one allocation per request.
const QByteArray kCommonHeaderNames[] = {
    QByteArrayLiteral("host"),           QByteArrayLiteral("content-type"),
    QByteArrayLiteral("content-length"), QByteArrayLiteral("authorization"),
    QByteArrayLiteral("connection"),     QByteArrayLiteral("user-agent"),
    QByteArrayLiteral("accept"),         QByteArrayLiteral("accept-encoding"),
    QByteArrayLiteral("expect"),         QByteArrayLiteral("transfer-encoding"),
};

QByteArray lowerCaseName(QByteArrayView name)
{
    char lower[32];
    if (name.size() > qsizetype(sizeof lower))
        return name.toByteArray().toLower();
    for (qsizetype i = 0; i < name.size(); ++i) {
        const char c = name[i];
        lower[i] = (c >= 'A' && c <= 'Z') ? char(c + ('a' - 'A')) : c;
    }
    const QByteArrayView view(lower, name.size());
    for (const QByteArray &common : kCommonHeaderNames) {
        if (common == view)
            return common;
    }
    return view.toByteArray();
}

bool isTokenChar(uchar c)
{
    // RFC 9110 tchar
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr;
}

bool isToken(QByteArrayView s)
{
    if (s.isEmpty())
        return false;
    for (char c : s) {
        if (!isTokenChar(uchar(c)))
            return false;
    }
    return true;
}

QByteArrayView trimmed(QByteArrayView s)
{
    while (!s.isEmpty() && (s.front() == ' ' || s.front() == '\t'))
        s = s.sliced(1);
    while (!s.isEmpty() && (s.back() == ' ' || s.back() == '\t'))
        s.chop(1);
    return s;
}

// Parses "METHOD target HTTP/1.x" and the header lines (the blank line excluded).
} // namespace

HeadError parseHead(QByteArrayView text, RequestHead &head)
{
    qsizetype lineEnd = text.indexOf('\n');
    QByteArrayView line = text.first(lineEnd < 0 ? text.size() : lineEnd);
    if (line.endsWith('\r'))
        line.chop(1);

    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0)
        return HeadError::Malformed;
    const QByteArrayView method = line.first(sp1);
    QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    if (!isToken(method) || target.isEmpty())
        return HeadError::Malformed;
    for (char c : target) {
        if (uchar(c) <= 0x20 || uchar(c) == 0x7f)
            return HeadError::Malformed;
    }
    if (version == "HTTP/1.1")
        head.http10 = false;
    else if (version == "HTTP/1.0")
        head.http10 = true;
    else
        return HeadError::Malformed;

    // absolute-form (proxies): keep only path and query
    if (target.startsWith("http://") || target.startsWith("https://")) {
        const qsizetype authority = target.indexOf("//") + 2;
        const qsizetype slash = target.indexOf('/', authority);
        const qsizetype question = target.indexOf('?', authority);
        if (slash >= 0 && (question < 0 || slash < question))
            target = target.sliced(slash);
        else if (question >= 0)
            target = target.sliced(question); // "?q" without a path: path "/"
        else
            target = "/";
    }
    if (target.front() != '/' && target != "*" && target.front() != '?')
        return HeadError::Malformed;

    Request &request = head.request;
    if (method == kGet)
        request.method = kGet; // shared, no allocation for the common methods
    else if (method == kPost)
        request.method = kPost;
    else if (method == kHead)
        request.method = kHead;
    else
        request.method = method.toByteArray();
    head.isHead = request.method == kHead;

    const qsizetype question = target.indexOf('?');
    if (question < 0) {
        request.path = target.toByteArray();
    } else {
        request.path = question == 0 ? QByteArray("/") : target.first(question).toByteArray();
        request.query = target.sliced(question + 1).toByteArray();
    }

    bool haveLength = false;
    bool connectionClose = false;
    bool connectionKeepAlive = false;
    request.headers.reserve(12);
    while (lineEnd >= 0 && lineEnd + 1 < text.size()) {
        const qsizetype start = lineEnd + 1;
        lineEnd = text.indexOf('\n', start);
        line = text.sliced(start, (lineEnd < 0 ? text.size() : lineEnd) - start);
        if (line.endsWith('\r'))
            line.chop(1);
        if (line.isEmpty())
            break;
        if (line.front() == ' ' || line.front() == '\t')
            return HeadError::Malformed; // obsolete line folding
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return HeadError::Malformed;
        const QByteArrayView name = line.first(colon);
        if (!isToken(name))
            return HeadError::Malformed; // also "Name : value"
        const QByteArrayView value = trimmed(line.sliced(colon + 1));
        for (char c : value) {
            const uchar u = uchar(c);
            if ((u < 0x20 && u != '\t') || u == 0x7f)
                return HeadError::Malformed;
        }
        QByteArray lowerName = lowerCaseName(name);

        if (lowerName == "content-length") {
            if (value.isEmpty() || value.size() > 15)
                return HeadError::Malformed;
            qint64 length = 0;
            for (char c : value) {
                if (c < '0' || c > '9')
                    return HeadError::Malformed;
                length = length * 10 + (c - '0');
            }
            if (haveLength && length != head.contentLength)
                return HeadError::Malformed;
            haveLength = true;
            head.contentLength = length;
        } else if (lowerName == "transfer-encoding") {
            return HeadError::LengthRequired;
        } else if (lowerName == "connection") {
            for (QByteArrayView token : value.toByteArray().split(',')) {
                token = trimmed(token);
                if (token.compare("close", Qt::CaseInsensitive) == 0)
                    connectionClose = true;
                else if (token.compare("keep-alive", Qt::CaseInsensitive) == 0)
                    connectionKeepAlive = true;
            }
        } else if (lowerName == "expect") {
            head.expectContinue = value.compare("100-continue", Qt::CaseInsensitive) == 0;
        }
        request.headers.append({std::move(lowerName), value.toByteArray()});
    }
    head.keepAlive = !connectionClose && (!head.http10 || connectionKeepAlive);
    return HeadError::None;
}

namespace {

QByteArrayView reasonPhrase(int status)
{
    static constexpr struct
    {
        int status;
        const char *text;
    } phrases[] = {
        {100, "Continue"},
        {200, "OK"},
        {201, "Created"},
        {202, "Accepted"},
        {204, "No Content"},
        {301, "Moved Permanently"},
        {302, "Found"},
        {304, "Not Modified"},
        {400, "Bad Request"},
        {401, "Unauthorized"},
        {403, "Forbidden"},
        {404, "Not Found"},
        {405, "Method Not Allowed"},
        {408, "Request Timeout"},
        {409, "Conflict"},
        {411, "Length Required"},
        {413, "Content Too Large"},
        {415, "Unsupported Media Type"},
        {422, "Unprocessable Content"},
        {429, "Too Many Requests"},
        {431, "Request Header Fields Too Large"},
        {500, "Internal Server Error"},
        {501, "Not Implemented"},
        {502, "Bad Gateway"},
        {503, "Service Unavailable"},
        {504, "Gateway Timeout"},
    };
    for (const auto &phrase : phrases) {
        if (phrase.status == status)
            return phrase.text;
    }
    return "Status";
}

} // namespace

void appendNumber(QByteArray &out, qint64 n)
{
    char digits[24];
    const auto result = std::to_chars(digits, digits + sizeof digits, n);
    out.append(digits, result.ptr - digits);
}

void appendResponse(QByteArray &out, const Response &response, bool keepAlive, bool http10, bool isHead)
{
    qsizetype extra = 0;
    for (const auto &[name, value] : response.extraHeaders)
        extra += name.size() + value.size() + 4;
    out.reserve(out.size() + 128 + response.contentType.size() + extra + (isHead ? 0 : response.body.size()));
    out += "HTTP/1.1 ";
    appendNumber(out, response.status);
    out += ' ';
    out.append(reasonPhrase(response.status));
    out += "\r\nContent-Type: ";
    out += response.contentType;
    out += "\r\nContent-Length: ";
    appendNumber(out, response.body.size());
    out += "\r\n";
    for (const auto &[name, value] : response.extraHeaders) {
        out += name;
        out += ": ";
        out += value;
        out += "\r\n";
    }
    if (!keepAlive)
        out += "Connection: close\r\n";
    else if (http10)
        out += "Connection: keep-alive\r\n";
    out += "\r\n";
    if (!isHead)
        out += response.body;
}

} // namespace Broker::Http::Internal
