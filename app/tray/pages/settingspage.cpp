#include "app/tray/pages/settingspage.h"

#include "app/tray/pages/notificationsettings.h"
#include "common/brokerapi.h"
#include "common/brokerclient.h"
#include "common/configsettings.h"

#include <QCheckBox>
#include <QClipboard>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace App {

namespace {

struct Field
{
    const char *key;
    QLineEdit *edit;
};

} // namespace

SettingsPage::SettingsPage(Broker::BrokerClient *client, ConnectSnippets snippets, QWidget *parent)
    : QWidget(parent),
      m_client(client),
      m_configPath(client ? client->location().configPath : QString()),
      m_brokerPort(new QLabel(this)),
      m_federationPort(new QLineEdit(this)),
      m_subnets(new QLineEdit(this)),
      m_openCodeUrl(new QLineEdit(this)),
      m_save(new QPushButton(tr("Save"), this)),
      m_saveStatus(new QLabel(this)),
      m_autostart(new QCheckBox(tr("Start claude-peers at login"), this)),
      m_notifications(new NotificationSettings(m_configPath, this))
{
    setObjectName(QStringLiteral("settingsPage"));
    m_mcpAdd = snippetView(QStringLiteral("mcpAdd"), snippets.claudeMcpAddLine());
    m_openCode = snippetView(QStringLiteral("openCode"), snippets.openCodeConfig());
    m_hooks = snippetView(QStringLiteral("hooks"), snippets.claudeHooksSettings());

    m_brokerPort->setObjectName(QStringLiteral("brokerPort"));
    m_brokerPort->setWordWrap(true);
    m_brokerPort->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_brokerPort->setText(tr("%1 — set by CLAUDE_PEERS_PORT in the environment of the tray and of every "
                             "session (as claude-peers "
                             "0.7 does); changing it needs a restart of the tray and the sessions.")
                              .arg(client ? client->location().port : 7899));
    m_federationPort->setObjectName(QStringLiteral("federationPort"));
    m_federationPort->setPlaceholderText(tr("7900 (default)"));
    m_subnets->setObjectName(QStringLiteral("subnets"));
    m_subnets->setPlaceholderText(tr("detected local networks (default), e.g. 192.168.1.0/24, fd00::/64"));
    m_openCodeUrl->setObjectName(QStringLiteral("openCodeUrl"));
    m_openCodeUrl->setPlaceholderText(tr("http://127.0.0.1:4096 (default)"));
    m_save->setObjectName(QStringLiteral("save"));
    m_saveStatus->setObjectName(QStringLiteral("saveStatus"));
    m_saveStatus->setWordWrap(true);
    m_saveStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_autostart->setObjectName(QStringLiteral("autostart"));
    connect(m_save, &QPushButton::clicked, this, &SettingsPage::save);
    connect(m_autostart, &QCheckBox::clicked, this, &SettingsPage::autostartToggled);

    auto *broker = new QGroupBox(tr("Broker and federation"), this);
    auto *brokerForm = new QFormLayout(broker);
    brokerForm->addRow(tr("Broker port"), m_brokerPort);
    brokerForm->addRow(tr("Federation port"), m_federationPort);
    brokerForm->addRow(tr("Allowed subnets"), m_subnets);
    brokerForm->addRow(tr("OpenCode URL"), m_openCodeUrl);
    auto *saveRow = new QHBoxLayout;
    saveRow->addWidget(m_save);
    saveRow->addWidget(m_saveStatus, 1);
    brokerForm->addRow(saveRow);

    auto *login = new QGroupBox(tr("Login"), this);
    auto *loginLayout = new QVBoxLayout(login);
    loginLayout->addWidget(m_autostart);

    auto *connectBox = new QGroupBox(tr("Connect sessions"), this);
    auto *connectLayout = new QVBoxLayout(connectBox);
    const std::pair<QString, QPlainTextEdit *> snippetsShown[] = {
        {tr("Claude Code: register the MCP helper (run once in a terminal)"), m_mcpAdd},
        {tr("OpenCode: add to opencode.json (project) or ~/.config/opencode/opencode.json"), m_openCode},
        {tr("Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json"), m_hooks},
    };
    for (const auto &shown : snippetsShown) {
        QPlainTextEdit *view = shown.second; // not a structured binding: clang 15 cannot capture one
        auto *row = new QHBoxLayout;
        row->addWidget(new QLabel(shown.first, connectBox), 1);
        auto *copy = new QPushButton(tr("Copy"), connectBox);
        copy->setObjectName(view->objectName() + QStringLiteral("Copy"));
        connect(copy, &QPushButton::clicked, this,
                [view] { QGuiApplication::clipboard()->setText(view->toPlainText()); });
        row->addWidget(copy);
        connectLayout->addLayout(row);
        connectLayout->addWidget(view);
    }

    auto *content = new QWidget;
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->addWidget(broker);
    contentLayout->addWidget(login);
    contentLayout->addWidget(m_notifications);
    contentLayout->addWidget(connectBox);
    contentLayout->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
    load();
}

QPlainTextEdit *SettingsPage::snippetView(const QString &name, const QString &text)
{
    auto *view = new QPlainTextEdit(text, this);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    view->setFont(mono);
    const int lines = int(text.count(QLatin1Char('\n'))) + 1;
    view->setFixedHeight(view->fontMetrics().lineSpacing() * std::min(lines, 12) + 16);
    return view;
}

void SettingsPage::load()
{
    if (m_configPath.isEmpty())
        return;
    const Broker::ConfigFile config = Broker::ConfigFile::load(m_configPath);
    for (const Field &field :
         {Field {"federation.port", m_federationPort}, Field {"federation.subnets", m_subnets},
          Field {"openchamber.opencode_url", m_openCodeUrl}})
        field.edit->setText(
            Broker::ConfigSettings::get(config, *Broker::ConfigSettings::find(QLatin1String(field.key))));
    if (!config.warning().isEmpty())
        m_saveStatus->setText(config.warning());
}

void SettingsPage::save()
{
    if (m_configPath.isEmpty())
        return;
    bool reload = false;
    bool restart = false;
    QString refused; // a value the setting does not take
    QWidget *refusedField = nullptr;
    // Under the file's lock, on what the file says now (a pin the broker learnt meanwhile stays).
    const auto written = Broker::ConfigFile::update(m_configPath, [&](Broker::ConfigFile &config) {
        for (const Field &field :
             {Field {"federation.port", m_federationPort}, Field {"federation.subnets", m_subnets},
              Field {"openchamber.opencode_url", m_openCodeUrl}}) {
            const Broker::ConfigSettings::Key &key = *Broker::ConfigSettings::find(QLatin1String(field.key));
            if (Broker::ConfigSettings::get(config, key) == field.edit->text().trimmed())
                continue;
            if (auto set = Broker::ConfigSettings::set(config, key, field.edit->text()); !set) {
                refused = set.error().message;
                refusedField = field.edit;
                return false;
            }
            (key.applies == Broker::ConfigSettings::Applies::OnReload ? reload : restart) = true;
        }
        return reload || restart;
    });
    if (!written || refusedField) {
        m_saveStatus->setText(tr("Not saved: %1").arg(written ? refused : written.error().message));
        if (refusedField)
            refusedField->setFocus();
        Q_EMIT saved(false);
        return;
    }
    if (!reload && !restart) {
        m_saveStatus->setText(tr("Nothing changed."));
        Q_EMIT saved(true);
        return;
    }
    load();
    const QString restartNote = restart
        ? tr(" The OpenCode URL applies when the broker starts again: quit and start the tray, or run "
             "`claude-peers restart`.")
        : QString();
    if (!reload || !m_client) {
        m_saveStatus->setText(tr("Saved.") + restartNote);
        Q_EMIT saved(true);
        return;
    }
    m_saveStatus->setText(tr("Saved; asking the broker to apply it…"));
    QPointer<SettingsPage> self(this);
    Broker::BrokerApi(*m_client).call(
        Broker::ReloadRequest {}, [self, restartNote](Broker::Result<Broker::ReloadAnswer> reloaded) {
            if (!self)
                return;
            self->m_saveStatus->setText((reloaded ? tr("Saved; the broker applied it.")
                                                  : tr("Saved; the broker did not take it now (%1), it reads "
                                                       "the file when it starts.")
                                                        .arg(reloaded.error().message)) +
                                        restartNote);
            Q_EMIT self->saved(true);
        });
}

void SettingsPage::setAutostartChecked(bool checked)
{
    m_autostart->setChecked(checked); // clicked() is not emitted by setChecked
}

void SettingsPage::showEvent(QShowEvent *event)
{
    load();
    m_notifications->load();
    QWidget::showEvent(event);
}

} // namespace App
