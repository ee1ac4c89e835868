// The HTTP request-head parser (broker/http/httpparser.cpp) on arbitrary bytes, and the
// response writer on what it parsed.
#include "tests/fuzz/fuzzsupport.h"

#include "broker/http/httpparser.h"

using namespace Broker::Http;
using namespace Broker::Http::Internal;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    Fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArrayView text(reinterpret_cast<const char *>(data), qsizetype(size));
    RequestHead head;
    const HeadError error = parseHead(text, head);
    if (error != HeadError::None)
        return 0;

    // What the rest of the server relies on.
    const Request &request = head.request;
    Q_ASSERT(!request.method.isEmpty());
    Q_ASSERT(!request.path.isEmpty());
    Q_ASSERT(head.contentLength >= 0);
    for (const auto &[name, value] : request.headers) {
        Q_ASSERT(!name.isEmpty());
        Q_ASSERT(name == name.toLower());
        Q_ASSERT(!value.contains('\n') && !value.contains('\r'));
    }
    (void)request.header("content-type");
    (void)request.queryItem("timeout");

    Response response;
    response.status = int(head.contentLength % 600);
    response.body = request.query;
    for (const auto &header : request.headers)
        response.extraHeaders.append(header);
    QByteArray out;
    appendResponse(out, response, head.keepAlive, head.http10, head.isHead);
    Q_ASSERT(out.startsWith("HTTP/1.1 "));
    return 0;
}
