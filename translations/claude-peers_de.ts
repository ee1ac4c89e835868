<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE" sourcelanguage="en">
<context>
    <name>App::AttentionText</name>
    <message>
        <source>needs you</source>
        <extracomment>a session&apos;s state: it waits for the user (a permission, a question)</extracomment>
        <translation>wartet auf Sie</translation>
    </message>
    <message>
        <source>busy</source>
        <extracomment>a session&apos;s state: it is working on a prompt</extracomment>
        <translation>beschäftigt</translation>
    </message>
    <message>
        <source>idle</source>
        <extracomment>a session&apos;s state: it waits for the next prompt</extracomment>
        <translation>im Leerlauf</translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <extracomment>time in a state, abbreviated: seconds</extracomment>
        <translation>
            <numerusform>%n s</numerusform>
            <numerusform>%n s</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <extracomment>time in a state, abbreviated: minutes</extracomment>
        <translation>
            <numerusform>%n min</numerusform>
            <numerusform>%n min</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <extracomment>time in a state, abbreviated: hours</extracomment>
        <translation>
            <numerusform>%n h</numerusform>
            <numerusform>%n h</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <extracomment>time in a state, abbreviated: hours and minutes</extracomment>
        <translation>%1 h %2 min</translation>
    </message>
    <message numerus="yes">
        <source>%n d</source>
        <extracomment>time in a state, abbreviated: days</extracomment>
        <translation>
            <numerusform>%n Tg.</numerusform>
            <numerusform>%n Tg.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <extracomment>a tray menu entry: session name — state · time in state</extracomment>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 — %2 · %3</source>
        <translation>%1 — %2 · %3</translation>
    </message>
</context>
<context>
    <name>App::MainWindow</name>
    <message>
        <source>claude-peers</source>
        <translation>claude-peers</translation>
    </message>
</context>
<context>
    <name>App::NotificationsPage</name>
    <message>
        <source>notifications off</source>
        <translation>Benachrichtigungen aus</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausiert</translation>
    </message>
    <message>
        <source>this kind is off</source>
        <translation>diese Art ist aus</translation>
    </message>
    <message>
        <source>peer muted</source>
        <translation>Peer stummgeschaltet</translation>
    </message>
    <message>
        <source>not waiting for you</source>
        <translation>wartet nicht auf Sie</translation>
    </message>
    <message>
        <source>quiet hours</source>
        <translation>Ruhezeiten</translation>
    </message>
    <message>
        <source>(not shown: %1)</source>
        <translation>(nicht angezeigt: %1)</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Peer stummschalten</translation>
    </message>
    <message>
        <source>Mark all read</source>
        <translation>Alle als gelesen markieren</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Notifications are off: they are only listed here.</source>
        <translation>Benachrichtigungen sind aus: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Notifications are paused until you resume them: they are only listed here.</source>
        <translation>Benachrichtigungen sind pausiert, bis Sie sie fortsetzen: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Notifications are paused until %1: they are only listed here.</source>
        <translation>Benachrichtigungen sind bis %1 pausiert: sie werden nur hier aufgelistet.</translation>
    </message>
    <message>
        <source>Quiet hours: %1.</source>
        <translation>Ruhezeiten: %1.</translation>
    </message>
    <message>
        <source>Only what waits for you pops up.</source>
        <translation>Nur was auf Sie wartet, wird eingeblendet.</translation>
    </message>
    <message>
        <source>Muted peers: %1.</source>
        <translation>Stummgeschaltete Peers: %1.</translation>
    </message>
</context>
<context>
    <name>App::Notifier</name>
    <message>
        <source>Open</source>
        <translation>Öffnen</translation>
    </message>
    <message>
        <source>Reply</source>
        <translation>Antworten</translation>
    </message>
    <message>
        <source>Reply…</source>
        <translation>Antworten…</translation>
    </message>
    <message>
        <source>Mute peer</source>
        <translation>Peer stummschalten</translation>
    </message>
    <message>
        <source>Reply to %1</source>
        <translation>Antwort an %1</translation>
    </message>
</context>
<context>
    <name>App::PeersModel</name>
    <message>
        <source>%1
git root: %2</source>
        <translation>%1
Git-Wurzelverzeichnis: %2</translation>
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
        <extracomment>column: whether the broker can push messages into the session</extracomment>
        <translation>Push</translation>
    </message>
    <message>
        <source>Last seen</source>
        <translation>Zuletzt gesehen</translation>
    </message>
    <message>
        <source>this machine</source>
        <translation>dieser Rechner</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <extracomment>a session&apos;s state · time in that state</extracomment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>working</source>
        <comment>push channel</comment>
        <translation>funktioniert</translation>
    </message>
    <message>
        <source>unverified</source>
        <comment>push channel</comment>
        <translation>ungeprüft</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>push channel</comment>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>Peer %1
pid %2, tty %3, version %4
client %5
registered %6</source>
        <translation>Peer %1
PID %2, TTY %3, Version %4
Client %5
registriert %6</translation>
    </message>
    <message>
        <source>none</source>
        <comment>tty</comment>
        <translation>keins</translation>
    </message>
    <message>
        <source>unknown</source>
        <comment>version</comment>
        <translation>unbekannt</translation>
    </message>
    <message>
        <source>not said</source>
        <comment>client</comment>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>since %1</source>
        <translation>seit %1</translation>
    </message>
    <message>
        <source>%1
since %2</source>
        <translation>%1
seit %2</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Rechner</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
</context>
<context>
    <name>App::PeersWindow</name>
    <message>
        <source>Retry broker start</source>
        <translation>Broker-Start erneut versuchen</translation>
    </message>
    <message>
        <source>Filter by name, ID, directory or summary</source>
        <translation>Nach Name, ID, Verzeichnis oder Zusammenfassung filtern</translation>
    </message>
</context>
<context>
    <name>App::TrayComposition</name>
    <message>
        <source>Peers</source>
        <translation>Peers</translation>
    </message>
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
    <message>
        <source>Notifications</source>
        <translation>Benachrichtigungen</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Benachrichtigungen pausieren</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Benachrichtigungen fortsetzen</translation>
    </message>
    <message>
        <source>Reply to %1 not sent</source>
        <translation>Antwort an %1 nicht gesendet</translation>
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
    <message>
        <source>Start at login</source>
        <translation>Beim Anmelden starten</translation>
    </message>
    <message>
        <source>Pause notifications</source>
        <translation>Benachrichtigungen pausieren</translation>
    </message>
    <message>
        <source>For 1 hour</source>
        <translation>Für 1 Stunde</translation>
    </message>
    <message>
        <source>For 8 hours</source>
        <translation>Für 8 Stunden</translation>
    </message>
    <message>
        <source>Until I turn them back on</source>
        <translation>Bis ich sie wieder einschalte</translation>
    </message>
    <message>
        <source>Resume notifications</source>
        <translation>Benachrichtigungen fortsetzen</translation>
    </message>
    <message>
        <source>Notifications paused</source>
        <translation>Benachrichtigungen pausiert</translation>
    </message>
    <message>
        <source>Notifications paused until %1</source>
        <translation>Benachrichtigungen pausiert bis %1</translation>
    </message>
</context>
<context>
    <name>App::TrayPresenter</name>
    <message>
        <source>claude-peers: broker not running</source>
        <translation>claude-peers: Broker läuft nicht</translation>
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
    <message>
        <source>Broker running on port %1 — %2, %3</source>
        <extracomment>%2 is &quot;%n peer(s)&quot;, %3 is &quot;%n pending&quot; (messages not yet delivered)</extracomment>
        <translation>Broker läuft auf Port %1 — %2, %3</translation>
    </message>
    <message numerus="yes">
        <source>%n peer(s)</source>
        <translation>
            <numerusform>%n Peer</numerusform>
            <numerusform>%n Peers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n pending</source>
        <extracomment>messages waiting for delivery</extracomment>
        <translation>
            <numerusform>%n ausstehend</numerusform>
            <numerusform>%n ausstehend</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) need(s) you: %1</source>
        <extracomment>%1 lists the sessions&apos; names</extracomment>
        <translation>
            <numerusform>%n Sitzung wartet auf Sie: %1</numerusform>
            <numerusform>%n Sitzungen warten auf Sie: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 busy, %2 idle</source>
        <extracomment>numbers of sessions working and waiting for a prompt</extracomment>
        <translation>%1 beschäftigt, %2 im Leerlauf</translation>
    </message>
    <message>
        <source>claude-peers: federation</source>
        <translation>claude-peers: Föderation</translation>
    </message>
    <message>
        <source>%1 needs you</source>
        <translation>%1 wartet auf Sie</translation>
    </message>
    <message>
        <source>%1 joined</source>
        <translation>%1 ist dazugekommen</translation>
    </message>
    <message>
        <source>%1 left</source>
        <translation>%1 ist gegangen</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Tray app of claude-peers: hosts the local broker and shows its peers.
Environment: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</source>
        <translation>Tray-App von claude-peers: betreibt den lokalen Broker und zeigt seine Peers.
Umgebungsvariablen: CLAUDE_PEERS_PORT, CLAUDE_PEERS_DB, CLAUDE_PEERS_TOKEN.</translation>
    </message>
</context>
</TS>
