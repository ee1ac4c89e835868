#pragma once

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <expected>

namespace Federation {

// A `cpt://` join URL (docs/spec/peers-api.md §6.11, docs/spec/federation-security.md §1.6):
//   cpt://<host>:<port>;fp=sha256-<base64url SPKI SHA-256>/<base64url(token)>
// 0.7 writes it without ";fp=". IPv6 hosts go in brackets. Our form keeps 0.7's parser working:
// it reads host and port before the first '/', and parseInt ignores ";fp=…" after the port.
// "?fp=" or "#fp=" after the token would corrupt the token there, so formatJoinUrl never writes
// them; parseJoinUrl accepts them from a hand-built URL.
struct JoinUrl
{
    QString host; // a hostname or an IP address, without brackets
    quint16 port = 7900;
    QByteArray token; // the PSK, decoded
    QString fingerprint; // "sha256-<43 base64url characters>" (the pin), or empty: none given

    friend bool operator==(const JoinUrl &, const JoinUrl &) = default;
};

struct JoinUrlError
{
    enum class Kind {
        TooLong,
        BadScheme, // not "cpt://"
        BadHost, // empty, not a hostname or IP, or an IPv6 address without brackets
        BadPort, // missing, not digits, 0 or above 65535
        BadToken, // missing, not base64url, or not a printable token once decoded
        BadFingerprint, // not "sha256-" + 43 base64url characters (a SHA-256), or given twice differently
        UnknownParameter, // ";x=…" other than ";fp="
    };
    Kind kind = Kind::BadScheme;
    QString message; // plain words: what is wrong and what a good URL looks like
};

inline constexpr qsizetype maxJoinUrlLength = 4096;

std::expected<JoinUrl, JoinUrlError> parseJoinUrl(QStringView url);

// Our form (";fp=" when fingerprint is set, 0.7's form otherwise). The fields must be valid
// (what parseJoinUrl returns, or a host, a port > 0, a printable token and a pin that
// isWellFormedPin accepts, certificatepin.h).
QString formatJoinUrl(const JoinUrl &url);

} // namespace Federation
