#include "trayicons.h"

#include "traylogging.h"

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

} // namespace

QIcon stateIcon(TrayPresenter::IconState state)
{
    switch (state) {
    case TrayPresenter::IconState::Running:
        return load(QStringLiteral("claude-peers-running"), QColor(0x2e7d5b));
    case TrayPresenter::IconState::Busy:
        return load(QStringLiteral("claude-peers-busy"), QColor(0xc7851a), 160);
    case TrayPresenter::IconState::Stopped:
        break;
    }
    return load(QStringLiteral("claude-peers-stopped"), QColor(0x7a7a7a), 90);
}

QIcon applicationIcon()
{
    return load(QStringLiteral("claude-peers"), QColor(0x2e7d5b));
}

} // namespace App
