<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>App::PeersModel</name>
    <message>
        <source>working</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>unverified</source>
        <translation>ungeprüft</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Peer %1
pid %2, tty %3, version %4
registered %5</source>
        <translation>Peer %1
PID %2, TTY %3, Version %4
registriert %5</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keins</translation>
    </message>
    <message>
        <source>%1
git root: %2</source>
        <translation>%1
Git-Wurzel: %2</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Directory</source>
        <translation>Verzeichnis</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Zusammenfassung</translation>
    </message>
    <message>
        <source>Push</source>
        <translation>Push</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
</context>
<context>
    <name>App::PeersWindow</name>
    <message>
        <source>Retry broker start</source>
        <translation>Broker-Start erneut versuchen</translation>
    </message>
    <message>
        <source>claude-peers — Peers</source>
        <translation>claude-peers — Peers</translation>
    </message>
    <message>
        <source>Filter by name, ID, directory or summary</source>
        <translation>Nach Name, ID, Verzeichnis oder Zusammenfassung filtern</translation>
    </message>
</context>
<context>
    <name>App::TrayIcon</name>
    <message>
        <source>Peers…</source>
        <translation>Peers…</translation>
    </message>
    <message>
        <source>Retry broker start</source>
        <translation>Broker-Start erneut versuchen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
</context>
<context>
    <name>App::TrayPresenter</name>
    <message>
        <source>claude-peers: broker not running</source>
        <translation>claude-peers: Broker läuft nicht</translation>
    </message>
    <message>
        <source>1 peer</source>
        <translation>1 Peer</translation>
    </message>
    <message>
        <source>%1 peers</source>
        <translation>%1 Peers</translation>
    </message>
    <message>
        <source>Broker running on port %1 — %2, %3 pending</source>
        <translation>Broker läuft auf Port %1 — %2, %3 ausstehend</translation>
    </message>
    <message>
        <source>Starting the broker on port %1…</source>
        <translation>Broker wird auf Port %1 gestartet…</translation>
    </message>
    <message>
        <source>Taking port %1 over from the running broker…</source>
        <translation>Port %1 wird vom laufenden Broker übernommen…</translation>
    </message>
    <message>
        <source>Broker not running: %1</source>
        <translation>Broker läuft nicht: %1</translation>
    </message>
    <message>
        <source>Broker not running: stopped</source>
        <translation>Broker läuft nicht: angehalten</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Tray app of claude-peers: hosts the local broker and shows its peers.
Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</source>
        <translation>Tray-App von claude-peers: betreibt den lokalen Broker und zeigt seine Peers.
Umgebung: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</translation>
    </message>
</context>
</TS>
