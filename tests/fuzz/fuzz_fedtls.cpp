// Federation inputs from untrusted sources that the TLS layer reads: a remote's HTTP answer
// (federation/internal/httpresponsereader.cpp, in arbitrary splits) and certificate/key PEM
// files given by path (Federation::identityFromPem).
// Input: first byte chooses; 0: answer, chunks of (length byte, bytes), a flag for the close;
// 1: u16 certificate length, the certificate bytes, then the key bytes.
#include "tests/fuzz/fuzzsupport.h"

#include "federation/certificate.h"
#include "federation/internal/httpresponsereader.h"

using Federation::Internal::HttpResponseReader;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

namespace {

void answer(Fuzz::Input &input)
{
    constexpr qint64 maxBody = 4096;
    HttpResponseReader reader(maxBody, 1024);
    QByteArray all;
    while (!input.atEnd() && reader.state() == HttpResponseReader::State::NeedMore) {
        const QByteArray chunk = input.chunk();
        all += chunk;
        reader.feed(chunk);
    }
    if (input.flag())
        reader.finish();
    if (reader.state() == HttpResponseReader::State::Complete) {
        Q_ASSERT(reader.status() >= 100 && reader.status() <= 999);
        Q_ASSERT(reader.body().size() <= maxBody);
        for (const auto &[name, value] : reader.headers())
            Q_ASSERT(name == name.toLower());
        // The same bytes in one piece read the same.
        HttpResponseReader whole(maxBody, 1024);
        whole.feed(all);
        if (whole.state() == HttpResponseReader::State::NeedMore)
            whole.finish();
        Q_ASSERT(whole.state() == HttpResponseReader::State::Complete);
        Q_ASSERT(whole.body() == reader.body());
    } else if (reader.state() != HttpResponseReader::State::NeedMore) {
        Q_ASSERT(!reader.error().isEmpty());
    }
}

void pem(Fuzz::Input &input)
{
    const QByteArray certificate = input.bytes(input.u16());
    const QByteArray key = input.rest();
    const auto identity =
        Federation::identityFromPem(certificate, key, {QStringLiteral("c"), QStringLiteral("k")});
    if (identity) {
        Q_ASSERT(!identity->certificate.isNull());
        Q_ASSERT(!identity->privateKey.isNull());
        Q_ASSERT(identity->pin.startsWith(QLatin1String("sha256-")));
    } else {
        Q_ASSERT(!identity.error().message.isEmpty());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Fuzz::Input input(data, size);
    if (input.byte() % 2 == 0)
        answer(input);
    else
        pem(input);
    return 0;
}
