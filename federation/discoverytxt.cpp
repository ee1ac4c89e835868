#include "federation/discoverytxt.h"

#include "federation/certificatepin.h"

namespace Federation {

namespace {

void appendEntry(QByteArray &out, const QByteArray &entry)
{
    // Every value we write is short; a longer one would not fit its length byte.
    out.append(char(quint8(qMin<qsizetype>(entry.size(), 255))));
    out.append(entry.left(255));
}

bool isTxtHostname(const QString &name)
{
    if (name.isEmpty() || name.size() > 63)
        return false;
    for (const QChar c : name) {
        const char16_t u = c.unicode();
        if (!((u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9') || u == u'-' ||
              u == u'.' || u == u'_'))
            return false;
    }
    return true;
}

bool isPrintableAscii(QByteArrayView value)
{
    for (const char c : value)
        if (c < 0x20 || c > 0x7e)
            return false;
    return true;
}

} // namespace

QByteArray encodeDiscoveryTxt(const DiscoveryTxt &txt)
{
    QByteArray out;
    appendEntry(out, "version=" + txt.version.toUtf8());
    appendEntry(out, "hostname=" + txt.hostname.toUtf8());
    if (!txt.fingerprint.isEmpty())
        appendEntry(out, "fp=" + txt.fingerprint.toUtf8());
    return out;
}

std::expected<DiscoveryTxt, QString> parseDiscoveryTxt(QByteArrayView record)
{
    if (record.size() > kMaxDiscoveryTxtBytes)
        return std::unexpected(QStringLiteral("TXT record of %1 bytes (at most %2)")
                                   .arg(record.size())
                                   .arg(kMaxDiscoveryTxtBytes));
    std::optional<QByteArray> version;
    std::optional<QByteArray> hostname;
    std::optional<QByteArray> fingerprint;
    bool pskHash = false;
    qsizetype at = 0;
    while (at < record.size()) {
        const qsizetype length = quint8(record[at]);
        ++at;
        if (at + length > record.size())
            return std::unexpected(QStringLiteral("TXT string runs past the end of the record"));
        const QByteArrayView entry = record.sliced(at, length);
        at += length;
        const qsizetype equals = entry.indexOf('=');
        const QByteArray key = (equals < 0 ? entry : entry.first(equals)).toByteArray().toLower();
        const QByteArrayView value = equals < 0 ? QByteArrayView() : entry.sliced(equals + 1);
        if (key.isEmpty())
            continue; // RFC 6763 §6.4: silently ignored
        if (key == "version" && !version)
            version = value.toByteArray();
        else if (key == "hostname" && !hostname)
            hostname = value.toByteArray();
        else if (key == "fp" && !fingerprint)
            fingerprint = value.toByteArray();
        else if (key == "psk_hash")
            pskHash = true;
    }
    DiscoveryTxt txt;
    if (!hostname || !isPrintableAscii(*hostname) || !isTxtHostname(QString::fromLatin1(*hostname)))
        return std::unexpected(QStringLiteral("no usable hostname in the TXT record"));
    txt.hostname = QString::fromLatin1(*hostname).toLower();
    if (version) {
        if (version->size() > 32 || !isPrintableAscii(*version))
            return std::unexpected(QStringLiteral("unusable version in the TXT record"));
        txt.version = QString::fromLatin1(*version);
    }
    if (fingerprint) {
        const QString pin = QString::fromLatin1(*fingerprint);
        if (!isPrintableAscii(*fingerprint) || !isWellFormedPin(pin))
            return std::unexpected(QStringLiteral("malformed fp in the TXT record"));
        txt.fingerprint = pin;
    }
    txt.legacyPskHash = pskHash;
    if (txt.fingerprint.isEmpty() && !txt.legacyPskHash)
        return std::unexpected(QStringLiteral("neither fp nor psk_hash in the TXT record"));
    return txt;
}

} // namespace Federation
