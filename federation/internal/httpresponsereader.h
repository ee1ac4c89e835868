#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace Federation::Internal {

// Reads one HTTP/1.x answer from bytes as they arrive: Content-Length, chunked, or ended by the
// connection's close. Bounded: a head over maxHeadBytes or a body over maxBodyBytes stops it.
class HttpResponseReader
{
public:
    enum class State { NeedMore, Complete, Malformed, TooLarge };

    HttpResponseReader(qint64 maxBodyBytes, int maxHeadBytes = 16384)
        : m_maxBodyBytes(maxBodyBytes), m_maxHeadBytes(maxHeadBytes)
    {
    }

    State feed(QByteArrayView bytes);
    // The connection closed: completes an answer delimited by the close, else Malformed.
    State finish();
    State state() const { return m_state; }

    int status() const { return m_status; }
    const QList<QPair<QByteArray, QByteArray>> &headers() const { return m_headers; } // lower-case names
    QByteArray header(QByteArrayView lowerCaseName) const;
    const QByteArray &body() const { return m_body; }
    QString error() const { return m_error; } // why Malformed or TooLarge
    // Complete, framed by length or chunks (not by the close), HTTP/1.1 without "Connection:
    // close", and nothing after it: the connection can carry the next request.
    bool connectionReusable() const { return m_state == State::Complete && m_reusable; }

private:
    enum class Framing { Length, Chunked, UntilClose };
    State parse();
    State parseHead();
    State parseChunks();
    State fail(State state, QString error);

    qint64 m_maxBodyBytes;
    int m_maxHeadBytes;
    State m_state = State::NeedMore;
    QByteArray m_buffer;
    bool m_headDone = false;
    bool m_reusable = false;
    Framing m_framing = Framing::UntilClose;
    qint64 m_length = 0;
    int m_status = 0;
    QList<QPair<QByteArray, QByteArray>> m_headers;
    QByteArray m_body;
    QString m_error;
};

} // namespace Federation::Internal
