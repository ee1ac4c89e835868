#include "app/autostart/autostart.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

namespace App {

namespace {

// Whether an autostart entry starts the program: not when Hidden=true (the spec's "deleted")
// or GNOME's X-GNOME-Autostart-enabled=false. Only the [Desktop Entry] group counts.
bool entryStarts(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    bool inMainGroup = false;
    // An entry is a few hundred bytes; a huge file is not ours to parse whole.
    for (const QByteArray &rawLine : file.read(64 * 1024).split('\n')) {
        const QByteArray line = rawLine.trimmed();
        if (line.startsWith('[')) {
            inMainGroup = line == "[Desktop Entry]";
            continue;
        }
        if (!inMainGroup)
            continue;
        const qsizetype equals = line.indexOf('=');
        if (equals < 0)
            continue;
        const QByteArray key = line.left(equals).trimmed();
        const QByteArray value = line.mid(equals + 1).trimmed();
        if (key == "Hidden" && value == "true")
            return false;
        if (key == "X-GNOME-Autostart-enabled" && value == "false")
            return false;
    }
    return true;
}

Broker::Error unwritable(const QString &path, const QString &why)
{
    return {Broker::ErrorKind::Unwritable,
            QStringLiteral("Cannot write %1: %2. Check that the directory is yours and writable.")
                .arg(path, why)};
}

Broker::Result<void> writeEntry(const QString &path, const QByteArray &content)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return std::unexpected(unwritable(path, QStringLiteral("its directory cannot be created")));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return std::unexpected(unwritable(path, file.errorString()));
    file.write(content);
    if (!file.commit())
        return std::unexpected(unwritable(path, file.errorString()));
    return {};
}

} // namespace

Autostart::Autostart(QString userDir, QStringList systemDirs, QString trayProgram)
    : m_userDir(std::move(userDir)),
      m_systemDirs(std::move(systemDirs)),
      m_trayProgram(std::move(trayProgram))
{
}

Autostart Autostart::fromEnvironment(const QProcessEnvironment &environment, const QString &programDir)
{
    // The spec: unset or empty (or, by the base directory spec, relative) means the default.
    QString configHome = environment.value(QStringLiteral("XDG_CONFIG_HOME"));
    if (configHome.isEmpty() || QDir::isRelativePath(configHome))
        configHome = environment.value(QStringLiteral("HOME")) + QStringLiteral("/.config");
    QStringList systemDirs;
    for (const QString &dir :
         environment.value(QStringLiteral("XDG_CONFIG_DIRS")).split(u':', Qt::SkipEmptyParts)) {
        if (QDir::isAbsolutePath(dir))
            systemDirs << dir + QStringLiteral("/autostart");
    }
    if (systemDirs.isEmpty())
        systemDirs << QStringLiteral("/etc/xdg/autostart");
    const QString beside = programDir + QStringLiteral("/claude-peers-tray");
    const QString program = QFileInfo(beside).isExecutable() ? beside : QStringLiteral("claude-peers-tray");
    return Autostart(configHome + QStringLiteral("/autostart"), systemDirs, program);
}

QString Autostart::userPath() const
{
    return m_userDir + u'/' + QLatin1String(kFileName);
}

AutostartStatus Autostart::status() const
{
    AutostartStatus status;
    status.userEntry = userPath();
    for (const QString &dir : m_systemDirs) {
        const QString candidate = dir + u'/' + QLatin1String(kFileName);
        if (QFileInfo::exists(candidate)) {
            status.systemEntry = candidate;
            break;
        }
    }
    status.decidedBy = QFileInfo::exists(status.userEntry) ? status.userEntry : status.systemEntry;
    status.enabled = !status.decidedBy.isEmpty() && entryStarts(status.decidedBy);
    return status;
}

Broker::Result<AutostartStatus> Autostart::enable() const
{
    if (auto written = writeEntry(userPath(), entry(m_trayProgram)); !written)
        return std::unexpected(written.error());
    return status();
}

Broker::Result<AutostartStatus> Autostart::disable() const
{
    const AutostartStatus before = status();
    if (!before.systemEntry.isEmpty()) {
        // Removing the user's entry would let the system one start the tray: shadow it instead.
        QByteArray hidden = entry(m_trayProgram);
        hidden += "Hidden=true\n";
        if (auto written = writeEntry(userPath(), hidden); !written)
            return std::unexpected(written.error());
    } else if (QFileInfo::exists(before.userEntry) && !QFile::remove(before.userEntry)) {
        return std::unexpected(
            Broker::Error {Broker::ErrorKind::Unwritable,
                           QStringLiteral("Cannot remove %1. Check that the directory is yours and writable.")
                               .arg(before.userEntry)});
    }
    return status();
}

QByteArray Autostart::entry(const QString &trayProgram)
{
    // Exec quoting (desktop entry spec): "%" doubles; a path with anything but plain characters
    // goes in double quotes with " ` $ \ escaped, and the file's own escaping doubles the
    // backslashes once more.
    QString exec = trayProgram;
    exec.replace(u'%', QStringLiteral("%%"));
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9/._+%-]+$"));
    if (!plain.match(exec).hasMatch()) {
        QString quoted;
        for (const QChar c : exec) {
            if (c == u'\\')
                quoted += QStringLiteral("\\\\\\\\");
            else if (c == u'"' || c == u'`' || c == u'$')
                quoted += QStringLiteral("\\\\") + c;
            else
                quoted += c;
        }
        exec = u'"' + quoted + u'"';
    }
    return QByteArrayLiteral("[Desktop Entry]\n"
                             "Type=Application\n"
                             "Name=claude-peers\n"
                             "Comment=Hosts the local claude-peers broker at login\n"
                             "Exec=") +
        exec.toUtf8() +
        QByteArrayLiteral("\n"
                          "Icon=claude-peers\n"
                          "Terminal=false\n"
                          "NoDisplay=true\n"
                          // Tray apps started before the panel find no tray: wait for it.
                          "X-GNOME-Autostart-enabled=true\n"
                          "X-GNOME-Autostart-Delay=2\n"
                          "X-KDE-autostart-after=panel\n"
                          "X-LXQt-Need-Tray=true\n");
}

} // namespace App
