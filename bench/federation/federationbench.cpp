// peers-federation-bench: figures for issue #9's federation targets, never asserts.
//
//   loopback (default): two claude-peers-broker processes (own HOMEs, hostnames alpha and beta,
//     TLS federation ports on 127.0.0.1) linked by POST /federation/connect. A relay is what the
//     helper's and the CLI's send to "host:peer" does: POST /federation/send-to-remote on the
//     sender's local API. Measured per relay: until that answer (the remote broker stored it) and
//     until the receiver's held POST /wait-messages on the other broker delivers it. Then
//     relayed messages/s with 1 and with --senders sending connections (one request in flight
//     each). Also: a new peer on alpha until it is in beta's lan list.
//   --mesh N (root, network namespaces): N brokers in their own namespaces (10.77.0.1..N, one
//     hostname each) linked all to all; a new peer until it is in every other broker's lan list
//     (worst and median), and relay latency between random pairs (curl's own time_total inside
//     the sender's namespace, so no process start-up is counted).
//
// JSON on stdout, a summary on stderr. See bench/README.md.
#include "bench/httpconnection.h"
#include "tests/federation/mesh/meshnetwork.h"
#include "tests/support/testsupport.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <memory>

#include <csignal>
#include <sys/prctl.h>

using namespace Qt::StringLiterals;

namespace {

const QByteArray kPsk = QByteArrayLiteral("benchbenchbenchbenchbenchbenchbenchbenchbenchbenchbenchbenchbenc");

QJsonObject percentiles(QList<double> ms)
{
    if (ms.isEmpty())
        return {{u"samples"_s, 0}};
    std::sort(ms.begin(), ms.end());
    const auto at = [&](double q) { return ms.at(qMin(ms.size() - 1, qsizetype(q * ms.size()))); };
    double sum = 0;
    for (double v : ms)
        sum += v;
    const auto round2 = [](double v) { return std::round(v * 100) / 100; };
    return {{u"samples"_s, ms.size()},     {u"p50"_s, round2(at(0.5))},
            {u"p90"_s, round2(at(0.9))},   {u"p99"_s, round2(at(0.99))},
            {u"max"_s, round2(ms.last())}, {u"mean"_s, round2(sum / ms.size())}};
}

// Runs the event loop until done() holds or ms pass.
bool waitFor(const std::function<bool()> &done, int ms)
{
    QDeadlineTimer deadline(ms);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    }
    return true;
}

// ---- loopback: two broker processes ----

struct Machine
{
    QString hostname;
    TestSupport::TestHome home;
    quint16 federationPort = 0;
    QProcess process;
    QList<std::shared_ptr<QProcess>> sessions;

    TestSupport::HttpResult post(const QString &path, const QJsonObject &body)
    {
        return TestSupport::httpPostJson(home.port(), path, body, home.token(), 15000);
    }
    QStringList lanIds()
    {
        QStringList ids;
        const QJsonArray peers =
            post(u"/list-peers"_s, {{u"scope"_s, u"lan"_s}, {u"cwd"_s, u"/"_s}}).json().toArray();
        for (const QJsonValue &peer : peers)
            ids.append(peer.toObject().value(u"id").toString());
        return ids;
    }
    QString registerSession(const QString &cwd)
    {
        auto session = std::make_shared<QProcess>();
        session->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        session->start(u"sleep"_s, {u"600"_s});
        if (!session->waitForStarted(5000))
            return {};
        sessions.append(session);
        return post(u"/register"_s, {{u"pid"_s, session->processId()}, {u"cwd"_s, cwd}})
            .object()
            .value(u"id")
            .toString();
    }
    ~Machine()
    {
        for (const auto &session : sessions) {
            session->kill();
            session->waitForFinished(5000);
        }
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

bool startMachine(Machine &machine, const QString &hostname, const QString &brokerExe, QString *error)
{
    machine.hostname = hostname;
    machine.federationPort = TestSupport::freePort();
    QFile psk(machine.home.path() + u"/.claude-peers-federation-psk"_s);
    if (!psk.open(QIODevice::WriteOnly) || psk.write(kPsk + '\n') < 0) {
        *error = u"cannot write the PSK file"_s;
        return false;
    }
    psk.close();
    psk.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    QProcessEnvironment env = machine.home.environment();
    env.insert(u"CLAUDE_PEERS_RATE_LIMIT"_s, u"0"_s);
    env.insert(u"CLAUDE_PEERS_HEARTBEAT_TIMEOUT_MS"_s, u"0"_s); // the bench's sessions never heartbeat
    env.insert(u"CLAUDE_PEERS_FEDERATION_ENABLED"_s, u"true"_s);
    env.insert(u"CLAUDE_PEERS_FEDERATION_PORT"_s, QString::number(machine.federationPort));
    env.insert(u"CLAUDE_PEERS_FEDERATION_HOSTNAME"_s, hostname);
    env.insert(u"CLAUDE_PEERS_FEDERATION_SUBNET"_s, u"127.0.0.0/8"_s);
    env.insert(u"CLAUDE_PEERS_MDNS_ENABLED"_s, u"false"_s);
    machine.process.setProcessEnvironment(env);
    machine.process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    // The brokers' logs would bury the figures; PEERS_BENCH_BROKER_LOGS=1 shows them.
    if (qEnvironmentVariableIntValue("PEERS_BENCH_BROKER_LOGS") == 0)
        machine.process.setStandardErrorFile(QProcess::nullDevice());
    else
        machine.process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    machine.process.setStandardOutputFile(QProcess::nullDevice());
    machine.process.start(brokerExe, {});
    if (!machine.process.waitForStarted(10000)) {
        *error = u"cannot start %1"_s.arg(brokerExe);
        return false;
    }
    const bool ready = waitFor(
        [&] {
            const QJsonObject status =
                TestSupport::httpGet(machine.home.port(), u"/federation/status"_s, 2000).object();
            return status.value(u"enabled").toBool() && status.contains(u"psk_source");
        },
        20000);
    if (!ready)
        *error = u"broker %1 did not come up with federation enabled"_s.arg(hostname);
    return ready;
}

QByteArray json(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// The receiver's held /wait-messages on beta: acknowledges with its next wait, tells onText.
class Receiver
{
public:
    Receiver(quint16 port, QByteArray token, QString peerId)
        : m_connection(u"127.0.0.1"_s, port), m_token(std::move(token)), m_peerId(std::move(peerId))
    {
        m_connection.setFlushImmediately(true);
    }
    std::function<void(const QString &text)> onText;
    void start() { wait(); }

private:
    void wait()
    {
        QJsonArray ack;
        for (qint64 id : std::exchange(m_toAck, {}))
            ack.append(id);
        m_connection.post("/wait-messages",
                          json({{u"id"_s, m_peerId}, {u"ack"_s, ack}, {u"timeout_ms"_s, 30000}}), m_token,
                          [this](const Bench::HttpReply &reply) {
                              const QJsonArray messages =
                                  QJsonDocument::fromJson(reply.body).object().value(u"messages").toArray();
                              for (const QJsonValue &value : messages) {
                                  m_toAck.append(value.toObject().value(u"id").toInteger());
                                  if (onText)
                                      onText(value.toObject().value(u"text").toString());
                              }
                              if (reply.status == 200)
                                  wait();
                              else
                                  QTimer::singleShot(100, [this] { wait(); });
                          });
    }
    Bench::HttpConnection m_connection;
    QByteArray m_token;
    QString m_peerId;
    QList<qint64> m_toAck;
};

// Relays `count` messages with `senders` connections, one request in flight each.
QJsonObject relayRate(Machine &alpha, const QString &from, const QString &to, int count, int senders)
{
    std::vector<std::unique_ptr<Bench::HttpConnection>> connections;
    int sent = 0;
    int answered = 0;
    int failed = 0;
    QElapsedTimer clock;
    std::function<void(Bench::HttpConnection *)> next = [&](Bench::HttpConnection *connection) {
        if (sent >= count)
            return;
        const int index = sent++;
        connection->post("/federation/send-to-remote",
                         json({{u"from_id"_s, from}, {u"to_id"_s, to}, {u"text"_s, u"rate %1"_s.arg(index)}}),
                         alpha.home.token(), [&, connection](const Bench::HttpReply &reply) {
                             ++answered;
                             if (reply.status != 200 ||
                                 !QJsonDocument::fromJson(reply.body).object().value(u"ok").toBool())
                                 ++failed;
                             next(connection);
                         });
    };
    clock.start();
    for (int i = 0; i < senders; ++i) {
        connections.push_back(std::make_unique<Bench::HttpConnection>(u"127.0.0.1"_s, alpha.home.port()));
        connections.back()->setFlushImmediately(true);
        next(connections.back().get());
    }
    waitFor([&] { return answered >= count; }, 300000);
    const double seconds = clock.nsecsElapsed() / 1e9;
    return {{u"messages"_s, count},
            {u"senders"_s, senders},
            {u"failed"_s, failed},
            {u"relayed_per_s"_s, std::round((answered - failed) / seconds)}};
}

int runLoopback(const QString &brokerExe, int samples, int messages, int senders, int appearSamples)
{
    Machine alpha;
    Machine beta;
    QString error;
    if (!startMachine(alpha, u"alpha"_s, brokerExe, &error) ||
        !startMachine(beta, u"beta"_s, brokerExe, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    const QString sender = alpha.registerSession(u"/bench/a"_s);
    const QString receiver = beta.registerSession(u"/bench/b"_s);
    const TestSupport::HttpResult connected =
        alpha.post(u"/federation/connect"_s, {{u"host"_s, u"127.0.0.1"_s}, {u"port"_s, beta.federationPort}});
    if (!connected.object().value(u"ok").toBool() || sender.isEmpty() || receiver.isEmpty()) {
        std::fprintf(stderr, "linking alpha to beta failed: %s\n", connected.body.constData());
        return 2;
    }
    waitFor([&] { return beta.lanIds().contains(u"alpha:"_s + sender); }, 40000);

    // A new peer on alpha until beta lists it (beta's lan list polled every 10 ms).
    QList<double> appearMs;
    for (int i = 0; i < appearSamples; ++i) {
        QElapsedTimer clock;
        clock.start();
        const QString late = alpha.registerSession(u"/bench/late%1"_s.arg(i));
        waitFor(
            [&] {
                QTest::qWait(10);
                return beta.lanIds().contains(u"alpha:"_s + late);
            },
            40000);
        appearMs.append(clock.nsecsElapsed() / 1e6);
    }

    const QString to = u"beta:"_s + receiver;
    Receiver waiter(beta.home.port(), beta.home.token(), receiver);
    QString lastText;
    qint64 seenNs = 0;
    QElapsedTimer clock;
    clock.start();
    waiter.onText = [&](const QString &text) {
        lastText = text;
        seenNs = clock.nsecsElapsed();
    };
    waiter.start();
    Bench::HttpConnection connection(u"127.0.0.1"_s, alpha.home.port());
    connection.setFlushImmediately(true);
    QList<double> storedMs;
    QList<double> seenMs;
    const int warmUp = 20;
    for (int i = 0; i < warmUp + samples; ++i) {
        const QString text = u"lat %1"_s.arg(i);
        bool answered = false;
        bool ok = false;
        QByteArray answer;
        qint64 answeredNs = 0;
        QTest::qWait(2); // the receiver's next wait is parked again
        const qint64 t0 = clock.nsecsElapsed();
        connection.post("/federation/send-to-remote",
                        json({{u"from_id"_s, sender}, {u"to_id"_s, to}, {u"text"_s, text}}),
                        alpha.home.token(), [&](const Bench::HttpReply &reply) {
                            answered = true;
                            answer = QByteArray::number(reply.status) + ' ' + reply.body + reply.error;
                            answeredNs = clock.nsecsElapsed();
                            ok = reply.status == 200 &&
                                QJsonDocument::fromJson(reply.body).object().value(u"ok").toBool();
                        });
        if (!waitFor([&] { return answered && lastText == text; }, 10000) || !ok) {
            std::fprintf(stderr, "relay %d failed or was not delivered: %s\n", i,
                         answered ? answer.constData() : "no answer");
            return 2;
        }
        if (i >= warmUp) {
            storedMs.append((answeredNs - t0) / 1e6);
            seenMs.append((seenNs - t0) / 1e6);
        }
    }

    const QJsonObject one = relayRate(alpha, sender, to, messages, 1);
    const QJsonObject many = relayRate(alpha, sender, to, messages, senders);
    const QJsonObject result {{u"mode"_s, u"loopback"_s},
                              {u"broker"_s, brokerExe},
                              {u"relay_until_stored_ms"_s, percentiles(storedMs)},
                              {u"relay_until_received_ms"_s, percentiles(seenMs)},
                              {u"throughput_1_sender"_s, one},
                              {u"throughput"_s, many},
                              {u"new_peer_in_remote_lan_ms"_s, percentiles(appearMs)}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Indented).constData());
    const QJsonObject seen = result.value(u"relay_until_received_ms").toObject();
    const QJsonObject stored = result.value(u"relay_until_stored_ms").toObject();
    std::fprintf(stderr,
                 "loopback TLS relay alpha→beta (send-to-remote on alpha's local API):\n"
                 "  until stored on beta:  p50 %.2f ms  p99 %.2f ms\n"
                 "  until beta's receiver: p50 %.2f ms  p99 %.2f ms\n"
                 "  relayed/s: %d (1 sender), %d (%d senders)\n"
                 "  new peer on alpha in beta's lan list: p50 %.0f ms, max %.0f ms\n",
                 stored.value(u"p50").toDouble(), stored.value(u"p99").toDouble(),
                 seen.value(u"p50").toDouble(), seen.value(u"p99").toDouble(),
                 one.value(u"relayed_per_s").toInt(), many.value(u"relayed_per_s").toInt(), senders,
                 result.value(u"new_peer_in_remote_lan_ms").toObject().value(u"p50").toDouble(),
                 result.value(u"new_peer_in_remote_lan_ms").toObject().value(u"max").toDouble());
    return 0;
}

// ---- mesh: N brokers in network namespaces ----

constexpr quint16 kMeshLocalPort = 17899;
constexpr quint16 kMeshFederationPort = 17900;

QString meshAddress(int octet)
{
    return u"10.77.0.%1"_s.arg(octet);
}

// curl's own time for one POST inside ns (no process start-up), in ms; -1 on failure.
double timedPost(const Mesh::Broker &broker, const QString &path, const QJsonObject &body)
{
    const QStringList curl {u"-sS"_s,
                            u"-o"_s,
                            u"/dev/null"_s,
                            u"-w"_s,
                            u"%{http_code} %{time_total}"_s,
                            u"-H"_s,
                            u"Content-Type: application/json"_s,
                            u"-H"_s,
                            u"Authorization: Bearer "_s + QString::fromLatin1(broker.token()),
                            u"--data-binary"_s,
                            QString::fromUtf8(json(body)),
                            u"http://127.0.0.1:%1%2"_s.arg(kMeshLocalPort).arg(path)};
    const QStringList argv = Mesh::inNamespace(broker.options().ns, {}, u"curl"_s, curl);
    const TestSupport::RunResult r =
        TestSupport::run(argv.first(), argv.mid(1), QProcessEnvironment::systemEnvironment(), 15000);
    const QList<QByteArray> parts = r.out.trimmed().split(' ');
    if (parts.size() != 2 || parts.at(0) != "200")
        return -1;
    return parts.at(1).toDouble() * 1000;
}

int runMesh(int count, int samples)
{
    const QString reason = Mesh::Network::unavailableReason();
    if (!reason.isEmpty()) {
        std::fprintf(stderr, "mesh: network namespaces unavailable (%s)\n", qPrintable(reason));
        return 3;
    }
    Mesh::Network::removeStale();
    Mesh::Network network;
    QString error;
    if (!network.setUp(&error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return 2;
    }
    QByteArray token(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(token.data()), 8);
    token = token.toHex();
    std::vector<std::unique_ptr<Mesh::Broker>> brokers;
    QStringList peerIds;
    QElapsedTimer clock;
    clock.start();
    for (int i = 1; i <= count; ++i) {
        const QString ns = network.addHost(u"b%1"_s.arg(i), i, &error);
        if (ns.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        Mesh::Broker::Options o;
        o.ns = ns;
        o.hostname = u"node%1"_s.arg(i, 2, 10, QLatin1Char('0'));
        o.address = meshAddress(i);
        o.localPort = kMeshLocalPort;
        o.federationPort = kMeshFederationPort;
        o.subnet = u"10.77.0.0/24"_s;
        o.sharedToken = token;
        auto broker = std::make_unique<Mesh::Broker>(o);
        if (!broker->start(&error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        const QString id = broker->registerPeer(u"/mesh/%1"_s.arg(i), &error);
        if (id.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 2;
        }
        peerIds << id;
        brokers.push_back(std::move(broker));
    }
    const qint64 startedMs = clock.restart();
    // All to all: each broker connects to the ones before it; the callee reaches it back.
    for (int i = 1; i < count; ++i) {
        for (int j = 0; j < i; ++j) {
            const Mesh::Reply r =
                brokers.at(i)->post(u"/federation/connect"_s,
                                    {{u"host"_s, meshAddress(j + 1)}, {u"port"_s, kMeshFederationPort}});
            if (!r.object().value(u"ok").toBool()) {
                std::fprintf(stderr, "connect node%d → node%d: %s\n", i + 1, j + 1, r.body.constData());
                return 2;
            }
        }
    }
    const qint64 connectMs = clock.restart();
    const auto listsAll = [&](int i) {
        const QStringList lan = brokers.at(i)->lanPeerIds();
        for (int j = 0; j < count; ++j) {
            if (j != i && !lan.contains(brokers.at(j)->options().hostname + u':' + peerIds.at(j)))
                return false;
        }
        return true;
    };
    for (int i = 0; i < count; ++i) {
        if (!waitFor([&] { return listsAll(i); }, 120000)) {
            std::fprintf(stderr, "node%d never listed every other peer\n", i + 1);
            return 2;
        }
    }
    const qint64 fullMs = clock.restart();

    // A new peer on the last broker (its own pid: one session per pid) until every other lists it.
    Mesh::Broker &last = *brokers.back();
    const QString late = last.registerPeer(u"/mesh/late"_s, &error, last.pid());
    const QString lateId = last.options().hostname + u':' + late;
    QElapsedTimer appear;
    appear.start();
    QList<double> seenAfterMs(count - 1, -1);
    int missing = count - 1;
    QElapsedTimer poll;
    poll.start();
    qint64 sweeps = 0;
    while (missing > 0 && appear.elapsed() < 120000) {
        ++sweeps;
        for (int i = 0; i < count - 1; ++i) {
            if (seenAfterMs.at(i) >= 0)
                continue;
            if (brokers.at(i)->lanPeerIds().contains(lateId)) {
                seenAfterMs[i] = appear.nsecsElapsed() / 1e6;
                --missing;
            }
        }
    }
    const double sweepMs = poll.elapsed() / double(qMax<qint64>(1, sweeps));

    // One relay on every link first: the steady state of a mesh, whose syncs keep every link's
    // connection open, is what is timed.
    int relayFailures = 0;
    for (int from = 0; from < count; ++from) {
        for (int to = 0; to < count; ++to) {
            if (from != to &&
                timedPost(*brokers.at(from), u"/federation/send-to-remote"_s,
                          {{u"from_id"_s, peerIds.at(from)},
                           {u"to_id"_s, QString(brokers.at(to)->options().hostname + u':' + peerIds.at(to))},
                           {u"text"_s, u"warm-up"_s}}) < 0)
                ++relayFailures;
        }
    }
    QList<double> relayMs;
    for (int s = 0; s < samples; ++s) {
        const int from = QRandomGenerator::global()->bounded(count);
        int to = QRandomGenerator::global()->bounded(count - 1);
        to += to >= from ? 1 : 0;
        const double ms =
            timedPost(*brokers.at(from), u"/federation/send-to-remote"_s,
                      {{u"from_id"_s, peerIds.at(from)},
                       {u"to_id"_s, QString(brokers.at(to)->options().hostname + u':' + peerIds.at(to))},
                       {u"text"_s, u"mesh %1"_s.arg(s)}});
        if (ms < 0)
            ++relayFailures;
        else
            relayMs.append(ms);
    }
    // The same curl timing of a request that stays on the sender's broker: what of the relay
    // figure is curl, the local API and the machine's load rather than the link.
    QList<double> localMs;
    for (int s = 0; s < samples; ++s) {
        const int on = QRandomGenerator::global()->bounded(count);
        const double ms =
            timedPost(*brokers.at(on), u"/list-peers"_s, {{u"scope"_s, u"machine"_s}, {u"cwd"_s, u"/"_s}});
        if (ms >= 0)
            localMs.append(ms);
    }
    QList<double> seen = seenAfterMs;
    seen.removeAll(-1);
    const QJsonObject result {{u"mode"_s, u"mesh"_s},
                              {u"brokers"_s, count},
                              {u"start_ms"_s, startedMs},
                              {u"connect_all_ms"_s, connectMs},
                              {u"every_peer_everywhere_ms"_s, fullMs},
                              {u"new_peer_in_every_lan"_s, percentiles(seen)},
                              {u"new_peer_missing"_s, missing},
                              {u"lan_poll_sweep_ms"_s, std::round(sweepMs)},
                              {u"relay_until_stored_ms"_s, percentiles(relayMs)},
                              {u"relay_failures"_s, relayFailures},
                              {u"local_request_baseline_ms"_s, percentiles(localMs)}};
    std::printf("%s\n", QJsonDocument(result).toJson(QJsonDocument::Indented).constData());
    const QJsonObject appearStats = result.value(u"new_peer_in_every_lan").toObject();
    const QJsonObject relayStats = result.value(u"relay_until_stored_ms").toObject();
    std::fprintf(stderr,
                 "mesh of %d brokers in namespaces (all to all, %d links):\n"
                 "  new peer in every other lan list: worst %.0f ms, median %.0f ms (%d never; polling "
                 "sweeps of ~%.0f ms)\n"
                 "  relay until stored (curl time_total in the sender's namespace): p50 %.2f ms, p99 %.2f "
                 "ms, %d failed\n"
                 "  baseline, POST /list-peers on the local broker timed the same way: p50 %.2f ms, p99 %.2f "
                 "ms\n",
                 count, count * (count - 1) / 2, appearStats.value(u"max").toDouble(),
                 appearStats.value(u"p50").toDouble(), missing, sweepMs, relayStats.value(u"p50").toDouble(),
                 relayStats.value(u"p99").toDouble(), relayFailures,
                 result.value(u"local_request_baseline_ms").toObject().value(u"p50").toDouble(),
                 result.value(u"local_request_baseline_ms").toObject().value(u"p99").toDouble());
    return missing == 0 && relayFailures == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Federation figures: loopback relay latency/rate, or a namespace mesh"_s);
    parser.addHelpOption();
    const QCommandLineOption broker(u"broker"_s, u"claude-peers-broker to run (loopback)"_s, u"path"_s,
                                    TestSupport::brokerExe());
    const QCommandLineOption samples(u"samples"_s, u"relays timed one at a time"_s, u"n"_s, u"500"_s);
    const QCommandLineOption messages(u"messages"_s, u"relays per rate run"_s, u"n"_s, u"2000"_s);
    const QCommandLineOption senders(u"senders"_s, u"sending connections in the second rate run"_s, u"n"_s,
                                     u"8"_s);
    const QCommandLineOption appear(u"appear-samples"_s, u"new peers timed until the remote lists them"_s,
                                    u"n"_s, u"5"_s);
    const QCommandLineOption mesh(u"mesh"_s, u"a mesh of n brokers in network namespaces (root)"_s, u"n"_s);
    parser.addOptions({broker, samples, messages, senders, appear, mesh});
    parser.process(app);
    if (parser.isSet(mesh))
        return runMesh(qMax(2, parser.value(mesh).toInt()), parser.value(samples).toInt());
    return runLoopback(parser.value(broker), parser.value(samples).toInt(), parser.value(messages).toInt(),
                       qMax(1, parser.value(senders).toInt()), parser.value(appear).toInt());
}
