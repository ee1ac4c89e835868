#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <expected>

// The TXT record of our DNS-SD announcement (docs/spec/federation-security.md §5): RFC 6763 §6 wire form,
// a sequence of <length byte><key=value> strings. We advertise the federation protocol version,
// the hostname (0.7's key names, so a 0.7 browser recognises it) and our certificate's pin
// ("fp") — never 0.7's psk_hash, which anyone on the link could copy.
namespace Federation {

struct DiscoveryTxt
{
    QString version; // the federation protocol version ("1.0.0", RemoteLinks::kProtocolVersion)
    QString hostname; // the machine name, the prefix of its peers' ids
    QString fingerprint; // "sha256-<43 base64url>", empty for a 0.7 announcement
    bool legacyPskHash = false; // the announcement carries 0.7's psk_hash (a 0.7 broker)

    friend bool operator==(const DiscoveryTxt &, const DiscoveryTxt &) = default;
};

// RFC 6763 §6.2 recommends TXT records below 200 bytes and allows up to 1300 in one packet;
// ours is about 90 bytes. Larger records are refused unread.
inline constexpr qsizetype kMaxDiscoveryTxtBytes = 1300;

QByteArray encodeDiscoveryTxt(const DiscoveryTxt &txt);
// Keys are matched case-insensitively and the first occurrence wins (RFC 6763 §6.4). A record
// needs a valid hostname (1-63 characters of [a-z0-9._-], no ':') and either a well-formed fp or
// 0.7's psk_hash; an fp that is present but malformed refuses the whole record.
std::expected<DiscoveryTxt, QString> parseDiscoveryTxt(QByteArrayView record);

} // namespace Federation
