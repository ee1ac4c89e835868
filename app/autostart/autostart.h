#pragma once

#include "common/result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace App {

// Where the tray's login start stands (XDG Desktop Application Autostart Specification).
struct AutostartStatus
{
    bool enabled = false;
    QString userEntry; // $XDG_CONFIG_HOME/autostart/claude-peers-tray.desktop (may not exist)
    QString systemEntry; // the first $XDG_CONFIG_DIRS/*/autostart entry found, or empty
    QString decidedBy; // the file that decides (user entry shadows the system one), or empty
};

// Starting the tray at login, per user: enable() writes the user's autostart entry; disable()
// removes it, or writes one with Hidden=true when a system-wide entry (the package's
// /etc/xdg/autostart) would start the tray anyway. The tray's menu toggle and
// `claude-peers autostart` both use this. Files only, no Widgets: the CLI links it.
class Autostart
{
public:
    static constexpr auto kFileName = "claude-peers-tray.desktop";

    // userDir: the user's autostart directory; systemDirs: the system ones, most important
    // first; trayProgram: the Exec= of an entry written here.
    Autostart(QString userDir, QStringList systemDirs, QString trayProgram);
    // HOME, XDG_CONFIG_HOME and XDG_CONFIG_DIRS as the spec says; the tray program is the
    // claude-peers-tray beside the running program when there is one, else the bare name.
    static Autostart fromEnvironment(const QProcessEnvironment &environment, const QString &programDir);

    AutostartStatus status() const;
    Broker::Result<AutostartStatus> enable() const;
    Broker::Result<AutostartStatus> disable() const;

    // The entry enable() writes: tray-friendly delays so that the tray appears after the panel.
    static QByteArray entry(const QString &trayProgram);

private:
    QString userPath() const;

    QString m_userDir;
    QStringList m_systemDirs;
    QString m_trayProgram;
};

} // namespace App
