#pragma once

#include <QLocale>

namespace App {

// The tray's texts in `locale`'s language: Qt's own (qtbase, from the system) and ours
// (:/i18n/claude-peers_<language>.qm, embedded), searched before the English base that every
// program linking the tray code installs at start-up (englishbase.cpp). Call once, after the
// QCoreApplication exists. Returns whether our texts exist in that language (English counts).
bool installTranslations(const QLocale &locale);

} // namespace App
