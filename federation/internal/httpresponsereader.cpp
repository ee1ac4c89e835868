#include "federation/internal/httpresponsereader.h"

namespace Federation::Internal {

QByteArray HttpResponseReader::header(QByteArrayView lowerCaseName) const
{
    for (const auto &[name, value] : m_headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

HttpResponseReader::State HttpResponseReader::fail(State state, QString error)
{
    m_state = state;
    m_error = std::move(error);
    m_buffer.clear();
    return m_state;
}

HttpResponseReader::State HttpResponseReader::feed(QByteArrayView bytes)
{
    if (m_state != State::NeedMore)
        return m_state;
    m_buffer.append(bytes);
    return parse();
}

HttpResponseReader::State HttpResponseReader::finish()
{
    if (m_state != State::NeedMore)
        return m_state;
    if (m_headDone && m_framing == Framing::UntilClose) {
        m_state = State::Complete;
        return m_state;
    }
    return fail(State::Malformed,
                m_headDone ? QStringLiteral("the connection closed in the middle of the answer")
                           : QStringLiteral("the connection closed before an answer"));
}

HttpResponseReader::State HttpResponseReader::parse()
{
    if (!m_headDone) {
        if (const State state = parseHead(); state != State::NeedMore || !m_headDone)
            return state;
    }
    switch (m_framing) {
    case Framing::Length:
        if (m_buffer.size() < m_length)
            return State::NeedMore;
        // Anything after the answer is ignored (and the connection is not reused), however the
        // bytes were split.
        m_body = m_buffer.left(m_length);
        m_reusable = m_reusable && m_buffer.size() == m_length;
        m_buffer.clear();
        m_state = State::Complete;
        return m_state;
    case Framing::Chunked:
        return parseChunks();
    case Framing::UntilClose:
        if (m_body.size() + m_buffer.size() > m_maxBodyBytes)
            return fail(State::TooLarge,
                        QStringLiteral("the answer is larger than %1 bytes").arg(m_maxBodyBytes));
        m_body += std::exchange(m_buffer, {});
        return State::NeedMore;
    }
    return State::NeedMore;
}

HttpResponseReader::State HttpResponseReader::parseHead()
{
    const qsizetype end = m_buffer.indexOf("\r\n\r\n");
    if (end < 0) {
        if (m_buffer.size() > m_maxHeadBytes)
            return fail(State::TooLarge,
                        QStringLiteral("the answer's headers are larger than %1 bytes").arg(m_maxHeadBytes));
        return State::NeedMore;
    }
    if (end > m_maxHeadBytes)
        return fail(State::TooLarge,
                    QStringLiteral("the answer's headers are larger than %1 bytes").arg(m_maxHeadBytes));
    const QList<QByteArray> lines = m_buffer.left(end).split('\n');
    const QByteArray statusLine = lines.first().trimmed();
    // "HTTP/1.1 200 OK": version, a three-digit status, an optional reason.
    const QList<QByteArray> parts = statusLine.split(' ');
    bool ok = false;
    const int status = parts.value(1).toInt(&ok);
    if (!statusLine.startsWith("HTTP/1.") || parts.value(1).size() != 3 || !ok || status < 100)
        return fail(State::Malformed, QStringLiteral("not an HTTP answer"));
    qint64 length = -1;
    bool chunked = false;
    bool closes = !statusLine.startsWith("HTTP/1.1 ");
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            return fail(State::Malformed, QStringLiteral("a header line without a name"));
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        m_headers.append({name, value});
        if (name == "content-length") {
            const qint64 parsed = value.toLongLong(&ok);
            if (!ok || parsed < 0 || (length >= 0 && parsed != length))
                return fail(State::Malformed, QStringLiteral("a bad Content-Length"));
            length = parsed;
        } else if (name == "transfer-encoding") {
            chunked = value.toLower().trimmed().endsWith("chunked");
            if (!chunked)
                return fail(State::Malformed, QStringLiteral("an unknown Transfer-Encoding"));
        } else if (name == "connection") {
            closes = closes || value.toLower().contains("close");
        }
    }
    m_status = status;
    m_buffer.remove(0, end + 4);
    m_headDone = true;
    m_reusable = !closes && (chunked || length >= 0 || status == 204 || status == 304 || status < 200);
    if (chunked) {
        m_framing = Framing::Chunked;
    } else if (length >= 0) {
        if (length > m_maxBodyBytes)
            return fail(State::TooLarge,
                        QStringLiteral("the answer announces %1 bytes, more than the limit of %2")
                            .arg(length)
                            .arg(m_maxBodyBytes));
        m_framing = Framing::Length;
        m_length = length;
    } else if (status == 204 || status == 304 || status < 200) {
        m_framing = Framing::Length;
        m_length = 0;
    }
    return State::NeedMore;
}

HttpResponseReader::State HttpResponseReader::parseChunks()
{
    for (;;) {
        const qsizetype eol = m_buffer.indexOf("\r\n");
        if (eol < 0) {
            if (m_buffer.size() > 1024)
                return fail(State::Malformed, QStringLiteral("a chunk size line longer than 1024 bytes"));
            return State::NeedMore;
        }
        const QByteArray sizeText = m_buffer.left(eol).split(';').first().trimmed();
        bool ok = false;
        const qint64 size = sizeText.toLongLong(&ok, 16);
        if (!ok || size < 0 || sizeText.size() > 15)
            return fail(State::Malformed, QStringLiteral("a bad chunk size"));
        if (m_body.size() + size > m_maxBodyBytes)
            return fail(State::TooLarge,
                        QStringLiteral("the answer is larger than %1 bytes").arg(m_maxBodyBytes));
        if (size == 0) {
            // Trailers (ignored) up to an empty line.
            const qsizetype end = m_buffer.indexOf("\r\n\r\n", eol);
            const bool noTrailers = m_buffer.mid(eol, 4) == "\r\n\r\n";
            if (!noTrailers && end < 0) {
                if (m_buffer.size() > m_maxHeadBytes)
                    return fail(State::TooLarge, QStringLiteral("the answer's trailers are too large"));
                return State::NeedMore;
            }
            const qsizetype answerEnd = noTrailers ? eol + 4 : end + 4;
            m_reusable = m_reusable && m_buffer.size() == answerEnd;
            m_buffer.clear();
            m_state = State::Complete;
            return m_state;
        }
        if (m_buffer.size() < eol + 2 + size + 2)
            return State::NeedMore;
        if (m_buffer.mid(eol + 2 + size, 2) != "\r\n")
            return fail(State::Malformed, QStringLiteral("a chunk not followed by CRLF"));
        m_body += m_buffer.mid(eol + 2, size);
        m_buffer.remove(0, eol + 2 + size + 2);
    }
}

} // namespace Federation::Internal
