// The tray's translations: every .ts of translations/ is what lupdate makes of today's sources
// (nothing added or removed since), finished (no unfinished or empty entry, the language's plural
// forms, the source's placeholders), and the .qm built from them are embedded and load: English
// singular/plural at start-up, German and Ukrainian through the real translator and the binary.
// lupdate has nothing to warn about (a tr() in a class without Q_OBJECT is never translated). The
// checker itself is shown to fail on a fixture with each problem and on a scratch copy of the
// sources with a string added, a file removed and a class without Q_OBJECT.
#include "app/tray/translations.h"
#include "tests/i18n/tsfile.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

using namespace Qt::StringLiterals;
using I18n::TsFile;

namespace {

const QString TranslationsDir = QStringLiteral(PEERS_TRANSLATIONS_DIR);
const QString SourceDir = QStringLiteral(PEERS_TR_SOURCE_DIR);
const QStringList Languages {u"en"_s, u"de"_s, u"uk"_s};

QString tsName(const QString &language)
{
    return u"claude-peers_%1.ts"_s.arg(language);
}

bool copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = QDir(to).filePath(QDir(from).relativeFilePath(file));
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(file, target))
            return false;
    }
    return true;
}

// Copies the committed .ts files to `dir` and brings the copies up to date with `sources`:
// the differences per language (empty when the committed files were current), and in `warnings`
// what lupdate warned about.
QMap<QString, QStringList> staleness(const QString &dir, const QString &sources, QString *error,
                                     QString *warnings)
{
    for (const QString &language : Languages)
        if (!QFile::copy(QDir(TranslationsDir).filePath(tsName(language)),
                         QDir(dir).filePath(tsName(language)))) {
            *error = u"cannot copy "_s + tsName(language);
            return {};
        }
    const auto updated = I18n::runUpdate(dir, sources);
    if (!updated) {
        *error = updated.error();
        return {};
    }
    *warnings = *updated;
    QMap<QString, QStringList> found;
    for (const QString &language : Languages) {
        const auto committed = TsFile::read(QDir(TranslationsDir).filePath(tsName(language)));
        const auto updated = TsFile::read(QDir(dir).filePath(tsName(language)));
        if (!committed || !updated) {
            *error = committed ? updated.error() : committed.error();
            return {};
        }
        if (const QStringList diff = I18n::differences(*committed, *updated); !diff.isEmpty())
            found.insert(language, diff);
    }
    return found;
}

QString translated(const char *context, const char *source, int n = -1)
{
    return QCoreApplication::translate(context, source, nullptr, n);
}

} // namespace

class tst_Translations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void filesAreUpToDateWithTheSources()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error, warnings;
        const auto stale = staleness(dir.path(), SourceDir, &error, &warnings);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // A tr() in a class without Q_OBJECT / Q_DECLARE_TR_FUNCTIONS is filed under one context
        // and looked up under its base class's at run time: never translated.
        QVERIFY2(warnings.isEmpty(), qPrintable(u"lupdate warns:\n"_s + warnings));
        QString report;
        for (auto it = stale.cbegin(); it != stale.cend(); ++it)
            report += u"\n%1:\n  %2"_s.arg(tsName(it.key()), it.value().join(u"\n  "_s));
        QVERIFY2(stale.isEmpty(),
                 qPrintable(u"translations/ is behind the sources; run `cmake --build <build dir> --target "
                            "update_translations`, translate what is new, commit:"_s +
                            report));
    }

    void filesAreFinished_data()
    {
        QTest::addColumn<QString>("language");
        for (const QString &language : Languages)
            QTest::newRow(qPrintable(language)) << language;
    }

    void filesAreFinished()
    {
        QFETCH(QString, language);
        const auto file = TsFile::read(QDir(TranslationsDir).filePath(tsName(language)));
        QVERIFY2(file.has_value(), qPrintable(file.error()));
        QVERIFY(file->language.startsWith(language));
        QVERIFY(!file->messages.isEmpty());
        const QStringList problems = I18n::unfinishedProblems(*file);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    }

    void englishHoldsEveryCountOfTheOtherLanguages()
    {
        // en is plural-only: each message with a count, and nothing else, in its two forms.
        const auto en = TsFile::read(QDir(TranslationsDir).filePath(tsName(u"en"_s)));
        const auto de = TsFile::read(QDir(TranslationsDir).filePath(tsName(u"de"_s)));
        QVERIFY(en && de);
        QStringList enKeys, deCounts;
        for (const auto &message : en->messages)
            enKeys << message.key();
        for (const auto &message : de->messages)
            if (message.numerus)
                deCounts << message.key();
        enKeys.sort();
        deCounts.sort();
        QVERIFY(!enKeys.isEmpty());
        QCOMPARE(enKeys, deCounts);
    }

    void checkerFindsEachUnfinishedEntry()
    {
        const auto file = TsFile::read(QStringLiteral(PEERS_I18N_FIXTURES "/claude-peers_uk.ts"));
        QVERIFY2(file.has_value(), qPrintable(file.error()));
        const QStringList problems = I18n::unfinishedProblems(*file);
        const QString all = problems.join(u'\n');
        QCOMPARE(problems.size(), 6);
        QVERIFY2(all.contains(u"\"Left for later\" is unfinished"_s), qPrintable(all));
        QVERIFY2(all.contains(u"\"Gone from the sources\" is vanished"_s), qPrintable(all));
        QVERIFY2(all.contains(u"\"Blank\" has an empty translation"_s), qPrintable(all));
        QVERIFY2(all.contains(u"\"%n peer(s)\" has 2 plural forms, uk_UA needs 3"_s), qPrintable(all));
        QVERIFY2(all.contains(u"\"Port %1 of %2\": \"Порт %1\" does not use the placeholders"_s),
                 qPrintable(all));
        QVERIFY2(all.contains(u"\"%n session(s)\" has an empty translation"_s), qPrintable(all));
        QVERIFY(!all.contains(u"Finished"_s));
    }

    void checkerFindsStringsAddedAndRemovedInTheSources()
    {
        // A scratch copy of the tray's sources, main.cpp removed and a string added in a subfolder
        // (lupdate scans recursively: pages/ and notifications/ count), beside a tr() in a class
        // without Q_OBJECT, which lupdate must warn about.
        QTemporaryDir sources;
        QVERIFY(sources.isValid());
        QVERIFY(copyTree(SourceDir, sources.path()));
        QVERIFY(QFile::remove(sources.filePath(u"main.cpp"_s)));
        QVERIFY(QDir(sources.path()).mkpath(u"pages"_s));
        QFile added(sources.filePath(u"pages/probe.cpp"_s));
        QVERIFY(added.open(QIODevice::WriteOnly));
        added.write(
            "#include <QCoreApplication>\n"
            "QString probe(int n)\n{\n"
            "    return QCoreApplication::translate(\"App::Probe\", \"%n probe(s) added\", nullptr, n);\n"
            "}\n"
            "#include <QWidget>\n"
            "namespace App {\n"
            "class NoMacro : public QWidget\n{\n"
            "public:\n"
            "    NoMacro() { setWindowTitle(tr(\"Looked up under QWidget at run time\")); }\n"
            "};\n"
            "}\n");
        added.close();

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QString error, warnings;
        const auto stale = staleness(dir.path(), sources.path(), &error, &warnings);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(warnings.contains(u"Class 'App::NoMacro' lacks Q_OBJECT macro"_s), qPrintable(warnings));
        QStringList all = Languages;
        all.sort();
        QCOMPARE(stale.keys(), all);
        for (const QString &language : Languages) {
            const QString diff = stale.value(language).join(u'\n');
            QVERIFY2(diff.contains(u"+ App::Probe \"%n probe(s) added\""_s), qPrintable(diff));
            if (language != u"en") // en holds only counts; main.cpp has none
                QVERIFY2(diff.contains(u"- main \"Tray app of claude-peers"_s), qPrintable(diff));
            // and the new entry is unfinished in the updated copy
            const auto updated = TsFile::read(dir.filePath(tsName(language)));
            QVERIFY(updated.has_value());
            QVERIFY(I18n::unfinishedProblems(*updated).join(u'\n').contains(
                u"\"%n probe(s) added\" is unfinished"_s));
        }
    }

    void englishFormsAreInstalledAtStartUp()
    {
        // englishbase.cpp ran from QCoreApplication's constructor: nobody installed anything here.
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 1), u"1 peer"_s);
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 2), u"2 peers"_s);
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 0), u"0 peers"_s);
        QCOMPARE(translated("App::TrayPresenter", "%n session(s) need(s) you: %1", 1),
                 u"1 session needs you: %1"_s);
    }

    void embeddedGermanAndUkrainianLoad()
    {
        for (const QString &language : Languages)
            QVERIFY2(QFile::exists(u":/i18n/claude-peers_%1.qm"_s.arg(language)), qPrintable(language));

        QTranslator german;
        QVERIFY(german.load(u":/i18n/claude-peers_de.qm"_s));
        QVERIFY(QCoreApplication::installTranslator(&german));
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 1), u"1 Peer"_s);
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 3), u"3 Peers"_s);
        QCOMPARE(translated("App::TrayIcon", "Quit"), u"Beenden"_s);
        QVERIFY(QCoreApplication::removeTranslator(&german));

        QTranslator ukrainian;
        QVERIFY(ukrainian.load(u":/i18n/claude-peers_uk.qm"_s));
        QVERIFY(QCoreApplication::installTranslator(&ukrainian));
        // Three forms: one (1, 21, 101), few (2–4, 22–24), many (0, 5–20, 11–14, 25…).
        const QList<std::pair<int, QString>> peers {
            {1, u"1 пір"_s},     {21, u"21 пір"_s},   {101, u"101 пір"_s}, {2, u"2 піри"_s},
            {4, u"4 піри"_s},    {22, u"22 піри"_s},  {0, u"0 пірів"_s},   {5, u"5 пірів"_s},
            {11, u"11 пірів"_s}, {12, u"12 пірів"_s}, {14, u"14 пірів"_s}, {25, u"25 пірів"_s},
        };
        for (const auto &[n, expected] : peers)
            QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", n), expected);
        QCOMPARE(translated("App::TrayIcon", "Quit"), u"Вийти"_s);
        QVERIFY(QCoreApplication::removeTranslator(&ukrainian));

        QCOMPARE(translated("App::TrayIcon", "Quit"), u"Quit"_s); // back to English
    }

    void trayBinarySpeaksTheLocalesLanguage_data()
    {
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("expected");
        QTest::newRow("de") << u"de_DE.UTF-8"_s << u"Tray-App von claude-peers"_s;
        QTest::newRow("uk") << u"uk_UA.UTF-8"_s << u"Програма claude-peers у системному лотку"_s;
        QTest::newRow("en") << u"en_US.UTF-8"_s << u"Tray app of claude-peers"_s;
    }

    void trayBinarySpeaksTheLocalesLanguage()
    {
        QFETCH(QString, lang);
        QFETCH(QString, expected);
        if (TestSupport::trayExe().isEmpty())
            QSKIP("claude-peers-tray is not built");
        TestSupport::TestHome home;
        QProcessEnvironment env = home.environment();
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        env.insert(u"LC_ALL"_s, lang);
        env.insert(u"LANG"_s, lang);
        env.remove(u"LANGUAGE"_s);
        const auto result = TestSupport::run(TestSupport::trayExe(), {u"--help"_s}, env);
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(QString::fromUtf8(result.out).contains(expected), result.out.constData());
    }

    void installTranslationsFollowsTheLocale()
    {
        // Last: installs for good (the translators belong to the application).
        QVERIFY(!App::installTranslations(QLocale(QLocale::Swahili)));
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 5), u"5 peers"_s);
        QVERIFY(App::installTranslations(QLocale(QLocale::Ukrainian, QLocale::Ukraine)));
        QCOMPARE(translated("App::TrayPresenter", "%n peer(s)", 5), u"5 пірів"_s);
    }
};

QTEST_GUILESS_MAIN(tst_Translations)
#include "tst_translations.moc"
