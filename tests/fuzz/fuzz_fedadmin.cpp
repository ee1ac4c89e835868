// The federation module's local routes (federation/federationmodule.cpp FederationModule::routes():
// rotate-psk, token, join, init, doctor, attempts, revoke, unignore, and the pairing module's
// pair-code, pending, accept, reject, pair, pair/confirm, pair/cancel) through the broker's own
// request pipeline (BrokerCore's Api: credential, body limits, JSON, then the handler), with
// fuzzed methods, credentials and bodies, federation on and off. An input is a script: requests,
// and the events that change what they meet — a reload of the config (federation turned on by
// init, or off by the user), a pairing request on the federation port proving the code pair-code
// made, a machine found by DNS-SD (fake discovery), a step of the clock with the module's jobs.
//
// Set-up: the real FederationModule on a BrokerCore with an in-memory SQLite store, its config,
// token, PSK file and certificate in the scratch directory; the federation port a plain
// HttpServer on 127.0.0.1 (an ephemeral port; settings never name 7900) whose handler the harness
// calls for the pairing requests; remote links through a transport that refuses every call. A
// module serves kInputsPerModule inputs, then a fresh one (fresh config and store) replaces it;
// the inputs it ran go to a history file (fuzzhistory.h) for replay. The certificate is made once
// per process and kept in the scratch directory.
//
// The network: /federation/pair probes the host it is given and /federation/doctor measures the
// clock of the linked remotes, both with the real PinnedTlsClient. So the process first moves into
// a network namespace of its own (only its loopback, where nothing else listens), and every
// connection to a name goes through a SOCKS5 proxy address that refuses (no DNS lookup either).
// Where no namespace can be made, those two routes are not sent (said once on stderr).
//
// Invariants: every request gets exactly one answer (at once or after the events are
// processed) with a valid status; a JSON answer is an object; the lists stay within their caps.
// /federation/pair-code costs a PBKDF2 of 100,000 rounds (and the harness's proof another): one
// real pair-code per kInputsPerPairCode inputs, the code kept for later inputs of the same module.
#include "tests/fuzz/fuzzhistory.h"
#include "tests/fuzz/fuzzresponder.h"
#include "tests/fuzz/fuzzsupport.h"

#include "broker/brokerserver.h"
#include "broker/clock.h"
#include "broker/http/httpserver.h"
#include "broker/internal/api.h"
#include "broker/internal/brokercore.h"
#include "broker/internal/jobscheduler.h"
#include "broker/internal/tokenkeeper.h"
#include "common/config.h"
#include "federation/attemptlog.h"
#include "federation/discovery.h"
#include "federation/discoverytxt.h"
#include "federation/federationmodule.h"
#include "federation/ignoredmachines.h"
#include "federation/pairingcode.h"
#include "federation/pendingrequests.h"
#include "federation/remotelinks.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkProxy>
#include <QTcpServer>
#include <QTimer>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

using namespace Broker;
using Federation::FederationModule;
namespace PairingCode = Federation::PairingCode;

namespace {

constexpr int kInputsPerModule = 1024;
constexpr int kInputsPerPairCode = 4096;
constexpr size_t kMaxInputBytes = 8192; // run-fuzz.sh's -max_len
// The longest an answer may take: the pinned TLS client's 5 s timeout, with room for a loaded machine.
constexpr int kAnswerDeadlineMs = 8000;

// The module's routes first (as FederationModule::routes() lists them), then neighbours.
const char *const kPaths[] = {
    "/federation/rotate-psk", "/federation/token",        "/federation/join",        "/federation/init",
    "/federation/doctor",     "/federation/attempts",     "/federation/revoke",      "/federation/unignore",
    "/federation/pair-code",  "/federation/pending",      "/federation/accept",      "/federation/reject",
    "/federation/pair",       "/federation/pair/confirm", "/federation/pair/cancel", "/federation/status",
    "/federation/nowhere",
};
constexpr int kPairCode = 8;
constexpr int kPair = 12;
constexpr int kDoctor = 4;

const char *const kMethods[] = {"POST", "GET", "PUT", "DELETE", "OPTIONS", "HEAD"};

const char *const kFields[] = {"host", "port",    "url", "legacy",   "subnets", "fingerprint", "id",
                               "code", "wait_ms", "v",   "hostname", "psk",     "token",       "nonce"};

// ---- the network ----------------------------------------------------------------------------

bool writeFile(const char *path, const QByteArray &text)
{
    const int fd = ::open(path, O_WRONLY);
    if (fd < 0)
        return false;
    const bool written = ::write(fd, text.constData(), size_t(text.size())) == text.size();
    ::close(fd);
    return written;
}

// A network namespace of our own, its loopback up: nothing else listens there and nothing outside
// is reachable. Before any thread exists (a user namespace needs a single-threaded process).
bool isolateNetwork()
{
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    // root may make a network namespace alone; anyone else (or root in a container) inside a user
    // namespace of its own, mapped to the same ids so that the files it writes stay its own.
    const bool alone = uid == 0 && ::unshare(CLONE_NEWNET) == 0;
    if (!alone) {
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0)
            return false;
        const QByteArray uids = QByteArray::number(uid) + ' ' + QByteArray::number(uid) + " 1";
        const QByteArray gids = QByteArray::number(gid) + ' ' + QByteArray::number(gid) + " 1";
        if (!writeFile("/proc/self/setgroups", "deny") || !writeFile("/proc/self/uid_map", uids) ||
            !writeFile("/proc/self/gid_map", gids))
            return false;
    }
    const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0)
        return false;
    ifreq request {};
    std::strncpy(request.ifr_name, "lo", IFNAMSIZ - 1);
    bool up = ::ioctl(fd, SIOCGIFFLAGS, &request) == 0;
    request.ifr_flags = short(request.ifr_flags | IFF_UP | IFF_RUNNING);
    up = up && ::ioctl(fd, SIOCSIFFLAGS, &request) == 0;
    ::close(fd);
    return up;
}

bool g_isolated = false;
bool g_trace = false; // FUZZ_TRACE=1: every request and answer on stderr (to check the seeds)

// Remote links: every call refused, answered later as a real transport does.
class RefusingTransport final : public Federation::LinkTransport
{
public:
    void post(const Federation::RemoteAddress &to, const QByteArray &, const QByteArray &,
              const Federation::LinkCredential &, Done done) override
    {
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [done = std::move(done), key = to.key()] {
                done(Federation::LinkReply {0, {}, QStringLiteral("%1: connection refused").arg(key)});
            },
            Qt::QueuedConnection);
    }
};

// DNS-SD the harness plays: found()/lost() when the input says so.
class FakeDiscovery final : public Federation::Discovery
{
public:
    FakeDiscovery();
    ~FakeDiscovery() override;
    void start(const QString &, quint16, const QByteArray &) override { m_active = true; }
    void stop() override { m_active = false; }
    bool isActive() const override { return m_active; }
    void find(const Federation::DiscoveredService &service) { Q_EMIT found(service); }
    void lose(const QString &instance) { Q_EMIT lost(instance); }

private:
    bool m_active = false;
};

FakeDiscovery *g_discovery = nullptr;

FakeDiscovery::FakeDiscovery()
{
    g_discovery = this;
}

FakeDiscovery::~FakeDiscovery()
{
    if (g_discovery == this)
        g_discovery = nullptr;
}

// ---- answers --------------------------------------------------------------------------------

// What answers told, so later requests and events can name real things.
struct Learned
{
    QList<QString> ids; // pairing request ids
    QList<QString> pins; // fingerprints seen (pending, ignored, revoked)
    QString ownPin; // ours (init, pair-code, token)
    QString joinUrl; // /federation/token's
    QString code; // the last pair-code
    QByteArray codeKey; // its key, computed on first use
    struct Inbound
    {
        QByteArray key;
        QString clientNonce;
        QString serverNonce;
    };
    QHash<QString, Inbound> inbound; // pairing requests the harness made, by id
    quint16 federationPort = 0;
    int answers = 0;

    static void keep(QList<QString> &list, const QString &value)
    {
        if (value.isEmpty() || list.contains(value))
            return;
        list.append(value);
        if (list.size() > 8)
            list.removeFirst();
    }
};

void checkBounded(const QJsonObject &object, const char *field, qsizetype cap)
{
    const QJsonValue value = object.value(QLatin1String(field));
    if (value.isArray() && value.toArray().size() > cap) {
        fprintf(stderr, "fedadmin: \"%s\" lists %lld entries, more than its cap %lld\n", field,
                qlonglong(value.toArray().size()), qlonglong(cap));
        abort();
    }
}

void learnFrom(Learned &learned, const QJsonObject &answer)
{
    // Lists within their caps (AttemptLog, IgnoredMachines, RevokedRemotes' listing, PendingRequests).
    checkBounded(answer, "attempts", Federation::AttemptLog::kMaxEntries);
    checkBounded(answer, "ignored", Federation::IgnoredMachines::kMaxEntries);
    checkBounded(answer, "revoked", 256);
    checkBounded(answer, "requests", Federation::PendingRequests::kMaxKept);
    checkBounded(answer, "pairing_requests", Federation::PendingRequests::kMaxKept);
    if (answer.value(u"pending").toInt() > Federation::PendingRequests::kMaxPending)
        abort();
    for (const char *list : {"requests", "ignored", "revoked"}) {
        for (const QJsonValue &entry : answer.value(QLatin1String(list)).toArray()) {
            const QJsonObject item = entry.toObject();
            Learned::keep(learned.ids, item.value(u"id").toString());
            Learned::keep(learned.pins, item.value(u"fingerprint").toString());
        }
    }
    if (const QString code = answer.value(u"code").toString(); !code.isEmpty()) {
        learned.code = code;
        learned.codeKey.clear();
        learned.ownPin = answer.value(u"fingerprint").toString();
    }
    if (const QString url = answer.value(u"url").toString(); !url.isEmpty())
        learned.joinUrl = url;
    if (const QString pin = answer.value(u"fingerprint").toString(); !pin.isEmpty())
        Learned::keep(learned.pins, pin);
}

class CaptureResponder final : public Fuzz::ConnectionResponder
{
public:
    explicit CaptureResponder(Learned &learned) : m_learned(learned) { }

    void respond(const Http::Response &response) override
    {
        if (!accept())
            return;
        ++m_learned.answers;
        if (g_trace)
            fprintf(stderr, "  -> %d %s\n", response.status, response.body.left(300).constData());
        if (response.status < 100 || response.status >= 600)
            abort();
        if (response.contentType != "application/json")
            return;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(response.body, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            fprintf(stderr, "fedadmin: a JSON answer is not a JSON object: %s\n",
                    response.body.left(200).constData());
            abort();
        }
        const QJsonObject object = doc.object();
        learnFrom(m_learned, object);
        if (const QString id = object.value(u"id").toString(); !id.isEmpty() && m_inbound) {
            m_inbound->serverNonce = object.value(u"nonce").toString();
            m_learned.inbound.insert(id, *m_inbound);
            Learned::keep(m_learned.ids, id);
        }
    }
    QByteArray label; // FUZZ_TRACE's
    // A pairing request the harness sent: what its collect needs once the id is known.
    void expectInbound(Learned::Inbound inbound) { m_inbound = std::move(inbound); }

private:
    Learned &m_learned;
    std::optional<Learned::Inbound> m_inbound;
};

// ---- the module under test --------------------------------------------------------------------

QString scratch(const char *name)
{
    return Fuzz::scratchDir() + QLatin1Char('/') + QLatin1String(name);
}

QProcessEnvironment moduleEnvironment()
{
    QProcessEnvironment env;
    env.insert(QStringLiteral("HOME"), Fuzz::scratchDir()); // the certificate's files
    env.insert(QStringLiteral("CLAUDE_PEERS_FEDERATION_HOSTNAME"), QStringLiteral("fuzzhost"));
    return env;
}

Settings brokerSettings()
{
    Settings s;
    s.location.port = 0;
    s.location.databasePath = QStringLiteral(":memory:");
    s.location.tokenPath = scratch(".claude-peers-token");
    s.location.tokenPathExplicit = true;
    s.location.configPath = scratch(".claude-peers-config.json");
    return s;
}

// A port the OS gave once: the module's settings never say 7900, nor 0 (no broker has port 0 in
// its settings: a join URL made while the port is closed names the configured one).
quint16 federationPort()
{
    static const quint16 port = [] {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }();
    return port;
}

// The config as the module reads it, but the port is ours.
Federation::FederationSettings federationSettings(const Settings &settings)
{
    Federation::FederationSettings s =
        Federation::FederationSettings::load(settings.location, moduleEnvironment());
    s.port = federationPort();
    return s;
}

// The handler the module gave its federation port; null while the port is closed (federation off).
Http::RequestHandler *g_federationPort = nullptr;

class FederationPort final : public Http::HttpServer
{
public:
    FederationPort(Http::RequestHandler *handler, const Http::ServerLimits &limits)
        : Http::HttpServer(handler, limits)
    {
        g_federationPort = handler;
    }
    ~FederationPort() override { g_federationPort = nullptr; } // before the module drops the handler
};

struct ModuleUnderTest
{
    ModuleUnderTest(const std::shared_ptr<ManualClock> &clock, bool enabled)
        : settings(prepare(enabled)), server(settings)
    {
        FederationModule::Parts parts;
        parts.plainHttp = false; // init makes the certificate, pairing needs its pin
        parts.transport = std::make_shared<RefusingTransport>();
        parts.server = [](Http::RequestHandler *handler, const Http::ServerLimits &limits) {
            return std::make_unique<FederationPort>(handler, limits);
        };
        parts.listenAddress = QHostAddress::LocalHost;
        parts.environment = moduleEnvironment();
        parts.discovery = [] { return std::make_unique<FakeDiscovery>(); };
        const Settings *source = &settings;
        parts.settingsSource = [source] { return federationSettings(*source); };
        module = std::make_shared<FederationModule>(federationSettings(settings), std::move(parts));
        core =
            std::make_unique<BrokerCore>(settings, BrokerCore::Parts {clock, module, {}, {module}, &server});
        const auto opened = core->open();
        if (!opened) {
            fprintf(stderr, "fedadmin: the broker does not open: %s\n", qPrintable(opened.error().message));
            abort();
        }
    }

    ~ModuleUnderTest()
    {
        core->close();
        core.reset();
        module.reset();
        g_federationPort = nullptr;
    }

    // A fresh config (federation on or off) and PSK; the token and the certificate stay.
    static Settings prepare(bool enabled)
    {
        Settings s = brokerSettings();
        QFile::remove(s.location.configPath);
        QFile::remove(scratch(".claude-peers-federation-psk"));
        ConfigFile config = ConfigFile::load(s.location.configPath);
        config.setFederationEnabled(enabled);
        (void)config.save(s.location.configPath);
        return s;
    }

    void setEnabled(bool enabled)
    {
        ConfigFile config = ConfigFile::load(settings.location.configPath);
        config.setFederationEnabled(enabled);
        (void)config.save(settings.location.configPath);
        module->reload();
    }

    Settings settings;
    BrokerServer server; // never started: what ModuleContext::server() gives the module
    std::shared_ptr<FederationModule> module;
    std::unique_ptr<BrokerCore> core;
    Learned learned;
};

// Never destroyed at exit (Qt's SQL globals may already be gone then).
std::shared_ptr<ManualClock> *g_clock = nullptr;
ModuleUnderTest *g_module = nullptr;
int g_inputs = 0;
int g_pairCodesLeft = 0;
Fuzz::History *g_history = nullptr; // null while replaying one

// ---- bodies ---------------------------------------------------------------------------------

QString pick(const QList<QString> &list, uint8_t selector, const QString &otherwise)
{
    return list.isEmpty() ? otherwise : list.at(selector % list.size());
}

QJsonValue fuzzedValue(Fuzz::Input &input, const Learned &learned)
{
    const uint8_t kind = input.byte();
    switch (kind % 16) {
    case 0:
        return QString::fromUtf8(input.chunk());
    case 1:
        return int(input.u16());
    case 2:
        return -int(input.u16());
    case 3: {
        static const double kNumbers[] = {0,  1,    65535, 65536,        7900,         7899,
                                          -1, 1e20, 1.5,   2147483648.0, -2147483649.0};
        return kNumbers[input.byte() % std::size(kNumbers)];
    }
    case 4:
        return input.flag();
    case 5:
        return QJsonValue::Null;
    case 6: {
        QJsonArray array;
        for (int n = input.byte() % 4; n > 0; --n)
            array.append(input.flag() ? QJsonValue(QString::fromUtf8(input.chunk()))
                                      : QJsonValue(int(input.byte())));
        return array;
    }
    case 7:
        return QJsonObject {{QString::fromUtf8(input.chunk()), int(input.byte())}};
    case 8:
        return pick(learned.ids, input.byte(), QStringLiteral("p-none"));
    case 9:
        return pick(learned.pins, input.byte(),
                    QStringLiteral("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
    case 10:
        return learned.joinUrl.isEmpty() ? QStringLiteral("cpt://127.0.0.1:1/?token=00&fp=x")
                                         : learned.joinUrl;
    case 11:
        return learned.code.isEmpty() ? QStringLiteral("ABCDE-FGHJK") : learned.code;
    case 12: {
        static const char *const kHosts[] = {"127.0.0.1", "::1", "localhost", "10.0.0.7", "fuzz.invalid",
                                             "[::1]",     "",    "0.0.0.0",   "host:1",   "a.local"};
        return QLatin1String(kHosts[input.byte() % std::size(kHosts)]);
    }
    case 13:
        return QString(int(input.u16() % 9000), QLatin1Char('x')); // past every length limit
    case 14:
        return QJsonArray {QStringLiteral("10.0.0.0/8"), QString::fromUtf8(input.chunk())};
    default:
        return QString::fromUtf8(input.chunk()).replace(QLatin1String("$URL"), learned.joinUrl);
    }
}

QByteArray fuzzedBody(Fuzz::Input &input, const Learned &learned, bool structured)
{
    if (!structured) {
        QByteArray body = input.bytes(input.u16() % 2048);
        body.replace("$ID", pick(learned.ids, 0, QStringLiteral("none")).toUtf8());
        body.replace("$PIN", pick(learned.pins, 0, QString()).toUtf8());
        body.replace("$URL", learned.joinUrl.toUtf8());
        body.replace("$CODE", learned.code.toUtf8());
        return body;
    }
    QJsonObject object;
    for (int n = input.byte() % 5; n > 0; --n)
        object.insert(QLatin1String(kFields[input.byte() % std::size(kFields)]), fuzzedValue(input, learned));
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

// ---- the federation port: a machine proving the code pair-code made ---------------------------

const QHostAddress &sourceAddress(uint8_t selector)
{
    static const QHostAddress kSources[] = {
        QHostAddress(QStringLiteral("127.0.0.1")), QHostAddress(QStringLiteral("10.0.0.7")),
        QHostAddress(QStringLiteral("192.168.1.20")), QHostAddress(QStringLiteral("::ffff:10.0.0.8")),
        QHostAddress(QStringLiteral("::1"))};
    return kSources[selector % std::size(kSources)];
}

// "sha256-" and 43 base64url characters whose last one leaves the two spare bits zero.
QString wellFormedPin(uint8_t seed)
{
    return QStringLiteral("sha256-") + QString(42, QLatin1Char('a' + seed % 26)) +
        QLatin1Char("AEIMQUYcgkosw048"[seed % 16]);
}

std::shared_ptr<CaptureResponder> toFederationPort(const Http::Request &request,
                                                   std::shared_ptr<CaptureResponder> responder)
{
    if (!g_federationPort)
        return nullptr; // federation is off: nothing listens
    if (g_trace)
        fprintf(stderr, "federation port %s %s\n", request.path.constData(),
                request.body.left(300).constData());
    g_federationPort->handle(request, responder);
    return responder;
}

std::shared_ptr<CaptureResponder> pairingRequest(Fuzz::Input &input, Learned &learned)
{
    const uint8_t flags = input.byte();
    const QString pin = (flags & 1) ? wellFormedPin(input.byte()) : QString::fromUtf8(input.chunk());
    const QString nonce = PairingCode::newNonce();
    QByteArray proof;
    if (flags & 2) { // the proof of the last code (a wrong one before any)
        if (learned.code.isEmpty() || learned.ownPin.isEmpty())
            learned.codeKey = QByteArray(32, 'k');
        else if (learned.codeKey.isEmpty())
            learned.codeKey = PairingCode::codeKey(*PairingCode::normalizeCode(learned.code), learned.ownPin);
        proof = PairingCode::proof(learned.codeKey, "request",
                                   {nonce.toUtf8(), learned.ownPin.toUtf8(), pin.toUtf8()});
    } else {
        proof = input.chunk();
    }
    QJsonObject body {
        {QStringLiteral("v"), (flags & 4) ? QJsonValue(1) : fuzzedValue(input, learned)},
        {QStringLiteral("hostname"), (flags & 8) ? QStringLiteral("joiner") : fuzzedValue(input, learned)},
        {QStringLiteral("port"), (flags & 16) ? QJsonValue(7900) : fuzzedValue(input, learned)},
        {QStringLiteral("fingerprint"), pin},
        {QStringLiteral("nonce"), nonce},
        {QStringLiteral("proof"), QString::fromLatin1(proof)}};
    Http::Request request;
    request.method = "POST";
    request.path = "/federation/pair/request";
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    request.peerAddress = sourceAddress(input.byte());
    auto responder = std::make_shared<CaptureResponder>(learned);
    responder->expectInbound({learned.codeKey, nonce, {}});
    return toFederationPort(request, std::move(responder));
}

std::shared_ptr<CaptureResponder> pairingCollect(Fuzz::Input &input, Learned &learned)
{
    const QString id = pick(learned.ids, input.byte(), QStringLiteral("p-none"));
    const auto inbound = learned.inbound.constFind(id);
    QByteArray proof = input.chunk();
    const bool right = input.flag();
    if (right && inbound != learned.inbound.constEnd() && !inbound->key.isEmpty())
        proof =
            PairingCode::proof(inbound->key, "collect",
                               {id.toUtf8(), inbound->clientNonce.toUtf8(), inbound->serverNonce.toUtf8()});
    Http::Request request;
    request.method = "POST";
    request.path = "/federation/pair/collect";
    request.body = QJsonDocument(QJsonObject {{QStringLiteral("id"), id},
                                              {QStringLiteral("proof"), QString::fromLatin1(proof)}})
                       .toJson(QJsonDocument::Compact);
    request.peerAddress = sourceAddress(input.byte());
    auto responder = std::make_shared<CaptureResponder>(learned);
    return toFederationPort(request, std::move(responder));
}

void discoveryEvent(Fuzz::Input &input, const Learned &learned)
{
    const uint8_t flags = input.byte();
    const QString instance =
        (flags & 1) ? QStringLiteral("other-%1").arg(input.byte() % 8) : QString::fromUtf8(input.chunk());
    const bool active = g_discovery && g_discovery->isActive(); // the bytes are read either way
    if (flags & 2) {
        if (active)
            g_discovery->lose(instance);
        return;
    }
    Federation::DiscoveredService service;
    service.instance = instance;
    service.address = sourceAddress(input.byte()).toString();
    service.port = input.u16();
    if (flags & 4) {
        Federation::DiscoveryTxt txt;
        txt.version = QString::fromLatin1(Federation::RemoteLinks::kProtocolVersion);
        txt.hostname = instance;
        const uint8_t seed = input.byte();
        txt.fingerprint =
            (flags & 8) ? pick(learned.pins, input.byte(), wellFormedPin(seed)) : wellFormedPin(seed);
        txt.legacyPskHash = flags & 16;
        service.txt = Federation::encodeDiscoveryTxt(txt);
    } else {
        service.txt = input.chunk();
    }
    if (active)
        g_discovery->find(service);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    g_isolated = isolateNetwork(); // before Qt starts any thread
    g_trace = qEnvironmentVariableIsSet("FUZZ_TRACE");
    Fuzz::initialize(argc, argv);
    if (g_isolated) {
        // Names go to a proxy that refuses (no DNS); addresses find only our loopback.
        QNetworkProxy::setApplicationProxy(
            QNetworkProxy(QNetworkProxy::Socks5Proxy, QStringLiteral("127.0.0.1"), 1));
    } else {
        fprintf(stderr,
                "fuzz_fedadmin: no network namespace could be made (unshare: %s): /federation/pair and "
                "/federation/doctor, which connect to the hosts they are given, are not sent\n",
                strerror(errno));
    }
    Fuzz::replayHistoryIfAsked(); // exits when asked to replay
    g_history = new Fuzz::History("fedadmin", *argc, *argv, kInputsPerModule, kMaxInputBytes);
    std::atexit([] { delete g_history; }); // a run that ends normally leaves no history file
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!g_module || ++g_inputs % kInputsPerModule == 0) {
        const bool enabled = g_inputs / kInputsPerModule % 2 == 1; // every other module starts on
        delete std::exchange(g_module, nullptr);
        Fuzz::processQueued();
        delete g_clock;
        g_clock = new std::shared_ptr<ManualClock>(
            std::make_shared<ManualClock>(QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC)));
        g_module = new ModuleUnderTest(*g_clock, enabled);
        Fuzz::processQueued(); // the PSK's first read
        if (g_history)
            g_history->restart();
    }
    if (g_inputs % kInputsPerPairCode == 0)
        g_pairCodesLeft = 1;
    if (g_history)
        g_history->record(data, size);
    Fuzz::Input input(data, size);
    ManualClock &clock = **g_clock;
    ModuleUnderTest &mut = *g_module;
    Learned &learned = mut.learned;
    std::vector<std::shared_ptr<CaptureResponder>> sent;
    int requests = 0;
    while (!input.atEnd() && requests < 32) {
        const uint8_t op = input.byte();
        std::shared_ptr<CaptureResponder> responder;
        if (op >= 0xf8) { // the clock moves; the module's jobs that are due run
            clock.advance(qint64(input.u16()) * 1000);
            mut.core->jobs().runDue();
        } else if (op >= 0xf4) { // the user turns federation on or off in the config, then reloads
            mut.setEnabled(op & 1);
            Fuzz::processQueued();
        } else if (op >= 0xf0) { // a reload of the config as it is (init may have turned it on)
            mut.module->reload();
            Fuzz::processQueued();
        } else if (op >= 0xe8) {
            discoveryEvent(input, learned);
        } else if (op >= 0xe0) { // a machine on the federation port
            responder = (op & 4) ? pairingCollect(input, learned) : pairingRequest(input, learned);
        } else {
            const int route = op % int(std::size(kPaths));
            const uint8_t flags = input.byte();
            Http::Request request;
            request.path = kPaths[route];
            request.method =
                (flags & 0x40) ? QByteArray(kMethods[input.byte() % std::size(kMethods)]) : "POST";
            switch (flags & 3) {
            case 0:
            case 1:
                request.headers.append({"authorization", "Bearer " + mut.core->tokens().token()});
                break;
            case 2:
                break;
            case 3:
                request.headers.append({"authorization", input.chunk()});
                break;
            }
            request.peerAddress = QHostAddress::LocalHost;
            request.body = fuzzedBody(input, learned, flags & 4);
            // pair-code's PBKDF2 (100,000 rounds): one per kInputsPerPairCode inputs.
            const bool expensive = route == kPairCode && request.method == "POST";
            const bool reachesOut = route == kPair || route == kDoctor;
            if ((expensive && g_pairCodesLeft == 0) || (reachesOut && !g_isolated))
                continue;
            if (expensive)
                --g_pairCodesLeft;
            responder = std::make_shared<CaptureResponder>(learned);
            responder->label = request.path;
            if (g_trace)
                fprintf(stderr, "%s %s %s\n", request.method.constData(), request.path.constData(),
                        request.body.left(200).constData());
            mut.core->api().handle(request, responder);
            if (flags & 8)
                Fuzz::processQueued(); // else the next request shares this event-loop pass
            if ((flags & 0x30) == 0x30 && !sent.empty() && sent.back()->isOpen())
                sent.back()->close(); // the client of the request before goes away
        }
        if (responder) {
            ++requests;
            sent.push_back(std::move(responder));
        }
    }
    // Every request is answered, now or once the events (PSK writes, refused links and probes)
    // have been processed.
    const QDeadlineTimer deadline(kAnswerDeadlineMs);
    const auto unanswered = [&] {
        return std::any_of(sent.cbegin(), sent.cend(), [](const auto &r) { return r->isOpen(); });
    };
    Fuzz::processQueued();
    if (g_trace && unanswered()) {
        for (const auto &r : sent)
            if (r->isOpen())
                fprintf(stderr, "waiting for an answer to %s\n", r->label.constData());
    }
    if (unanswered()) {
        QTimer wake; // WaitForMoreEvents returns at least this often
        wake.start(50);
        while (unanswered() && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
    if (unanswered()) {
        fprintf(stderr, "fedadmin: a request got no answer within %d ms\n", kAnswerDeadlineMs);
        abort();
    }
    Fuzz::processQueued();
    return 0;
}
