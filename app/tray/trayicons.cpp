#include "app/tray/trayicons.h"

#include "app/tray/traylogging.h"

#include <QFont>
#include <QPainter>
#include <QPixmap>

// Outside any namespace, as Q_INIT_RESOURCE requires; the .qrc lives in a static library.
static void initPeersResources()
{
    Q_INIT_RESOURCE(peers);
}

namespace App {

namespace {

QIcon painted(const QColor &colour, int lineAlpha)
{
    QPixmap pixmap(64, 64);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawRoundedRect(QRectF(2, 2, 60, 60), 14, 14);
    const QPointF nodes[] = {{19, 21}, {45, 21}, {32, 45}};
    if (lineAlpha > 0) {
        painter.setPen(QPen(QColor(255, 255, 255, lineAlpha), 4, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(nodes[0], nodes[1]);
        painter.drawLine(nodes[0], nodes[2]);
        painter.drawLine(nodes[1], nodes[2]);
        painter.setPen(Qt::NoPen);
    }
    painter.setBrush(Qt::white);
    for (const QPointF &node : nodes)
        painter.drawEllipse(node, 8, 8);
    return QIcon(pixmap);
}

QIcon load(const QString &name, const QColor &fallbackColour, int lineAlpha = 255)
{
    initPeersResources();
    QIcon icon(QStringLiteral(":/icons/%1.svg").arg(name));
    if (!icon.pixmap(32, 32).isNull())
        return icon;
    static bool warned = false;
    if (!warned) {
        warned = true;
        qCInfo(lcUi) << "SVG icons unavailable (is the Qt SVG plugin, libqt6svg6, installed?); painting them";
    }
    return painted(fallbackColour, lineAlpha);
}

QIcon withBadge(const QIcon &icon, int count)
{
    QPixmap pixmap = icon.pixmap(64, 64);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRectF badge(30, 30, 34, 34);
    painter.setPen(QPen(Qt::white, 3));
    painter.setBrush(QColor(0xb71c1c));
    painter.drawEllipse(badge.adjusted(1.5, 1.5, -1.5, -1.5));
    QFont font = painter.font();
    font.setBold(true);
    font.setPixelSize(count > 9 ? 18 : 24);
    painter.setFont(font);
    painter.drawText(badge, Qt::AlignCenter, count > 9 ? QStringLiteral("9+") : QString::number(count));
    painter.end();
    return QIcon(pixmap);
}

} // namespace

QIcon stateIcon(TrayState state, int count)
{
    QIcon icon;
    switch (state) {
    case TrayState::NeedsYou:
        icon = load(QStringLiteral("claude-peers-needs-you"), QColor(0xc62828));
        break;
    case TrayState::Error:
        icon = load(QStringLiteral("claude-peers-stopped"), QColor(0x7a7a7a), 90);
        break;
    case TrayState::Busy:
        icon = load(QStringLiteral("claude-peers-busy"), QColor(0xc7851a), 160);
        break;
    case TrayState::Unread:
        icon = load(QStringLiteral("claude-peers-unread"), QColor(0x1f6fb2));
        break;
    case TrayState::Idle:
        icon = load(QStringLiteral("claude-peers-running"), QColor(0x2e7d5b));
        break;
    }
    return count > 0 ? withBadge(icon, count) : icon;
}

QIcon applicationIcon()
{
    return load(QStringLiteral("claude-peers"), QColor(0x2e7d5b));
}

} // namespace App
