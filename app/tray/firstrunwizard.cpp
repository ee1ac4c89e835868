#include "app/tray/firstrunwizard.h"

#include "app/cli/formatting.h"
#include "common/brokerapi.h"
#include "common/brokerclient.h"

#include <QCheckBox>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace App {

namespace {

QWizardPage *makePage(const QString &title, const QString &text)
{
    auto *p = new QWizardPage;
    p->setTitle(title);
    auto *layout = new QVBoxLayout(p);
    auto *intro = new QLabel(text, p);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    return p;
}

void addSnippet(QWizardPage *page, const QString &name, const QString &label, const QString &text)
{
    auto *layout = static_cast<QVBoxLayout *>(page->layout());
    auto *row = new QHBoxLayout;
    row->addWidget(new QLabel(label, page), 1);
    auto *copy = new QPushButton(FirstRunWizard::tr("Copy"), page);
    copy->setObjectName(name + QStringLiteral("Copy"));
    row->addWidget(copy);
    layout->addLayout(row);
    auto *view = new QPlainTextEdit(text, page);
    view->setObjectName(name);
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(view);
    QObject::connect(copy, &QPushButton::clicked, view,
                     [view] { QGuiApplication::clipboard()->setText(view->toPlainText()); });
}

} // namespace

FirstRunWizard::FirstRunWizard(Broker::BrokerClient *client, ConnectSnippets snippets, bool autostartEnabled,
                               QWidget *parent)
    : QWizard(parent), m_client(client)
{
    setObjectName(QStringLiteral("firstRunWizard"));
    setWindowTitle(tr("Welcome to claude-peers"));
    setOption(QWizard::NoBackButtonOnStartPage);

    QWizardPage *keychain = makePage(
        tr("Where your secrets live"),
        tr("The broker's token lets sessions on this machine talk to it. It belongs in the OS keychain; "
           "where none answers, a file only you can read holds it."));
    m_secrets = new QLabel(tr("Asking the broker…"), keychain);
    m_secrets->setObjectName(QStringLiteral("secrets"));
    m_secrets->setWordWrap(true);
    m_secrets->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *askAgain = new QPushButton(tr("Ask the keychain again"), keychain);
    askAgain->setObjectName(QStringLiteral("askAgain"));
    askAgain->setToolTip(
        tr("The broker moves the token into the keychain as soon as one answers (for example "
           "after you unlocked it); this has it re-read its secrets now."));
    connect(askAgain, &QPushButton::clicked, this, [this] {
        if (!m_client)
            return;
        m_secrets->setText(tr("Asking the broker…"));
        QPointer<FirstRunWizard> self(this);
        Broker::BrokerApi(*m_client).call(Broker::ReloadRequest {},
                                          [self](Broker::Result<Broker::ReloadAnswer>) {
                                              if (self)
                                                  self->refreshSecrets();
                                          });
    });
    keychain->layout()->addWidget(m_secrets);
    keychain->layout()->addWidget(askAgain);
    setPage(KeychainPage, keychain);

    QWizardPage *login =
        makePage(tr("Start at login"),
                 tr("The tray hosts the broker. Started at login, it is there before your first "
                    "session asks for it. (Also in Settings, and `claude-peers autostart`.)"));
    m_autostart = new QCheckBox(tr("Start claude-peers at login"), login);
    m_autostart->setObjectName(QStringLiteral("autostart"));
    m_autostart->setChecked(true);
    if (autostartEnabled)
        m_autostart->setText(tr("Start claude-peers at login (it does already)"));
    login->layout()->addWidget(m_autostart);
    setPage(AutostartPage, login);

    QWizardPage *connectSessions = makePage(
        tr("Connect your sessions"),
        tr("Run the first line once in a terminal; add the others to the files they name. New sessions "
           "then find each other. (All three are in Settings too.)"));
    addSnippet(connectSessions, QStringLiteral("mcpAdd"), tr("Claude Code: register the MCP helper"),
               snippets.claudeMcpAddLine());
    addSnippet(connectSessions, QStringLiteral("hooks"),
               tr("Claude Code hooks (needs-you / busy / idle): merge into ~/.claude/settings.json"),
               snippets.claudeHooksSettings());
    addSnippet(connectSessions, QStringLiteral("openCode"), tr("OpenCode: add to opencode.json"),
               snippets.openCodeConfig());
    setPage(ConnectPage, connectSessions);

    QWizardPage *federation =
        makePage(tr("Other machines (optional)"),
                 tr("Brokers on other machines of your network can link, so sessions there appear here too. "
                    "Each link is confirmed on both machines with a short code."));
    m_federation = new QCheckBox(tr("Open the Federation page to link a machine"), federation);
    m_federation->setObjectName(QStringLiteral("federation"));
    federation->layout()->addWidget(m_federation);
    setPage(FederationPage, federation);

    refreshSecrets();
}

QString FirstRunWizard::markerPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("first-run-done"));
}

bool FirstRunWizard::hasRun()
{
    return QFileInfo::exists(markerPath());
}

void FirstRunWizard::markDone()
{
    const QString path = markerPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile marker(path);
    if (marker.open(QIODevice::WriteOnly))
        marker.write(QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toUtf8() + '\n');
}

void FirstRunWizard::refreshSecrets()
{
    if (!m_client) {
        m_secrets->setText(tr("No broker to ask."));
        return;
    }
    QPointer<FirstRunWizard> self(this);
    const QString tokenPath = m_client->location().tokenPath;
    Broker::BrokerApi(*m_client).call(
        Broker::SecretsRequest {}, [self, tokenPath](Broker::Result<Broker::SecretsAnswer> secrets) {
            if (!self)
                return;
            self->m_secrets->setText(Cli::Format::statusSecrets(secrets, tokenPath).join(QLatin1Char('\n')));
            Q_EMIT self->secretsShown();
        });
}

void FirstRunWizard::done(int result)
{
    // Cancelled or finished, it has been seen: it does not come back at the next start.
    markDone();
    if (result == QDialog::Accepted) {
        Q_EMIT autostartChosen(m_autostart->isChecked());
        if (m_federation->isChecked())
            Q_EMIT federationRequested();
    }
    QWizard::done(result);
}

} // namespace App
