#include "federation/joinurl.h"

#include "federation/certificatepin.h"

#include <QHostAddress>

namespace Federation {

namespace {

using Kind = JoinUrlError::Kind;

const QString example = QStringLiteral("cpt://192.168.1.5:7900;fp=sha256-<pin>/<token>");
constexpr qsizetype maxTokenBytes = 1024;

std::unexpected<JoinUrlError> fail(Kind kind, const QString &message)
{
    return std::unexpected(JoinUrlError {kind, message});
}

bool isBase64UrlChar(QChar c)
{
    const char16_t u = c.unicode();
    return (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' ||
        u == u'_';
}

// Unpadded base64url (trailing '=' tolerated), strictly: anything else is an error.
std::optional<QByteArray> decodeBase64Url(QStringView text)
{
    while (text.endsWith(u'='))
        text.chop(1);
    if (text.isEmpty() || text.size() % 4 == 1)
        return std::nullopt;
    for (const QChar c : text) {
        if (!isBase64UrlChar(c))
            return std::nullopt;
    }
    const auto decoded = QByteArray::fromBase64Encoding(
        text.toLatin1(), QByteArray::Base64UrlEncoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return std::nullopt;
    return decoded.decoded;
}

// Hex digits, ':' and '.', and an optional "%<interface>" zone.
bool isIPv6Text(QStringView text)
{
    const qsizetype percent = text.indexOf(u'%');
    const QStringView address = percent < 0 ? text : text.first(percent);
    for (const QChar c : address) {
        const char16_t u = c.unicode();
        if (!((u >= u'0' && u <= u'9') || (u >= u'a' && u <= u'f') || (u >= u'A' && u <= u'F') || u == u':' ||
              u == u'.'))
            return false;
    }
    if (percent < 0)
        return true;
    const QStringView zone = text.sliced(percent + 1);
    if (zone.isEmpty() || zone.size() > 32)
        return false;
    for (const QChar c : zone) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' ||
              u == u'_' || u == u'.'))
            return false;
    }
    return true;
}

bool isHostname(QStringView host)
{
    if (host.isEmpty() || host.size() > 253)
        return false;
    for (const QChar c : host) {
        const char16_t u = c.unicode();
        const bool ok = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') ||
            u == u'-' || u == u'.' || u == u'_';
        if (!ok)
            return false;
    }
    return true;
}

std::expected<QString, JoinUrlError> checkedFingerprint(QStringView value)
{
    if (!isWellFormedPin(value))
        return fail(
            Kind::BadFingerprint,
            QStringLiteral("The fingerprint \"%1\" is not of the form sha256-<43 base64url characters> "
                           "(what 'claude-peers federation token' prints)")
                .arg(value.left(80)));
    return value.toString();
}

std::expected<quint16, JoinUrlError> checkedPort(QStringView text)
{
    if (text.isEmpty())
        return fail(Kind::BadPort, QStringLiteral("The join URL has no port: expected %1").arg(example));
    bool ok = false;
    const uint port = text.size() <= 5 ? text.toUInt(&ok) : 0;
    bool digitsOnly = true;
    for (const QChar c : text)
        digitsOnly = digitsOnly && c >= u'0' && c <= u'9';
    if (!ok || !digitsOnly || port == 0 || port > 65535)
        return fail(
            Kind::BadPort,
            QStringLiteral("The join URL's port \"%1\" is not a number from 1 to 65535").arg(text.left(20)));
    return quint16(port);
}

} // namespace

std::expected<JoinUrl, JoinUrlError> parseJoinUrl(QStringView url)
{
    url = url.trimmed();
    if (url.size() > maxJoinUrlLength)
        return fail(Kind::TooLong,
                    QStringLiteral("The join URL is longer than %1 characters").arg(maxJoinUrlLength));
    const QStringView scheme = u"cpt://";
    if (!url.startsWith(scheme, Qt::CaseInsensitive))
        return fail(Kind::BadScheme, QStringLiteral("A join URL starts with cpt:// (%1)").arg(example));
    QStringView rest = url.sliced(scheme.size());

    const qsizetype slash = rest.indexOf(u'/');
    if (slash < 0)
        return fail(Kind::BadToken,
                    QStringLiteral("The join URL has no token after host:port (%1)").arg(example));
    QStringView authority = rest.first(slash);
    QStringView tail = rest.sliced(slash + 1);

    JoinUrl result;
    // ";name=value" parameters after host:port; only fp is known.
    const qsizetype semicolon = authority.indexOf(u';');
    if (semicolon >= 0) {
        for (const QStringView param : authority.sliced(semicolon + 1).split(u';')) {
            if (!param.startsWith(u"fp="))
                return fail(Kind::UnknownParameter,
                            QStringLiteral("Unknown join URL parameter \";%1\" (only ;fp= is known)")
                                .arg(param.left(40)));
            if (!result.fingerprint.isEmpty())
                return fail(Kind::BadFingerprint, QStringLiteral("The join URL gives ;fp= twice"));
            auto fp = checkedFingerprint(param.sliced(3));
            if (!fp)
                return std::unexpected(fp.error());
            result.fingerprint = *fp;
        }
        authority = authority.first(semicolon);
    }

    QStringView portText;
    if (authority.startsWith(u'[')) {
        const qsizetype close = authority.indexOf(u']');
        if (close < 0)
            return fail(Kind::BadHost, QStringLiteral("The join URL's IPv6 address has no closing ']'"));
        const QStringView inside = authority.sliced(1, close - 1);
        QHostAddress address;
        if (!inside.contains(u':') || !isIPv6Text(inside) || !address.setAddress(inside.toString()) ||
            address.protocol() != QAbstractSocket::IPv6Protocol)
            return fail(Kind::BadHost,
                        QStringLiteral("\"%1\" in brackets is not an IPv6 address").arg(inside.left(60)));
        result.host = inside.toString();
        const QStringView after = authority.sliced(close + 1);
        if (!after.startsWith(u':'))
            return fail(Kind::BadPort,
                        QStringLiteral("The join URL has no port after ']': expected [address]:port"));
        portText = after.sliced(1);
    } else {
        const qsizetype colon = authority.lastIndexOf(u':');
        if (colon < 0)
            return fail(Kind::BadPort, QStringLiteral("The join URL has no port: expected %1").arg(example));
        const QStringView host = authority.first(colon);
        if (host.contains(u':'))
            return fail(Kind::BadHost,
                        QStringLiteral("An IPv6 address in a join URL goes in brackets: "
                                       "cpt://[fd00::5]:7900/<token>"));
        if (!isHostname(host))
            return fail(Kind::BadHost,
                        QStringLiteral("\"%1\" is not a host name or IP address").arg(host.left(60)));
        result.host = host.toString();
        portText = authority.sliced(colon + 1);
    }
    auto port = checkedPort(portText);
    if (!port)
        return std::unexpected(port.error());
    result.port = *port;

    // A hand-built "<token>?fp=…" or "<token>#fp=…".
    const qsizetype question = tail.indexOf(u'?');
    const qsizetype hash = tail.indexOf(u'#');
    const qsizetype suffix = question < 0 ? hash : hash < 0 ? question : std::min(question, hash);
    if (suffix >= 0) {
        const QStringView query = tail.sliced(suffix + 1);
        tail = tail.first(suffix);
        if (!query.startsWith(u"fp="))
            return fail(Kind::UnknownParameter,
                        QStringLiteral("Unknown text after the token: \"%1\" (only ?fp= is known)")
                            .arg(query.left(40)));
        auto fp = checkedFingerprint(query.sliced(3));
        if (!fp)
            return std::unexpected(fp.error());
        if (!result.fingerprint.isEmpty() && result.fingerprint != *fp)
            return fail(Kind::BadFingerprint,
                        QStringLiteral("The join URL gives two different fingerprints"));
        result.fingerprint = *fp;
    }

    if (tail.isEmpty())
        return fail(Kind::BadToken,
                    QStringLiteral("The join URL has no token after host:port (%1)").arg(example));
    const auto token = decodeBase64Url(tail);
    if (!token)
        return fail(Kind::BadToken,
                    QStringLiteral("The join URL's token is not base64url: copy the whole URL that "
                                   "'claude-peers federation token' printed"));
    if (token->size() > maxTokenBytes)
        return fail(Kind::BadToken,
                    QStringLiteral("The join URL's token is longer than %1 bytes").arg(maxTokenBytes));
    for (const char c : *token) {
        if (uchar(c) <= 0x20 || uchar(c) >= 0x7f)
            return fail(Kind::BadToken,
                        QStringLiteral("The join URL's token decodes to something that is not a "
                                       "printable token: the URL is damaged"));
    }
    result.token = *token;
    return result;
}

QString formatJoinUrl(const JoinUrl &url)
{
    Q_ASSERT(!url.host.isEmpty() && url.port > 0 && !url.token.isEmpty());
    Q_ASSERT(url.fingerprint.isEmpty() || isWellFormedPin(url.fingerprint));
    QString out = QStringLiteral("cpt://");
    if (url.host.contains(u':'))
        out += u'[' + url.host + u']';
    else
        out += url.host;
    out += u':' + QString::number(url.port);
    if (!url.fingerprint.isEmpty())
        out += QStringLiteral(";fp=") + url.fingerprint;
    out += u'/' +
        QString::fromLatin1(
               url.token.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
    return out;
}

} // namespace Federation
