// The challenge/verify bodies (federation/challengeproof.*) and the server that reads them
// (federation/challengeserver.*) on any bytes. The first byte picks the reader: 0 the
// challenge request, 1 the verification, 2 the server's challenge answer, 3 its verification
// answer (client side). Whatever parses must write out to the same fields; the server must
// answer every body with one of its documented statuses and never hand out a session.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/clock.h"
#include "federation/challengeproof.h"
#include "federation/challengeserver.h"

#include <QJsonDocument>

using namespace Federation;
using namespace Federation::Challenge;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const int reader = data[0] % 4;
    const QByteArray body(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    static Broker::ManualClock clock;
    static ChallengeServer server(ChallengeServer::Context {QStringLiteral("fuzzhost"),
                                                            [] { return QByteArray("k").repeated(64); },
                                                            [] { return QString(); }, &clock});
    const QHostAddress source(QStringLiteral("127.0.0.1"));
    switch (reader) {
    case 0: {
        const auto request = parseChallengeRequest(body);
        if (request) {
            const auto again = parseChallengeRequest(request->toJson());
            if (!again || again->clientNonce != request->clientNonce ||
                again->clientPin != request->clientPin || again->hostname != request->hostname ||
                again->port != request->port)
                abort();
        } else if (request.error().message.isEmpty()) {
            abort();
        }
        const int status = server.challenge(source, body).status;
        if (status != 200 && status != 400 && status != 413 && status != 429)
            abort();
        if ((status == 200) != request.has_value())
            abort();
        break;
    }
    case 1: {
        const auto request = parseVerifyRequest(body);
        if (request) {
            const auto again = parseVerifyRequest(request->toJson());
            if (!again || again->challengeId != request->challengeId ||
                again->clientProof != request->clientProof)
                abort();
        }
        const int status = server.verify(source, body).status;
        // Nobody holds a challenge it could have answered: never a session.
        if (status != 400 && status != 403 && status != 413 && status != 429)
            abort();
        clock.advance(ChallengeServer::kFailureWindowMs); // keep the rate limit from hiding the parser
        break;
    }
    case 2: {
        const auto answer = parseChallengeAnswer(QJsonDocument::fromJson(body).object());
        if (answer) {
            const auto again = parseChallengeAnswer(answer->toJson());
            if (!again || again->challengeId != answer->challengeId ||
                again->serverProof != answer->serverProof || again->hostname != answer->hostname ||
                again->serverNonce != answer->serverNonce)
                abort();
        }
        break;
    }
    default: {
        const auto answer = parseVerifyAnswer(QJsonDocument::fromJson(body).object());
        if (answer) {
            const auto again = parseVerifyAnswer(answer->toJson());
            if (!again || again->session != answer->session ||
                again->expiresInSeconds != answer->expiresInSeconds)
                abort();
        }
        break;
    }
    }
    return 0;
}
