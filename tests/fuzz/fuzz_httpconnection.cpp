// The connection state machine (broker/http/httpconnection.cpp): a real Connection and
// HttpServer on a socket whose other end the fuzzer plays. The input is a script of events:
// the client sends bytes (split anywhere), reads some of our answers, closes; the handler
// answers now, later, never (drops the responder) or throws; the sweep runs at any time.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/http/httpconnection.h"
#include "broker/http/httpserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QTcpSocket>

#include <stdexcept>
#include <vector>

using namespace Broker::Http;

namespace {

// The server's end of a TCP connection without a kernel socket. Reads come from `incoming`;
// written bytes stay "unsent" until the client reads them (so bytesToWrite() and
// bytesWritten() behave as with a slow reader); closing behaves like QAbstractSocket's.
class FakeSocket final : public QTcpSocket
{
public:
    FakeSocket()
    {
        QIODevice::open(QIODevice::ReadWrite | QIODevice::Unbuffered);
        setSocketState(QAbstractSocket::ConnectedState);
    }

    QByteArray incoming;
    QByteArray sent; // everything the server wrote
    qint64 unsent = 0;
    bool peerClosed = false; // the client closed its side

    qint64 bytesAvailable() const override { return incoming.size() + QIODevice::bytesAvailable(); }
    qint64 bytesToWrite() const override { return unsent; }

    void clientSends(const QByteArray &bytes)
    {
        if (state() != ConnectedState || peerClosed)
            return;
        incoming += bytes;
        Q_EMIT readyRead();
    }
    void clientReads(qint64 n)
    {
        n = qMin(n, unsent);
        if (n <= 0)
            return;
        unsent -= n;
        Q_EMIT bytesWritten(n);
        if (unsent == 0 && state() == ClosingState)
            becomeUnconnected();
    }
    void clientCloses()
    {
        if (state() == UnconnectedState)
            return;
        peerClosed = true;
        becomeUnconnected();
    }

    void disconnectFromHost() override
    {
        if (state() == UnconnectedState)
            return;
        if (unsent > 0) {
            setSocketState(ClosingState);
            return;
        }
        becomeUnconnected();
    }
    void close() override
    {
        unsent = 0;
        incoming.clear();
        QIODevice::close();
        if (state() != UnconnectedState)
            becomeUnconnected();
    }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 n = qMin<qint64>(maxSize, incoming.size());
        if (n <= 0)
            return (state() == ConnectedState && !peerClosed) ? 0 : -1;
        memcpy(data, incoming.constData(), size_t(n));
        incoming.remove(0, n);
        return n;
    }
    qint64 skipData(qint64 maxSize) override
    {
        const qint64 n = qMin<qint64>(maxSize, incoming.size());
        incoming.remove(0, n);
        return n;
    }
    qint64 writeData(const char *data, qint64 size) override
    {
        if (state() != ConnectedState)
            return -1;
        sent.append(data, size);
        unsent += size;
        return size;
    }

private:
    void becomeUnconnected()
    {
        setSocketState(UnconnectedState);
        Q_EMIT disconnected();
    }
};

// Keeps what the fuzzer decides per request: answer now, keep for later, drop, or throw.
class ScriptedHandler final : public RequestHandler
{
public:
    Fuzz::Input *input = nullptr;
    std::vector<ResponderPtr> kept;
    int closedCallbacks = 0;

    void handle(const Request &request, const ResponderPtr &responder) override
    {
        Q_ASSERT(responder->isOpen());
        switch (input->byte() % 5) {
        case 0:
            responder->respond(Response::json(200, R"({"ok":true})"));
            break;
        case 1:
            responder->respond(Response::text(int(input->byte()) + 200, request.body));
            break;
        case 2:
            responder->setOnClosed([this] { ++closedCallbacks; });
            kept.push_back(responder);
            break;
        case 3:
            break; // dropped without an answer: the connection answers 500
        case 4:
            throw std::runtime_error("handler failure");
        }
    }

    void answerKept(size_t i, int status)
    {
        if (kept.empty())
            return;
        i %= kept.size();
        kept[i]->respond(Response::json(status, R"({"late":true})"));
        Q_ASSERT(!kept[i]->isOpen());
    }
    void dropKept(size_t i)
    {
        if (!kept.empty())
            kept.erase(kept.begin() + qsizetype(i % kept.size()));
    }
};

HttpServer *g_server = nullptr;
ScriptedHandler *g_handler = nullptr;
// Started with the server, so it reads (about) the server's own now(): the sweep is then
// given a time the fuzzer moves forward from there.
QElapsedTimer g_serverClock;

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    g_handler = new ScriptedHandler;
    g_server = new HttpServer(g_handler);
    g_serverClock.start();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    g_handler->input = &input;

    // Small limits, so the fuzzer reaches every refusal quickly.
    ServerLimits limits;
    limits.maxHeaderBytes = 64 + input.byte() * 4;
    limits.maxBodyBytes = input.u16() % 4096;
    limits.maxPipelinedRequests = 1 + input.byte() % 4;
    limits.requestTimeoutMs = 1000;
    limits.idleTimeoutMs = 5000;
    g_server->setLimits(limits);

    auto *socket = new FakeSocket;
    QPointer<Internal::Connection> connection = new Internal::Connection(g_server, socket);
    connection->start();

    qint64 offset = 0;
    while (!input.atEnd() && connection) {
        switch (input.byte() % 8) {
        case 0:
        case 1:
        case 2:
            socket->clientSends(input.chunk());
            break;
        case 3:
            socket->clientReads(input.u16());
            break;
        case 4:
            g_handler->answerKept(input.byte(), 200 + input.byte() % 400);
            break;
        case 5:
            g_handler->dropKept(input.byte());
            break;
        case 6:
            offset += input.u16();
            connection->sweep(g_serverClock.elapsed() + offset);
            break;
        case 7:
            if (input.flag())
                socket->clientCloses();
            else
                Fuzz::processQueued();
            break;
        }
    }
    Fuzz::processQueued();

    // The end: the server shuts the connection down as HttpServer::close() does; every
    // responder still kept must then report closed.
    if (connection) {
        socket->clientReads(socket->unsent);
        connection->shutdown(true);
    }
    for (const ResponderPtr &responder : g_handler->kept)
        Q_ASSERT(!responder->isOpen());
    g_handler->kept.clear();
    g_handler->input = nullptr;
    Fuzz::processQueued();
    Q_ASSERT(!connection);
    return 0;
}
