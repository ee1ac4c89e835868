#include "common/brokerclient.h"

#include "common/clientlogging.h"
#include "common/tokenfile.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPointer>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QTimer>

#include <array>
#include <deque>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace Broker {

namespace {
constexpr int MaxBodyInMessage = 1000; // characters of an error body quoted in a message
constexpr qsizetype MaxHeaderBytes = 64 * 1024;

bool isRepeatable(const QString &path)
{
    return path != QLatin1String("/send-message") && path != QLatin1String("/broadcast") &&
        !path.startsWith(QLatin1String("/federation/"));
}

// Requests that store something carry an Idempotency-Key (docs/decisions.md, "A re-sent
// /send-message is stored once"): sent again after a connection closed before any answer, a
// broker that honours the key answers as the first time instead of storing twice.
QByteArray idempotencyKeyFor(const QString &path)
{
    if (path != QLatin1String("/send-message") && path != QLatin1String("/broadcast"))
        return {};
    std::array<quint32, 4> random {};
    QRandomGenerator::global()->fillRange(random.data(), random.size());
    return QByteArray(reinterpret_cast<const char *>(random.data()), sizeof(random)).toHex();
}
} // namespace

struct BrokerClient::Request
{
    QString path; // without the query: for routing and messages
    QByteArray target; // what the request line carries
    bool isPost = false;
    QByteArray body;
    Callback callback;
    int timeoutMs = 5000;
    QElapsedTimer age; // since post(): the deadline covers queueing too
    bool usesMainToken = false;
    QByteArray credential;
    bool retried401 = false; // re-sent after a token rotation
    bool retriedClose = false; // re-sent after a keep-alive connection closed under it
    QByteArray idempotencyKey; // the same on every re-send; empty for requests that store nothing
    Connection *connection = nullptr; // its own (postAlone), else chosen by path
};

// One keep-alive connection; requests go one at a time, in order. Plain non-blocking POSIX
// socket with QSocketNotifiers (Qt Core only): the helper does not need QtNetwork at all.
class BrokerClient::Connection : public QObject
{
public:
    Connection(BrokerClient *link, const QByteArray &name) : QObject(link), m_link(link), m_name(name)
    {
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, [this] { dropCurrent(QStringLiteral("timed out")); });
    }
    ~Connection() override { closeSocket(); }

    void enqueue(std::shared_ptr<Request> r)
    {
        m_queue.push_back(std::move(r));
        if (!m_current)
            startNext();
    }
    int pending() const { return int(m_queue.size()) + (m_current ? 1 : 0); }
    void abandon()
    {
        m_queue.clear();
        m_current.reset();
        m_timer.stop();
        closeSocket();
    }

private:
    void startNext()
    {
        while (!m_current && !m_queue.empty()) {
            std::shared_ptr<Request> r = std::move(m_queue.front());
            m_queue.pop_front();
            const qint64 left = r->timeoutMs - r->age.elapsed();
            if (left <= 0) {
                m_link->fail(r, Error {ErrorKind::Unreachable, m_link->unreachableMessage()});
                continue;
            }
            m_current = std::move(r);
            m_received = false;
            m_in.clear();
            m_timer.start(int(left));
            if (m_state == State::Connected) {
                m_reused = true;
                sendCurrent();
            } else if (m_state == State::Unconnected) {
                m_reused = false;
                openSocket();
            }
            // else: connecting; onWritable() sends it
        }
    }

    enum class State { Unconnected, Connecting, Connected };

    void openSocket()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (m_fd < 0) {
            dropCurrent(QString::fromLocal8Bit(std::strerror(errno)));
            return;
        }
        const int one = 1;
        ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(m_link->m_location.port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        m_readNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Read, this);
        m_writeNotifier = new QSocketNotifier(qintptr(m_fd), QSocketNotifier::Write, this);
        connect(m_readNotifier, &QSocketNotifier::activated, this, &Connection::onReadable);
        connect(m_writeNotifier, &QSocketNotifier::activated, this, &Connection::onWritable);
        m_readNotifier->setEnabled(false);
        m_state = State::Connecting;
        if (::connect(m_fd, reinterpret_cast<const sockaddr *>(&addr), sizeof addr) == 0) {
            onWritable(); // connected at once (loopback)
        } else if (errno != EINPROGRESS) {
            // Refused at once: reported from the event loop like any other failure.
            const QString why = QString::fromLocal8Bit(std::strerror(errno));
            m_writeNotifier->setEnabled(false);
            QTimer::singleShot(0, this, [this, why] { onClosed(why); });
        }
    }

    void closeSocket()
    {
        // Disabled before the descriptor goes; deleted later because this may run inside
        // one of their own activated() signals.
        for (QSocketNotifier *n : {m_readNotifier, m_writeNotifier}) {
            if (n) {
                n->setEnabled(false);
                n->deleteLater();
            }
        }
        m_readNotifier = nullptr;
        m_writeNotifier = nullptr;
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
        m_state = State::Unconnected;
        m_out.clear();
        m_eof = false;
    }

    void onWritable()
    {
        if (m_state == State::Connecting) {
            int error = 0;
            socklen_t len = sizeof error;
            ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &error, &len);
            if (error != 0) {
                onClosed(QString::fromLocal8Bit(std::strerror(error)));
                return;
            }
            m_state = State::Connected;
            m_readNotifier->setEnabled(true);
            m_writeNotifier->setEnabled(false);
            sendCurrent();
            return;
        }
        flushOut();
    }

    void flushOut()
    {
        while (!m_out.isEmpty()) {
            const ssize_t n = ::send(m_fd, m_out.constData(), size_t(m_out.size()), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
                m_writeNotifier->setEnabled(true);
                return;
            }
            if (n <= 0) {
                onClosed(QString::fromLocal8Bit(std::strerror(errno)));
                return;
            }
            m_out.remove(0, n);
        }
        if (m_writeNotifier)
            m_writeNotifier->setEnabled(false);
    }

    void onReadable()
    {
        char buf[65536];
        for (;;) {
            const ssize_t n = ::read(m_fd, buf, sizeof buf);
            if (n > 0) {
                m_in.append(buf, n);
                m_received = true;
                if (m_in.size() > m_link->m_maxAnswerBytes + MaxHeaderBytes) {
                    tooLarge();
                    return;
                }
                continue;
            }
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
                break;
            // EOF or error: the broker closed the connection.
            const QString why =
                n == 0 ? QStringLiteral("connection closed") : QString::fromLocal8Bit(std::strerror(errno));
            m_eof = true;
            if (!m_current) {
                closeSocket();
                return;
            }
            onClosed(why);
            return;
        }
        if (!m_current) {
            m_in.clear(); // nothing asked: ignore
            return;
        }
        parse();
    }

    void sendCurrent()
    {
        if (!m_current || m_state != State::Connected)
            return;
        const Request &r = *m_current;
        QByteArray out;
        out.reserve(256 + r.body.size());
        out += r.isPost ? "POST " : "GET ";
        out += r.target;
        out += " HTTP/1.1\r\nHost: 127.0.0.1:";
        out += QByteArray::number(m_link->m_location.port);
        out += "\r\n";
        if (r.isPost) {
            if (!r.credential.isEmpty())
                out += "Authorization: Bearer " + r.credential + "\r\n";
            if (!r.idempotencyKey.isEmpty())
                out += "Idempotency-Key: " + r.idempotencyKey + "\r\n";
            out += "Content-Type: application/json\r\nContent-Length: ";
            out += QByteArray::number(r.body.size());
            out += "\r\n\r\n";
            out += r.body;
        } else {
            out += "\r\n";
        }
        m_out += out;
        flushOut();
    }

    // One complete answer in m_in → finish the current request.
    void parse()
    {
        const qsizetype headerEnd = m_in.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            if (m_in.size() > MaxHeaderBytes)
                dropCurrent(QStringLiteral("answer headers too large"));
            return;
        }
        const QList<QByteArray> lines = m_in.left(headerEnd).split('\n');
        const QList<QByteArray> statusLine = lines.value(0).trimmed().split(' ');
        bool ok = false;
        const int status = statusLine.value(1).toInt(&ok);
        if (!ok || !statusLine.value(0).startsWith("HTTP/1.")) {
            dropCurrent(QStringLiteral("not an HTTP answer"));
            return;
        }
        qint64 length = -1;
        bool chunked = false;
        bool close = statusLine.value(0) == "HTTP/1.0";
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines.at(i).trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.left(colon).trimmed().toLower();
            const QByteArray value = line.mid(colon + 1).trimmed();
            if (name == "content-length")
                length = value.toLongLong();
            else if (name == "transfer-encoding")
                chunked = value.toLower().contains("chunked");
            else if (name == "connection")
                close = value.toLower().contains("close");
            else if (name == "idempotency-key" && !m_current->idempotencyKey.isEmpty())
                m_link->m_keysHonoured = m_link->m_keysHonoured || value == m_current->idempotencyKey;
        }
        const qsizetype bodyStart = headerEnd + 4;
        QByteArray body;
        qsizetype consumed = 0;
        if (chunked) {
            qsizetype pos = bodyStart;
            for (;;) {
                const qsizetype eol = m_in.indexOf("\r\n", pos);
                if (eol < 0)
                    return; // need more
                const qint64 size =
                    m_in.mid(pos, eol - pos).split(';').value(0).trimmed().toLongLong(&ok, 16);
                if (!ok || size < 0) {
                    dropCurrent(QStringLiteral("bad chunked answer"));
                    return;
                }
                if (body.size() + size > m_link->m_maxAnswerBytes) {
                    tooLarge();
                    return;
                }
                if (m_in.size() < eol + 2 + size + 2)
                    return; // need more
                if (size == 0) {
                    const qsizetype trailerEnd = m_in.indexOf("\r\n", eol + 2);
                    if (trailerEnd < 0)
                        return;
                    consumed = trailerEnd + 2;
                    break;
                }
                body += m_in.mid(eol + 2, size);
                pos = eol + 2 + size + 2;
            }
        } else if (length >= 0) {
            if (length > m_link->m_maxAnswerBytes) {
                tooLarge();
                return;
            }
            if (m_in.size() - bodyStart < length)
                return; // need more
            body = m_in.mid(bodyStart, length);
            consumed = bodyStart + length;
        } else {
            // No length: the body ends with the connection.
            if (!m_eof)
                return;
            body = m_in.mid(bodyStart);
            consumed = m_in.size();
        }
        m_in.remove(0, consumed);
        std::shared_ptr<Request> r = std::move(m_current);
        m_current.reset();
        m_timer.stop();
        if (close || m_eof)
            closeSocket();
        const QPointer<Connection> alive(this);
        m_link->finish(r, status, body); // the callback may delete the client, and us with it
        if (alive)
            startNext();
    }

    void tooLarge()
    {
        const QString path = m_current->path;
        closeSocket();
        m_in.clear();
        finishCurrentWith(Error {
            ErrorKind::TooLarge,
            QStringLiteral("Broker answer to %1 exceeds %2 bytes").arg(path).arg(m_link->m_maxAnswerBytes)});
    }

    void finishCurrentWith(const Error &error)
    {
        std::shared_ptr<Request> r = std::move(m_current);
        m_current.reset();
        m_timer.stop();
        m_link->fail(r, error);
        startNext();
    }

    void dropCurrent(const QString &why)
    {
        if (!m_current)
            return;
        qCDebug(lcClientHttp).noquote() << m_name << m_current->path << "failed:" << why;
        closeSocket();
        m_in.clear();
        finishCurrentWith(Error {ErrorKind::Unreachable, m_link->unreachableMessage()});
    }

    void onClosed(const QString &why)
    {
        if (!m_current) {
            closeSocket();
            return;
        }
        if (!m_in.isEmpty() && m_in.contains("\r\n\r\n")) {
            // An answer delimited by the close. Its callback may already have sent the next
            // request on a fresh connection: that one is not what closed.
            const std::shared_ptr<Request> closing = m_current;
            const QPointer<Connection> alive(this);
            parse();
            if (!alive || m_current != closing)
                return;
        }
        // Closed before any answer byte: a keep-alive connection the broker closed as idle just as
        // we reused it (the request was not read), or a broker that went away (a hand-over's
        // drain that ended, a crash, perhaps after storing). Send it again once on a fresh
        // connection: a request that reads, on a reused connection; a request that stores, when
        // the broker honours its Idempotency-Key, on any connection (a broker that stored it
        // answers as the first time). Without the key a broker that died after storing would
        // get the message twice, so such a send fails instead.
        const bool keyed = !m_current->idempotencyKey.isEmpty() && m_link->m_keysHonoured;
        if (!m_received && !m_current->retriedClose &&
            ((m_reused && isRepeatable(m_current->path)) || keyed)) {
            m_current->retriedClose = true;
            std::shared_ptr<Request> r = std::move(m_current);
            m_current.reset();
            m_timer.stop();
            closeSocket();
            m_in.clear();
            m_queue.push_front(std::move(r));
            QTimer::singleShot(0, this, [this] { startNext(); });
            return;
        }
        dropCurrent(why);
    }

    BrokerClient *m_link;
    QByteArray m_name;
    int m_fd = -1;
    State m_state = State::Unconnected;
    QSocketNotifier *m_readNotifier = nullptr;
    QSocketNotifier *m_writeNotifier = nullptr;
    QByteArray m_out; // request bytes the socket did not take yet
    bool m_eof = false;
    QTimer m_timer;
    std::deque<std::shared_ptr<Request>> m_queue;
    std::shared_ptr<Request> m_current;
    QByteArray m_in;
    bool m_received = false;
    bool m_reused = false;
};

BrokerClient::BrokerClient(Broker::Location location, QObject *parent)
    : QObject(parent),
      m_location(std::move(location)),
      m_stream(new Connection(this, "stream")),
      m_control(new Connection(this, "control"))
{
}

BrokerClient::~BrokerClient()
{
    m_stream->abandon();
    m_control->abandon();
}

QString BrokerClient::unreachableMessage() const
{
    return QStringLiteral("Broker not reachable at %1. Is it running? Start it with claude-peers-broker or "
                          "the tray app.")
        .arg(m_location.baseUrl().toString());
}

void BrokerClient::abortAll()
{
    ++m_generation;
    m_stream->abandon();
    m_control->abandon();
    for (auto it = m_alone.begin(); it != m_alone.end(); it = m_alone.erase(it))
        release(it.value());
}

quint64 BrokerClient::postAlone(const QString &path, const QJsonObject &body, Callback callback,
                                int timeoutMs)
{
    const quint64 id = ++m_lastAloneId;
    auto *connection = new Connection(this, "alone");
    m_alone.insert(id, connection);
    auto r = std::make_shared<Request>();
    r->path = path;
    r->target = path.toUtf8();
    r->isPost = true;
    r->body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    r->idempotencyKey = idempotencyKeyFor(path);
    r->callback = [this, id, callback = std::move(callback)](Result<QJsonValue> answer) {
        Connection *own = m_alone.take(id);
        if (!own)
            return; // aborted
        release(own);
        callback(std::move(answer));
    };
    r->timeoutMs = timeoutMs > 0 ? timeoutMs : m_defaultTimeoutMs;
    r->connection = connection;
    r->age.start();
    enqueue(std::move(r));
    return id;
}

void BrokerClient::abort(quint64 requestId)
{
    if (Connection *own = m_alone.take(requestId))
        release(own);
}

void BrokerClient::release(Connection *connection)
{
    // Closing the socket is what tells the broker the client left; deleted later because this
    // may run inside the connection's own answer handling.
    connection->abandon();
    connection->deleteLater();
}

int BrokerClient::pendingCount() const
{
    int pending = m_stream->pending() + m_control->pending();
    for (const Connection *own : m_alone)
        pending += own->pending();
    return pending;
}

BrokerClient::Connection *BrokerClient::connectionFor(const QString &path)
{
    // The long-poll holds its connection for up to a minute; nothing else may queue behind it.
    return path == QLatin1String("/wait-messages") ? m_stream : m_control;
}

QByteArray BrokerClient::mainToken()
{
    if (m_token.isEmpty()) {
        if (auto read = TokenFile::read(m_location.tokenPath))
            m_token = *read;
    }
    return m_token;
}

void BrokerClient::enqueue(std::shared_ptr<Request> r)
{
    if (r->isPost) {
        const bool useSecret = !m_sessionSecret.isEmpty() && r->path != QLatin1String("/register");
        r->usesMainToken = !useSecret;
        r->credential = useSecret ? m_sessionSecret : mainToken();
    }
    Connection *connection = r->connection ? r->connection : connectionFor(r->path);
    connection->enqueue(std::move(r));
}

void BrokerClient::post(const QString &path, const QJsonObject &body, Callback callback, int timeoutMs)
{
    auto r = std::make_shared<Request>();
    r->path = path;
    r->target = path.toUtf8();
    r->isPost = true;
    r->body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    r->idempotencyKey = idempotencyKeyFor(path);
    r->callback = std::move(callback);
    r->timeoutMs = timeoutMs > 0 ? timeoutMs : m_defaultTimeoutMs;
    r->age.start();
    enqueue(std::move(r));
}

void BrokerClient::get(const QString &pathAndQuery, Callback callback, int timeoutMs)
{
    auto r = std::make_shared<Request>();
    r->path = pathAndQuery.section(QLatin1Char('?'), 0, 0);
    r->target = pathAndQuery.toUtf8();
    r->callback = std::move(callback);
    r->timeoutMs = timeoutMs > 0 ? timeoutMs : m_defaultTimeoutMs;
    r->age.start();
    enqueue(std::move(r));
}

void BrokerClient::fail(const std::shared_ptr<Request> &r, Error error)
{
    if (!r->callback)
        return;
    // Queued: a failure can be found inside post() (a request whose deadline passed), and
    // callers rely on never being called back from there.
    Callback cb = std::move(r->callback);
    const QString path = r->path;
    const bool rejected = error.httpStatus == 401 && !r->usesMainToken;
    QMetaObject::invokeMethod(
        this,
        [this, cb = std::move(cb), error = std::move(error), path, rejected, generation = m_generation] {
            if (generation != m_generation)
                return; // abortAll() dropped it
            if (error.kind == ErrorKind::Unreachable)
                Q_EMIT unreachable(path);
            else if (rejected)
                Q_EMIT sessionRejected(path);
            cb(std::unexpected(error));
        },
        Qt::QueuedConnection);
}

void BrokerClient::finish(const std::shared_ptr<Request> &r, int status, const QByteArray &body)
{
    if (status == 401 && r->isPost && r->usesMainToken && !r->retried401) {
        // The token may have been rotated: read the file again and retry once with it.
        const QByteArray sent = r->credential;
        m_token.clear();
        auto fresh = TokenFile::read(m_location.tokenPath);
        if (!fresh) {
            fail(r, Error {ErrorKind::Token, fresh.error().message, 401});
            return;
        }
        m_token = *fresh;
        if (*fresh != sent) {
            r->retried401 = true;
            qCDebug(lcClientHttp) << r->path << ": 401, token file changed, retrying once";
            enqueue(r);
            return;
        }
    }
    if (status < 200 || status >= 300) {
        fail(r,
             Error {ErrorKind::Http,
                    QStringLiteral("Broker error (%1): %2 %3")
                        .arg(r->path)
                        .arg(status)
                        .arg(QString::fromUtf8(body.left(MaxBodyInMessage)).trimmed()),
                    status, QJsonDocument::fromJson(body).object()});
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || (!doc.isObject() && !doc.isArray())) {
        fail(r,
             Error {ErrorKind::BadJson,
                    QStringLiteral("Broker answer to %1 is not JSON: %2")
                        .arg(r->path,
                             parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                          : QStringLiteral("empty"))});
        return;
    }
    if (!r->callback)
        return;
    Callback cb = std::move(r->callback);
    cb(doc.isArray() ? QJsonValue(doc.array()) : QJsonValue(doc.object()));
}

} // namespace Broker
