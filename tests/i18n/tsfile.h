#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <expected>

namespace I18n {

// One <message> of a Qt Linguist .ts file.
struct TsMessage
{
    QString context;
    QString source;
    QString comment; // the disambiguation: part of the message's identity
    QString extraComment; // the //: note for translators
    bool numerus = false;
    QString type; // "unfinished", "vanished", "obsolete" or empty (finished)
    QStringList translations; // one entry, or one per plural form

    // What lupdate matches a source message by, plus what it would rewrite (the note).
    QString key() const;
};

struct TsFile
{
    QString language; // as written, e.g. "uk_UA"
    QList<TsMessage> messages;

    static std::expected<TsFile, QString> read(const QString &path);
};

// How many plural forms Qt's rules give `language` (en 2, de 2, uk 3), or -1 for a language this
// checker does not know yet: add it here with the count lupdate writes for it.
int pluralFormCount(const QString &language);

// Why `file` is not finished: unfinished, vanished or empty entries, a wrong number of plural
// forms, a translation whose placeholders (%1, %2, %n) differ from its source's. Empty when done.
QStringList unfinishedProblems(const TsFile &file);

// The messages one file has and the other has not ("+" only in `updated`, "-" only in `committed`).
QStringList differences(const TsFile &committed, const TsFile &updated);

// Runs translations/update.cmake (the lupdate command of the update_translations target) over the
// .ts files of `tsDir`, scanning `sourceDir`. Returns what lupdate said: with -silent, only its
// warnings (e.g. "Class 'App::X' lacks Q_OBJECT macro": that tr() is looked up under another
// context at run time and is never translated).
std::expected<QString, QString> runUpdate(const QString &tsDir, const QString &sourceDir);

} // namespace I18n
