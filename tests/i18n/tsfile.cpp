#include "tests/i18n/tsfile.h"

#include "tests/support/testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QXmlStreamReader>

namespace I18n {

namespace {

QSet<QString> placeholders(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("%(?:n|L?[1-9][0-9]?)"));
    QSet<QString> found;
    for (auto it = pattern.globalMatch(text); it.hasNext();)
        found.insert(it.next().captured());
    return found;
}

QString describe(const TsMessage &message)
{
    QString source = message.source;
    source.replace(QLatin1Char('\n'), QStringLiteral("\\n"));
    return message.comment.isEmpty()
        ? QStringLiteral("%1 \"%2\"").arg(message.context, source)
        : QStringLiteral("%1 \"%2\" (%3)").arg(message.context, source, message.comment);
}

TsMessage readMessage(QXmlStreamReader &xml, const QString &context)
{
    TsMessage message;
    message.context = context;
    message.numerus = xml.attributes().value(QLatin1StringView("numerus")) == u"yes";
    while (xml.readNextStartElement()) {
        if (xml.name() == u"source") {
            message.source = xml.readElementText();
        } else if (xml.name() == u"comment") {
            message.comment = xml.readElementText();
        } else if (xml.name() == u"extracomment") {
            message.extraComment = xml.readElementText();
        } else if (xml.name() == u"translation") {
            message.type = xml.attributes().value(QLatin1StringView("type")).toString();
            if (!message.numerus) {
                message.translations << xml.readElementText();
                continue;
            }
            while (xml.readNextStartElement()) {
                if (xml.name() == u"numerusform")
                    message.translations << xml.readElementText();
                else
                    xml.skipCurrentElement();
            }
        } else {
            xml.skipCurrentElement();
        }
    }
    return message;
}

} // namespace

QString TsMessage::key() const
{
    return QStringList {context, source, comment, extraComment,
                        numerus ? QStringLiteral("numerus") : QString()}
        .join(QChar(0x1f));
}

std::expected<TsFile, QString> TsFile::read(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(QStringLiteral("Cannot read %1: %2").arg(path, file.errorString()));
    TsFile ts;
    QXmlStreamReader xml(&file);
    if (!xml.readNextStartElement() || xml.name() != u"TS")
        return std::unexpected(QStringLiteral("%1 is not a Qt Linguist .ts file").arg(path));
    ts.language = xml.attributes().value(QLatin1StringView("language")).toString();
    while (xml.readNextStartElement()) {
        if (xml.name() != u"context") {
            xml.skipCurrentElement();
            continue;
        }
        QString context;
        while (xml.readNextStartElement()) {
            if (xml.name() == u"name")
                context = xml.readElementText();
            else if (xml.name() == u"message")
                ts.messages << readMessage(xml, context);
            else
                xml.skipCurrentElement();
        }
    }
    if (xml.hasError())
        return std::unexpected(
            QStringLiteral("%1, line %2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString()));
    return ts;
}

int pluralFormCount(const QString &language)
{
    const QString code = language.section(QLatin1Char('_'), 0, 0);
    if (code == u"en" || code == u"de")
        return 2;
    if (code == u"uk")
        return 3; // one (1, 21, 31…), few (2–4, 22–24…), many (0, 5–20, 25…)
    return -1;
}

QStringList unfinishedProblems(const TsFile &file)
{
    QStringList problems;
    const int forms = pluralFormCount(file.language);
    if (forms < 0)
        problems << QStringLiteral("language \"%1\" unknown to the checker: add its plural form count to "
                                   "pluralFormCount() in tests/i18n/tsfile.cpp")
                        .arg(file.language);
    for (const TsMessage &message : file.messages) {
        const QString what = describe(message);
        if (!message.type.isEmpty()) {
            problems << QStringLiteral("%1 is %2").arg(what, message.type);
            continue;
        }
        if (message.numerus && forms > 0 && message.translations.size() != forms) {
            problems << QStringLiteral("%1 has %2 plural forms, %3 needs %4")
                            .arg(what)
                            .arg(message.translations.size())
                            .arg(file.language)
                            .arg(forms);
            continue;
        }
        if (message.translations.isEmpty())
            problems << QStringLiteral("%1 has no translation").arg(what);
        const QSet<QString> expected = placeholders(message.source);
        for (const QString &translation : message.translations) {
            if (translation.trimmed().isEmpty()) {
                problems << QStringLiteral("%1 has an empty translation").arg(what);
                break;
            }
            if (placeholders(translation) != expected) {
                problems << QStringLiteral("%1: \"%2\" does not use the placeholders of its source")
                                .arg(what, translation);
                break;
            }
        }
    }
    return problems;
}

QStringList differences(const TsFile &committed, const TsFile &updated)
{
    QSet<QString> before;
    for (const TsMessage &message : committed.messages)
        before.insert(message.key());
    QSet<QString> after;
    QStringList found;
    for (const TsMessage &message : updated.messages) {
        after.insert(message.key());
        if (!before.contains(message.key()))
            found << QStringLiteral("+ %1").arg(describe(message));
    }
    for (const TsMessage &message : committed.messages)
        if (!after.contains(message.key()))
            found << QStringLiteral("- %1").arg(describe(message));
    return found;
}

std::expected<QString, QString> runUpdate(const QString &tsDir, const QString &sourceDir)
{
    const auto result = TestSupport::run(
        QStringLiteral(PEERS_CMAKE),
        {QStringLiteral("-DLUPDATE=" PEERS_LUPDATE), QStringLiteral("-DSOURCE_DIR=") + sourceDir,
         QStringLiteral("-DTS_DIR=") + tsDir, QStringLiteral("-DINCLUDE_DIR=" PEERS_INCLUDE_DIR),
         QStringLiteral("-P"), QStringLiteral(PEERS_UPDATE_SCRIPT)},
        QProcessEnvironment::systemEnvironment(), TestSupport::scaled(120000));
    if (result.timedOut)
        return std::unexpected(QStringLiteral("lupdate did not finish in time"));
    if (result.exitCode != 0)
        return std::unexpected(QStringLiteral("translations/update.cmake failed (%1): %2")
                                   .arg(result.exitCode)
                                   .arg(QString::fromUtf8(result.out + result.err)));
    return QString::fromUtf8(result.out + result.err).trimmed();
}

} // namespace I18n
