#include "app/tray/translations.h"

#include "app/tray/traylogging.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QTranslator>

namespace App {

namespace {

bool install(const QLocale &locale, const QString &name, const QString &directory)
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (!translator->load(locale, name, QStringLiteral("_"), directory)) {
        delete translator;
        return false;
    }
    QCoreApplication::installTranslator(translator);
    return true;
}

} // namespace

bool installTranslations(const QLocale &locale)
{
    install(locale, QStringLiteral("qtbase"), QLibraryInfo::path(QLibraryInfo::TranslationsPath));
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return true; // the English base is already installed
    const bool found = install(locale, QStringLiteral("claude-peers"), QStringLiteral(":/i18n"));
    if (!found)
        qCInfo(lcUi).noquote() << "no translation for" << locale.uiLanguages().join(u',')
                               << "- the tray speaks English";
    return found;
}

} // namespace App
