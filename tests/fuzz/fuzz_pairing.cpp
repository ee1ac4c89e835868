// The pairing routes of the federation port (federation/pairing.*) on any body, before any PSK:
// every input gets exactly one answer, a refusal (no code is open, so nothing may succeed), and
// the code normalizer and the sealed-PSK opener never crash on the same bytes.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/clock.h"
#include "federation/pairing.h"
#include "federation/pairingcode.h"

#include <QJsonDocument>

using namespace Federation;

namespace {

class CountingResponder final : public Broker::Http::Responder
{
public:
    void respond(const Broker::Http::Response &response) override
    {
        ++answers;
        status = response.status;
    }
    bool isOpen() const override { return true; }
    void setOnClosed(std::function<void()>) override { }
    int answers = 0;
    int status = 0;
};

Broker::ManualClock &fuzzClock()
{
    static Broker::ManualClock instance;
    return instance;
}

Pairing &pairing()
{
    static Pairing *instance = [] {
        Pairing::Hooks hooks;
        hooks.ownPin = [] { return QStringLiteral("sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"); };
        hooks.hostname = [] { return QStringLiteral("fuzz"); };
        hooks.federationPort = [] { return 7900; };
        hooks.dialAddress = [] { return QStringLiteral("127.0.0.1"); };
        hooks.psk = [] { return QByteArray("k"); };
        hooks.pskIsTokenCopy = [] { return false; };
        hooks.clock = &fuzzClock();
        return new Pairing(std::move(hooks));
    }();
    return *instance;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    Broker::Http::Request request;
    request.method = "POST";
    request.path = size % 2 ? "/federation/pair/collect" : "/federation/pair/request";
    request.body = bytes;
    request.peerAddress = QHostAddress(quint32(0x0a000001u));
    fuzzClock().advance(60'001); // a minute per input: the rate limit never hides the field checks
    auto responder = std::make_shared<CountingResponder>();
    if (!pairing().handleInbound(request, responder))
        abort();
    if (responder->answers != 1 || responder->status < 400)
        abort();

    const QString text = QString::fromUtf8(bytes);
    if (const auto code = PairingCode::normalizeCode(text)) {
        if (code->size() != PairingCode::kCodeSymbols ||
            !PairingCode::normalizeCode(PairingCode::displayCode(*code)))
            abort();
    }
    const auto opened = PairingCode::openSecret(QByteArray(32, 'k'), text, "aad");
    if (opened) // forging a GCM tag by chance does not happen
        abort();
    return 0;
}
